"""`python -m benchmarks.engines`: real explorations in fresh processes, measured; tiny budgets here."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from benchmarks.engines import main, measure

ROOT = Path(__file__).resolve().parents[2]


def _bench(*argv: str) -> tuple[int, dict, str]:
    p = subprocess.run(
        [sys.executable, "-m", "benchmarks.engines", "--json", *argv],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    return p.returncode, (json.loads(p.stdout) if p.returncode == 0 else {}), p.stderr


def test_the_tree_peak_counts_children_that_the_single_process_peak_does_not():
    # A parent that holds ~20 MB starts two children that each touch ~60 MB at once: the tree's peak
    # must see all three together, more than any one of them holds. (The kernel's per-process peak
    # also counts the launcher's size at fork — pytest's, here — so it is only checked from below.)
    script = textwrap.dedent(
        """
        import subprocess, sys, time
        hold = bytearray(20 * 2**20)
        child = "b = bytearray(60 * 2**20); import time; time.sleep(1.0)"
        kids = [subprocess.Popen([sys.executable, "-c", child]) for _ in range(2)]
        for k in kids:
            k.wait()
        """
    )
    m = measure([sys.executable, "-c", script], interval=0.02)
    assert m.returncode == 0
    mb = 2**20
    assert m.peak_processes == 3
    assert m.peak_rss >= (20 + 60 + 60) * mb  # no one of the three ever holds more than ~75 MB
    assert m.max_single_rss >= 60 * mb
    assert 0 < m.peak_pss <= m.peak_rss


@pytest.mark.slow
def test_http_engine_on_both_sites_reports_rates_memory_and_load_and_removes_its_stores():
    rc, result, err = _bench("--engine", "http", "--repeats", "2", "--budget", "3")
    assert rc == 0, err
    assert set(result["sites"]) == {"24-page", "conduit-htmx"}
    assert len(result["load_start"]) == 3 and len(result["load_end"]) == 3
    for site in result["sites"].values():
        assert set(site["engines"]) == {"http"}
        assert site["browser_over_http"] is None  # no browser run: no ratio made up
        runs = site["engines"]["http"]["runs"]
        assert len(runs) == 2
        for r in runs:
            assert 1 <= r["clicks"] <= 3 and r["fetches"] >= r["clicks"]
            assert r["pages_per_s"] == pytest.approx(r["fetches"] / r["wall_s"])
            assert r["clicks_per_s"] == pytest.approx(r["clicks"] / r["wall_s"])
            assert 0 < r["session_s"] < r["wall_s"]
            assert r["session_pages_per_s"] > r["pages_per_s"]
            assert r["peak_tree_rss_mb"] > 20 and r["memory_samples"] >= 1  # a Python process with imports
            assert r["peak_processes"] == 1  # the http engine starts no children
            assert len(r["load_before"]) == 3 and len(r["load_after"]) == 3
            assert not Path(r["store"]).exists()
        summary = site["engines"]["http"]["summary"]
        assert summary["wall_s_min"] <= summary["wall_s"]
        assert summary["peak_tree_rss_mb"] == max(r["peak_tree_rss_mb"] for r in runs)
    # conduit-htmx was explored logged in, through its login form (a refused login fails the run).
    assert {r["login"] is not None for r in result["sites"]["conduit-htmx"]["engines"]["http"]["runs"]} == {
        True
    }
    assert {r["login"] for r in result["sites"]["24-page"]["engines"]["http"]["runs"]} == {None}
    assert "[conduit-htmx] http run 2/2" in err  # progress on stderr


def test_conduit_htmx_is_explored_logged_in():
    from benchmarks.engines import explore_command, serving

    with serving("conduit-htmx") as site:
        assert site.username and site.password and site.login_url
        cmd = explore_command(site, "http", 3, Path("/tmp/unused"))
    assert "--password-env" in cmd and site.password not in cmd  # the password never on a command line


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--repeats", "0"], "--repeats must be at least 1, got 0"),
        (["--budget", "0"], "--budget must be at least 1, got 0"),
        (["--interval", "0"], "--interval must be positive"),
    ],
)
def test_bad_input_is_one_clear_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("chromium") is None, reason="no chromium")
def test_browser_beside_http_counts_chromium_children():
    # conduit-htmx: Chromium logged in through the login form (the README's run of the benchmark is
    # HTTP-only, so this is the one Chromium run of it)
    rc, result, err = _bench("--site", "conduit-htmx", "--repeats", "1", "--budget", "3")
    assert rc == 0, err
    site = result["sites"]["conduit-htmx"]
    assert [r["login"] for r in site["engines"]["browser"]["runs"]] == [
        r["login"] for r in site["engines"]["http"]["runs"]
    ]
    assert site["engines"]["browser"]["runs"][0]["login"]
    http, browser = (site["engines"][e]["summary"] for e in ("http", "browser"))
    assert browser["peak_processes"] > 1  # Chromium's processes were in the tree
    assert browser["peak_tree_rss_mb"] > http["peak_tree_rss_mb"]
    ratio = site["browser_over_http"]
    assert ratio["pages_per_s"] == pytest.approx(browser["pages_per_s"] / http["pages_per_s"])
    assert ratio["peak_tree_rss_mb"] == pytest.approx(browser["peak_tree_rss_mb"] / http["peak_tree_rss_mb"])
