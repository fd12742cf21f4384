"""`benchmarks.oracle_cost`: a recording replays to the same findings and fetches, and a replay that
asks for anything else is a diff."""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from benchmarks.oracle_cost import Recorder, replay, replay_parts, run_part
from bughunt.oracles import ORACLES, judge_page
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://app.test"


def page(body: str, path: str, status: int = 200) -> FetchedPage:
    url = ORIGIN + path
    return FetchedPage(url, route_of(url), status, {}, "text/html", f"<html><body>{body}</body></html>", 1.0)


def _recorded() -> dict[str, Any]:
    first = page("<ul><li><a href='/a/1'>One</a></li><li><a href='/a/2'>Two</a></li></ul>", "/list?page=1")
    second = page(
        "<ul><li><a href='/a/2'>Two</a></li><li><a href='/a/3'>Three</a></li></ul>"
        "<ul class='pagination'><li><a href='/list?page=1'>1</a></li><li>2</li></ul>",
        "/list?page=2",
    )
    broken = page("<pre>IndexError: out of range</pre>", "/boom", 500)
    pages = {p.url: p for p in (first, second, broken)}
    recorder = Recorder(judge_page)
    for p in (second, broken):
        recorder(p, lambda url: pages[url])
    return recorder.recording()


def test_a_recording_replays_to_its_findings_and_fetches() -> None:
    rec = _recorded()
    kinds = [[f["kind"] for f in call["findings"]] for call in rec["calls"]]
    assert kinds == [["duplicate_pagination"], ["server_error"]]
    assert [f[0] for f in rec["calls"][0]["fetches"]] == [ORIGIN + "/list?page=1"]
    cpu, parsed, diffs = replay(rec)
    assert diffs == 0 and parsed == 3 and cpu >= 0


def test_other_findings_or_fetches_are_diffs() -> None:
    rec = _recorded()
    other = copy.deepcopy(rec)
    other["calls"][1]["findings"] = []
    assert replay(other)[2] == 1
    moved = copy.deepcopy(rec)
    moved["calls"][0]["fetches"][0][0] = ORIGIN + "/elsewhere"
    assert replay(moved)[2] == 1


def test_each_oracle_is_timed_and_one_runs_alone() -> None:
    rec = _recorded()
    every = list(ORACLES)
    whole = replay_parts(rec)
    assert whole.diffs == 0 and list(whole.oracles) == every
    assert whole.cpu_s >= sum(whole.oracles.values()) * 0.5  # the oracles' times are parts of the whole
    alone = replay_parts(rec, ("duplicate_pagination",))
    assert list(alone.oracles) == ["duplicate_pagination"] and alone.diffs == 0
    assert list(ORACLES) == every  # the oracles are all back after a replay of one
    with pytest.raises(SystemExit, match="no oracle named"):
        run_part("oracle:no_such_oracle", _saved(rec))


def _saved(rec: dict[str, Any]) -> Path:
    path = Path(tempfile.mkdtemp()) / "rec.json"
    path.write_text(json.dumps(rec))
    return path


def test_record_writes_down_the_calls_of_a_real_run(tmp_path: Path) -> None:
    """`record` wraps the name the step calls: a run's judgements are all written down and replay alike."""
    from benchmarks.oracle_cost import record

    out = tmp_path / "rec.json"
    calls = record(
        out, ["explore", "--builtin-site", "--store", str(tmp_path / "s"), "--budget", "4", "--json"]
    )
    rec = json.loads(out.read_text())
    assert calls == len(rec["calls"]) >= 4
    assert any(call["findings"] for call in rec["calls"])
    assert replay(rec)[2] == 0


def test_each_oracle_counts_the_pages_it_spoke_on_and_its_time_where_it_did_not() -> None:
    """The count an applicability cut is judged by: per oracle, on how many inspected pages it found
    anything, and the CPU it spent on the others (the most a skip there could save)."""
    rec = _recorded()
    whole = replay_parts(rec)
    spoke = {name: n for name, n in whole.found.items() if n}
    assert spoke == {"duplicate_pagination": 1, "server_error": 1}
    assert list(whole.found) == list(whole.silent_s) == list(ORACLES)
    for name, took in whole.silent_s.items():
        assert 0 <= took <= whole.oracles[name]
    alone = replay_parts(rec, ("server_error",))
    assert alone.found == {"server_error": 1} and list(alone.silent_s) == ["server_error"]
