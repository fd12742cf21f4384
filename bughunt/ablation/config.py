"""One schema for ablation configs: simulator tasks and explorer tasks, validated by pydantic.

An ablation runs every configuration (a `grid` of settings, cartesian product, plus listed `configs`)
on the same tasks, `runs_per_task` times each, and compares each configuration with a `baseline`.
Two kinds of task share that shape, one strict base, one grid rule and one set of checks:

Simulator tasks (the file's top level): a task is a seed of the simulated 24-page site::

    name: eviction-at-12
    seeds: {start: 1000, count: 200}     # tasks: one per seed
    runs_per_task: 1                     # >1: extra runs use derived seeds, averaged per task
    budget: 30
    until_all_bugs: false                # true: run to the sixth bug (cap max_steps)
    tokens: {base: 3000, per_entry: 40, per_bug_entry: 0}
    grid:                                # cartesian product (eviction is ignored without a capacity)
      strategy: [frontier]
      capacity: [12]
      eviction: [fifo, lru, random]      # what a full memory forgets (`policy:` is the old name)
      memory: [both]                     # none | visited | bugs | both; null = the strategy's default
    configs:                             # extra named configurations
      - {name: no-memory, strategy: random}
    baseline: no-memory                  # paired comparisons are against this one
    metrics: [coverage, duplicate_reports, tokens]
    bootstrap: {resamples: 10000, seed: 0}

Explorer tasks (an `explorer:` section): a task is built-in site version × start page × account, and
each run explores the running site over real HTTP (`bughunt.ablation.explorer`)::

    name: explorer-memory
    explorer:
      site: 24-page                           # or conduit-htmx
      tasks: {versions: ["1.2", "1.3"], starts: ["/", "/search"], accounts: [user-a, logged-out]}
      runs_per_task: 3
      budget: 30
      seed: 1000
      grid:                                   # cartesian product
        policy: [random, visited, frontier]
        memory: [none, visited, bugs, both]   # components: visit record(+links) / bug list
        link_table: [true]
        capacity: [null]
        eviction: [fifo]
      configs: [{name: frontier-no-links, policy: frontier, memory: both, link_table: false}]
      baseline: random/mem-none
      metrics: [coverage, bug_recall, duplicate_reports, repeat_rate, tokens]
      bootstrap: {resamples: 10000, seed: 0}
      # until_all_bugs: true   # run each task until its version's bugs are all found (max_steps: 200);
      #                        # metrics steps_to_all_bugs, tokens_to_all_bugs, tokens_per_bug

`versions` default to the site's own (conduit-htmx has one, "1.0"). Task keys read
`version|start|account`. A bad config is a `ConfigError` naming the field that is wrong.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from bughunt.sim.engine import MAX_STEPS, MemoryComponents, RunConfig
from bughunt.sim.memory import Eviction
from bughunt.sim.runner import SIM_METRICS, SimMetric
from bughunt.sim.strategies import strategy_names
from memgpt_lite.errors import ConfigError, format_validation_error

from .sites import (
    ROUTES,
    SITE_ACCOUNTS,
    SITE_VERSIONS,
    Account,
    Site,
    canonical_account,
    check_conduit_starts,
)

ExplorerMetric = Literal[
    "coverage", "bug_recall", "bugs_found", "duplicate_reports", "repeat_rate", "tokens", "steps",
    "steps_to_all_bugs", "tokens_to_all_bugs", "tokens_per_bug",
]  # fmt: skip
EXPLORER_METRICS: tuple[ExplorerMetric, ...] = (
    "coverage", "bug_recall", "bugs_found", "duplicate_reports", "repeat_rate", "tokens", "steps",
    "steps_to_all_bugs", "tokens_to_all_bugs", "tokens_per_bug",
)  # fmt: skip
"""Every metric an explorer run records (`bughunt.ablation.explorer`)."""


class Strict(BaseModel):
    """The base of every ablation setting: an unknown key is an error (a typo never silently means the
    default), and a validated config cannot change afterwards."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Bootstrap(Strict):
    resamples: int = Field(10_000, ge=100, le=1_000_000)
    seed: int = Field(0, ge=0)


class RunSpec(Strict):
    """One configuration of an ablation; its label names it in tables, JSON keys and `baseline`."""

    name: str | None = None

    def label(self) -> str:
        raise NotImplementedError


