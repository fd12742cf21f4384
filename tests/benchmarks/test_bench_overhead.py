"""`python -m benchmarks.overhead`: the site's record of requests, the bare loop's login, and a real run
at a tiny budget."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from benchmarks.loop_marks import loop_cpu_s
from benchmarks.overhead import form_login
from benchmarks.overhead_report import HEADER, spread
from benchmarks.recorded_site import Recording, read_requests
from benchmarks.scale_crawl import crawl
from bughunt.webapp.conduit import DEMO_PASSWORD, DEMO_USER, running_conduit
from bughunt.webapp.pages import Response
from bughunt.webapp.server import Request

ROOT = Path(__file__).resolve().parents[2]


def test_the_record_gives_each_reader_only_the_requests_since_its_last_look(tmp_path):
    record = tmp_path / "requests"
    with record.open("a", encoding="utf-8") as out:
        app = Recording(lambda request: Response(200, "ok"), out)
        app(Request("GET", "/a?page=2"))
        first, offset = read_requests(record, 0)
        app(Request("POST", "/login"))
        app(Request("GET", "/b"))
        second, end = read_requests(record, offset)
    assert first == [("GET", "/a?page=2")]
    assert second == [("POST", "/login"), ("GET", "/b")]
    assert read_requests(record, end) == ([], end)


def test_the_bare_loop_logs_in_through_the_login_form():
    with running_conduit() as url, httpx.Client(follow_redirects=False) as client:
        before = client.get(url + "/settings")
        form_login(client, url + "/login", DEMO_USER, DEMO_PASSWORD)
        after = client.get(url + "/settings")
    assert before.status_code != 200  # the settings page is behind the login
    assert after.status_code == 200


@pytest.mark.slow
def test_a_tiny_run_measures_the_explorer_beside_the_bare_loop_over_its_own_requests():
    p = subprocess.run(
        [sys.executable, "-m", "benchmarks.overhead", "--site", "builtin,conduit-htmx", "--budget", "4",
         "--short-budget", "2", "--repeats", "2", "--bare-passes", "3", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr[-2000:]
    result = json.loads(p.stdout)
    for name in ("builtin", "conduit-htmx"):
        site = result["sites"][name]
        run = site["rounds"][0]
        assert site["same_start"] and run["clicks"] == 4
        # the bare loop replays every request the explorer made after start-up (all GETs here)
        assert run["bare_requests"] == run["requests_after_start"] - run["not_replayed"] > 0
        # four clicks' CPU is within the start-up run's noise under load: only its sign is not asserted
        assert site["start_cpu_s"] > 0 and site["bare_cpu_s"] > 0
        # start-up is run before and after the budget run, the bare loop three times: each side's figure
        # is the mean of the two start-up runs, the median pass
        assert run["start_cpu_s"] == pytest.approx(sum(run["start_cpu_s_runs"]) / 2)
        assert len(run["bare_passes_cpu_s"]) == 3
        assert run["bare_cpu_s"] == sorted(run["bare_passes_cpu_s"])[1]
        ratios = sorted(r["over_bare"] for r in site["rounds"])
        assert (site["over_bare_min"], site["over_bare_max"]) == (ratios[0], ratios[-1])
        assert site["over_bare_q1"] <= site["over_bare"] <= site["over_bare_q3"]
        # the click loop's CPU, read in the explorer's own process: within its whole run's CPU
        assert 0 < run["loop_cpu_s"] < run["cpu_s"]
        assert run["over_bare_loop"] == pytest.approx(run["loop_cpu_s"] / run["bare_cpu_s"])
        assert site["over_bare_loop_min"] <= site["over_bare_loop"] <= site["over_bare_loop_max"]
        assert run["over_bare"] == pytest.approx(run["explorer_cpu_s"] / run["bare_cpu_s"])
        # the paced loop replays the same requests, idling before each as the explorer worked per request
        assert run["pause_s"] == pytest.approx(
            max(0.0, (run["explorer_cpu_s"] - run["bare_cpu_s"]) / run["bare_requests"])
        )
        assert run["over_paced"] == pytest.approx(run["explorer_cpu_s"] / run["paced_cpu_s"])
        # the short run, beside: its own requests replayed by the bare loop, and the two runs' line
        assert run["short_clicks"] == 2 and run["short_same_start"]
        assert run["short_bare_requests"] == run["short_requests_after_start"] > 0
        if run["requests_after_start"] > run["short_requests_after_start"]:
            slope = (run["explorer_cpu_s"] - run["short_explorer_cpu_s"]) / (
                run["requests_after_start"] - run["short_requests_after_start"]
            )
            assert run["explorer_ms_per_fetch_steady"] == pytest.approx(1000 * slope)
            assert run["explorer_once_ms"] == pytest.approx(
                1000 * (run["explorer_cpu_s"] - slope * run["requests_after_start"])
            )
        for key in ("explorer_once_ms", "over_bare_steady", "short_budget"):
            assert key in site
    assert "× bare" in p.stderr  # progress, one line a round
    assert HEADER.split()[0] == "site" and "once ms" in HEADER and "× steady" in HEADER and "IQR" in HEADER
    assert result["short_budget"] == 2 and result["bare_passes"] == 3


def test_the_spread_of_the_rounds_ratios_is_their_range_and_quartiles():
    out = spread("over_bare", [3.4, 2.9, 3.0, 3.1, 3.2])
    assert (out["over_bare_min"], out["over_bare_max"]) == (2.9, 3.4)
    assert out["over_bare_q1"] == pytest.approx(3.0) and out["over_bare_q3"] == pytest.approx(3.2)
    assert out["over_bare_iqr"] == pytest.approx(0.2)
    assert spread("over_bare", [3.0])["over_bare_iqr"] == 0
    assert spread("over_bare", []) == {}


def test_the_paced_loop_idles_before_each_request_without_counting_the_idle_as_cpu():
    with running_conduit() as url:
        routes = ["/", "/?page=2", "/"]
        plain = crawl(url, routes)
        started = time.perf_counter()
        paced = crawl(url, routes, pause_s=0.2)
        wall = time.perf_counter() - started
    assert plain.pages == paced.pages == 3 and plain.links == paced.links > 0
    assert wall >= 3 * 0.2  # it idled before each request
    assert paced.cpu_s < 0.3  # a sleep is no CPU: 0.6 s of idle would be


def test_the_instruction_count_is_read_from_callgrinds_summary_line(tmp_path):
    from benchmarks.instructions import counted

    out = tmp_path / "callgrind.out"
    out.write_bytes(
        b"version: 1\ncreator: callgrind-3.19.0\nevents: Ir\nsummary: 89059705\ntotals: 89059705\n"
    )
    assert counted(out) == 89059705


def test_the_counted_bare_loop_logs_in_and_fetches_every_listed_route(tmp_path):
    routes = tmp_path / "routes"
    routes.write_text("/\n/settings\n", encoding="utf-8")
    with running_conduit() as url:
        p = subprocess.run(
            [sys.executable, "-m", "benchmarks.instructions", "--url", url, "--routes", str(routes),
             "--login-url", url + "/login", "--username", DEMO_USER, "--password-env", "BH_TEST_PW"],
            cwd=ROOT, capture_output=True, text=True, timeout=120, env={**os.environ, "BH_TEST_PW": DEMO_PASSWORD},
        )  # fmt: skip
    assert p.returncode == 0, p.stderr[-2000:]
    assert json.loads(p.stdout)["pages"] == 2


def test_the_loop_marks_add_up_every_loop_of_the_run_and_say_none_without_one():
    assert loop_cpu_s("1.5 1.75\n2.0 2.25\n") == pytest.approx(0.5)
    assert loop_cpu_s("") is None
