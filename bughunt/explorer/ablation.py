"""Ablations of the real explorer, through the simulator's ablation engine (`bughunt.sim.runner`).

A *task* is one fixed situation: built-in site version × start page × account state. Every
configuration (policy × memory components × capacity/eviction) runs on the same tasks, several runs
per task with derived seeds; `bughunt.sim.summary.summarize` averages each task's runs before the
intervals and the paired bootstrap, as the evaluation recipe asks. Each run starts the built-in site
in-process on loopback and explores it over real HTTP into a throw-away store.

Config file (YAML or TOML), an `explorer` section::

    name: explorer-memory
    explorer:
      tasks: {versions: ["1.2", "1.3"], starts: ["/", "/search"], accounts: [logged-in, logged-out]}
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

A run that never finds them all is censored at the step cap (the budget, or `max_steps`).
"""

from __future__ import annotations

import itertools
import tempfile
import zlib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from bughunt import site
from bughunt.sim.engine import MemoryComponents
from bughunt.sim.memory import Eviction
from bughunt.sim.results import coverage_curve
from bughunt.sim.rng import derive_seed
from bughunt.sim.runner import Record
from memgpt_lite.errors import ConfigError, format_validation_error

from .factory import make_policy
from .fetcher import Fetcher
from .policies import policy_names
from .session import BUILTIN_ROUTES, Explorer, SessionConfig
from .store import ExplorerStore
from .views import MemoryConfig, visited_route

Metric = Literal[
    "coverage", "bug_recall", "bugs_found", "duplicate_reports", "repeat_rate", "tokens", "steps",
    "steps_to_all_bugs", "tokens_to_all_bugs", "tokens_per_bug",
]  # fmt: skip
METRICS: tuple[str, ...] = (
    "coverage", "bug_recall", "bugs_found", "duplicate_reports", "repeat_rate", "tokens", "steps",
    "steps_to_all_bugs", "tokens_to_all_bugs", "tokens_per_bug",
)  # fmt: skip
ROUTES = {p.route for p in site.PAGES}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TaskSpec(_Strict):
    versions: list[str] = Field(default_factory=lambda: ["1.2", "1.3"], min_length=1)
    starts: list[str] = Field(default_factory=lambda: ["/"], min_length=1)
    accounts: list[Literal["logged-in", "logged-out"]] = Field(
        default_factory=lambda: ["logged-in"], min_length=1
    )

    @field_validator("versions")
    @classmethod
    def _versions(cls, v: list[str]) -> list[str]:
        bad = [x for x in v if x not in site.APP_VERSIONS]
        if bad:
            raise ValueError(f"unknown site versions {bad}; choose from {list(site.APP_VERSIONS)}")
        return v

    @field_validator("starts")
    @classmethod
    def _starts(cls, v: list[str]) -> list[str]:
        bad = [x for x in v if x not in ROUTES]
        if bad:
            raise ValueError(f"unknown start pages {bad}; use routes of the built-in site such as '/'")
        return v

    def expand(self) -> list[str]:
        """Tasks as hashable, readable keys: 'version|start|account'."""
        return [f"{v}|{s}|{a}" for v, s, a in itertools.product(self.versions, self.starts, self.accounts)]


class ExplorerRunConfig(_Strict):
    """One explorer configuration: a policy and the memory it gets."""

    name: str | None = None
    policy: str = "frontier"
    memory: MemoryComponents = "both"
    link_table: bool = True
    capacity: int | None = Field(None, ge=1)
    eviction: Eviction = "fifo"
    budget: int = 30
    seed: int = 1000
    until_all_bugs: bool = False
    max_steps: int = 200

    @field_validator("policy")
    @classmethod
    def _policy(cls, v: str) -> str:
        if v not in policy_names():
            raise ValueError(f"unknown policy {v!r}; choose one of {', '.join(policy_names())}")
        return v

    def label(self) -> str:
        if self.name:
            return self.name
        parts = [self.policy, f"mem-{self.memory}"]
        if not self.link_table:
            parts.append("no-links")
        if self.capacity is not None:
            parts += [f"cap{self.capacity}", self.eviction]
        return "/".join(parts)

    def memory_config(self) -> MemoryConfig:
        visits = self.memory in ("visited", "both")
        return MemoryConfig(
            visited=visits,
            link_table=visits and self.link_table,
            bug_list=self.memory in ("bugs", "both"),
            capacity=self.capacity,
            eviction=self.eviction,
        )


