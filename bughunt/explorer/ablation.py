"""Ablations of the real explorer, through the simulator's ablation engine (`bughunt.sim.runner`).

A *task* is one fixed situation: built-in site version × start page × account state. Every
configuration (policy × memory components × capacity/eviction) runs on the same tasks, several runs
per task with derived seeds; `bughunt.sim.summary.summarize` averages each task's runs before the
intervals and the paired bootstrap, as the evaluation recipe asks. Each run starts the built-in site
in-process on loopback and explores it over real HTTP into a throw-away store.

Two built-in sites (`site:`). On the 24-page site (the default; its figures stay as they were) the
accounts are the server's two views: `logged-out` and `user-a` (alias `logged-in`, the name older
configs use). On `conduit-htmx` the accounts are `logged-out`, `user-a` and `user-b`, two real users
with their own content: a run logs in through the explorer's own form login (`login.http_login`,
with the site's public demo credentials, held in process memory only, never stored), and its bugs
are scored against that site's planted bugs (`bughunt.webapp.conduit.PLANTED`) that an HTTP explorer
can reach with that account; coverage is out of the pages a crawl with the same account reaches
(`site_map.reachable_routes`).

Config file (YAML or TOML), an `explorer` section::

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

A run that never finds them all is censored at the step cap (the budget, or `max_steps`).
`versions` default to the site's own (conduit-htmx has one, "1.0"). Task keys read
`version|start|account`; the `--json` results carry `task_results`, each task's account and the pages
its runs visited per configuration.
"""

from __future__ import annotations

import itertools
import tempfile
import zlib
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
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

from .config import SessionConfig
from .factory import make_policy
from .http_engine import HttpEngine
from .login import Credentials
from .loop import Explorer
from .policies import policy_names
from .store import ExplorerStore
from .summary import BUILTIN_ROUTES
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
Site = Literal["24-page", "conduit-htmx"]
Account = Literal["logged-out", "user-a", "user-b", "logged-in"]
ACCOUNT_ALIASES: dict[str, str] = {"logged-in": "user-a"}
"""Older names that stay valid: the 24-page site's logged-in view is user A."""
SITE_ACCOUNTS: dict[str, tuple[str, ...]] = {
    "24-page": ("logged-out", "user-a"),
    "conduit-htmx": ("logged-out", "user-a", "user-b"),
}
SITE_VERSIONS: dict[str, tuple[str, ...]] = {"24-page": site.APP_VERSIONS, "conduit-htmx": ("1.0",)}


def canonical_account(account: str) -> str:
    return ACCOUNT_ALIASES.get(account, account)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TaskSpec(_Strict):
    versions: list[str] | None = Field(None, min_length=1)
    """None: the site's own versions (24-page: 1.2 and 1.3; conduit-htmx: 1.0)."""
    starts: list[str] = Field(default_factory=lambda: ["/"], min_length=1)
    accounts: list[Account] = Field(default_factory=lambda: ["logged-in"], min_length=1)

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

    def expand(self, site_name: str = "24-page") -> list[str]:
        """Tasks as hashable, readable keys: 'version|start|account' (the account as written)."""
        versions = self.versions or list(SITE_VERSIONS[site_name])
        return [f"{v}|{s}|{a}" for v, s, a in itertools.product(versions, self.starts, self.accounts)]


