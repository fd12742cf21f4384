"""CPU per click of the HTTP engine's explorer beside a bare httpx + parse loop over the very same URLs.

    python -m benchmarks.overhead [--site builtin,conduit-htmx,scale] [--budget 60] [--policy planner]
                                  [--repeats 3] [--seed 1000] [--code DIR] [--against DIR]
                                  [--measure cpu|instructions] [--short-budget 4] [--json]

Each site (the 24-page built-in site, conduit-htmx logged in as its demo account, the ~14,700-page scale
site) runs in a process of its own that writes down every request it answers
(`benchmarks.recorded_site`). Per site and repeat, in one round (the sites and repeats interleaved, so
a burst of the shared machine's load hits one sample, not one site):

1. `bughunt explore --url ... --budget 0` (start-up: imports, the store, robots.txt, the login, the free
   landing), a fresh process and store (`benchmarks.scale_run`), CPU from `os.wait4`;
2. the same with `--budget N`; what it asked of the site beyond run 1's requests (which must be their
   prefix: the same start) are **the explorer's fetches after start-up** — every step's page load,
   every oracle fetch;
3. at once, a bare loop over exactly those requests (`benchmarks.scale_crawl`: one kept-alive httpx
   client, a GET, a selectolax parse, the links resolved, nothing remembered), logged in first (not
   timed) when the site has a login.

**× bare** = (explorer CPU of run 2 − run 1) ÷ the bare loop's CPU over the same requests: what the
explorer's own work (planning, oracles, memory) multiplies a crawler's cost by. Its target is ≤ 3.
Beside it, not replacing it, **× paced**: the same ratio over the same loop run again with a pause
before each request as long as the explorer's work per request beyond the bare loop's (a sleep: it
adds no CPU of its own). The bare loop's requests come back to back; the explorer's come a few
milliseconds apart, and on this machine a request made after an idle gap costs more CPU than one made
at once (docs/benchmarks.md, "A paced baseline").
`--measure instructions` adds, in the first round, the same three runs again with their
instructions counted (valgrind's callgrind, `benchmarks.instructions`; ~50× slower): **instructions
× bare** = (budget run − start-up run) ÷ (the bare loop's process over the same requests − over none).
A count does not move with the machine's load, so it judges a 10–20 % change that CPU ratios at an
uncontrolled load cannot; it leaves out the kernel's work (the bare loop's is mostly sockets), so it
is not the CPU ratio's scale (docs/benchmarks.md, "Session 22").
Beside the run's ratio, which stays the headline, **× steady**: each round also runs the explorer at
`--short-budget` (default 4) clicks and the bare loop over that run's own requests, so that two points
give each side a steady cost a fetch (the slope) and a cost paid once a run (the intercept,
`benchmarks.steady`); × steady = the explorer's slope ÷ the bare loop's, and **once ms** the explorer's
intercept (beside the start-up figure: what a run pays once beyond start-up). With `--measure
instructions` the short run and its bare loop are counted too (the same split in instructions).
Figures are medians over the repeats; the load is read before and after. `--code DIR` runs the
explorer from another source tree; `--against DIR` runs it from both, interleaved in each round (rows
marked `[DIR]`), so a before and an after share the machine's load. Progress goes to stderr; `--json`
prints one object.
The medians and the tables: `benchmarks.overhead_report`.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console

from benchmarks import instructions
from benchmarks.figures import num
from benchmarks.overhead_report import TARGET, mega, render, summarise
from benchmarks.processes import serving
from benchmarks.recorded_site import SITES, read_requests
from benchmarks.scale_crawl import crawl, form_login
from benchmarks.scale_run import REPO, child_env, explore
from benchmarks.steady import Line, fit, steady_ratio

POLICIES: tuple[str, ...] = ("planner", "frontier", "visited", "random")
SHORT_BUDGET = 4
BARE_PASSES = 3
"""The bare loop's passes over a run's requests (`--bare-passes`): its figure is the median pass's CPU,
as one pass (~0.03-0.07 s on the small sites) is within a shared machine's noise."""
"""The short run's clicks (`--short-budget`): with the long run, it splits a run's cost into a steady
part a fetch and a part paid once (`benchmarks.steady`)."""
PASSWORD_ENV = "BH_BENCH_PASSWORD"
Record = dict[str, Any]