class GridSpec(_Strict):
    policy: list[str] = Field(default_factory=lambda: ["random", "visited", "frontier"], min_length=1)
    memory: list[MemoryComponents] = Field(default_factory=lambda: ["both"], min_length=1)
    link_table: list[bool] = Field(default_factory=lambda: [True], min_length=1)
    capacity: list[int | None] = Field(default_factory=lambda: [None], min_length=1)
    eviction: list[Eviction] = Field(default_factory=lambda: ["fifo"], min_length=1)


class ExplorerAblation(_Strict):
    tasks: TaskSpec = TaskSpec()
    runs_per_task: int = Field(1, ge=1, le=100)
    budget: int = Field(30, ge=1, le=1000)
    seed: int = Field(1000, ge=0)
    until_all_bugs: bool = False
    """Run each task until every bug present in its version is found (or `max_steps`)."""
    max_steps: int = Field(200, ge=1, le=5000)
    grid: GridSpec | None = None
    configs: list[ExplorerRunConfig] = Field(default_factory=list)
    baseline: str | None = None
    metrics: list[Metric] = Field(
        default_factory=lambda: ["coverage", "bug_recall", "duplicate_reports", "tokens"]
    )
    bootstrap: dict[str, int] = Field(default_factory=lambda: {"resamples": 10_000, "seed": 0})

    @model_validator(mode="after")
    def _consistent(self) -> ExplorerAblation:
        labels = list(self.run_configs())
        if not labels:
            raise ValueError("give at least one configuration (in `grid` or `configs`)")
        if self.baseline is not None and self.baseline not in labels:
            raise ValueError(f"baseline: {self.baseline!r} is not one of the configurations {labels}")
        if len(self.tasks.expand()) < 2:
            raise ValueError("tasks: intervals need at least 2 tasks (versions × starts × accounts)")
        return self

    def run_configs(self) -> dict[str, ExplorerRunConfig]:
        specs: list[ExplorerRunConfig] = []
        if self.grid is not None:
            g = self.grid
            for p, m, lt, c, e in itertools.product(g.policy, g.memory, g.link_table, g.capacity, g.eviction):
                specs.append(
                    ExplorerRunConfig(
                        policy=p, memory=m, link_table=lt, capacity=c, eviction=e if c else "fifo"
                    )
                )
        specs += list(self.configs)
        out: dict[str, ExplorerRunConfig] = {}
        for s in specs:
            # Budget and seed are the ablation's, so every configuration runs the same tasks the same way.
            shared = {"budget": self.budget, "seed": self.seed, "until_all_bugs": self.until_all_bugs}
            out.setdefault(s.label(), s.model_copy(update={**shared, "max_steps": self.max_steps}))
        return out

    def baseline_name(self) -> str:
        return self.baseline or next(iter(self.run_configs()))


class ExplorerAblationFile(_Strict):
    name: str = "explorer-ablation"
    explorer: ExplorerAblation


def parse_explorer_config(data: Any, source: str = "config") -> ExplorerAblationFile:
    if not isinstance(data, dict) or "explorer" not in data:
        raise ConfigError(f"{source}: an explorer ablation needs an `explorer:` section")
    try:
        return ExplorerAblationFile.model_validate(data)
    except ValidationError as e:
        raise ConfigError(f"{source}: {format_validation_error(e)}") from None


def explorer_task(config: ExplorerRunConfig, task: str, run_index: int = 0) -> Record:
    """Task runner (picklable, module level): one explorer run of `config` on `task`, over real HTTP."""
    from bughunt.webapp import running_site

    version, start, account = task.split("|")
    seed = derive_seed(config.seed + zlib.crc32(task.encode()) % 100_000, run_index)
    present = {site.PAGES[b.page].route for b in site.bugs_in_version(version)}
    with running_site(app_version=version, account=account) as url, tempfile.TemporaryDirectory() as tmp:
        store = ExplorerStore(Path(tmp) / "store")
        try:
            fetcher = Fetcher(url.rstrip("/") + start)
            session = SessionConfig(
                budget=config.max_steps if config.until_all_bugs else config.budget,
                seed=seed,
                memory=config.memory_config(),
                builtin=True,
                stop_at_bugs=len(present) if config.until_all_bugs else None,
            )
            with make_policy(config.policy, store=store) as policy:
                Explorer(store, fetcher, policy, session).run()
            return _record(store, present, session.budget)
        finally:
            store.close()