SpecT = TypeVar("SpecT", bound=RunSpec)


class GridSpec(Strict, Generic[SpecT]):
    """Lists of settings whose cartesian product (in field order) is one configuration each. Each
    kind of task declares its settings as fields named like its `RunSpec`'s."""

    def spec(self, settings: dict[str, Any]) -> SpecT:
        raise NotImplementedError

    @field_validator("capacity", check_fields=False)
    @classmethod
    def _capacities(cls, v: list[int | None]) -> list[int | None]:
        for c in v:
            if c is not None and c < 1:
                raise ValueError(f"capacity must be at least 1 or null (unlimited), got {c}")
        return v

    def expand(self) -> list[SpecT]:
        names = list(type(self).model_fields)
        out: dict[str, SpecT] = {}
        for values in itertools.product(*(getattr(self, n) for n in names)):
            settings = dict(zip(names, values, strict=True))
            if "eviction" in settings and settings.get("capacity") is None:
                settings["eviction"] = "fifo"  # nothing is evicted: one configuration, whatever the eviction
            spec = self.spec(settings)
            out.setdefault(spec.label(), spec)
        return list(out.values())


class Ablation(Strict, Generic[SpecT]):
    """What every kind of ablation shares: configurations from `grid` and `configs` with unique labels,
    and a baseline among them. Each kind declares its own fields (their order is the order of the
    config echoed in the `--json` results) and its tasks."""

    if TYPE_CHECKING:  # declared by each kind; here for the checks below
        grid: GridSpec[SpecT] | None
        configs: list[SpecT]
        baseline: str | None
        runs_per_task: int

    @model_validator(mode="after")
    def _configurations(self) -> Ablation[SpecT]:
        labels = [s.label() for s in self.specs()]
        if not labels:
            raise ValueError("configs: give at least one configuration (in `grid` or `configs`)")
        dupes = sorted({x for x in labels if labels.count(x) > 1})
        if dupes:
            raise ValueError(f"configs: duplicate configuration names {dupes}")
        if self.baseline is not None and self.baseline not in labels:
            raise ValueError(f"baseline: {self.baseline!r} is not one of the configurations {labels}")
        return self

    def specs(self) -> list[SpecT]:
        return (self.grid.expand() if self.grid else []) + list(self.configs)

    def baseline_name(self) -> str:
        return self.baseline or self.specs()[0].label()

    def task_keys(self) -> list[Any]:
        raise NotImplementedError

    def total_runs(self) -> int:
        return len(self.specs()) * len(self.task_keys()) * self.runs_per_task


# --- simulator tasks ---------------------------------------------------------------------------------


def _check_strategy(name: str) -> str:
    if name not in strategy_names():
        raise ValueError(f"unknown strategy {name!r}; choose one of {', '.join(strategy_names())}")
    return name


class SeedRange(Strict):
    start: int = Field(1000, ge=0, lt=2**32)
    count: int = Field(200, ge=2, le=1_000_000)


class TokenModel(Strict):
    base: int = Field(3000, ge=0)
    per_entry: int = Field(40, ge=0)
    per_bug_entry: int = Field(0, ge=0)


class SimulatorSpec(RunSpec):
    """One simulator configuration: a strategy and its memory."""

    strategy: str
    capacity: int | None = Field(None, ge=1)
    eviction: Eviction = Field("fifo", validation_alias=AliasChoices("eviction", "policy"))
    memory: MemoryComponents | None = None

    _strategy = field_validator("strategy")(_check_strategy)

    def label(self) -> str:
        if self.name:
            return self.name
        parts = [self.strategy]
        if self.capacity is not None:
            parts += [f"cap{self.capacity}", self.eviction]
        if self.memory is not None:
            parts.append(f"mem-{self.memory}")
        return "/".join(parts)


class SimulatorGrid(GridSpec[SimulatorSpec]):
    strategy: list[str] = Field(["random", "visited", "frontier"], min_length=1)
    capacity: list[int | None] = Field([None], min_length=1)
    eviction: list[Eviction] = Field(
        ["fifo"], min_length=1, validation_alias=AliasChoices("eviction", "policy")
    )
    memory: list[MemoryComponents | None] = Field([None], min_length=1)

    @field_validator("strategy")
    @classmethod
    def _strategies(cls, v: list[str]) -> list[str]:
        return [_check_strategy(s) for s in v]

    def spec(self, settings: dict[str, Any]) -> SimulatorSpec:
        return SimulatorSpec.model_validate(settings)