@dataclass(slots=True)
class Site:
    name: str
    url: str
    record: Path
    info: Record
    offset: int = 0

    def requests(self) -> list[tuple[str, str]]:
        """The requests the site answered since the last call."""
        pairs, self.offset = read_requests(self.record, self.offset)
        return pairs

    @property
    def login(self) -> tuple[str, str, str] | None:
        info = self.info
        return (info["login_url"], info["username"], info["password"]) if "username" in info else None

    def explore_args(self) -> list[str]:
        login = self.login
        return (
            []
            if login is None
            else ["--login-url", login[0], "--username", login[1], "--password-env", PASSWORD_ENV]
        )


@contextmanager
def site_process(name: str, record: Path) -> Iterator[Site]:
    record.touch()
    cmd = [sys.executable, "-m", "benchmarks.recorded_site", "--site", name, "--record", str(record)]
    with serving(cmd, REPO, f"the {name} site") as answer:
        yield Site(name, str(answer["url"]), record, answer)


def warm_token_counter(env: dict[str, str], code: Path | None) -> None:
    """Count one token in `code`'s tree as its explorers will: a tree that keeps derived rank files
    (memgpt_lite.context.rank_file) writes its file now, like the bytecode the warm-up compiles,
    so that no round's run pays for it once (a `--budget 0` run counts no tokens)."""
    subprocess.run(
        [sys.executable, "-c", "from memgpt_lite.context.tokens import TokenCounter; TokenCounter().count_text('warm')"],
        cwd=code or REPO, env=env, check=True, stdin=subprocess.DEVNULL, capture_output=True, timeout=120,
    )  # fmt: skip


def _after_start(
    asked: list[tuple[str, str]], prefix: list[tuple[str, str]]
) -> tuple[bool, list[tuple[str, str]]]:
    """(whether the run began with the start-up run's requests, its requests after them)."""
    same_start = asked[: len(prefix)] == prefix
    return same_start, asked[len(prefix) :] if same_start else asked


def one_round(
    site: Site, policy: str, budget: int, seed: int, env: dict[str, str], code: Path | None,
    count: Counting | None = None, short_budget: int = 0, bare_passes: int = BARE_PASSES,
) -> Record:  # fmt: skip
    """Start-up run, (with `short_budget`: a short run and the bare loop over its own requests,) budget
    run, the bare loop over the budget run's own requests after start-up (`bare_passes` times), and
    the start-up run again; with `count`, the same again with their instructions counted
    (`count_instructions`).

    The explorer's CPU after start-up is its run's less the mean of the two start-up runs around it,
    and the bare loop's CPU is the median of its passes: each side's figure is then less the noise
    of one short process or one ~0.05 s loop on a shared machine (docs/benchmarks.md, Session 25)."""
    extra = site.explore_args()
    site.requests()  # whatever came before (the warm-up) is not this round's
    start = explore(site.url, policy, 0, seed=seed, env=env, code=code, extra=extra, marked=True)
    prefix = site.requests()
    login = site.login
    prepare = None if login is None else lambda c: form_login(c, *login)
    short_gets: list[str] = []
    short_after: list[tuple[str, str]] = []
    small, short_same, short_bare = None, False, None
    if 0 < short_budget < budget:
        small = explore(
            site.url, policy, short_budget, seed=seed, env=env, code=code, extra=extra, marked=True
        )
        short_same, short_after = _after_start(site.requests(), prefix)
        short_gets = [target for method, target in short_after if method == "GET"]
        short_bare = _bare(site.url, short_gets, prepare, bare_passes)
        site.requests()  # the bare loop's own: not the next run's
    run = explore(site.url, policy, budget, seed=seed, env=env, code=code, extra=extra, marked=True)
    asked = site.requests()
    same_start, after = _after_start(asked, prefix)
    gets = [target for method, target in after if method == "GET"]
    bare = _bare(site.url, gets, prepare, bare_passes)
    site.requests()
    again = explore(site.url, policy, 0, seed=seed, env=env, code=code, extra=extra, marked=True)
    site.requests()  # start-up's requests again
    start_s = (start.cpu_s + again.cpu_s) / 2
    explorer_s = run.cpu_s - start_s
    short: Record = {}
    if small is not None and short_bare is not None:
        short = {
            "short_budget": short_budget,
            "short_clicks": small.clicks,
            "short_same_start": short_same,
            "short_requests_after_start": len(short_after),
            "short_explorer_cpu_s": small.cpu_s - start_s,
            "short_bare_cpu_s": short_bare.cpu_s,
            "short_bare_requests": short_bare.pages,
            "short_walk_digest": small.walk_digest,
        }
    # The same loop paced like the explorer: idle, before each request, for as long as the explorer
    # worked per request beyond the bare loop's own cost.
    pause = max(0.0, (explorer_s - bare.cpu_s) / len(gets)) if gets else 0.0
    paced = crawl(site.url, gets, prepare=prepare, pause_s=pause)
    record: Record = {
        "clicks": run.clicks,
        "fetches": run.fetches,
        "requests": len(asked),
        "start_requests": len(prefix),
        "same_start": same_start,
        "requests_after_start": len(after),
        "not_replayed": len(after) - len(gets),  # not a GET (a login again): the bare loop skips it
        "start_cpu_s": start_s,
        "start_cpu_s_runs": [start.cpu_s, again.cpu_s],
        "cpu_s": run.cpu_s,
        "explorer_cpu_s": explorer_s,
        "bare_cpu_s": bare.cpu_s,
        "bare_passes_cpu_s": bare.passes,
        "bare_requests": bare.pages,
        "over_bare": explorer_s / bare.cpu_s if bare.cpu_s > 0 else None,
        "loop_cpu_s": run.loop_cpu_s,
        "over_bare_loop": run.loop_cpu_s / bare.cpu_s
        if run.loop_cpu_s is not None and bare.cpu_s > 0
        else None,
        "pause_s": pause,
        "paced_cpu_s": paced.cpu_s,
        "over_paced": explorer_s / paced.cpu_s if paced.cpu_s > 0 else None,
        "walk_digest": run.walk_digest,
        "bugs": sorted(f"{b.kind} {b.route}" for b in run.bugs),
        "wall_s": run.wall_s,
        **short,
    }
    record.update(steady_split(record))
    if count is not None:
        record.update(
            count_instructions(
                site, policy, budget, seed, env, code, gets, count, short_budget if short else 0, short_gets
            )
        )
    return record