def _record(store: ExplorerStore, present: set[str], cap: int) -> Record:
    steps = store.history.steps()
    curve = coverage_curve([visited_route(s) for s in steps], len(BUILTIN_ROUTES), BUILTIN_ROUTES)
    found = {b.route for b in store.bug_table.live() if b.route in present}
    clicks = max(0, len(steps) - 1)
    first_report: dict[str, int] = {}
    for r in store.bug_table.reports():
        if r.route in present:
            first_report.setdefault(r.route, r.step)
    # Step n is click n-1 (step 1 is the free landing); a run that never finds them all is censored
    # at the step cap, so "never" costs at least as much as the slowest possible success.
    all_found_at = max(first_report.values()) if present and set(first_report) == present else None
    to_all = all_found_at - 1 if all_found_at is not None else cap
    tokens_to_all = sum(s.tokens for s in steps if all_found_at is None or s.n <= all_found_at)
    return {
        "steps_to_all_bugs": to_all,
        "tokens_to_all_bugs": tokens_to_all,
        "tokens_per_bug": sum(s.tokens for s in steps) / max(1, len(found)),
        "coverage": curve[-1] if curve else 0.0,
        "bug_recall": len(found) / len(present) if present else 1.0,
        "bugs_found": len(found),
        "duplicate_reports": store.bug_table.duplicate_reports(),
        "repeat_rate": sum(s.repeat for s in steps[1:]) / clicks if clicks else 0.0,
        "tokens": sum(s.tokens for s in steps),
        "steps": clicks,
        "curve": curve,
    }


def read_config_file(path: str | Path) -> dict[str, Any] | None:
    """The file's top-level mapping when it is an explorer ablation (has `explorer:`), else None."""
    import tomllib

    import yaml

    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
        data = tomllib.loads(text) if p.suffix.lower() == ".toml" else yaml.safe_load(text)
    except (OSError, ValueError, yaml.YAMLError):
        return None  # the simulator's loader reports unreadable files with its own clear message
    return data if isinstance(data, dict) and "explorer" in data else None


def run_ablation(cfg: ExplorerAblationFile, backend: Any = None, on_done: Any = None) -> Any:
    """Run every configuration on every task; returns the simulator's `AblationSummary`."""
    from bughunt.sim.runner import run_grid
    from bughunt.sim.summary import summarize

    ex = cfg.explorer
    grid = run_grid(
        explorer_task, ex.run_configs(), ex.tasks.expand(), ex.runs_per_task, backend, on_done, unit_size=2
    )
    return summarize(
        grid,
        ex.metrics,
        ex.baseline_name(),
        cfg.name,
        ex.bootstrap.get("resamples", 10_000),
        ex.bootstrap.get("seed", 0),
        curve_length=None if ex.until_all_bugs else ex.budget + 1,
    )


def run_from_args(args: Any, data: dict[str, Any], helpers: Any) -> int:
    """`bughunt ablate --config FILE` for a file with an `explorer:` section. `helpers` is the ablate
    command module (its progress bar, console, JSON writer and plot folder), so the output matches."""
    from bughunt.sim.backends import make_backend
    from bughunt.sim.plots import plot_curves, plot_intervals
    from bughunt.sim.report import render_summary

    cfg = parse_explorer_config(data, str(args.config))
    ex = cfg.explorer
    total = len(ex.run_configs()) * len(ex.tasks.expand()) * ex.runs_per_task
    backend = make_backend(args.backend, args.address, args.workers)
    with helpers._progress(total, cfg.name) as advance:
        summary = run_ablation(cfg, backend, advance)
    if args.json:
        helpers._write_json(args.json, {**summary.to_json(), "config": cfg.model_dump(mode="json")})
    console = helpers._console(args)
    render_summary(summary, console)
    if args.plots:
        d = helpers._plots_dir(args.plots)
        files = []
        if "coverage" in summary.metrics:
            ivs = {c: summary.intervals[c]["coverage"] for c in summary.configs}
            files.append(plot_intervals(ivs, d / "coverage_by_config.png", f"{cfg.name}: coverage (95% CI)"))
        if summary.curves:
            files.append(
                plot_curves(summary.curves, d / "coverage_vs_step.png", f"{cfg.name}: mean coverage by step")
            )
        console.print("Plots: " + ", ".join(str(f) for f in files))
    return 0