class SimulatorAblation(Ablation[SimulatorSpec]):
    """An ablation on the simulator: the whole file; a task is a seed."""

    name: str = "ablation"
    seeds: SeedRange = SeedRange()
    runs_per_task: int = Field(1, ge=1, le=1000)
    budget: int = Field(30, ge=1, le=100_000)
    until_all_bugs: bool = False
    max_steps: int = Field(MAX_STEPS, ge=1, le=1_000_000)
    tokens: TokenModel = TokenModel()
    grid: SimulatorGrid | None = None
    configs: list[SimulatorSpec] = []
    baseline: str | None = None
    metrics: list[SimMetric] = Field(list(SIM_METRICS), min_length=1)
    bootstrap: Bootstrap = Bootstrap()

    def task_keys(self) -> list[int]:
        return list(range(self.seeds.start, self.seeds.start + self.seeds.count))

    def run_configs(self) -> dict[str, RunConfig]:
        return {
            s.label(): RunConfig(
                strategy=s.strategy,
                capacity=s.capacity,
                eviction=s.eviction,
                memory=s.memory,
                budget=self.budget,
                until_all_bugs=self.until_all_bugs,
                max_steps=self.max_steps,
                base_tokens=self.tokens.base,
                entry_tokens=self.tokens.per_entry,
                bug_entry_tokens=self.tokens.per_bug_entry,
            )
            for s in self.specs()
        }


# --- explorer tasks ----------------------------------------------------------------------------------


def _check_policy(name: str) -> str:
    from bughunt.explorer.policies import policy_names  # the planner registers itself on first use

    if name not in policy_names():
        raise ValueError(f"unknown policy {name!r}; choose one of {', '.join(policy_names())}")
    return name


class ExplorerTasks(Strict):
    versions: list[str] | None = Field(None, min_length=1)
    """None: the site's own versions (24-page: 1.2 and 1.3; conduit-htmx: 1.0)."""
    starts: list[str] = Field(["/"], min_length=1)
    accounts: list[Account] = Field(["logged-in"], min_length=1)

    @field_validator("starts")
    @classmethod
    def _starts(cls, v: list[str]) -> list[str]:
        bad = [x for x in v if not x.startswith("/") or x.startswith("//") or "|" in x]
        if bad:
            raise ValueError(f"start pages must be routes of the built-in site such as '/', got {bad}")
        return v

    @field_validator("accounts")
    @classmethod
    def _accounts(cls, v: list[str]) -> list[str]:
        seen: dict[str, str] = {}
        for name in v:
            other = seen.setdefault(canonical_account(name), name)
            if other != name or v.count(name) > 1:
                raise ValueError(f"{other!r} and {name!r} are the same account; give it once")
        return v

    def check(self, site_name: str) -> None:
        """Versions, start pages and accounts must exist on `site_name` (ValueError names the field)."""
        versions = SITE_VERSIONS[site_name]
        bad = [x for x in self.versions or () if x not in versions]
        if bad:
            raise ValueError(
                f"tasks.versions: {site_name} has no version {bad}; choose from {list(versions)}"
            )
        if site_name == "24-page":
            bad = [x for x in self.starts if x not in ROUTES]
            if bad:
                raise ValueError(
                    f"tasks.starts: unknown start pages {bad}; use routes of the built-in site such as '/'"
                )
        accounts = SITE_ACCOUNTS[site_name]
        bad = [a for a in self.accounts if canonical_account(a) not in accounts]
        if bad:
            raise ValueError(
                f"tasks.accounts: {site_name} has no account {bad}; choose from {list(accounts)}"
                + (" (user-b needs site: conduit-htmx, the site with two users)" if "user-b" in bad else "")
            )
        if site_name == "conduit-htmx":
            check_conduit_starts(self.starts)

    def expand(self, site_name: str = "24-page") -> list[str]:
        """Tasks as hashable, readable keys: 'version|start|account' (the account as written)."""
        versions = self.versions or list(SITE_VERSIONS[site_name])
        return [f"{v}|{s}|{a}" for v, s, a in itertools.product(versions, self.starts, self.accounts)]


