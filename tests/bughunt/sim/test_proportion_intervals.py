"""No interval of a proportion in any output leaves [0, 1] (a difference of proportions: [-1, 1]), and the
seed's normal-approximation paired figures still reproduce."""

from __future__ import annotations

import json

import pytest

from bughunt.cli import main
from bughunt.sim.stats import PROPORTION_METRICS, compare_paired, mean_ci, proportion_ci, wilson_ci


def test_wilson_matches_the_textbook_values_and_stays_inside():
    iv = wilson_ci(197, 200)  # 98.5%: the normal interval would reach past 100%
    assert iv.mean == pytest.approx(0.985)
    assert iv.lo == pytest.approx(0.95685, abs=1e-4) and iv.hi == pytest.approx(0.99487, abs=1e-4)
    assert wilson_ci(0, 10).lo == 0 and wilson_ci(10, 10).hi == 1
    assert 0 < wilson_ci(0, 10).hi < 0.35 and 0.65 < wilson_ci(10, 10).lo < 1


def test_proportion_ci_stays_inside_where_the_normal_approximation_does_not():
    rare = [0.0] * 197 + [1.0] * 3  # 1.5%: the seed's mean ± 1.96·s/√n starts below zero
    assert mean_ci(rare).lo < 0
    iv = proportion_ci(rare)
    assert 0 <= iv.lo < iv.mean < iv.hi <= 1
    fractions = [0.96] * 190 + [1.0] * 10  # fractional values near the top: bootstrap percentile
    assert mean_ci(fractions).hi > 0.96
    iv = proportion_ci(fractions)
    assert iv.lo >= 0.96 and iv.hi <= 1 and iv.lo <= iv.mean <= iv.hi
    with pytest.raises(Exception, match=r"\[0, 1\]"):
        proportion_ci([0.5, 1.5])


def test_a_paired_difference_of_proportions_falls_back_to_the_bootstrap_only_outside_its_range():
    a = {t: [1.0] for t in range(200)}
    b = {t: [0.0 if t >= 3 else 1.0] for t in range(200)}  # +98.5 pp
    unbounded = compare_paired(a, b, resamples=2000)
    assert unbounded.hi > 1 and unbounded.method == "normal"
    bounded = compare_paired(a, b, resamples=2000, bounds=(-1.0, 1.0))
    assert bounded.method == "bootstrap" and -1 <= bounded.lo <= bounded.hi <= 1
    inside = {t: [0.5 + (t % 3) / 10] for t in range(200)}
    ok = compare_paired(inside, b, resamples=2000, bounds=(-1.0, 1.0))
    assert ok.method == "normal"  # inside its range the seed's method is kept


def _check_document(doc: dict) -> int:
    checked = 0
    for ms in doc["configs"].values():
        for m, iv in ms.items():
            if m in PROPORTION_METRICS:
                assert 0 <= iv["lo"] <= iv["mean"] <= iv["hi"] <= 1, (m, iv)
                checked += 1
    for ms in doc.get("paired", {}).values():
        for m, p in ms.items():
            if m in PROPORTION_METRICS:
                assert -1 <= p["lo"] <= p["hi"] <= 1, (m, p)
                checked += 1
    return checked


@pytest.mark.parametrize("preset", ["planner", "components"])
def test_no_preset_ablation_prints_a_proportion_interval_outside_its_range(preset, capsys):
    assert main(["ablate", "--config", preset, "--workers", "1", "--json"]) == 0
    assert _check_document(json.loads(capsys.readouterr().out)) > 5


@pytest.mark.slow
def test_reproduce_keeps_the_seeds_figures_and_bounded_intervals(capsys):
    from bughunt.sim.stats import pct

    assert main(["ablate", "--reproduce", "--json"]) == 0
    out = capsys.readouterr()
    r = json.loads(out.out)
    for s, m in r["strategies"].items():
        c = m["coverage"]
        assert 0 <= c["lo"] <= c["mean"] <= c["hi"] <= 1, s
    v, f = r["paired"]["visited_vs_random"], r["paired"]["frontier_vs_random"]
    assert [pct(v[k], True) for k in ("mean", "lo", "hi")] == ["+29.3", "+27.9", "+30.6"]
    assert [pct(f[k], True) for k in ("mean", "lo", "hi")] == ["+45.1", "+44.0", "+46.1"]
    assert v["method"] == f["method"] == "normal"
    c12 = r["capacity_12_random_vs_fifo"]
    assert [pct(c12[k], True) for k in ("mean", "lo", "hi")] == ["+3.8", "+2.7", "+4.8"]
    assert "Seed experiment" in out.err  # the tables went to stderr, stdout is the JSON alone
