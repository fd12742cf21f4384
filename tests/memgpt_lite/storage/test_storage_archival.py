from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memgpt_lite.errors import ConfigError, StoreError, UsageError
from memgpt_lite.retrieval import ScoreWeights
from memgpt_lite.storage.archival import ArchivalStore
from memgpt_lite.storage.embeddings import HashingEmbedder
from memgpt_lite.storage.passages import NewPassage
from tests.support.processes import kill_writer_when_ready

T0 = datetime(2024, 3, 1, 12, tzinfo=UTC)


@pytest.fixture
def archival(tmp_path):
    a = ArchivalStore(tmp_path / "archival", HashingEmbedder())
    yield a
    a.close()


def test_insert_keeps_everything(archival):
    p = archival.insert(
        "The settings page crashes when saving",
        importance=8,
        tags=["bug", "settings"],
        provenance=["msg-1", "page-7"],
        meta={"route": "/settings"},
        created_at=T0,
    )
    got = archival.get(p.id)
    assert got == p
    assert got.importance == 8 and got.tags == ["bug", "settings"] and got.provenance == ["msg-1", "page-7"]
    assert (
        got.created_at == T0 == got.last_accessed_at and got.status == "current" and got.superseded_by is None
    )
    assert got.meta == {"route": "/settings"}
    assert archival.get("psg-none") is None and archival.count() == 1


def test_heuristic_importance_and_custom_rater(tmp_path):
    with ArchivalStore(tmp_path / "a", HashingEmbedder()) as a:
        assert a.insert("ok thanks").importance == 1
        assert a.insert("Critical security bug: password leaked in logs").importance >= 8
    with ArchivalStore(tmp_path / "b", HashingEmbedder(), importance_rater=lambda text: 9) as b:
        assert b.insert("anything").importance == 9
    with ArchivalStore(tmp_path / "c", HashingEmbedder(), importance_rater=lambda text: 42) as c:
        with pytest.raises(UsageError, match="1..10"):
            c.insert("anything")
        assert c.count() == 0


@pytest.mark.parametrize(
    "kw",
    [
        {"content": "  "},
        {"content": "x", "importance": 0},
        {"content": "x", "tags": [""]},
        {"content": "x", "meta": {"a": object()}},
    ],
)
def test_bad_insert_is_rejected_and_stores_nothing(archival, kw):
    with pytest.raises((UsageError, ValueError)):
        archival.insert(**kw)
    assert archival.count() == 0


def test_search_ranks_relevant_first_and_pages_with_true_total(archival):
    archival.insert_many(
        [
            NewPassage(content=f"note {i} about the weather and rain", importance=5, created_at=T0)
            for i in range(25)
        ]
        + [NewPassage(content="the checkout page returns a 500 error", importance=5, created_at=T0)]
    )
    now = T0 + timedelta(hours=1)
    page = archival.search("checkout page error", page_size=10, now=now)
    assert page.total == 26 and page.pages == 3 and len(page.items) == 10
    assert page.items[0].passage.content == "the checkout page returns a 500 error"
    assert page.items[0].relevance == 1.0
    last = archival.search("checkout page error", page=2, page_size=10, now=now)
    assert len(last.items) == 6 and last.total == 26
    assert archival.search("weather", page=3, page_size=10, now=now).items == []


def test_newer_access_ranks_first_at_equal_importance_and_relevance(archival):
    old = archival.insert("identical text", importance=5, created_at=T0)
    new = archival.insert("identical text", importance=5, created_at=T0 + timedelta(days=3))
    hits = archival.search("identical text", now=T0 + timedelta(days=4)).items
    assert [h.passage.id for h in hits] == [new.id, old.id]
    assert hits[0].recency == 1.0 and hits[1].recency == 0.0 and hits[0].importance == 0.5


def test_importance_and_weights(archival):
    relevant = archival.insert("deploy notes for friday", importance=2, created_at=T0)
    important = archival.insert("grocery list: eggs", importance=10, created_at=T0)
    now = T0 + timedelta(hours=2)
    by_relevance = ScoreWeights(recency=1, importance=0, relevance=1)
    by_importance = ScoreWeights(recency=1, importance=1, relevance=0)
    assert (
        archival.search("deploy notes friday", now=now, weights=by_relevance).items[0].passage.id
        == relevant.id
    )
    assert (
        archival.search("deploy notes friday", now=now, weights=by_importance).items[0].passage.id
        == important.id
    )
    hit = archival.search("deploy notes friday", now=now).items[0]
    assert hit.score == pytest.approx(hit.recency + hit.importance + hit.relevance)


