from datetime import UTC, date, datetime, timedelta

import pytest

import memgpt_lite.storage.recall as recall_module
from memgpt_lite.errors import StoreError, UsageError
from memgpt_lite.messages import Message, TextPart, ToolCallPart, ToolResultPart
from memgpt_lite.storage.recall import RecallStore
from tests.support.processes import kill_writer_when_ready

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def recall(tmp_path):
    r = RecallStore(tmp_path / "recall.sqlite")
    yield r
    r.close()


def _conversation(n: int = 60) -> list[Message]:
    out = []
    for i in range(n):
        role = "user" if i % 2 == 0 else "assistant"
        text = f"turn {i}: " + (
            "we talked about the garden and tomatoes" if i % 3 == 0 else "the weather was fine"
        )
        out.append(Message(role=role, parts=[TextPart(text=text)], created_at=T0 + timedelta(hours=i)))
    return out


def test_round_trip_keeps_every_part(recall):
    msgs = [
        Message.user("hello"),
        Message.assistant(
            TextPart(text="let me look"),
            ToolCallPart(id="c1", name="conversation_search", arguments={"query": "x"}),
        ),
        Message.tool_results(
            ToolResultPart(tool_call_id="c1", name="conversation_search", content="nothing")
        ),
    ]
    recall.extend(msgs)
    assert recall.get([m.id for m in reversed(msgs)]) == list(reversed(msgs))
    assert recall.count() == 3 and recall.count(roles=["tool"]) == 1
    assert msgs[1].id in recall and "nope" not in recall
    assert list(recall.iter_messages(batch=2)) == msgs
    assert list(recall.iter_messages(start=1, batch=1)) == msgs[1:]
    assert list(recall.iter_messages(start=3)) == []
    with pytest.raises(UsageError):
        list(recall.iter_messages(start=-1))


def test_reappending_identical_is_noop_but_conflict_is_error(recall):
    m = Message.user("same")
    recall.append(m)
    assert recall.extend([m]) == 0
    assert recall.count() == 1
    with pytest.raises(StoreError, match="different content"):
        recall.append(m.model_copy(update={"parts": [TextPart(text="changed")]}))
    assert recall.get([m.id])[0].text == "same"


def test_missing_ids_are_an_error(recall):
    recall.append(Message.user("x"))
    with pytest.raises(StoreError, match="not in recall"):
        recall.get(["msg-missing"])


def test_search_pages_with_true_total(recall):
    recall.extend(_conversation(60))
    first = recall.search("garden tomatoes", page=0, page_size=7)
    assert first.total == 20 and first.pages == 3 and len(first.items) == 7
    last = recall.search("garden tomatoes", page=2, page_size=7)
    assert len(last.items) == 6 and last.total == 20
    seen = {h.message.id for p in range(3) for h in recall.search("garden", page=p, page_size=7).items}
    assert len(seen) == 20
    assert recall.search("garden", page=5, page_size=7).items == []


def test_bm25_ranks_more_matching_terms_first(recall):
    recall.extend(
        [
            Message.user("tomatoes are red"),
            Message.user("the garden has tomatoes and basil"),
            Message.user("basil only"),
        ]
    )
    hits = recall.search("garden tomatoes basil").items
    assert hits[0].message.text == "the garden has tomatoes and basil"
    assert hits[0].score > hits[-1].score


def test_stemming(recall):
    recall.append(Message.user("She was running to the stations"))
    assert recall.search("run station").total == 1


@pytest.mark.parametrize(
    "query, hits",
    [
        ('he said "hi', 1),
        ("AND(", 3),
        ("NEAR(a b", 1),
        ("garden OR", 3),
        ("col:value", 1),
        ("-said", 1),
        ("x*", 0),
    ],
)
def test_hostile_query_text_is_literal(recall, query, hits):
    recall.extend(_conversation(6))
    recall.append(Message.user("AND NEAR col value hi said garden"))
    assert recall.search(query).total == hits  # words matched literally, never FTS syntax


