"""evals.locomo: id parsing, metrics on a hand-made conversation, ingestion through the public API."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

import pytest

from evals.locomo.__main__ import main
from evals.locomo.bm25 import BM25
from evals.locomo.data import load, parse_evidence, parse_sample, parse_session_date
from evals.locomo.ingest import ingest
from evals.locomo.metrics import Scored, aggregate, score_question
from evals.locomo.run import evaluate
from memgpt_lite.errors import UsageError
from memgpt_lite.storage.embeddings import HashingEmbedder

CANARIES = ("OBSERVATION-CANARY", "SUMMARY-CANARY", "EVENT-CANARY", "ANSWER-CANARY", "ADVERSARIAL-CANARY")


def tiny_sample() -> dict:
    """Two sessions, eight turns, questions with known evidence (and the fields that must never be read)."""
    return {
        "sample_id": "tiny",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bob",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "Hi Bob! I adopted a kitten called Pixel."},
                {"speaker": "Bob", "dia_id": "D1:2", "text": "Congrats! What breed is the kitten?"},
                {"speaker": "Ann", "dia_id": "D1:3", "text": "A tabby. She loves yarn."},
                {
                    "speaker": "Bob",
                    "dia_id": "D1:4",
                    "text": "Look at this.",
                    "img_url": ["https://example.invalid/x.jpg"],
                    "blip_caption": "a photo of a sailboat on a lake",
                    "query": "sailboat",
                },
            ],
            "session_2_date_time": "10:04 am on 20 June, 2023",
            "session_2": [
                {"speaker": "Bob", "dia_id": "D2:1", "text": "I sailed across the bay last weekend."},
                {"speaker": "Ann", "dia_id": "D2:2", "text": "Brave! Pixel knocked my violin over."},
                {"speaker": "Bob", "dia_id": "D2:3", "text": "Do you still practise the violin daily?"},
                {"speaker": "Ann", "dia_id": "D2:4", "text": "Every morning before work."},
            ],
        },
        "observation": {"session_1_observation": "OBSERVATION-CANARY Ann has a cat"},
        "session_summary": {"session_1_summary": "SUMMARY-CANARY"},
        "event_summary": {"events_session_1": "EVENT-CANARY"},
        "qa": [
            {
                "question": "What is the name of the kitten Ann adopted?",
                "answer": "ANSWER-CANARY",
                "evidence": ["D1:1"],
                "category": 4,
            },
            {
                "question": "When did Bob sail across the bay?",
                "answer": "June",
                "evidence": ["D2:1"],
                "category": 2,
            },
            {"question": "What does Bob like?", "answer": "x", "evidence": ["D1:4; D2:1"], "category": 1},
            {
                "question": "Who owns a sailboat?",
                "adversarial_answer": "ADVERSARIAL-CANARY",
                "evidence": ["D1:4"],
                "category": 5,
            },
            {"question": "No valid evidence", "answer": "y", "evidence": ["D9:99", "garbage"], "category": 4},
            {"question": "Empty evidence", "answer": "y", "evidence": [], "category": 3},
        ],
    }


# -- id parsing -------------------------------------------------------------------------------------
def test_parse_evidence_handles_malformed_ids():
    assert parse_evidence(["D8:6; D9:17"]) == ["D8:6", "D9:17"]
    assert parse_evidence(["D1:3", "D1:3", "D01:3 and D2:10"]) == ["D1:3", "D2:10"]
    assert parse_evidence(["D:11:26", "", None, 7]) == []
    assert parse_evidence("D3:4") == ["D3:4"]
    assert parse_evidence(None) == []
    with pytest.raises(UsageError):
        parse_evidence({"D1": 1})


def test_questions_keep_only_evidence_the_conversation_holds():
    conv = parse_sample(tiny_sample())
    assert [q.evidence for q in conv.questions] == [("D1:1",), ("D2:1",), ("D1:4", "D2:1"), ("D1:4",)]
    assert conv.skipped == 2
    assert [q.category for q in conv.questions] == [4, 2, 1, 5]


def test_session_dates_and_bad_input():
    assert parse_session_date("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert parse_session_date("10:04 am on 20 January, 2023").hour == 10
    with pytest.raises(UsageError, match="session date"):
        parse_session_date("yesterday")
    bad = tiny_sample()
    bad["conversation"]["session_1"][0]["dia_id"] = "turn one"
    with pytest.raises(UsageError, match="D<session>:<turn>"):
        parse_sample(bad)


def test_load_errors_are_clear(tmp_path):
    with pytest.raises(UsageError, match="no such file"):
        load(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(UsageError, match="not readable JSON"):
        load(tmp_path / "bad.json")
    (tmp_path / "empty.json").write_text("[]")
    with pytest.raises(UsageError, match="non-empty list"):
        load(tmp_path / "empty.json")


# -- metrics ----------------------------------------------------------------------------------------
def test_score_question_by_hand():
    ranked = ["D1:2", "D2:1", "D3:3", "D1:4", "D5:5"]
    m = score_question(ranked, ["D1:4", "D2:1", "D9:9"], ks=(1, 2, 5))
    assert m["frac@1"] == 0.0 and m["frac@2"] == pytest.approx(1 / 3) and m["frac@5"] == pytest.approx(2 / 3)
    assert m["all@5"] == 0.0
    assert m["session@1"] == 1.0  # D1:2 is in session 1, which holds evidence D1:4
    assert m["mrr"] == 0.5
    assert score_question(["D7:1"], ["D1:1"], ks=(1,)) == {
        "frac@1": 0.0,
        "all@1": 0.0,
        "session@1": 0.0,
        "mrr": 0.0,
    }
    with pytest.raises(ValueError):
        score_question(ranked, [], ks=(1,))


def test_aggregate_averages_questions_per_category_and_group():
    s = [
        Scored(1, {"frac@1": 1.0, "all@1": 1.0, "session@1": 1.0, "mrr": 1.0}),
        Scored(1, {"frac@1": 0.0, "all@1": 0.0, "session@1": 1.0, "mrr": 0.5}),
        Scored(5, {"frac@1": 0.0, "all@1": 0.0, "session@1": 0.0, "mrr": 0.0}),
    ]
    out = aggregate(s, ks=(1,))
    assert out["categories"]["1"]["frac@1"] == 0.5 and out["categories"]["1"]["n"] == 2
    assert out["categories"]["2"]["n"] == 0
    assert out["overall_1_4"]["mrr"] == 0.75
    assert out["overall_1_5"]["mrr"] == 0.5 and out["overall_1_5"]["n"] == 3


def test_bm25_baseline_is_textbook():
    bm = BM25(["the cat sat", "the dog barked at the cat", "a bird"])
    s = bm.scores("cat")
    assert s[0] > s[1] > 0 and s[2] == 0  # the shorter document with the term ranks first
    assert bm.rank("cat dog", 5) == [1, 0]
    assert bm.rank("the", 5) == []  # stop words only


def test_evaluate_on_the_tiny_conversation(tmp_path):
    conv = parse_sample(tiny_sample())
    run = evaluate([conv], ks=(1, 5), embedder=HashingEmbedder(), ablate=True, workdir=tmp_path)
    assert run.questions == 4 and run.skipped == 2 and run.turns == 8
    # Only the kitten's turn says "adopted": both systems put it first.
    assert run.ours["categories"]["4"]["frac@1"] == 1.0
    assert run.baseline["categories"]["4"]["frac@1"] == 1.0
    assert run.ours["categories"]["1"]["frac@5"] == 1.0  # both evidence turns of the multi-hop question
    assert run.ours["overall_1_5"]["n"] == 4 and run.ours["overall_1_4"]["n"] == 3
    assert [row["step"] for row in run.ablation][-1].endswith("(default)")
    assert list(tmp_path.iterdir()) == []  # the stores were temporary


# -- ingestion --------------------------------------------------------------------------------------
def test_ingest_through_public_api_keeps_turn_fields_and_nothing_else(tmp_path):
    conv = parse_sample(tiny_sample())
    memory = ingest(conv, tmp_path / "store", embedder=HashingEmbedder())
    try:
        msgs = list(memory.recall.iter_messages())
        assert [m.meta["dia_id"] for m in msgs] == [t.dia_id for t in conv.turns]
        assert {m.meta["speaker"] for m in msgs} == {"Ann", "Bob"}
        assert msgs[0].created_at == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
        assert msgs[4].created_at == datetime(2023, 6, 20, 10, 4, tzinfo=UTC)
        image = msgs[3]
        assert image.meta["blip_caption"] == "a photo of a sailboat on a lake"
        assert image.text == "Look at this.\n[image: a photo of a sailboat on a lake]"
        assert "query" not in image.meta and "img_url" not in image.meta
    finally:
        memory.close()
    with pytest.raises(UsageError, match="not empty"):
        ingest(conv, tmp_path / "store", embedder=HashingEmbedder())


def test_no_forbidden_field_reaches_the_store(tmp_path):
    path = tmp_path / "data.json"
    path.write_text(json.dumps([tiny_sample()]))
    conv = load(path)[0]
    store = tmp_path / "store"
    memory = ingest(conv, store, embedder=HashingEmbedder())
    from memgpt_lite.search import HybridSearch

    with HybridSearch.for_memory(memory, embedder=HashingEmbedder()) as search:
        search.rank("kitten")
    memory.close()
    dumped = []
    for f in store.rglob("*"):
        if f.suffix == ".sqlite":
            db = sqlite3.connect(f)
            for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'"):
                dumped += [repr(row) for row in db.execute(f'SELECT * FROM "{table}"')]
            db.close()
        elif f.is_file():
            dumped.append(f.read_bytes().decode("utf-8", "replace"))
    text = "\n".join(dumped)
    assert "Pixel knocked my violin" in text  # the check does see the store's contents
    for canary in CANARIES:
        assert canary not in text
    assert 'sailboat"' not in text and "example.invalid" not in text


def test_cli_json_keys(tmp_path, capsys):
    path = tmp_path / "data.json"
    path.write_text(json.dumps([tiny_sample()]))
    report = tmp_path / "out" / "report.md"
    code = main(
        ["--data", str(path), "--k", "1", "5", "--json", "--embedder", "hashing", "--report", str(report)]
    )
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc["categories"]) == {"1", "2", "3", "4", "5"}
    assert {"frac@1", "frac@5", "all@5", "session@5", "mrr", "n"} <= set(doc["overall_1_4"])
    assert set(doc["baseline_bm25"]) >= {"overall_1_4", "overall_1_5"}
    assert doc["config"]["k"] == [1, 5] and doc["config"]["questions"] == 4
    assert "| overall 1–4 |" in report.read_text()
    assert main(["--data", str(tmp_path / "nope.json"), "--embedder", "hashing"]) == 2
    assert main(["--data", str(path), "--embedder", "hashing", "--weights", "1", "1", "-1", "1"]) == 2
    assert main(["--data", str(path), "--embedder", "hashing", "--k", "0"]) == 2


def test_archival_variant_scores_the_same_questions(tmp_path):
    conv = parse_sample(tiny_sample())
    run = evaluate([conv], ks=(1, 5), embedder=HashingEmbedder(), archival=True, workdir=tmp_path)
    assert {"generative_agents", "relevance_only", "evidence_preset"} <= set(run.archival)
    for result in run.archival.values():
        assert result["overall_1_5"]["n"] == 4
    # The adopted kitten's turn shares the most words with its question: in the top 5 of 8 passages.
    assert run.archival["relevance_only"]["categories"]["4"]["frac@5"] == 1.0