def test_retrieval_updates_last_access(archival):
    p = archival.insert("remember the milk", created_at=T0)
    later = T0 + timedelta(days=2)
    hit = archival.search("milk", now=later).items[0]
    assert hit.passage.last_accessed_at == later
    assert archival.get(p.id).last_accessed_at == later
    assert archival.get(p.id).created_at == T0


def test_accessed_passage_gains_recency(archival):
    a = archival.insert("alpha fact", importance=5, created_at=T0)
    b = archival.insert("alpha fact", importance=5, created_at=T0 + timedelta(hours=1))
    archival.search("alpha fact", page_size=1, now=T0 + timedelta(hours=2))  # touches b only
    # Only relevance/importance equal: a was last accessed at T0, b at T0+2h → b first.
    hits = archival.search("alpha fact", now=T0 + timedelta(hours=3)).items
    assert [h.passage.id for h in hits] == [b.id, a.id]


@pytest.mark.parametrize(
    "overfetch, index",
    [(3000, True), (1, True), (3000, False)],
    ids=["post-filter", "chroma-filter", "no-index"],
)
def test_tag_and_time_filters(archival, overfetch, index):
    archival.max_overfetch = overfetch
    if not index:  # totals counted by Chroma, as with a server
        archival._index.close()
        archival._index = None
    archival.insert_many([{"content": f"unrelated filler {i}", "created_at": T0} for i in range(30)])
    archival.insert("login bug one", tags=["bug", "login"], created_at=T0)
    archival.insert("login bug two", tags=["bug"], created_at=T0 + timedelta(days=1))
    archival.insert("login works fine", tags=["note"], created_at=T0 + timedelta(days=2))
    now = T0 + timedelta(days=3)
    bugs = archival.search("login", tags=["bug"], now=now)
    assert bugs.total == 2 and {h.passage.content for h in bugs.items} == {"login bug one", "login bug two"}
    assert archival.search("login", tags=["login", "note"], now=now).total == 2
    assert archival.search("login", tags="nope", now=now).total == 0
    later = archival.search("login", since=T0 + timedelta(hours=1), now=now)
    assert later.total == 2 and {h.passage.content for h in later.items} == {
        "login bug two",
        "login works fine",
    }
    assert archival.search("login", until="2024-03-02", now=now).total == 32
    day2 = archival.search("login", since="2024-03-02", until="2024-03-02", tags=["bug"], now=now)
    assert [h.passage.content for h in day2.items] == ["login bug two"]
    with pytest.raises(UsageError):
        archival.search("login", tags=[])
    with pytest.raises(UsageError):
        archival.search("login", since="2024-03-05", until="2024-03-01")


def test_supersession_chain_has_one_live_entry(archival):
    open_ = archival.insert("Bug #12 open", tags=["bug"], created_at=T0)
    fixed = archival.insert("Bug #12 fixed in v1.3", supersedes=open_.id, created_at=T0 + timedelta(days=1))
    # superseding the already-superseded entry moves the chain's live head instead
    reopened = archival.insert(
        "Bug #12 reopened in v1.4", supersedes=open_.id, created_at=T0 + timedelta(days=2)
    )
    entries = {p.id: p for p in archival.get_many([open_.id, fixed.id, reopened.id])}
    assert entries[open_.id].status == "superseded" and entries[open_.id].superseded_by == fixed.id
    assert entries[fixed.id].status == "superseded" and entries[fixed.id].superseded_by == reopened.id
    assert entries[reopened.id].status == "current" and entries[reopened.id].supersedes == open_.id
    everything = archival.search("bug 12", now=T0 + timedelta(days=3))
    assert everything.total == 3
    assert {h.passage.status for h in everything.items} == {"current", "superseded"}
    live = archival.search("bug 12", include_superseded=False, now=T0 + timedelta(days=3))
    assert [h.passage.id for h in live.items] == [reopened.id] and live.total == 1
    assert archival.count(include_superseded=False) == 1


def test_supersede_method_and_errors(archival):
    a = archival.insert("v1 fact")
    b = archival.insert("v2 fact")
    old = archival.supersede(a.id, b.id, at=T0)
    assert old.status == "superseded" and old.superseded_by == b.id and old.superseded_at == T0
    with pytest.raises(UsageError, match="itself superseded"):
        archival.supersede(b.id, a.id)
    with pytest.raises(UsageError, match="cannot supersede itself"):
        archival.supersede(b.id, b.id)
    with pytest.raises(UsageError, match="no passage"):
        archival.insert("x", supersedes="psg-missing")
    assert archival.count() == 2


def test_insert_many_with_precomputed_vectors(archival):
    items = [{"content": f"passage {i}", "importance": 3} for i in range(50)]
    vectors = HashingEmbedder().embed([i["content"] for i in items])
    out = archival.insert_many(items, embeddings=vectors)
    assert len(out) == 50 and archival.count() == 50
    with pytest.raises(UsageError, match="shape"):
        archival.insert_many(items[:2], embeddings=np.zeros((3, 384), dtype=np.float32))