class ExplorerRunConfig(RunSpec):
    """One explorer configuration: a policy and the memory it gets (and, once in an ablation, the
    ablation's site, budget and seed: the task runner's whole configuration)."""

    site: Site = "24-page"
    policy: str = "frontier"
    memory: MemoryComponents = "both"
    link_table: bool = True
    capacity: int | None = Field(None, ge=1)
    eviction: Eviction = "fifo"
    budget: int = 30
    seed: int = 1000
    until_all_bugs: bool = False
    max_steps: int = 200

    _policy = field_validator("policy")(_check_policy)

    def label(self) -> str:
        if self.name:
            return self.name
        parts = [self.policy, f"mem-{self.memory}"]
        if not self.link_table:
            parts.append("no-links")
        if self.capacity is not None:
            parts += [f"cap{self.capacity}", self.eviction]
        return "/".join(parts)


class ExplorerGrid(GridSpec[ExplorerRunConfig]):
    policy: list[str] = Field(["random", "visited", "frontier"], min_length=1)
    memory: list[MemoryComponents] = Field(["both"], min_length=1)
    link_table: list[bool] = Field([True], min_length=1)
    capacity: list[int | None] = Field([None], min_length=1)
    eviction: list[Eviction] = Field(["fifo"], min_length=1)

    @field_validator("policy")
    @classmethod
    def _policies(cls, v: list[str]) -> list[str]:
        return [_check_policy(p) for p in v]

    def spec(self, settings: dict[str, Any]) -> ExplorerRunConfig:
        return ExplorerRunConfig.model_validate(settings)


class ExplorerAblation(Ablation[ExplorerRunConfig]):
    """An ablation of the real explorer (a file's `explorer:` section); a task is site version × start
    page × account."""

    site: Site = "24-page"
    tasks: ExplorerTasks = ExplorerTasks()
    runs_per_task: int = Field(1, ge=1, le=100)
    budget: int = Field(30, ge=1, le=1000)
    seed: int = Field(1000, ge=0)
    until_all_bugs: bool = False
    """Run each task until every bug present in its version is found (or `max_steps`)."""
    max_steps: int = Field(200, ge=1, le=5000)
    grid: ExplorerGrid | None = None
    configs: list[ExplorerRunConfig] = []
    baseline: str | None = None
    metrics: list[ExplorerMetric] = Field(
        ["coverage", "bug_recall", "duplicate_reports", "tokens"], min_length=1
    )
    bootstrap: Bootstrap = Bootstrap()

    @model_validator(mode="after")
    def _tasks(self) -> ExplorerAblation:
        self.tasks.check(self.site)
        if len(self.task_keys()) < 2:
            raise ValueError("tasks: intervals need at least 2 tasks (versions × starts × accounts)")
        return self

    def task_keys(self) -> list[str]:
        return self.tasks.expand(self.site)

    def run_configs(self) -> dict[str, ExplorerRunConfig]:
        # Site, budget and seed are the ablation's, so every configuration runs the same tasks the same way.
        shared = {
            "site": self.site, "budget": self.budget, "seed": self.seed,
            "until_all_bugs": self.until_all_bugs, "max_steps": self.max_steps,
        }  # fmt: skip
        return {s.label(): s.model_copy(update=shared) for s in self.specs()}


class ExplorerAblationFile(Strict):
    name: str = "explorer-ablation"
    explorer: ExplorerAblation


AblationConfig = SimulatorAblation | ExplorerAblationFile
"""A validated config file: simulator tasks, or explorer tasks in an `explorer:` section."""


def parse_config(data: Any, source: str = "config") -> AblationConfig:
    """Validate a config file's top-level mapping; `source` (the file) starts every error message."""
    if not isinstance(data, dict):
        raise ConfigError(
            f"{source}: expected a mapping of settings at the top level, got {type(data).__name__}"
        )
    schema: type[AblationConfig] = ExplorerAblationFile if "explorer" in data else SimulatorAblation
    try:
        return schema.model_validate(data)
    except ValidationError as e:
        raise ConfigError(f"{source}: {format_validation_error(e)}") from None