class ExplorerRunConfig(_Strict):
    """One explorer configuration: a policy and the memory it gets."""

    name: str | None = None
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
    site: Site = "24-page"
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
        self.tasks.check(self.site)
        if self.site == "conduit-htmx":
            _check_conduit_starts(self.tasks.starts)
        if len(self.task_keys()) < 2:
            raise ValueError("tasks: intervals need at least 2 tasks (versions × starts × accounts)")
        return self

    def task_keys(self) -> list[str]:
        return self.tasks.expand(self.site)

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
            shared = {
                "site": self.site, "budget": self.budget, "seed": self.seed, "until_all_bugs": self.until_all_bugs,
            }  # fmt: skip
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
    version, start, account = task.split("|")
    seed = derive_seed(config.seed + zlib.crc32(task.encode()) % 100_000, run_index)
    with (
        _task_site(config.site, version, canonical_account(account)) as target,
        tempfile.TemporaryDirectory() as tmp,
    ):
        store = ExplorerStore(Path(tmp) / "store")
        try:
            fetcher = HttpEngine(target.url.rstrip("/") + start, credentials=target.credentials)
            fetcher.log_in()  # the explorer's own login path; a refused login fails the run loudly
            session = SessionConfig(
                budget=config.max_steps if config.until_all_bugs else config.budget,
                seed=seed,
                memory=config.memory_config(),
                builtin=config.site == "24-page",
                stop_at_bugs=len(target.present) if config.until_all_bugs else None,
            )
            with make_policy(config.policy, store=store) as policy:
                Explorer(store, fetcher, policy, session).run()
            return _record(store, target.present, target.match, target.universe, session.budget)
        finally:
            store.close()


@dataclass(frozen=True, slots=True)
class _Target:
    """One task's running site: its URL, the bugs that count, how a reported (kind, route) maps to one
    of them, the pages coverage is out of, and the login (if any)."""

    url: str
    present: set[Hashable]
    match: Callable[[str, str], Hashable | None]
    universe: frozenset[str]
    credentials: Credentials | None = None


@contextmanager
def _task_site(site_name: str, version: str, account: str) -> Iterator[_Target]:
    from bughunt.webapp import running_site

    if site_name == "24-page":
        present = {site.PAGES[b.page].route for b in site.bugs_in_version(version)}
        view = "logged-out" if account == "logged-out" else "logged-in"

        def by_route(kind: str, route: str) -> Hashable | None:
            return route if route in present else None  # one bug per page on this site

        with running_site(app_version=version, account=view) as url:
            yield _Target(url, set(present), by_route, BUILTIN_ROUTES)
        return
    from bughunt.webapp.conduit import PLANTED, planted_for, running_conduit

    # What an HTTP explorer can find with this account: bugs behind the login only when logged in,
    # none that only a browser shows (the JS error).
    bugs = {b for b in PLANTED if b.reach != "browser" and (account != "logged-out" or not b.login)}

    def match(kind: str, route: str) -> Hashable | None:
        bug = planted_for(kind, route)
        return bug if bug in bugs else None

    with running_conduit() as url:
        login = _conduit_credentials(url, account)
        yield _Target(url, set(bugs), match, _conduit_universe(url, account), login)


def _conduit_credentials(url: str, account: str) -> Credentials | None:
    """The login of a conduit-htmx account: the site's public demo users (never stored anywhere)."""
    from bughunt.webapp.conduit import DEMO_ACCOUNTS, DEMO_USER, SECOND_USER

    if account == "logged-out":
        return None
    user = {"user-a": DEMO_USER, "user-b": SECOND_USER}[account]
    return Credentials(login_url=url.rstrip("/") + "/login", username=user, password=DEMO_ACCOUNTS[user])


_UNIVERSES: dict[str, frozenset[str]] = {}


def _conduit_universe(url: str, account: str) -> frozenset[str]:
    """The pages `account` can reach on conduit-htmx from its home page. The site starts from fixed
    seed data every run, so one crawl per account and process serves every run."""
    if account not in _UNIVERSES:
        from .site_map import reachable_routes

        crawler = HttpEngine(url.rstrip("/") + "/", credentials=_conduit_credentials(url, account))
        try:
            crawler.log_in()
            _UNIVERSES[account] = reachable_routes(crawler)
        finally:
            crawler.close()
    return _UNIVERSES[account]