def test_persists_and_refuses_other_embedder(tmp_path):
    path = tmp_path / "archival"
    with ArchivalStore(path, HashingEmbedder()) as a:
        pid = a.insert("kept across restarts").id
    with ArchivalStore(path, HashingEmbedder()) as a:
        assert a.get(pid).content == "kept across restarts"
    with pytest.raises(StoreError, match="embedder"):
        ArchivalStore(path, HashingEmbedder(dim=128))


def test_constructor_errors(tmp_path):
    with pytest.raises(ConfigError):
        ArchivalStore(embedder=HashingEmbedder())
    with pytest.raises(ConfigError):
        ArchivalStore(tmp_path, HashingEmbedder(), url="http://127.0.0.1:1")
    with pytest.raises(ConfigError, match="url"):
        ArchivalStore(url="ftp://x", embedder=HashingEmbedder())


def test_empty_query_is_usage_error(archival):
    with pytest.raises(UsageError):
        archival.search("   ")
    assert archival.search("anything").total == 0


def test_access_times_survive_close_and_reopen(tmp_path):
    path = tmp_path / "archival"
    later = T0 + timedelta(days=5)
    with ArchivalStore(path, HashingEmbedder(), access_flush_seconds=3600) as a:
        pid = a.insert("write-behind access time", created_at=T0).id
        a.search("write-behind", now=later)
        assert a.get(pid).last_accessed_at == later  # pending, not yet in Chroma, still visible
    with ArchivalStore(path, HashingEmbedder()) as a:
        assert a.get(pid).last_accessed_at == later


def test_access_times_reach_chroma_on_flush(archival):
    p = archival.insert("flushed later", created_at=T0)
    at = T0 + timedelta(hours=3)
    archival.search("flushed", now=at)
    assert archival.get(p.id).last_accessed_at == at  # from the passage index at once

    def in_chroma():
        return archival._col.get(ids=[p.id], include=["metadatas"])["metadatas"][0]["last_accessed_at"]

    assert in_chroma() == T0.timestamp()
    archival.flush()
    assert in_chroma() == at.timestamp() and archival._touched == {}


def test_without_index_access_times_flush_by_time(archival):
    archival._index.close()
    archival._index = None  # as with a server
    archival.access_flush_seconds = 0.0
    p = archival.insert("flushed at once", created_at=T0)
    archival.search("flushed", now=T0 + timedelta(hours=3))
    assert archival._touched == {}
    raw = archival._col.get(ids=[p.id], include=["metadatas"])["metadatas"][0]
    assert raw["last_accessed_at"] == (T0 + timedelta(hours=3)).timestamp()


def test_totals_follow_writes(archival):
    archival.insert("first", tags=["x"])
    assert archival.search("first").total == 1 and archival.search("first", tags=["x"]).total == 1
    b = archival.insert("second", tags=["x"])
    assert archival.search("first").total == 2 and archival.search("first", tags=["x"]).total == 2
    archival.insert("third", supersedes=b.id)
    assert archival.count() == 3 and archival.count(include_superseded=False) == 2
    assert archival.search("first", include_superseded=False).total == 2


def test_corrupt_passage_metadata_is_store_error(archival):
    p = archival.insert("soon broken")
    archival._col.update(ids=[p.id], metadatas=[{"record": "{not json"}])
    with pytest.raises(StoreError, match="corrupt metadata"):
        archival.get(p.id)


def test_corrupt_chroma_folder_is_store_error(tmp_path):
    path = tmp_path / "archival"
    path.mkdir()
    (path / "chroma.sqlite3").write_bytes(b"garbage, not a database" * 200)
    with pytest.raises(StoreError):
        ArchivalStore(path, HashingEmbedder())


