"""`memgpt-lite demo` and `memgpt-lite inspect` through the real CLI entry point."""

from __future__ import annotations

import json

import pytest

from memgpt_lite.cli import main

DEMO_KEYS = {
    "context_window",
    "events",
    "max_prompt_tokens",
    "recall_messages",
    "in_context_messages",
    "summary",
    "evicted_total",
    "evicted_found_in_recall",
}
EVENT_KEYS = {"turn", "type", "prompt_tokens_before", "prompt_tokens_after", "evicted_messages"}
INSPECT_KEYS = {
    "context_window",
    "prompt_tokens",
    "pressure",
    "in_context_messages",
    "recall_messages",
    "archival_passages",
    "blocks",
    "summary",
}


def run_json(capsys, *argv: str) -> dict:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def check_acceptance(result: dict) -> None:
    window = result["context_window"]
    assert set(result) == DEMO_KEYS and all(set(e) == EVENT_KEYS for e in result["events"])
    warnings = [e for e in result["events"] if e["type"] == "memory_pressure_warning"]
    flushes = [e for e in result["events"] if e["type"] == "flush"]
    assert warnings and flushes
    assert all(0.70 <= e["prompt_tokens_before"] / window < 1.0 for e in warnings)
    assert all(e["prompt_tokens_before"] >= window for e in flushes)  # flush only at the threshold
    assert all(e["prompt_tokens_after"] <= 0.55 * window and e["evicted_messages"] > 0 for e in flushes)
    assert result["max_prompt_tokens"] <= window
    assert result["evicted_total"] == sum(e["evicted_messages"] for e in flushes) > 0
    assert result["evicted_found_in_recall"] == result["evicted_total"]
    assert result["summary"]


@pytest.mark.slow
def test_demo_acceptance_and_continuation(tmp_path, capsys):
    store = str(tmp_path / "demo")
    first = run_json(capsys, "demo", "--store", store, "--context-window", "2500", "--turns", "90", "--json")
    check_acceptance(first)
    assert first["events"][0]["turn"] >= 1
    assert first["recall_messages"] == 180 + sum(
        e["type"] == "memory_pressure_warning" for e in first["events"]
    )

    second = run_json(capsys, "demo", "--store", store, "--context-window", "2500", "--turns", "60", "--json")
    check_acceptance(second)
    assert min(e["turn"] for e in second["events"]) > 90  # continues the numbering
    assert second["recall_messages"] > first["recall_messages"] + 119

    report = run_json(capsys, "inspect", "--store", store, "--json")
    assert set(report) == INSPECT_KEYS
    assert report["context_window"] == 2500 and report["recall_messages"] == second["recall_messages"]
    assert report["in_context_messages"] == second["in_context_messages"]
    assert report["summary"] == second["summary"] and report["archival_passages"] == 0
    assert 0 < report["prompt_tokens"] <= 2500 and report["pressure"] == pytest.approx(
        report["prompt_tokens"] / 2500, abs=1e-4
    )
    assert report["blocks"]["persona"]["limit"] == 300


def test_inspect_is_read_only_and_readable(tmp_path, capsys):
    store = tmp_path / "demo"
    assert main(["demo", "--store", str(store), "--context-window", "3000", "--turns", "5"]) == 0
    out = capsys.readouterr().out
    assert "evicted messages found again" in out
    state_before = (store / "state.json").read_bytes()
    assert main(["inspect", "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert "working context" in out and "in-context messages" in out and "recall storage: 10 messages" in out
    assert (store / "state.json").read_bytes() == state_before


def test_clear_errors(tmp_path, capsys):
    assert main(["inspect", "--store", str(tmp_path / "missing")]) == 2
    assert "does not exist" in capsys.readouterr().err
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "x.txt").write_text("x")
    assert main(["demo", "--store", str(foreign), "--turns", "3", "--json"]) == 2
    assert "not a memgpt_lite store" in capsys.readouterr().err
    # a prompt that cannot fit is found at run time (ContextWindowExceeded is a runtime error): exit 1
    assert main(["demo", "--store", str(tmp_path / "tiny"), "--context-window", "60", "--turns", "3"]) == 1
    assert "context window is 60" in capsys.readouterr().err
    assert main(["demo", "--store", str(tmp_path / "t0"), "--turns", "0"]) == 2
    assert "--turns must be at least 1" in capsys.readouterr().err
