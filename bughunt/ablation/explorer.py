"""Explorer tasks: each run starts a built-in site in-process on loopback and explores it with the real
explorer over HTTP, into a throw-away store.

A *task* is one fixed situation: built-in site version × start page × account state. Every
configuration (policy × memory components × capacity/eviction) runs on the same tasks, several runs
per task with derived seeds; `bughunt.sim.summary.summarize` averages each task's runs before the
intervals and the paired bootstrap, as the evaluation recipe asks.

On conduit-htmx a run logs in through the explorer's own form login (with the site's public demo
credentials, held in process memory only, never stored), and its bugs are scored against that site's
planted bugs (`bughunt.webapp.conduit.PLANTED`) that an HTTP explorer can reach with that account;
coverage is out of the pages a crawl with the same account reaches (`site_map.reachable_routes`). A
run that never finds them all is censored at the step cap (the budget, or `max_steps`). The `--json`
results carry `task_results`: each task's account and the pages its runs visited per configuration.
"""

from __future__ import annotations

import statistics
import tempfile
import zlib
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bughunt import site
from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.login import Credentials
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.summary import BUILTIN_ROUTES
from bughunt.explorer.views import MemoryConfig, visited_route
from bughunt.sim.backends import Backend, OnDone
from bughunt.sim.results import coverage_curve
from bughunt.sim.rng import derive_seed
from bughunt.sim.runner import GridResult, Record, run_grid
from bughunt.sim.summary import summarize

from .config import ExplorerAblation, ExplorerAblationFile, ExplorerRunConfig
from .outcome import AblationOutcome
from .sites import canonical_account


def run_explorer_ablation(
    cfg: ExplorerAblationFile, backend: Backend | None = None, on_done: OnDone | None = None
) -> AblationOutcome:
    """Every configuration on every task; `on_done(k)` counts finished runs."""
    ex = cfg.explorer
    # units of two runs: an explorer run takes seconds, so small units keep every worker busy
    grid = run_grid(
        explorer_task, ex.run_configs(), ex.task_keys(), ex.runs_per_task, backend, on_done, unit_size=2
    )
    summary = summarize(
        grid,
        ex.metrics,
        ex.baseline_name(),
        cfg.name,
        ex.bootstrap.resamples,
        ex.bootstrap.seed,
        curve_length=None if ex.until_all_bugs else ex.budget + 1,
    )
    document = {
        **summary.to_json(), "config": cfg.model_dump(mode="json"), "task_results": task_results(grid, ex),
    }  # fmt: skip
    return AblationOutcome(summary, document)


def memory_config(config: ExplorerRunConfig) -> MemoryConfig:
    """The explorer memory a configuration's components stand for (the link table needs the visit record)."""
    visits = config.memory in ("visited", "both")
    return MemoryConfig(
        visited=visits,
        link_table=visits and config.link_table,
        bug_list=config.memory in ("bugs", "both"),
        capacity=config.capacity,
        eviction=config.eviction,
    )


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
                memory=memory_config(config),
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
        from bughunt.explorer.site_map import reachable_routes

        crawler = HttpEngine(url.rstrip("/") + "/", credentials=_conduit_credentials(url, account))
        try:
            crawler.log_in()
            _UNIVERSES[account] = reachable_routes(crawler)
        finally:
            crawler.close()
    return _UNIVERSES[account]


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


def task_results(grid: GridResult, ex: ExplorerAblation) -> dict[str, Any]:
    """Per task key: its site, version, start page and account, and per configuration the mean of
    each metric over the task's runs and the pages those runs visited (the task dimension made
    visible: two accounts of one site see different pages)."""
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