@dataclass(frozen=True, slots=True)
class Bare:
    """The bare loop over one list of requests, replayed: the median pass's CPU, and every pass's."""

    pages: int
    cpu_s: float
    passes: list[float]


def _bare(url: str, gets: list[str], prepare: Callable[[httpx.Client], object] | None, passes: int) -> Bare:
    """The bare loop over `gets`, `passes` times one after the other (a client and a login each)."""
    crawls = [crawl(url, gets, prepare=prepare) for _ in range(max(1, passes))]
    cpu = [c.cpu_s for c in crawls]
    return Bare(crawls[0].pages, statistics.median(cpu), cpu)


def _ms(line: Line | None) -> tuple[float | None, float | None]:
    return (None, None) if line is None else (1000 * line.per_fetch, 1000 * line.once)


def steady_split(r: Record) -> Record:
    """The round's steady CPU a fetch and CPU once a run, explorer and bare loop, from its short and
    long runs (`benchmarks.steady`); {} without a short run. Each side's line is fitted over its own
    requests (the explorer's after start-up, the bare loop's GETs among them)."""
    if "short_explorer_cpu_s" not in r:
        return {}
    explorer = fit(
        r["short_requests_after_start"],
        r["short_explorer_cpu_s"],
        r["requests_after_start"],
        r["explorer_cpu_s"],
    )
    bare = fit(r["short_bare_requests"], r["short_bare_cpu_s"], r["bare_requests"], r["bare_cpu_s"])
    (e_fetch, e_once), (b_fetch, b_once) = _ms(explorer), _ms(bare)
    return {
        "explorer_ms_per_fetch_steady": e_fetch,
        "explorer_once_ms": e_once,
        "bare_ms_per_fetch_steady": b_fetch,
        "bare_once_ms": b_once,
        "over_bare_steady": steady_ratio(explorer, bare),
    }


@dataclass(frozen=True, slots=True)
class Counting:
    """Where `count_instructions` works: callgrind's files, and the bare loop's own environment."""

    tmp: Path
    bare_env: dict[str, str]


