"""Archival search's lexical side: FTS5 candidates beside Chroma's nearest, fused relevance."""

import sqlite3
import zlib
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memgpt_lite.retrieval import EVIDENCE_WEIGHTS, ScoreWeights
from memgpt_lite.storage import passage_index
from memgpt_lite.storage.archival import ArchivalStore
from memgpt_lite.storage.embeddings import HashingEmbedder

T0 = datetime(2024, 3, 1, 12, tzinfo=UTC)
RELEVANCE = ScoreWeights(recency=0, importance=0, relevance=1)


class MeaninglessEmbedder:
    """Vectors that ignore the words (seeded by the text's hash): only the lexical side can find a match."""

    name = "meaningless-32"
    dim = 32

    def embed(self, texts):
        rows = [np.random.default_rng(zlib.crc32(t.encode())).standard_normal(self.dim) for t in texts]
        out = np.asarray(rows, dtype=np.float32).reshape(len(texts), self.dim)
        return out / np.linalg.norm(out, axis=1, keepdims=True)


FILLER = [f"filler passage number {i} about nothing in particular" for i in range(60)]
NEEDLE = "the invoice service rejects vouchers from Lisbon"


@pytest.fixture
def store(tmp_path):
    a = ArchivalStore(tmp_path / "archival", MeaninglessEmbedder(), candidates=5)
    a.insert_many([{"content": t, "importance": 5, "created_at": T0} for t in FILLER])
    needle = a.insert(NEEDLE, importance=5, tags=["billing"], created_at=T0)
    yield a, needle
    a.close()


def test_words_find_what_meaning_misses(store):
    a, needle = store
    now = T0 + timedelta(hours=1)
    a.lexical_weight = 0.0  # meaning only: the needle is not among the 5 nearest random vectors
    assert needle.id not in {h.passage.id for h in a.search("Lisbon vouchers", page_size=5, now=now).items}
    a.lexical_weight = 1.0
    hits = a.search("Lisbon vouchers", page_size=6, now=now, weights=RELEVANCE).items
    (top,) = [h for h in hits if h.passage.id == needle.id]
    assert top.bm25 > 0 and all(h.bm25 == 0 for h in hits if h is not top)
    # A candidate found only by its words carries its true cosine, not a stand-in.
    q = MeaninglessEmbedder().embed(["Lisbon vouchers"])[0]
    assert top.cosine == pytest.approx(float(MeaninglessEmbedder().embed([NEEDLE])[0] @ q), abs=1e-5)
    # Found by words alone, it is the farthest by meaning: its relevance is all from bm25.
    assert top.relevance == pytest.approx(max(h.relevance for h in hits))


@pytest.mark.parametrize("overfetch", [3000, 1], ids=["rank-then-filter", "filtered-join"])
def test_lexical_candidates_obey_filters_and_supersession(store, overfetch):
    a, needle = store
    a.max_overfetch = overfetch
    now = T0 + timedelta(hours=1)
    assert needle.id not in {h.passage.id for h in a.search("Lisbon", tags=["other"], now=now).items}
    assert [h.passage.id for h in a.search("Lisbon", tags=["billing"], now=now).items] == [needle.id]
    assert needle.id not in {h.passage.id for h in a.search("Lisbon", until=T0 - timedelta(days=1)).items}
    newer = a.insert("vouchers from Lisbon are accepted again", supersedes=needle.id, created_at=T0)
    live = a.search("Lisbon vouchers", include_superseded=False, now=now, weights=RELEVANCE).items
    assert [h.passage.id for h in live if h.bm25 > 0] == [newer.id]
    every = a.search("Lisbon vouchers", now=now, weights=RELEVANCE).items
    assert {h.passage.id for h in every if h.bm25 > 0} == {needle.id, newer.id}


