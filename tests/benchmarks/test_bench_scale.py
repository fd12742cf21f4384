"""`python -m benchmarks.scale`: the generated site, and a real benchmark run at tiny sizes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.scale import HEADER
from benchmarks.scale_data import FULL, QUICK, Catalog
from benchmarks.scale_site import PLANTED, Site, planted_for, routes
from bughunt.oracles import inspect_page
from bughunt.page import FetchedPage
from bughunt.webapp.server import Request

ROOT = Path(__file__).resolve().parents[2]
BASE = "http://scale.test"


def test_the_full_site_has_ten_thousand_pages_and_serves_every_one_it_counts():
    catalog = Catalog(FULL)
    every = list(routes(catalog))
    assert len(every) == len(set(every)) >= 10_000
    site = Site(catalog)
    statuses = {site(Request("GET", r)).status for r in every[::50]}
    assert statuses <= {200, 500} and 200 in statuses
    assert site(Request("GET", "/item/0")).status == 404
    assert site(Request("GET", "/c/1?sort=sideways")).status == 404


def _page(site: Site, route: str) -> FetchedPage:
    r = site(Request("GET", route))
    return FetchedPage(
        BASE + route, route, r.status, dict(r.headers), "text/html; charset=utf-8", r.body, 0.0
    )


def test_the_oracles_find_every_planted_bug_and_nothing_else_on_the_quick_site():
    # Every page of the small site through every oracle, with a fetch that serves the site itself:
    # each planted bug is found, and no finding falls outside them (a numeric identifier such as
    # /tag/7 beside /tag/6, or /item/11 beside /item/10, is no page number).
    catalog = Catalog(QUICK)
    site = Site(catalog)
    found: set[str] = set()
    for route in routes(catalog):
        for finding in inspect_page(_page(site, route), lambda url: _page(site, url.removeprefix(BASE))):
            bug = planted_for(catalog, finding.kind, finding.route)
            assert bug is not None, (finding.kind, finding.route)
            found.add(bug.kind)
    assert found == {b.kind for b in PLANTED}


@pytest.mark.slow
def test_the_quick_benchmark_measures_both_policies_beside_the_crawl(tmp_path):
    walks = tmp_path / "walks"
    p = subprocess.run(
        [sys.executable, "-m", "benchmarks.scale", "--quick", "--clicks", "8,20", "--json", "--walks", str(walks)],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    result = json.loads(p.stdout)
    assert result["site"]["quick"] and result["site"]["pages"] == sum(1 for _ in routes(Catalog(QUICK)))
    assert len(result["load_start"]) == 3 and len(result["load_end"]) == 3
    assert [(r["policy"], r["budget"]) for r in result["runs"]] == [
        ("planner", 8), ("planner", 20), ("frontier", 8), ("frontier", 20)
    ]  # fmt: skip
    for r in result["runs"]:
        walk = json.loads((walks / f"{r['policy']}-{r['budget']}.json").read_text())
        assert r["clicks"] == r["budget"] and len(walk) == r["clicks"] + 1  # the free landing first
        assert r["crawl_pages"] == len(walk) and r["crawl_links"] > 10 * len(walk)  # the crawl parsed them
        # 8 or 20 clicks on the tiny site cost about what start-up's noise does: the figures must be
        # there and agree with each other, not show a growth rate (the full benchmark judges that)
        assert r["cpu_s"] > 0 and r["start_cpu_s"] > 0 and r["crawl_ms_per_page"] > 0
        assert r["cpu_ms_per_click"] == pytest.approx(
            (r["cpu_s"] - r["start_cpu_s"]) * 1000 / r["clicks"], abs=0.01
        )
        assert r["over_crawl"] == pytest.approx(r["cpu_ms_per_click"] / r["crawl_ms_per_page"])
        assert r["peak_rss_mb"] > 20 and r["store_kb_per_page"] > 0 and r["fetches"] >= r["clicks"]
        assert r["score"]["false_positives"] == [] and r["score"]["planted"] == len(PLANTED)
    # the table, row by row as the runs end, is the progress on stderr
    assert HEADER in p.stderr and all(r["walk_digest"] in p.stderr for r in result["runs"])


def test_the_last_fifth_of_the_clicks_is_timed_from_the_looks_at_the_child():
    from benchmarks.scale_run import Run

    run = Run("frontier", 100, 100, 100, 100, 0, "budget", 9.0, 1.0, 1, 1.0)
    # 10 ms a click for the first 80 clicks, 30 ms after; the session's end (after the last step) is not a click
    run.cpu_by_step = [(1, 0.5), (40, 0.9), (79, 1.29), (81, 1.33), (90, 1.6), (101, 1.93), (101, 2.5)]
    first, ms = run.marginal()
    assert first == 81 and ms == pytest.approx(30.0)
    assert Run("frontier", 0, 0, 0, 0, 0, "budget", 1.0, 1.0, 1, 1.0).marginal() is None