def count_instructions(
    site: Site, policy: str, budget: int, seed: int, env: dict[str, str], code: Path | None,
    gets: list[str], count: Counting, short_budget: int = 0, short_gets: list[str] | None = None,
) -> Record:  # fmt: skip
    """The round's start-up run, (short run,) budget run and bare loops again, each process under
    callgrind (`benchmarks.instructions`): the explorer's instructions after start-up (budget run −
    start-up run) and the bare loop's over the same requests (its process over them − over none). The
    walk and the requests must be the CPU runs' own (a slower process must not have chosen otherwise)."""
    extra, cenv = site.explore_args(), instructions.counted_env(env)
    out = count.tmp / "explore.callgrind"

    def counted_run(clicks: int) -> tuple[int, str, list[tuple[str, str]]]:
        """(instructions, walk digest, the requests it made)."""
        run = explore(
            site.url, policy, clicks, seed=seed, env=cenv, code=code, extra=extra,
            wrap=instructions.counting(out),
        )  # fmt: skip
        ir = instructions.counted(out)
        out.unlink()
        return ir, run.walk_digest, site.requests()

    site.requests()
    start_ir, _, prefix = counted_run(0)

    def gets_after(asked: list[tuple[str, str]]) -> list[str] | None:
        same, after = _after_start(asked, prefix)
        return [t for m, t in after if m == "GET"] if same else None

    short: Record = {}
    lists = [gets]
    if short_budget:
        short_ir, _, asked = counted_run(short_budget)
        short = {"ir_short_run": short_ir, "ir_short_same_requests": gets_after(asked) == short_gets}
        lists.append(short_gets or [])
    run_ir, walk_digest, asked = counted_run(budget)
    counted_gets = gets_after(asked)
    bare_counts, bare_0 = instructions.bare_loops_instructions(
        site.url, lists, env=count.bare_env, login=site.login, tmp=count.tmp
    )
    explorer_ir, bare_ir = run_ir - start_ir, bare_counts[0] - bare_0
    if short:
        # both lines over the GETs the bare loops replayed (the CPU split's explorer line is over every
        # request after start-up: the same counts when every one is a GET, as on the three sites)
        short["ir_short_explorer"] = short["ir_short_run"] - start_ir
        short["ir_short_bare"] = bare_counts[1] - bare_0
        explorer = fit(len(short_gets or []), short["ir_short_explorer"], len(gets), explorer_ir)
        bare = fit(len(short_gets or []), short["ir_short_bare"], len(gets), bare_ir)
        short.update(
            ir_explorer_per_fetch_steady=explorer.per_fetch if explorer else None,
            ir_explorer_once=explorer.once if explorer else None,
            ir_bare_per_fetch_steady=bare.per_fetch if bare else None,
            ir_bare_once=bare.once if bare else None,
            ir_steady_over_bare=steady_ratio(explorer, bare),
        )
    return {
        "ir_start": start_ir,
        "ir_run": run_ir,
        "ir_explorer": explorer_ir,
        "ir_bare_n": bare_counts[0],
        "ir_bare_0": bare_0,
        "ir_bare": bare_ir,
        "ir_over_bare": explorer_ir / bare_ir if bare_ir > 0 else None,
        "ir_walk_digest": walk_digest,
        "ir_same_requests": counted_gets == gets,
        **short,
    }  # fmt: skip


def run_benchmark(
    sites: list[str],
    policy: str,
    budget: int,
    repeats: int,
    seed: int,
    code: Path | None,
    against: Path | None = None,
    measure: str = "cpu",
    short_budget: int = SHORT_BUDGET,
    bare_passes: int = BARE_PASSES,
) -> Record:
    console = Console(stderr=True)
    load_start = os.getloadavg()
    trees = [(code, "")] + ([(against, f" [{against}]")] if against is not None else [])
    rounds: dict[str, list[Record]] = {name + mark: [] for name in sites for _, mark in trees}
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-overhead-")))
        envs = [child_env(tree, tmp / f"pycache-{i}") for i, (tree, _) in enumerate(trees)]
        running = [stack.enter_context(site_process(name, tmp / f"{name}.requests")) for name in sites]
        for site in running:
            if site.login is not None:
                for env in envs:
                    env[PASSWORD_ENV] = site.login[2]  # never on a command line
            console.print(f"{site.name}: {site.url}", highlight=False, markup=False)
        # compiles the bytecode caches and warms each site; not counted
        for site in running:
            for (tree, _), env in zip(trees, envs, strict=True):
                explore(site.url, policy, 0, seed=seed, env=env, code=tree, extra=site.explore_args())
        for (tree, _), env in zip(trees, envs, strict=True):
            warm_token_counter(env, tree)
        count = Counting(tmp, child_env(None, tmp / "pycache-bare")) if measure == "instructions" else None
        for i in range(repeats):
            for site in running:
                for (tree, mark), env in zip(trees, envs, strict=True):
                    r = one_round(
                        site, policy, budget, seed, env, tree, count if i == 0 else None, short_budget,
                        bare_passes,
                    )  # fmt: skip
                    rounds[site.name + mark].append(r)
                    if "ir_over_bare" in r:
                        steady = (
                            f"; once {mega(r.get('ir_explorer_once'), 0, '.1f')} M, "
                            f"× steady {num(r.get('ir_steady_over_bare'), '.2f')}"
                            if "ir_short_explorer" in r
                            else ""
                        )
                        console.print(
                            f"[{i + 1}/{repeats}] {site.name + mark:<13} instructions: explorer "
                            f"{r['ir_explorer'] / 1e6:.1f} M, bare {r['ir_bare'] / 1e6:.1f} M, × bare "
                            f"{num(r['ir_over_bare'], '.2f')}{steady}",
                            highlight=False,
                            markup=False,
                        )
                    console.print(
                        f"[{i + 1}/{repeats}] {site.name + mark:<13} start {r['start_cpu_s']:.2f} s, {r['clicks']} clicks "
                        f"{r['explorer_cpu_s']:.2f} s over {r['requests_after_start']} requests; bare "
                        f"{r['bare_cpu_s']:.3f} s; × bare {num(r['over_bare'], '.2f')}; paced "
                        f"{r['paced_cpu_s']:.3f} s, × paced {num(r['over_paced'], '.2f')}"
                        + (
                            f"; {r['short_clicks']} clicks {r['short_explorer_cpu_s']:.2f} s over "
                            f"{r['short_requests_after_start']} requests, once "
                            f"{num(r['explorer_once_ms'], '.1f')} ms, × steady {num(r['over_bare_steady'], '.2f')}"
                            if "short_explorer_cpu_s" in r
                            else ""
                        ),
                        highlight=False,
                        markup=False,
                    )
    return {
        "policy": policy,
        "budget": budget,
        "measure": measure,
        "short_budget": short_budget if 0 < short_budget < budget else None,
        "bare_passes": bare_passes,
        "repeats": repeats,
        "seed": seed,
        "code": str(code) if code else None,
        "against": str(against) if against else None,
        "target": TARGET,
        "load_start": list(load_start),
        "load_end": list(os.getloadavg()),
        "cpus": os.cpu_count(),
        "sites": {name: {**summarise(rs), "rounds": rs} for name, rs in rounds.items()},
    }