def _check_conduit_starts(starts: list[str]) -> None:
    """Each start page must be a page of conduit-htmx (for some account): checked on a fresh copy."""
    from bughunt.webapp.conduit import running_conduit

    with running_conduit() as url:
        probe = HttpEngine(url.rstrip("/") + "/")
        try:
            for start in starts:
                result = probe.fetch(start)
                if result.outcome not in ("page", "login_wall"):
                    raise ValueError(
                        f"tasks.starts: {start!r} is not a page of conduit-htmx ({result.detail})"
                    )
        finally:
            probe.close()


def _record(
    store: ExplorerStore,
    present: set[Hashable],
    match: Callable[[str, str], Hashable | None],
    universe: frozenset[str],
    cap: int,
) -> Record:
    steps = store.history.steps()
    visited = [visited_route(s) for s in steps]
    curve = coverage_curve(visited, len(universe), universe)
    found = {m for b in store.bug_table.live() if (m := match(b.kind, b.route)) is not None}
    clicks = max(0, len(steps) - 1)
    first_report: dict[Hashable, int] = {}
    for r in store.bug_table.reports():
        m = match(r.kind, r.route)
        if m is not None:
            first_report.setdefault(m, r.step)
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
        "pages": sorted({v for v in visited if v is not None}),
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
    return run_ablation_with_tasks(cfg, backend, on_done)[0]


def run_ablation_with_tasks(
    cfg: ExplorerAblationFile, backend: Any = None, on_done: Any = None
) -> tuple[Any, dict[str, Any]]:
    """`run_ablation`, and each task's results (`task_results`, see `task_results`)."""
    from bughunt.sim.runner import run_grid
    from bughunt.sim.summary import summarize

    ex = cfg.explorer
    grid = run_grid(
        explorer_task, ex.run_configs(), ex.task_keys(), ex.runs_per_task, backend, on_done, unit_size=2
    )
    summary = summarize(
        grid,
        ex.metrics,
        ex.baseline_name(),
        cfg.name,
        ex.bootstrap.get("resamples", 10_000),
        ex.bootstrap.get("seed", 0),
        curve_length=None if ex.until_all_bugs else ex.budget + 1,
    )
    return summary, task_results(grid, ex)


def task_results(grid: Any, ex: ExplorerAblation) -> dict[str, Any]:
    """Per task key: its site, version, start page and account, and per configuration the mean of
    each metric over the task's runs and the pages those runs visited (the task dimension made
    visible: two accounts of one site see different pages)."""
    import statistics

    out: dict[str, Any] = {}
    for i, task in enumerate(grid.tasks):
        version, start, account = str(task).split("|")
        configs: dict[str, Any] = {}
        for name in grid.configs:
            runs = grid.records[name][i]
            configs[name] = {
                "runs": len(runs),
                "means": {m: statistics.fmean(float(r[m]) for r in runs) for m in ex.metrics},
                "pages_visited": sorted({p for r in runs for p in r.get("pages", ())}),
            }
        out[str(task)] = {
            "site": ex.site, "version": version, "start": start, "account": account,
            "account_state": canonical_account(account), "configs": configs,
        }  # fmt: skip
    return out


def run_from_args(args: Any, data: dict[str, Any], helpers: Any) -> int:
    """`bughunt ablate --config FILE` for a file with an `explorer:` section. `helpers` is the ablate
    command module (its progress bar, console, JSON writer and plot folder), so the output matches."""
    from bughunt.sim.backends import make_backend
    from bughunt.sim.plots import plot_curves, plot_intervals
    from bughunt.sim.report import render_summary

    cfg = parse_explorer_config(data, str(args.config))
    ex = cfg.explorer
    total = len(ex.run_configs()) * len(ex.task_keys()) * ex.runs_per_task
    backend = make_backend(args.backend, args.address, args.workers)
    with helpers._progress(total, cfg.name) as advance:
        summary, per_task = run_ablation_with_tasks(cfg, backend, advance)
    if args.json:
        helpers._write_json(
            args.json,
            {**summary.to_json(), "config": cfg.model_dump(mode="json"), "task_results": per_task},
        )
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
