"""Statistics the way the specification asks for them.

- Intervals: mean ± 1.96·s/√n (normal approximation, sample SD), as the seed script's `mean_ci`, for
  counts and tokens. Proportions (coverage, repeat rate, completion, bug recall) get intervals that stay
  inside [0, 1] (`proportion_ci`): the Wilson score interval when every per-task value is 0 or 1 (a
  binomial count), else the seeded bootstrap percentile interval of the mean (values such as coverage
  are fractions, not 0/1 outcomes, so Wilson's binomial variance would not describe them).
- Paired differences keep the normal approximation (the seed's published figures, e.g. +29.3 pp
  [+27.9, +30.6], are computed that way); for a difference of proportions whose normal interval would
  leave [−1, 1] the bootstrap percentile interval is reported instead (`method` says which).
- Paired comparisons: the pairing unit is the task. When a task has several runs, each configuration's
  runs are averaged per task first and the differences are taken between task means — runs are never
  pooled. The interval is over those per-task differences; a seeded paired bootstrap resamples tasks.
- Unpaired intervals (difference of means ± 1.96·√(s₁²/n₁ + s₂²/n₂)) are reported next to the paired
  ones, to show how much pairing narrows them.
- Rounding for display: half up to one decimal of a percentage (the seed's `pct`), not Python's
  round-half-even.
"""

from __future__ import annotations

import functools
import math
import statistics
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, TypeVar

from memgpt_lite.errors import UsageError

K = TypeVar("K", bound=Hashable)

Z95 = 1.96
BOOTSTRAP_RESAMPLES = 10_000
BOOTSTRAP_SEED = 0


def pct(x: float, sign: bool = False) -> str:
    """Proportion → percentage with one decimal, rounded half up (the seed's `pct`, JS `Math.round`)."""
    v = math.floor(x * 1000 + 1e-9 + 0.5) / 10
    return f"{v:+.1f}" if sign else f"{v:.1f}"


def round_half_up(x: float, ndigits: int = 1) -> float:
    """Round half up (away from −∞) to `ndigits` decimals, with the seed's 1e-9 guard against 0.x4999…."""
    f: float = 10**ndigits
    return math.floor(x * f + 1e-9 + 0.5) / f


@dataclass(frozen=True, slots=True)
class Interval:
    mean: float
    lo: float
    hi: float

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2

    def to_json(self) -> dict[str, float]:
        return {"mean": self.mean, "lo": self.lo, "hi": self.hi}


def mean_ci(xs: Sequence[float], z: float = Z95) -> Interval:
    """Mean and its normal-approximation interval mean ± z·s/√n."""
    n = len(xs)
    if n < 2:
        raise UsageError(f"an interval needs at least 2 values, got {n}")
    m = statistics.fmean(xs)
    half = z * statistics.stdev(xs) / math.sqrt(n)
    return Interval(m, m - half, m + half)


PROPORTION_METRICS = frozenset({"coverage", "repeat_rate", "complete", "bug_recall"})


def wilson_ci(successes: int, n: int, z: float = Z95) -> Interval:
    """Wilson score interval for `successes` out of `n` (stays inside [0, 1], sensible at 0 and n)."""
    if n < 1 or not 0 <= successes <= n:
        raise UsageError(f"a Wilson interval needs 0 <= successes <= n and n >= 1, got {successes}/{n}")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def proportion_ci(
    xs: Sequence[float], resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED
) -> Interval:
    """Mean of per-task proportions with an interval inside [0, 1]: Wilson when every value is 0 or 1,
    else the seeded bootstrap percentile interval of the mean."""
    n = len(xs)
    if n < 2:
        raise UsageError(f"an interval needs at least 2 values, got {n}")
    if any(not (-1e-12 <= x <= 1 + 1e-12) for x in xs):
        raise UsageError("proportion_ci: values must lie in [0, 1]")
    if all(x in (0, 1) for x in xs):
        return wilson_ci(int(sum(xs)), n)
    lo, hi = bootstrap_ci(xs, resamples, seed)
    return Interval(statistics.fmean(xs), lo, hi)


def paired_differences(a: Sequence[float], b: Sequence[float]) -> list[float]:
    """Element-wise a − b; both must be in the same task order."""
    if len(a) != len(b):
        raise UsageError(f"paired samples differ in length: {len(a)} vs {len(b)}")
    return [x - y for x, y in zip(a, b, strict=True)]


def unpaired_ci(a: Sequence[float], b: Sequence[float], z: float = Z95) -> Interval:
    """Interval for mean(a) − mean(b) treating the samples as independent."""
    if len(a) < 2 or len(b) < 2:
        raise UsageError("an unpaired interval needs at least 2 values per sample")
    m = statistics.fmean(a) - statistics.fmean(b)
    half = z * math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return Interval(m, m - half, m + half)


