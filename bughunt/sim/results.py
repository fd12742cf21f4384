"""What the simulator takes and gives: the site graph, one run's configuration and its result.

Below the engine, its fast paths and the ablation runner, so all three share these types (and the
coverage curve) without importing each other.
"""

from __future__ import annotations

import itertools
from collections.abc import Container, Hashable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Generic, Literal, TypeVar

from memgpt_lite.errors import ConfigError

from .memory import EVICTIONS, Eviction
from .strategies import get_strategy

MemoryComponents = Literal["none", "visited", "bugs", "both"]
MEMORY_COMPONENTS: tuple[MemoryComponents, ...] = ("none", "visited", "bugs", "both")

BUDGET = 30
MAX_STEPS = 5000
BASE_TOKENS = 3000
ENTRY_TOKENS = 40

N = TypeVar("N", bound=Hashable)


@dataclass(frozen=True, slots=True)
class SimSite(Generic[N]):
    """A site as the simulator sees it: ordered links per node, a start node and the bug nodes (nodes of
    any hashable type N: page indices for the built-in site)."""

    links: Mapping[N, Sequence[N]]
    start: N
    bugs: frozenset[N]
    names: Mapping[N, str] = field(default_factory=dict)
    routes: Mapping[N, str] = field(default_factory=dict)
    """Each node's URL path, for strategies that read URL structure (see `bughunt.planning`)."""

    @property
    def n_nodes(self) -> int:
        return len(self.links)

    def name(self, node: N) -> str:
        return self.names.get(node, str(node))


@dataclass(frozen=True, slots=True)
class RunConfig:
    """One simulator configuration; `memory=None` means the strategy's seed default.

    `eviction` is what a full visit record forgets (`policy=` is its deprecated old name, accepted once
    when building and folded into `eviction`).
    """

    strategy: str = "frontier"
    capacity: int | None = None
    eviction: Eviction = "fifo"
    memory: MemoryComponents | None = None
    budget: int = BUDGET
    until_all_bugs: bool = False
    max_steps: int = MAX_STEPS
    base_tokens: int = BASE_TOKENS
    entry_tokens: int = ENTRY_TOKENS
    bug_entry_tokens: int = 0
    policy: Eviction | None = field(default=None, repr=False, compare=False)
    """Deprecated alias of `eviction`; always None after construction."""

    def __post_init__(self) -> None:
        if self.policy is not None:
            object.__setattr__(self, "eviction", self.policy)
            object.__setattr__(self, "policy", None)
        get_strategy(self.strategy)  # raises ConfigError naming the field
        if self.eviction not in EVICTIONS:
            raise ConfigError(f"eviction: must be one of {', '.join(EVICTIONS)}, got {self.eviction!r}")
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
        return coverage_curve(self.path, n_nodes)

    @classmethod
    def of_walk(
        cls,
        path: list[Any],
        distinct: int,
        n_nodes: int,
        reports: int,
        bugs_found: int,
        tokens: int,
        stopped: bool,
    ) -> RunResult:
        """The result of a finished walk (`distinct` nodes on `path`); every simulator loop ends here.

        Each step either reaches a new node or repeats one, so the repeats need no counter of their own.
        """
        steps = len(path) - 1
        return cls(
            path=path,
            coverage=distinct / n_nodes,
            repeat_rate=(steps - (distinct - 1)) / max(steps, 1),
            bugs_found=bugs_found,
            reports=reports,
            duplicate_reports=reports - bugs_found,
            tokens=tokens,
            steps=steps,
            stopped=stopped,
        )


def coverage_curve(path: Sequence[Any], n_nodes: int, within: Container[Any] | None = None) -> list[float]:
    """Coverage after each step of `path` (index 0: the start node alone): distinct nodes so far / `n_nodes`.

    The one coverage curve, of the simulator and of the web explorer: a None step reached no node (a
    failed fetch), and with `within` only those nodes count (a real site's extra pages are not coverage).
    """
    seen: set[Any] = set()
    add = seen.add
    # `add` returns None, so each item is True exactly when the node is new
    firsts = [
        p is not None and (within is None or p in within) and p not in seen and add(p) is None for p in path
    ]
    return [c / n_nodes for c in itertools.accumulate(firsts)]