@pytest.mark.parametrize("damage", ["deleted", "corrupt", "stale", "old-layout"])
def test_passage_index_is_rebuilt_from_chroma(tmp_path, damage):
    path = tmp_path / "archival"
    with ArchivalStore(path, HashingEmbedder()) as a:
        first = a.insert("tagged one", tags=["bug"], created_at=T0)
        a.insert("tagged two", tags=["bug", "ui"], created_at=T0 + timedelta(days=1), supersedes=first.id)
        a.insert("plain", created_at=T0 + timedelta(days=2))
    index_file = path / "archival.index.sqlite"
    assert index_file.exists()
    if damage == "deleted":
        index_file.unlink()
    elif damage == "corrupt":
        for extra in ("-wal", "-shm"):
            (path / f"archival.index.sqlite{extra}").unlink(missing_ok=True)
        index_file.write_bytes(b"not sqlite" * 500)
    elif damage == "old-layout":
        import sqlite3

        for extra in ("", "-wal", "-shm"):
            (path / f"archival.index.sqlite{extra}").unlink(missing_ok=True)
        with sqlite3.connect(index_file) as db:
            db.execute("CREATE TABLE passages(id TEXT PRIMARY KEY, created_at REAL, current INTEGER)")
    else:
        from memgpt_lite.storage.passage_index import PassageIndex

        stale = PassageIndex(index_file)
        stale.clear()
        stale.close()
    with ArchivalStore(path, HashingEmbedder()) as a:
        assert a.count() == 3 and a.count(include_superseded=False) == 2
        assert a.search("tagged", tags=["bug"]).total == 2
        assert a.search("tagged", tags=["bug"], include_superseded=False).total == 1
        assert a.search("tagged", since=T0 + timedelta(hours=1)).total == 2


def test_insert_many_can_supersede_within_the_batch(archival):
    out = archival.insert_many(
        [
            {"id": "psg-v1", "content": "release is on friday", "created_at": T0},
            {"id": "psg-v2", "content": "release moved to monday", "supersedes": "psg-v1"},
        ]
    )
    assert [p.status for p in out] == ["superseded", "current"]
    assert out[0].superseded_by == "psg-v2" and archival.count(include_superseded=False) == 1


def test_explicit_ids_must_be_new(archival):
    archival.insert_many([{"id": "psg-x", "content": "one"}])
    with pytest.raises(UsageError, match="already stored"):
        archival.insert_many([{"id": "psg-x", "content": "two"}])
    with pytest.raises(UsageError, match="twice"):
        archival.insert_many([{"id": "psg-y", "content": "a"}, {"id": "psg-y", "content": "b"}])
    assert archival.count() == 1 and archival.get("psg-x").content == "one"


def test_hnsw_search_ef_is_raised(tmp_path):
    import chromadb
    from chromadb.config import Settings

    from memgpt_lite.storage.chroma_util import SEARCH_EF

    with ArchivalStore(tmp_path / "new", HashingEmbedder()) as a:
        assert a._col.configuration_json["hnsw"]["ef_search"] == SEARCH_EF
    old_path = tmp_path / "old"
    client = chromadb.PersistentClient(path=str(old_path), settings=Settings(anonymized_telemetry=False))
    client.get_or_create_collection(
        "archival",
        metadata={"hnsw:space": "cosine", "embedder": "hashing-384", "dim": 384},
        embedding_function=None,
    )
    client.close()
    ArchivalStore(old_path, HashingEmbedder()).close()
    with ArchivalStore(old_path, HashingEmbedder()) as a:
        assert a._col.configuration_json["hnsw"]["ef_search"] == SEARCH_EF


@pytest.mark.slow
def test_kill_9_during_inserts_reopens_consistently(tmp_path):

    path = tmp_path / "archival"
    writer = (
        "import sys\n"
        "from memgpt_lite.storage.archival import ArchivalStore\n"
        "from memgpt_lite.storage.embeddings import HashingEmbedder\n"
        "a = ArchivalStore(sys.argv[1], HashingEmbedder())\n"
        "i = 0\n"
        "while True:\n"
        "    a.insert_many([{'content': f'fact {i} {j} keyword', 'tags': ['t']} for j in range(20)])\n"
        "    a.search('keyword fact')\n"
        "    i += 1\n"
        "    if i == 3:\n"
        "        print('ready', flush=True)\n"
    )
    kill_writer_when_ready(writer, path, settle=0.5)
    with ArchivalStore(path, HashingEmbedder()) as a:
        n = a.count()
        assert n >= 60 and a._index.size() == n
        assert a.search("keyword", tags=["t"]).total == n
        a.insert("after the crash keyword", tags=["t"])
        assert a.search("keyword", tags=["t"]).total == n + 1


def test_similarity_reads_the_stored_vectors_and_orders_like_search(archival):
    texts = ["The settings page crashes when saving", "Search pager skips page two", "Tags vanish on edit"]
    ids = [archival.insert(t, created_at=T0).id for t in texts]
    query = "settings crash on save"
    got = archival.similarity(query, ids)
    emb = archival.embedder
    expected = {i: float(emb.embed([query])[0] @ emb.embed([t])[0]) for i, t in zip(ids, texts, strict=True)}
    assert got.keys() == expected.keys()
    assert all(abs(got[i] - expected[i]) < 1e-5 for i in ids)
    assert max(got, key=got.__getitem__) == archival.search(query, page_size=1).items[0].passage.id
    assert archival.similarity(query, []) == {}