def bootstrap_ci(
    diffs: Sequence[float],
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    level: float = 0.95,
) -> tuple[float, float]:
    """Percentile interval of the mean from `resamples` seeded resamples (with replacement) of `diffs`.

    With B resamples and tail k = floor(B·(1−level)/2), the bounds are the (k+1)-th smallest and the
    (k+1)-th largest resampled mean (for B = 10,000: indices 250 and 9,749 of the sorted means).
    """
    import numpy as np  # numpy is only needed here; keep `bughunt sim` start-up light

    n = len(diffs)
    if n < 1 or resamples < 1:
        raise UsageError("a bootstrap needs at least one value and one resample")
    data = np.asarray(diffs, dtype=np.float64)
    if n * resamples <= _PLAN_LIMIT:
        means = data[_resample_plan(n, resamples, seed)].mean(axis=1)
    else:  # large task sets: stream the plan in chunks to bound memory
        rng = np.random.Generator(np.random.PCG64(seed))
        means = np.empty(resamples)
        chunk = max(1, _PLAN_LIMIT // n)
        for start in range(0, resamples, chunk):
            stop = min(resamples, start + chunk)
            means[start:stop] = data[rng.integers(0, n, size=(stop - start, n))].mean(axis=1)
    means.sort()
    k = int(resamples * (1 - level) / 2)
    return float(means[k]), float(means[resamples - 1 - k])


_PLAN_LIMIT = 2_000_000


@functools.lru_cache(maxsize=4)
def _resample_plan(n: int, resamples: int, seed: int) -> Any:
    """The resampling plan (resamples × n task indices) for one seed; cached read-only.

    It depends only on these three numbers, so comparisons over the same task count and seed share it
    (each is still exactly the seeded bootstrap it would be alone).
    """
    import numpy as np

    idx = np.random.Generator(np.random.PCG64(seed)).integers(0, n, size=(resamples, n))
    idx.flags.writeable = False
    return idx


@dataclass(frozen=True, slots=True)
class Wins:
    wins: int
    ties: int
    losses: int


def win_counts(diffs: Sequence[float]) -> Wins:
    """How many tasks the first configuration was higher, equal, lower on."""
    return Wins(sum(d > 0 for d in diffs), sum(d == 0 for d in diffs), sum(d < 0 for d in diffs))


def per_task_means(runs: Mapping[K, Sequence[float]]) -> dict[K, float]:
    """Average each task's runs (the step that must come before pairing or bootstrapping)."""
    out: dict[K, float] = {}
    for task, values in runs.items():
        if not values:
            raise UsageError(f"task {task!r} has no runs")
        out[task] = statistics.fmean(values)
    return out


@dataclass(frozen=True, slots=True)
class PairedComparison:
    """a − b over tasks: interval, wins, bootstrap interval and the unpaired half-width for contrast."""

    mean: float
    lo: float
    hi: float
    n_tasks: int
    wins: Wins
    bootstrap_lo: float
    bootstrap_hi: float
    unpaired_half_width: float
    method: str = "normal"  # how lo/hi were computed: "normal" (mean ± 1.96·s/√n) or "bootstrap"

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2

    def to_json(self) -> dict[str, Any]:
        return {
            "mean": self.mean,
            "lo": self.lo,
            "hi": self.hi,
            "wins": self.wins.wins,
            "ties": self.wins.ties,
            "losses": self.wins.losses,
            "n_tasks": self.n_tasks,
            "bootstrap": {"lo": self.bootstrap_lo, "hi": self.bootstrap_hi},
            "unpaired_half_width": self.unpaired_half_width,
            "method": self.method,
        }


def compare_paired(
    a: Mapping[K, Sequence[float]],
    b: Mapping[K, Sequence[float]],
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    bounds: tuple[float, float] | None = None,
) -> PairedComparison:
    """Compare configuration a with b; each maps task → that task's run values (one or several).

    `bounds` is the range the difference can take ((−1, 1) for proportions): a normal interval
    leaving it is replaced by the bootstrap percentile interval."""
    if set(a) != set(b):
        missing = sorted(map(str, set(a) ^ set(b)))[:5]
        raise UsageError(f"paired comparison needs the same tasks on both sides; differing: {missing}")
    tasks = list(a)
    ma, mb = per_task_means(a), per_task_means(b)
    xa = [ma[t] for t in tasks]
    xb = [mb[t] for t in tasks]
    diffs = paired_differences(xa, xb)
    ci = mean_ci(diffs)
    blo, bhi = bootstrap_ci(diffs, resamples, seed)
    lo, hi, method = ci.lo, ci.hi, "normal"
    if bounds is not None and (lo < bounds[0] - 1e-12 or hi > bounds[1] + 1e-12):
        lo, hi, method = blo, bhi, "bootstrap"
    return PairedComparison(
        mean=ci.mean,
        lo=lo,
        hi=hi,
        n_tasks=len(tasks),
        wins=win_counts(diffs),
        bootstrap_lo=blo,
        bootstrap_hi=bhi,
        unpaired_half_width=unpaired_ci(xa, xb).half_width,
        method=method,
    )


def sample_size(
    effect: float, sd: float, alpha: float = 0.05, power: float = 0.8, paired: bool = True
) -> int:
    """Tasks needed to detect `effect` with a two-sided test at level `alpha` with the given power.

    Paired: n = ⌈((z₁₋α/₂ + z_power) · sd / effect)²⌉ with sd the SD of per-task differences.
    Unpaired: twice that per group, with sd the SD of one configuration's per-task values.
    """
    for name, value in (("effect", effect), ("sd", sd)):
        if not math.isfinite(value):
            raise UsageError(f"{name}: must be a finite number, got {value}")
    if effect == 0:
        raise UsageError("effect: must be non-zero")
    if sd <= 0:
        raise UsageError("sd: must be positive")
    if not 0 < alpha < 1:
        raise UsageError("alpha: must be between 0 and 1")
    if not 0 < power < 1:
        raise UsageError("power: must be between 0 and 1")
    z = NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)
    n = (z * sd / abs(effect)) ** 2 * (1 if paired else 2)
    # a hair of tolerance so an exact integer is not bumped up by float noise
    return max(2, math.ceil(n - 1e-9))