def _sites(text: str) -> list[str]:
    names = [x.strip() for x in text.split(",") if x.strip()]
    wrong = [n for n in names if n not in SITES]
    if not names or wrong:
        raise argparse.ArgumentTypeError(f"sites are {', '.join(SITES)}; got {text!r}")
    return names


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    # SIGTERM unwinds like Ctrl-C: the sites, the running exploration and the stores are cleaned up
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.overhead", description=__doc__.splitlines()[0] if __doc__ else None
    )
    parser.add_argument(
        "--site", type=_sites, default=list(SITES), help="builtin,conduit-htmx,scale (default all)"
    )
    parser.add_argument("--budget", type=_positive, default=60, help="clicks per run (default 60)")
    parser.add_argument(
        "--policy", choices=POLICIES, default="planner", help="the explorer's policy (default planner)"
    )
    parser.add_argument(
        "--repeats", type=_positive, default=3, help="rounds; figures are medians (default 3)"
    )
    parser.add_argument("--seed", type=int, default=1000, help="the explorer's --seed (default 1000)")
    parser.add_argument("--code", type=Path, help="run the explorer from this source tree (PYTHONPATH)")
    parser.add_argument(
        "--against", type=Path, help="also run the explorer from this tree, in the same rounds"
    )
    parser.add_argument(
        "--measure", choices=("cpu", "instructions"), default="cpu",
        help="instructions: also count the first round's instructions under valgrind (slow; "
        "the same ratio, load-independent)",
    )  # fmt: skip
    parser.add_argument(
        "--short-budget", type=int, default=SHORT_BUDGET,
        help=f"clicks of the short run that, with the --budget one, splits a run's cost into a steady cost "
        f"a fetch and a cost once a run (default {SHORT_BUDGET}; 0: none)",
    )  # fmt: skip
    parser.add_argument(
        "--bare-passes", type=_positive, default=BARE_PASSES,
        help=f"the bare loop's passes over each run's requests; its CPU is the median pass's (default {BARE_PASSES})",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    args = parser.parse_args(argv)
    if args.short_budget < 0:
        parser.error("--short-budget: must be 0 (none) or more")
    if args.measure == "instructions" and not instructions.available():
        parser.error("--measure instructions: valgrind is not installed")
    for flag, tree in (("--code", args.code), ("--against", args.against)):
        if tree is not None and not (tree / "bughunt" / "__init__.py").is_file():
            parser.error(f"{flag} {tree}: no bughunt package there")
    result = run_benchmark(
        args.site, args.policy, args.budget, args.repeats, args.seed, args.code, args.against, args.measure,
        args.short_budget, args.bare_passes,
    )  # fmt: skip
    print(json.dumps(result, indent=2) if args.json else render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