def test_fused_relevance_combines_both_views(tmp_path):
    with ArchivalStore(tmp_path / "a", HashingEmbedder()) as a:
        a.insert_many(
            [{"content": f"weather note {i}: rain again", "created_at": T0} for i in range(20)]
            + [{"content": "the checkout page returns a 500 error", "created_at": T0}]
        )
        hits = a.search("checkout error", now=T0 + timedelta(hours=1), weights=RELEVANCE).items
        assert hits[0].passage.content.startswith("the checkout") and hits[0].bm25 > 0
        assert all(h.bm25 == 0 for h in hits[1:])  # no word of the query in the weather notes
        assert hits[0].relevance == 1.0 and hits[0].cosine > max(h.cosine for h in hits[1:])


def test_common_words_are_pruned_rare_words_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(passage_index, "LEXICAL_BUDGET", 5)
    with ArchivalStore(tmp_path / "a", MeaninglessEmbedder(), candidates=3) as a:
        a.insert_many([{"content": f"common shared words {i}", "created_at": T0} for i in range(40)])
        a.insert_many([{"content": f"common midword {i}", "created_at": T0} for i in range(8)])
        rare = a.insert("common midword and one zeppelin", created_at=T0)
        index, everything = a._index, a.count()
        flt = passage_index.PassageFilter()
        (rare_row,) = index._q("SELECT n FROM passages WHERE id = ?", (rare.id,))[0]
        # "common" is in every passage (no idf); "midword" (9 matches) would pass the budget of 5:
        # only "zeppelin" is ranked.
        assert list(index.lexical("common midword zeppelin", flt, everything)) == [rare_row]
        monkeypatch.setattr(passage_index, "LEXICAL_BUDGET", 10)
        pool = index.lexical("common midword zeppelin", flt, everything)
        assert len(pool) == 9 and next(iter(pool)) == rare_row  # both words: it matches both, first
        # Only words in half the passages or more: no lexical side at all (bm25 gives them no weight).
        assert index.lexical("common", flt, everything) == {}
        assert index.lexical("absent zebra", flt, everything) == {}
        hits = a.search("common zeppelin", weights=RELEVANCE).items
        assert [h.passage.id for h in hits if h.bm25 > 0] == [rare.id]


def test_candidates_found_by_meaning_get_their_bm25(tmp_path):
    # The lexical pool scores every candidate, not only those the words proposed.
    with ArchivalStore(tmp_path / "a", HashingEmbedder(), candidates=10, lexical_candidates=1) as a:
        a.insert_many([{"content": f"weather note {i}: rain again", "created_at": T0} for i in range(20)])
        a.insert_many([{"content": "the checkout page returns a 500 error", "created_at": T0}] * 3)
        hits = a.search("checkout error", weights=RELEVANCE).items
        top = [h for h in hits if h.passage.content.startswith("the checkout")]
        assert len(top) == 3 and len({h.bm25 for h in top}) == 1 and top[0].bm25 > 0
        assert len({h.relevance for h in top}) == 1


def test_rebuilt_and_migrated_index_searches_words(tmp_path):
    path = tmp_path / "archival"
    with ArchivalStore(path, MeaninglessEmbedder(), candidates=2) as a:
        a.insert_many([{"content": t, "created_at": T0} for t in FILLER])
        needle = a.insert(NEEDLE, created_at=T0)
    index_file = path / "archival.index.sqlite"
    for extra in ("", "-wal", "-shm"):  # an index written by the previous layout (version 2)
        (path / f"archival.index.sqlite{extra}").unlink(missing_ok=True)
    with sqlite3.connect(index_file) as db:
        db.executescript(
            "CREATE TABLE passages(id TEXT PRIMARY KEY, created_at REAL NOT NULL, current INTEGER NOT NULL,"
            " importance INTEGER NOT NULL, accessed REAL NOT NULL); PRAGMA user_version=2;"
        )
    with ArchivalStore(path, MeaninglessEmbedder(), candidates=2) as a:
        assert a._index.size() == 61
        hits = a.search("Lisbon", weights=RELEVANCE).items
        assert [h.passage.id for h in hits if h.bm25 > 0] == [needle.id]


def test_without_the_index_search_is_dense_only(tmp_path):
    with ArchivalStore(tmp_path / "a", HashingEmbedder()) as a:
        a._index.close()
        a._index = None  # as with a Chroma server
        a.insert("the login page hangs", created_at=T0)
        hit = a.search("login page", now=T0 + timedelta(hours=1)).items[0]
        assert hit.bm25 == 0.0 and hit.cosine > 0


