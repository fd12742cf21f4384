"""memgpt_lite.search: hybrid recall search over messages and windows (HashingEmbedder: fast, offline)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memgpt_lite.errors import StoreError, UsageError
from memgpt_lite.messages import Message
from memgpt_lite.search import HybridConfig, HybridSearch, RecallIndex, message_view
from memgpt_lite.search.views import segments, window_bounds
from memgpt_lite.storage.embeddings import HashingEmbedder
from memgpt_lite.storage.recall import RecallStore

DAY1 = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)
DAY2 = DAY1 + timedelta(days=3)


class CountingEmbedder(HashingEmbedder):
    def __init__(self, dim: int = 128) -> None:
        super().__init__(dim=dim)
        self.texts = 0

    def embed(self, texts):  # type: ignore[override]
        self.texts += len(texts)
        return super().embed(texts)


def said(speaker: str, text: str, at: datetime, role: str = "user") -> Message:
    return Message(
        role=role, parts=[{"kind": "text", "text": text}], created_at=at, meta={"speaker": speaker}
    )


DIALOGUE = [
    said("Ann", "Last night we celebrated my daughter's birthday with a concert!", DAY1),
    said("Bob", "Wow, sounds wonderful! What concert was it?", DAY1),
    said("Ann", "It was Matt Patterson, he is so talented!", DAY1),
    said("Bob", "I started pottery classes, my first bowl is drying.", DAY1),
    said("Ann", "Nice. We went camping by the lake and roasted marshmallows.", DAY2),
    said("Bob", "Camping sounds relaxing, I love the outdoors.", DAY2),
]


@pytest.fixture
def recall(tmp_path):
    r = RecallStore(tmp_path / "recall.sqlite")
    r.extend(DIALOGUE)
    yield r
    r.close()


@pytest.fixture
def search(recall, tmp_path):
    s = HybridSearch.open(recall, tmp_path, embedder=CountingEmbedder())
    yield s
    s.close()


def test_views_and_windows():
    assert message_view(DIALOGUE[2]) == "Ann: It was Matt Patterson, he is so talented!"
    assert message_view(Message.user("plain")) == "plain"
    t = [0, 10, 20, 5000, 5010]
    segs = segments(t, gap_seconds=1800)
    assert segs == [0, 0, 0, 1, 1]
    assert segments([0, 10, 5], 1800) == [0, 0, 1]  # out of order starts a new session
    assert window_bounds(segs, 1, 2) == (0, 3)
    assert window_bounds(segs, 2, 2) == (0, 3)  # never crosses into the next session
    assert window_bounds(segs, 3, 1) == (3, 5)
    assert window_bounds(segs, 0, 0) == (0, 1)


def test_an_answer_with_no_shared_word_is_found_through_its_window(search):
    # "Matt Patterson" shares no word with the question; the turn before it does.
    ranked = search.rank("Which concert did Ann go to?")
    ids = [r.id for r in ranked]
    assert DIALOGUE[2].id in ids[:3]
    assert ids.index(DIALOGUE[2].id) < ids.index(DIALOGUE[4].id)
    plain = HybridSearch(search.recall, search.index, HybridConfig(window_lexical=0, window_dense=0))
    plain_ids = [r.id for r in plain.rank("Which concert did Ann go to?")]
    assert ids.index(DIALOGUE[2].id) < plain_ids.index(DIALOGUE[2].id)


def test_search_is_a_drop_in_page_of_recall_hits(search):
    page = search.search("camping marshmallows", page_size=2)
    assert page.items[0].message.id == DIALOGUE[4].id
    assert page.items[0].score >= page.items[1].score
    assert page.total == len(DIALOGUE)  # tiny store: every message is a dense candidate
    assert page.pages == 3
    last = search.search("camping marshmallows", page=2, page_size=2)
    assert len(last.items) == 2
    assert search.search("camping", page=9).items == []


def test_view_scores_are_normalised(search):
    ranked = search.rank("pottery bowl")
    for r in ranked:
        assert all(0.0 <= v <= 1.0 for v in r.views)
        assert r.score == pytest.approx(sum(r.views))
    assert ranked[0].id == DIALOGUE[3].id
    assert max(r.views[0] for r in ranked) == 1.0


def test_filters_roles_and_dates(recall, search):
    recall.append(said("Bob", "pottery again today", DAY2 + timedelta(minutes=5), role="assistant"))
    ids = [r.id for r in search.rank("pottery", roles=["user"])]
    assert ids and all(m.role == "user" for m in recall.get(ids))
    ids = [r.id for r in search.rank("pottery", start_date=DAY2.date().isoformat())]
    assert ids and all(m.created_at >= DAY2.replace(hour=0) for m in recall.get(ids))
    assert search.rank("pottery", end_date="2000-01-01") == []
    with pytest.raises(UsageError):
        search.rank("pottery", roles=["robot"])
    with pytest.raises(UsageError):
        search.rank("pottery", start_date="2024-06-01", end_date="2024-05-01")
    with pytest.raises(UsageError):
        search.rank("   ")
    # A query of stop words only has no lexical view but still ranks by embedding.
    assert search.rank("what was it")


def test_sync_is_incremental_and_updates_the_last_windows(recall, search):
    search.rank("concert")
    embedder = search.index.embedder
    seen = embedder.texts
    assert seen == len(DIALOGUE) + 1  # the messages, then the query
    recall.append(said("Ann", "The zoo trip with the kids was a blast.", DAY2 + timedelta(minutes=1)))
    ranked = search.rank("zoo trip")
    assert embedder.texts == seen + 2  # one new message, one query
    assert ranked[0].id == recall.get([m.id for m in recall.iter_messages()][-1:])[0].id
    # The message before it now has the new one in its window.
    before = next(r for r in ranked if r.id == DIALOGUE[5].id)
    assert before.views[2] > 0


def test_index_persists_and_rebuilds_when_settings_change(recall, tmp_path):
    first = CountingEmbedder()
    with HybridSearch.open(recall, tmp_path, embedder=first) as s:
        s.rank("concert")
    again = CountingEmbedder()
    with HybridSearch.open(recall, tmp_path, embedder=again) as s:
        s.rank("concert")
    assert again.texts == 1  # only the query: the vectors were read back from search.sqlite
    other = CountingEmbedder(dim=64)  # another embedder: its vectors cannot be mixed with the old ones
    with HybridSearch.open(recall, tmp_path, embedder=other) as s:
        assert s.rank("concert")
    assert other.texts == len(DIALOGUE) + 1
    wider = CountingEmbedder(dim=64)
    with HybridSearch.open(recall, tmp_path, embedder=wider, config=HybridConfig(radius=1)) as s:
        s.rank("concert")
    assert wider.texts == len(DIALOGUE) + 1


def test_replaced_recall_file_rebuilds_the_index(tmp_path):
    big = RecallStore(tmp_path / "a.sqlite")
    big.extend(DIALOGUE)
    with HybridSearch.open(big, tmp_path, embedder=HashingEmbedder()) as s:
        s.rank("concert")
    small = RecallStore(tmp_path / "b.sqlite")
    small.extend(DIALOGUE[:2])
    with HybridSearch.open(small, tmp_path, embedder=HashingEmbedder()) as s:
        ids = [r.id for r in s.rank("concert")]
    assert set(ids) == {DIALOGUE[0].id, DIALOGUE[1].id}
    big.close()
    small.close()


def test_not_an_index_is_a_store_error(tmp_path):
    import sqlite3

    db = sqlite3.connect(tmp_path / "search.sqlite")
    db.execute("CREATE TABLE other(x)")
    db.commit()
    db.close()
    with pytest.raises(StoreError):
        RecallIndex(tmp_path / "search.sqlite", HashingEmbedder())
    (tmp_path / "junk.sqlite").write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError):
        RecallIndex(tmp_path / "junk.sqlite", HashingEmbedder())


def test_messages_without_text_are_skipped_and_empty_store_ranks_nothing(tmp_path):
    r = RecallStore(tmp_path / "recall.sqlite")
    with HybridSearch.open(r, tmp_path, embedder=HashingEmbedder()) as s:
        assert s.rank("anything") == []
        r.append(Message(role="assistant", parts=[]))
        r.append(said("Ann", "hello there", DAY1))
        assert [x.id for x in s.rank("hello")] == [s.index.ids[0]]
        assert len(s.index.ids) == 1
        assert s.index.synced == 2
        assert np.allclose(np.linalg.norm(s.index.window_vectors, axis=1), 1.0, atol=1e-5)
    r.close()


def test_recall_search_is_shared_per_memory_and_matches_recall_search_signature(tmp_path, monkeypatch):
    from memgpt_lite.memory import AgentMemory
    from memgpt_lite.search import recall_search

    monkeypatch.setenv("MEMGPT_LITE_EMBEDDER", "hashing")
    memory = AgentMemory.open(tmp_path / "store")
    try:
        for m in DIALOGUE:
            memory.append(m)
        search = recall_search(memory)
        assert recall_search(memory) is search
        page = search.search(
            "concert", roles=["user"], start_date="2024-05-01", end_date="2024-05-01", page_size=3
        )
        assert page.items and all(h.message.created_at.date() == DAY1.date() for h in page.items)
        assert (tmp_path / "store" / "search.sqlite").exists()
    finally:
        memory.close()


def test_the_agents_own_searches_are_not_indexed(tmp_path):
    from memgpt_lite.messages import TextPart, ToolCallPart, ToolResultPart

    r = RecallStore(tmp_path / "recall.sqlite")
    call = ToolCallPart(id="c1", name="conversation_search", arguments={"query": "violin"})
    echo = [
        Message(role="assistant", parts=[TextPart(text="let me look"), call], created_at=DAY1),
        Message.tool_results(
            ToolResultPart(tool_call_id="c1", name="conversation_search", content="violin violin"),
            created_at=DAY1,
        ),
    ]
    other = Message.tool_results(
        ToolResultPart(tool_call_id="c2", name="fetch", content="violin page"), created_at=DAY1
    )
    r.extend([said("Ann", "I practise the violin daily.", DAY1), *echo, other])
    with HybridSearch.open(r, tmp_path, embedder=HashingEmbedder()) as s:
        ids = [x.id for x in s.rank("violin")]
    assert echo[0].id not in ids and echo[1].id not in ids
    assert other.id in ids
    r.close()


def test_speaker_boost_lifts_the_named_speakers_messages(search):
    from memgpt_lite.search.views import named_speakers

    assert named_speakers("What did bob and Ann do?", ["Ann", "Bob", "Ann", ""]) == ["Bob", "Ann"]
    assert named_speakers("Annual report", ["Ann"]) == []
    query = "Who went camping?"
    plain = search.rank(query)
    # A boost as large as the four views together puts every message of the named speaker first.
    boosted = HybridSearch(search.recall, search.index, HybridConfig(speaker_boost=4.0))
    assert [r.id for r in boosted.rank(query)] == [r.id for r in plain]  # no speaker named: no change
    # Bob took the pottery class; a question about Ann's pottery finds his turn first without the boost.
    assert search.rank("Did Ann take a pottery class?")[0].id == DIALOGUE[3].id
    top = boosted.rank("Did Ann take a pottery class?")[:3]
    assert {m.meta["speaker"] for m in search.recall.get([r.id for r in top])} == {"Ann"}


def test_rank_each_equals_one_rank_per_config(search):
    # what `evals.locomo --ablate` relies on: its steps read the views once and rank as if alone
    configs = [
        HybridConfig(),
        HybridConfig(lexical=1, dense=0, window_lexical=0, window_dense=0),
        HybridConfig(dense_candidates=1, speaker_boost=0.5),
        HybridConfig(lexical_pool=2, window_dense=0),
    ]
    for query in ("Which concert did Ann go to?", "pottery bowl", "Ann camping"):
        each = search.rank_each(query, configs, roles="user")
        alone = [HybridSearch(search.recall, search.index, c).rank(query, roles="user") for c in configs]
        assert each == alone
        assert each[0] != each[1]  # the configs rank differently, so the comparison means something
    with pytest.raises(UsageError):
        search.rank_each(" ", configs)


def test_paging_through_one_query_embeds_it_once(search):
    search.search("camping", page=0, page_size=2)  # indexes the store, then embeds the query
    before = search.index.embedder.texts
    for page in (0, 1, 2):
        search.search("camping", page=page, page_size=2)
    assert search.index.embedder.texts == before
    search.search("pottery", page_size=2)
    assert search.index.embedder.texts == before + 1
