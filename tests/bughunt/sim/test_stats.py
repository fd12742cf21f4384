"""Statistics against values computed by hand."""

from __future__ import annotations

import math

import pytest

from bughunt.sim.stats import (
    bootstrap_ci,
    compare_paired,
    mean_ci,
    paired_differences,
    pct,
    per_task_means,
    round_half_up,
    sample_size,
    unpaired_ci,
    win_counts,
)
from memgpt_lite.errors import UsageError


def test_pct_rounds_half_up_like_the_seed():
    assert pct(0.2925) == "29.3"  # Python's format would give 29.2
    assert pct(0.29249) == "29.2"
    assert pct(0.451, sign=True) == "+45.1"
    assert pct(-0.0125, sign=True) == "-1.2"  # half up is toward +inf
    assert pct(0.78) == "78.0"
    assert round_half_up(1.25) == 1.3 and round_half_up(0.125, 2) == 0.13


def test_mean_ci_by_hand():
    ci = mean_ci([1, 2, 3, 4])
    # mean 2.5; s = sqrt(5/3) = 1.2909944; half = 1.96 * s / 2 = 1.2651745
    assert ci.mean == 2.5
    assert ci.lo == pytest.approx(2.5 - 1.2651745, abs=1e-7)
    assert ci.hi == pytest.approx(2.5 + 1.2651745, abs=1e-7)
    assert ci.half_width == pytest.approx(1.2651745, abs=1e-7)
    with pytest.raises(UsageError):
        mean_ci([1.0])


def test_unpaired_by_hand():
    ci = unpaired_ci([1, 2, 3], [2, 4, 6])
    # −2 ± 1.96 · sqrt(1/3 + 4/3)
    assert ci.mean == -2
    assert ci.half_width == pytest.approx(1.96 * math.sqrt(5 / 3))


def test_paired_differences_and_wins():
    d = paired_differences([3, 1, 2], [1, 1, 3])
    assert d == [2, 0, -1]
    w = win_counts(d)
    assert (w.wins, w.ties, w.losses) == (1, 1, 1)
    with pytest.raises(UsageError):
        paired_differences([1], [1, 2])


def test_runs_are_averaged_per_task_not_pooled():
    a = {"t1": [1, 3], "t2": [2, 4], "t3": [0]}
    b = {"t1": [1], "t2": [1], "t3": [1]}
    assert per_task_means(a) == {"t1": 2, "t2": 3, "t3": 0}
    c = compare_paired(a, b, resamples=2000)
    # per-task differences 1, 2, −1: mean 2/3 (pooling all runs would give 1)
    assert c.mean == pytest.approx(2 / 3)
    s = math.sqrt(((1 / 3) ** 2 + (4 / 3) ** 2 + (5 / 3) ** 2) / 2)
    assert c.half_width == pytest.approx(1.96 * s / math.sqrt(3))
    assert (c.wins.wins, c.wins.losses, c.n_tasks) == (2, 1, 3)
    # var(2, 3, 0) = 7/3 and var(1, 1, 1) = 0 -> 1.96 * sqrt(7/9)
    assert c.unpaired_half_width == pytest.approx(1.96 * math.sqrt(7 / 9))
    with pytest.raises(UsageError, match="same tasks"):
        compare_paired({"t1": [1]}, {"t2": [1]})


def test_bootstrap_by_hand():
    # two values: resampled means are 0, 0.5, 1 with prob 1/4, 1/2, 1/4 -> 2.5% tails are 0 and 1
    assert bootstrap_ci([0.0, 1.0], resamples=10_000, seed=1) == (0.0, 1.0)
    assert bootstrap_ci([0.3] * 5) == (pytest.approx(0.3), pytest.approx(0.3))
    data = [0.1 * i for i in range(20)]
    assert bootstrap_ci(data, seed=7) == bootstrap_ci(data, seed=7)  # seeded
    lo, hi = bootstrap_ci(data, seed=7)
    normal = mean_ci(data)
    assert abs(lo - normal.lo) < 0.05 and abs(hi - normal.hi) < 0.05


def test_sample_size_by_hand():
    # ((1.959964 + 0.841621) * 0.1 / 0.05)^2 = 31.4 -> 32 tasks; unpaired doubles per group -> 63
    assert sample_size(0.05, 0.1) == 32
    assert sample_size(0.05, 0.1, paired=False) == 63
    # power 0.9: ((1.959964 + 1.281552) * 1)^2 = 10.5 -> 11
    assert sample_size(0.1, 0.1, power=0.9) == 11
    assert sample_size(-0.05, 0.1) == 32
    for bad in ({"effect": 0, "sd": 1}, {"effect": 1, "sd": 0}, {"effect": 1, "sd": 1, "alpha": 1.5}):
        with pytest.raises(UsageError):
            sample_size(**bad)


def test_bootstrap_streams_large_task_sets():
    data = [((i * 37) % 101) / 100 for i in range(30_000)]  # n × resamples above the in-memory plan limit
    lo, hi = bootstrap_ci(data, resamples=100, seed=3)
    normal = mean_ci(data)
    assert lo < normal.mean < hi and abs(lo - normal.lo) < 0.01 and abs(hi - normal.hi) < 0.01
