"""`python -m benchmarks.memory` marks each target met or MISSED, in the table and in the JSON."""

from __future__ import annotations

from benchmarks.memory import render, targets_met


def test_a_missed_target_is_marked(capsys):
    result = {
        "context_step_ms": {
            "p50": 0.05,
            "p95": 0.07,
            "baseline_p50": 2.7,
            "speedup": 54,
            "messages": 100,
            "window": 32000,
        },
        "recall_search_ms": {"p50": 7.5, "p95": 9.0, "n": 100_000, "baseline_like_scan": {"p50": 80}},
        "embed_per_s": 129,
        "embed": {"baseline_padded_256_per_s": 40},
    }
    assert targets_met(result) == {"context_step": True, "recall_search": False, "embed": False}
    render(result)
    out = capsys.readouterr().out
    assert out.count("MISSED") == 2 and out.count("yes") == 1
