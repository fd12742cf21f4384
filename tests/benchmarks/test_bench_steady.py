"""`benchmarks.steady`: a run's cost split into a steady cost a fetch and a cost once a run."""

from __future__ import annotations

import pytest

from benchmarks.steady import Line, fit, steady_ratio


def test_two_runs_of_a_line_give_back_its_slope_and_intercept():
    # once 80, 10 a fetch: 4 fetches cost 120, 26 cost 340
    line = fit(4, 120.0, 26, 340.0)
    assert line is not None
    assert line.per_fetch == pytest.approx(10.0) and line.once == pytest.approx(80.0)


def test_runs_of_as_many_fetches_tell_no_slope():
    # the site ran out of pages before the short budget did: both runs made the same fetches
    assert fit(24, 100.0, 24, 101.0) is None
    assert fit(26, 100.0, 24, 101.0) is None


def test_the_steady_ratio_is_the_slopes_ratio_and_needs_both_and_a_positive_bare_slope():
    explorer, bare = Line(10.0, 80.0), Line(2.5, 1.0)
    assert steady_ratio(explorer, bare) == pytest.approx(4.0)
    assert steady_ratio(None, bare) is None and steady_ratio(explorer, None) is None
    assert steady_ratio(explorer, Line(-0.1, 5.0)) is None  # noise at a tiny difference of fetches
