"""`bughunt sim`: one simulator run on the built-in site, as a readable trace or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from memgpt_lite.errors import UsageError

from .. import site
from ..sim.engine import BUDGET, MAX_STEPS, MEMORY_COMPONENTS, RunConfig, RunResult, run
from ..sim.memory import EVICTIONS
from ..sim.stats import pct
from ..sim.strategies import strategy_names


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("sim", help="one simulator run on the built-in 24-page site")
    p.add_argument(
        "--strategy", default="frontier", help=f"exploration strategy ({', '.join(strategy_names())})"
    )
    p.add_argument("--seed", type=int, default=1000, help="mulberry32 seed (default 1000)")
    p.add_argument(
        "--capacity", type=int, default=None, help="memory capacity in entries (default unlimited)"
    )
    p.add_argument(
        "--eviction", choices=EVICTIONS, default=None, help="what a full memory forgets (default fifo)"
    )
    p.add_argument(
        "--policy", choices=EVICTIONS, default=None, dest="old_policy",
        help="deprecated alias of --eviction (the explorer's --policy chooses links; this one never did)",
    )  # fmt: skip
    p.add_argument(
        "--memory",
        choices=MEMORY_COMPONENTS,
        default=None,
        help="memory components (default: the strategy's)",
    )
    p.add_argument("--budget", type=int, default=BUDGET, help=f"step budget (default {BUDGET})")
    p.add_argument(
        "--until-all-bugs", action="store_true", help=f"run until all bugs are found (cap {MAX_STEPS} steps)"
    )
    p.add_argument("--json", action="store_true", help="print the run as JSON")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    # A bad setting raises ConfigError: `run_reporting_errors` prints it as every command's errors are.
    if args.old_policy is not None:
        if args.eviction is not None and args.eviction != args.old_policy:
            raise UsageError(f"--policy {args.old_policy} contradicts --eviction {args.eviction}")
        print("warning: `bughunt sim --policy` is deprecated; use --eviction", file=sys.stderr)
    config = RunConfig(
        strategy=args.strategy,
        capacity=args.capacity,
        eviction=args.eviction or args.old_policy or "fifo",
        memory=args.memory,
        budget=args.budget,
        until_all_bugs=args.until_all_bugs,
    )
    result = run(config, args.seed)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print_trace(config, args.seed, result)
    return 0


def _name(i: int) -> str:
    return site.PAGES[i].name


def print_trace(config: RunConfig, seed: int, r: RunResult) -> None:
    cap = "unlimited" if config.capacity is None else f"{config.capacity} entries, {config.eviction} eviction"
    print(
        f"strategy {config.strategy}, seed {seed}, memory {config.components} ({cap}), budget {config.budget}"
    )
    seen = {r.path[0]}
    reported: set[int] = set()
    dedup = config.components in ("bugs", "both")
    print(f"  start  {_name(r.path[0])}")
    for step, (a, b) in enumerate(zip(r.path, r.path[1:], strict=False), start=1):
        notes = []
        if b in seen:
            notes.append("revisit")
        seen.add(b)
        if b in site.BUG_PAGES and not (dedup and b in reported):
            notes.append(
                "DUPLICATE report" if b in reported else f"bug reported: {site.BUG_PAGES[b].description}"
            )
            reported.add(b)
        print(f"  {step:>5}  {_name(a)} → {_name(b)}" + (f"   [{'; '.join(notes)}]" if notes else ""))
    if r.stopped:
        print("         (stops: every remembered page has been visited)")
    visits = Counter(r.path)
    print(
        f"Pages seen: {len(visits)} of {site.N_PAGES} ({pct(r.coverage)}%) in {r.steps} steps; "
        f"repeat visits {pct(r.repeat_rate)}% of steps"
    )
    revisits = [(p, n - 1) for p, n in visits.most_common() if n > 1]
    if revisits:
        print("Revisited: " + ", ".join(f"{_name(p)} {n}×" for p, n in revisits))
    never = [p.name for p in site.PAGES if p.index not in visits]
    if never:
        print("Never reached: " + ", ".join(never))
    dup_pages = [p for p in site.BUG_PAGES if visits[p] > 1 and not dedup]
    dups = ", ".join(f"{_name(p)} ×{visits[p]}" for p in dup_pages)
    print(
        f"Bugs found: {r.bugs_found} of {len(site.BUG_PAGES)}; reports {r.reports}, "
        f"duplicate reports {r.duplicate_reports}" + (f" ({dups})" if dups else "")
    )
    print(f"Tokens: {r.tokens:,}")
