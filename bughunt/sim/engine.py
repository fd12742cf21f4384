"""The BugHunt simulator: one seeded walk over a site graph, as the seed script's `run`.

Each step is one model call: it costs `base_tokens` plus `entry_tokens` per remembered page (plus
`bug_entry_tokens` per remembered bug, 0 in the seed). The strategy picks a link; the walk records
revisits, bug reports and duplicate reports.

Memory components (`memory`):

- ``both`` — visit record with link table *and* bug list (the seed's memory for visited/frontier);
- ``visited`` — visit record with link table only: strategies can avoid remembered pages, but a bug
  page passed again is reported again (nobody remembers the report);
- ``bugs`` — bug list only: no visit record (visited/frontier then walk exactly like random, with the
  same draws, and no entry tokens are charged), but a bug already reported is not reported again;
- ``none`` — nothing remembered (the seed's random strategy): every pass over a bug page reports it.

The default is ``none`` for the random strategy and ``both`` for every other one, which reproduces the
seed. Capacity and eviction apply to the visit record only; the bug list is never evicted.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from memgpt_lite.errors import ConfigError

from .. import site as _site
from . import fastpath
from .memory import POLICIES, Memory, NoMemory, Policy
from .rng import mulberry32
from .strategies import frontier_strategy, get_strategy, random_strategy, visited_strategy

MemoryComponents = Literal["none", "visited", "bugs", "both"]
MEMORY_COMPONENTS: tuple[MemoryComponents, ...] = ("none", "visited", "bugs", "both")

BUDGET = 30
MAX_STEPS = 5000
BASE_TOKENS = 3000
ENTRY_TOKENS = 40


@dataclass(frozen=True, slots=True)
class SimSite:
    """A site as the simulator sees it: ordered links per node, a start node and the bug nodes."""

    links: Mapping[Hashable, Sequence[Hashable]]
    start: Hashable
    bugs: frozenset[Hashable]
    names: Mapping[Hashable, str] = field(default_factory=dict)
    routes: Mapping[Hashable, str] = field(default_factory=dict)
    """Each node's URL path, for strategies that read URL structure (see `bughunt.planning`)."""

    @property
    def n_nodes(self) -> int:
        return len(self.links)

    def name(self, node: Hashable) -> str:
        return self.names.get(node, str(node))


BUILTIN_SITE = SimSite(
    links=_site.LINKS,
    start=_site.START_PAGE,
    bugs=frozenset(_site.BUG_PAGES),
    names={p.index: p.name for p in _site.PAGES},
    routes={p.index: p.route for p in _site.PAGES},
)


@dataclass(frozen=True, slots=True)
class RunConfig:
    """One simulator configuration; `memory=None` means the strategy's seed default."""

    strategy: str = "frontier"
    capacity: int | None = None
    policy: Policy = "fifo"
    memory: MemoryComponents | None = None
    budget: int = BUDGET
    until_all_bugs: bool = False
    max_steps: int = MAX_STEPS
    base_tokens: int = BASE_TOKENS
    entry_tokens: int = ENTRY_TOKENS
    bug_entry_tokens: int = 0

    def __post_init__(self) -> None:
        get_strategy(self.strategy)  # raises ConfigError naming the field
        if self.policy not in POLICIES:
            raise ConfigError(f"policy: must be one of {', '.join(POLICIES)}, got {self.policy!r}")
        if self.memory is not None and self.memory not in MEMORY_COMPONENTS:
            raise ConfigError(f"memory: must be one of {', '.join(MEMORY_COMPONENTS)}, got {self.memory!r}")
        if self.capacity is not None and self.capacity < 1:
            raise ConfigError(f"capacity: must be at least 1 (or unset for unlimited), got {self.capacity}")
        if self.budget < 0 or self.max_steps < 0:
            raise ConfigError("budget/max_steps: must not be negative")

    @property
    def components(self) -> MemoryComponents:
        if self.memory is not None:
            return self.memory
        return "none" if self.strategy == "random" else "both"


@dataclass(slots=True)
class RunResult:
    """Outcome of one run. `path` starts with the start node; `steps` = len(path) - 1."""

    path: list[Any]
    coverage: float
    repeat_rate: float
    bugs_found: int
    reports: int
    duplicate_reports: int
    tokens: int
    steps: int
    stopped: bool
    """True when the strategy declared exploration complete before the budget ran out."""

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("stopped")
        return d

    def coverage_curve(self, n_nodes: int) -> list[float]:
        """Coverage after each step (index 0 = before the first step)."""
        from .runner import coverage_curve

        return coverage_curve(self.path, n_nodes)


def run(config: RunConfig, seed: int, site: SimSite = BUILTIN_SITE) -> RunResult:
    """One seeded run; the seed script's `run`, generalised to memory components and token weights."""
    strategy = get_strategy(config.strategy)
    components = config.components
    # The built-in strategies have inlined twins (same draws, same choices; tests compare them).
    if strategy is random_strategy and components == "none":
        return fastpath.run_memoryless_random(config, seed, site)
    if components in ("visited", "both") and (strategy is visited_strategy or strategy is frontier_strategy):
        return fastpath.run_remembering(config, seed, site, frontier=strategy is frontier_strategy)
    if site.routes and hasattr(strategy, "with_routes"):
        strategy = strategy.with_routes(site.routes)  # a real explorer's nodes are their routes
    rnd = mulberry32(seed)
    keep_visits = components in ("visited", "both")
    dedup = components in ("bugs", "both")
    links, bugs, n_bugs = site.links, site.bugs, len(site.bugs)
    mem: Memory[Any] | NoMemory[Any] = (
        Memory(config.capacity, config.policy, rnd) if keep_visits else NoMemory()
    )
    cur = site.start
    seen = {cur}
    reported: set[Any] = set()
    path = [cur]
    repeats = reports = tokens = 0
    if keep_visits:
        mem.write(cur, links[cur])
    base, per_entry, per_bug = config.base_tokens, config.entry_tokens, config.bug_entry_tokens
    limit = config.max_steps if config.until_all_bugs else config.budget
    step = 0
    stopped = False
    while step < limit:
        tokens += base + per_entry * len(mem) + (per_bug * len(reported) if dedup else 0)
        nxt = strategy(cur, links[cur], mem, rnd)
        if nxt is None:
            stopped = True
            break
        cur = nxt
        step += 1
        path.append(cur)
        if cur in seen:
            repeats += 1
        else:
            seen.add(cur)
        if cur in bugs and not (dedup and cur in reported):
            reports += 1
            reported.add(cur)
        if keep_visits:
            mem.write(cur, links[cur])
        if config.until_all_bugs and len(reported) == n_bugs:
            break
    return RunResult(
        path=path,
        coverage=len(seen) / site.n_nodes,
        repeat_rate=repeats / max(step, 1),
        bugs_found=len(reported),
        reports=reports,
        duplicate_reports=reports - len(reported),
        tokens=tokens,
        steps=step,
        stopped=stopped,
    )
