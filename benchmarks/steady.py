"""A run's cost split in two: a steady cost a fetch (the slope) and a cost paid once a run (the intercept).

`benchmarks.overhead` measures the explorer and the bare loop over a short run and a long one of the same
walk. A run's figure is `once + slope × fetches`: two runs fix both, for each side. Why it is printed:
a run's ratio (the judged one) charges what the explorer does once — the first count's rank table, the
first compile of a pattern, the report at the end — to every fetch of the run, so at 26 fetches (the
24-page site) a few milliseconds once move it as much as a change to every click would; the steady
ratio (slope ÷ slope) is what a long run tends to, and the intercept is where a cut of the once-part
shows. Both are read off two points, so they carry both points' noise (under a shared machine's load a
CPU intercept of a few ms is within it; an instruction count's is exact).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Line:
    """cost = once + per_fetch × fetches."""

    per_fetch: float
    once: float


def fit(short_fetches: int, short_cost: float, long_fetches: int, long_cost: float) -> Line | None:
    """The line through the short run's point and the long run's; None when they do not tell a slope
    apart (as many fetches in both: the site ran out of pages before the short budget did)."""
    if long_fetches <= short_fetches:
        return None
    per_fetch = (long_cost - short_cost) / (long_fetches - short_fetches)
    return Line(per_fetch, long_cost - per_fetch * long_fetches)


def steady_ratio(explorer: Line | None, bare: Line | None) -> float | None:
    """The explorer's steady cost a fetch ÷ the bare loop's; None without both, or when the bare loop's
    slope is not positive (noise at a tiny difference of fetches)."""
    if explorer is None or bare is None or bare.per_fetch <= 0:
        return None
    return explorer.per_fetch / bare.per_fetch