def test_only_the_returned_page_is_marked_accessed(store):
    # More candidates are scored than shown; only what the caller sees counts as retrieved (recency).
    a, needle = store
    later = T0 + timedelta(days=3)
    page = a.search("filler passage Lisbon", page_size=3, now=later)
    shown = {h.passage.id for h in page.items}
    everyone = a.get_many([r[0] for r in a._index._q("SELECT id FROM passages")])
    assert len(shown) == 3 and len(everyone) == 61
    assert {p.id for p in everyone if p.last_accessed_at == later} == shown
    assert all(p.last_accessed_at == T0 for p in everyone if p.id not in shown)


def test_evidence_preset_keeps_the_recency_direction(tmp_path):
    with ArchivalStore(tmp_path / "a", HashingEmbedder(), weights=EVIDENCE_WEIGHTS) as a:
        old = a.insert("identical text", importance=5, created_at=T0)
        new = a.insert("identical text", importance=5, created_at=T0 + timedelta(days=3))
        hits = a.search("identical text", now=T0 + timedelta(days=4)).items
        assert [h.passage.id for h in hits] == [new.id, old.id]
        assert hits[0].score == pytest.approx(
            0.1 * hits[0].recency + 0.1 * hits[0].importance + hits[0].relevance
        )


def test_words_ranked_beside_chroma_give_the_same_result(store):
    a, needle = store
    now = T0 + timedelta(hours=1)
    beside = a.search("Lisbon vouchers filler", page_size=20, now=now, weights=RELEVANCE)
    a._words_thread = lambda: None  # the same search, words ranked after Chroma instead of beside it
    after = a.search("Lisbon vouchers filler", page_size=20, now=now, weights=RELEVANCE)
    assert [(h.passage.id, h.score, h.bm25) for h in beside.items] == [
        (h.passage.id, h.score, h.bm25) for h in after.items
    ]
    assert needle.id in {h.passage.id for h in beside.items}


@pytest.mark.parametrize("case", ["no-filter", "wide-filter", "wide-filter-best-excluded", "narrow-filter"])
def test_lexical_pool_is_the_best_matches_passing_the_filter(tmp_path, monkeypatch, case):
    monkeypatch.setattr(passage_index, "LEXICAL_POOL", 3)
    with ArchivalStore(tmp_path / "a", MeaninglessEmbedder()) as a:
        # 14 strong matches written early, 36 weaker ones later: a date filter keeps most passages but
        # none of the best 14.
        a.insert_many([{"content": "alpha alpha alpha", "created_at": T0} for _ in range(14)])
        later = T0 + timedelta(days=2)
        a.insert_many(
            [{"content": f"alpha {' '.join(['word'] * (i % 7))}", "created_at": later} for i in range(36)]
        )
        a.insert_many([{"content": "unrelated", "created_at": later} for _ in range(100)])
        a.insert_many(
            [{"content": f"alpha tagged {i}", "created_at": later, "tags": ["t"]} for i in range(5)]
        )
        flt = {
            "no-filter": passage_index.PassageFilter(),
            "wide-filter": passage_index.PassageFilter(lo=T0.timestamp()),
            "wide-filter-best-excluded": passage_index.PassageFilter(lo=later.timestamp()),
            "narrow-filter": passage_index.PassageFilter(tags=("t",)),
        }[case]
        index, size = a._index, a.count()
        got = index.lexical("alpha", flt, size)
        clauses, args = index._filter_sql(flt)
        want = index._q(
            "SELECT p.n, -bm25(passages_fts) AS s FROM passages_fts JOIN passages p ON p.n = passages_fts.rowid "
            "WHERE passages_fts MATCH '\"alpha\"'"
            + "".join(f" AND {c}" for c in clauses)
            + " ORDER BY s DESC",
            args,
        )
        # Equal scores may come in either order: compare the scores, and that each row is a tied one.
        assert [round(sc, 9) for sc in got.values()] == [round(sc, 9) for _, sc in want[:3]]
        assert all(round(sc, 9) == round(dict(want)[n], 9) for n, sc in got.items())