@pytest.mark.parametrize("query", ['"', "*", "()", "   "])
def test_query_with_only_syntax_is_usage_error(recall, query):
    with pytest.raises(UsageError, match="no searchable words"):
        recall.search(query)


def test_query_without_words_is_usage_error(recall):
    with pytest.raises(UsageError, match="no searchable words"):
        recall.search("?!")


def test_stop_words_kept_when_alone(recall):
    recall.append(Message.user("what is it"))
    assert recall.search("what").total == 1


def test_roles_and_date_filters(recall):
    recall.extend(_conversation(60))
    assert recall.search("garden", roles=["user"]).total == 10
    assert recall.search("garden", roles="assistant").total == 10
    # T0 + 0..23h is 2024-05-01 09:00 .. 2024-05-02 08:00; a bare end date includes the whole day.
    on_first_day = recall.search("garden", start_date="2024-05-01", end_date=date(2024, 5, 1))
    assert on_first_day.total == 5
    assert all(h.message.created_at.date() == date(2024, 5, 1) for h in on_first_day.items)
    assert recall.search("garden", start_date=T0 + timedelta(hours=57)).total == 1
    with pytest.raises(UsageError, match="unknown role"):
        recall.search("garden", roles=["robot"])
    with pytest.raises(UsageError, match="after"):
        recall.search("garden", start_date="2024-06-01", end_date="2024-05-01")
    with pytest.raises(UsageError, match="ISO"):
        recall.search("garden", start_date="yesterday")


def test_search_date_is_chronological_and_paged(recall):
    recall.extend(list(reversed(_conversation(60))))
    page = recall.search_date("2024-05-02", "2024-05-02", page=1, page_size=10)
    assert page.total == 24 and page.pages == 3 and len(page.items) == 10
    times = [h.message.created_at for h in page.items]
    assert times == sorted(times) and times[0] == datetime(2024, 5, 2, 10, tzinfo=UTC)
    assert recall.search_date("2024-05-02T00:00:00Z", None, roles=["user"]).total == 22
    with pytest.raises(UsageError):
        recall.search_date(None, None)


def test_speaker_is_searchable_and_filterable(recall):
    recall.extend(
        [
            Message.user("I adopted a dog", meta={"speaker": "Caroline"}),
            Message.user("I painted a lake", meta={"speaker": "Melanie"}),
        ]
    )
    assert recall.search("caroline").items[0].message.text == "I adopted a dog"
    assert recall.search("dog lake", speakers=["Melanie"]).total == 1


def test_naive_datetimes_are_utc(recall):
    recall.append(Message.user("naive", created_at=datetime(2024, 1, 1, 12)))
    assert recall.search_date(datetime(2024, 1, 1, 11), datetime(2024, 1, 1, 13)).total == 1


def test_bad_paging_is_usage_error(recall):
    for kw in ({"page": -1}, {"page_size": 0}, {"page": True}):
        with pytest.raises(UsageError):
            recall.search("x", **kw)


def test_persists_across_reopen(tmp_path):
    path = tmp_path / "r.sqlite"
    with RecallStore(path) as r:
        r.extend(_conversation(10))
    with RecallStore(path) as r:
        assert r.count() == 10 and r.search("garden").total == 4


def test_corrupt_file_is_store_error(tmp_path):
    path = tmp_path / "recall.sqlite"
    path.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match="corrupt or not a recall database"):
        RecallStore(path)


def test_foreign_sqlite_is_store_error(tmp_path):
    import sqlite3

    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE people(name TEXT)")
    with pytest.raises(StoreError, match="not a recall database"):
        RecallStore(path)


def test_ranking_windows_keep_every_match_reachable(tmp_path):
    with RecallStore(tmp_path / "r.sqlite", rank_window=10) as r:
        msgs = [
            Message.user(f"apple {'banana ' * (i % 4)}{i}", created_at=T0 + timedelta(minutes=i))
            for i in range(45)
        ]
        r.extend(msgs)
        pages = [r.search("apple banana", page=p, page_size=4) for p in range(12)]
        assert all(p.total == 45 and p.pages == 12 for p in pages)
        ids = [h.message.id for p in pages for h in p.items]
        assert sorted(ids) == sorted(m.id for m in msgs)  # each exactly once
        # the first window holds the newest matches, best bm25 first within it
        first = [h for p in pages[:2] for h in p.items]  # window of 8 = two pages of 4
        assert {h.message.id for h in first} == {m.id for m in msgs[-8:]}
        scores = [h.score for h in first]
        assert scores == sorted(scores, reverse=True)
        filtered = r.search(
            "apple", roles=["user"], start_date=T0 + timedelta(minutes=20), page=1, page_size=4
        )
        assert filtered.total == 25 and len(filtered.items) == 4


@pytest.mark.parametrize("order", ["chronological", "shuffled"])
def test_date_filters_agree_whatever_the_insert_order(tmp_path, order):
    msgs = _conversation(60)
    if order == "shuffled":
        msgs = msgs[30:] + msgs[:30]
    path = tmp_path / "r.sqlite"
    with RecallStore(path) as r:
        r.extend(msgs[:40])
        r.extend(msgs[40:])
    with RecallStore(path) as r:  # the insert-order flag survives reopening
        assert r._chronological is (order == "chronological")
        page = r.search(
            "garden weather", roles=["user"], start_date="2024-05-02", end_date="2024-05-02", page_size=50
        )
        expected = [m for m in msgs if m.role == "user" and m.created_at.date() == date(2024, 5, 2)]
        assert page.total == len(expected) == 12
        assert {h.message.id for h in page.items} == {m.id for m in expected}
        assert r.search("garden", start_date="2030-01-01").total == 0
        assert r.search("garden", end_date="2000-01-01").total == 0


@pytest.mark.slow
def test_kill_9_during_writes_leaves_a_consistent_store(tmp_path):

    path = tmp_path / "recall.sqlite"
    writer = (
        "import sys\n"
        "from memgpt_lite.messages import Message\n"
        "from memgpt_lite.storage.recall import RecallStore\n"
        "r = RecallStore(sys.argv[1])\n"
        "i = 0\n"
        "while True:\n"
        "    r.extend([Message.user(f'batch {i} line {j} keyword') for j in range(50)])\n"
        "    i += 1\n"
        "    if i == 3:\n"
        "        print('ready', flush=True)\n"
    )
    kill_writer_when_ready(writer, path, settle=0.3)
    with RecallStore(path) as r:
        n = r.count()
        assert n >= 150 and n % 50 == 0  # whole batches only: each extend is one transaction
        assert r.search("keyword", page_size=1).total == n  # the index holds exactly the stored rows
        assert r._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        r.append(Message.user("after the crash keyword"))
        assert r.search("keyword").total == n + 1


def test_threads_share_one_store(recall):
    from concurrent.futures import ThreadPoolExecutor

    def work(k: int) -> int:
        for i in range(25):
            recall.append(Message.user(f"thread {k} message {i} shared"))
            recall.search("shared")
        return recall.search("shared").total

    with ThreadPoolExecutor(4) as pool:
        totals = list(pool.map(work, range(4)))
    assert recall.count() == 100 and recall.search("shared").total == 100
    assert all(25 <= t <= 100 for t in totals)


def test_match_scores_are_searchs_ids_and_scores_without_loading_messages(recall, monkeypatch):
    recall.extend(_conversation(60))
    for kwargs in ({}, {"roles": "user"}, {"start_date": "2024-05-02"}):
        page = recall.search("garden tomatoes", page_size=15, **kwargs)
        expected = [(h.message.id, h.score) for h in page.items]

        def no_load(data: str) -> Message:
            raise AssertionError("match_scores parsed a stored message")

        monkeypatch.setattr(recall_module, "_load", no_load)
        assert recall.match_scores("garden tomatoes", limit=15, **kwargs) == expected
        monkeypatch.undo()
    assert recall.match_scores("nothing-here") == []
    with pytest.raises(UsageError, match="page_size"):
        recall.match_scores("garden", limit=0)
