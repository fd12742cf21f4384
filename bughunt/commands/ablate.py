"""`bughunt ablate`: the seed experiment (`--reproduce`), your own ablation (`--config FILE`) and
`bughunt ablate plan` (how many tasks an evaluation needs)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgpt_lite.cli_dispatch import check_output_file
from memgpt_lite.errors import UsageError

from ..sim.backends import BACKENDS, OnDone, make_backend

if TYPE_CHECKING:
    from rich.console import Console

    from ..ablation.outcome import Outcome

WIDE = 200


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "ablate",
        help="memory ablations on the simulator: --reproduce the seed experiment, --config FILE, or `plan`",
        description=__doc__,
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--reproduce", action="store_true", help="recompute the seed experiment (200 seeded runs each)"
    )
    mode.add_argument(
        "--config",
        metavar="FILE",
        help=f"ablation config (YAML or TOML, see docs/simulator.md) or a built-in preset: {_presets()}",
    )
    p.add_argument(
        "--json",
        nargs="?",
        const="-",
        metavar="FILE",
        help="print the results as JSON on stdout (the tables then go to stderr); `--json FILE` still "
        "writes FILE",
    )
    p.add_argument("--json-file", metavar="FILE", help="write the results as JSON to FILE")
    p.add_argument("--plots", metavar="DIR", help="draw PNG plots into DIR")
    p.add_argument(
        "--wide", action="store_true", help=f"print tables {WIDE} columns wide, long names unfolded"
    )
    p.add_argument(
        "--backend", choices=BACKENDS, default="local", help="where runs execute (default: local processes)"
    )
    p.add_argument("--address", help="scheduler address for --backend dask (tcp://HOST:PORT) or ray")
    p.add_argument("--workers", type=int, default=None, help="local processes (default: one per core)")
    p.set_defaults(func=main)
    sub = p.add_subparsers(dest="ablate_command", metavar="plan")
    plan = sub.add_parser("plan", help="sample size: tasks needed to detect an effect")
    plan.add_argument("--effect", type=float, help="smallest difference worth detecting (e.g. 0.05 = 5 pp)")
    plan.add_argument(
        "--sd", type=float, help="SD of per-task differences (paired) or of per-task values (unpaired)"
    )
    plan.add_argument(
        "--pilot",
        metavar="FILE",
        help="a pilot's `bughunt ablate --json` file: SD (and by default the effect) from it",
    )
    plan.add_argument("--comparison", help="which paired comparison of the pilot (e.g. frontier_vs_random)")
    plan.add_argument(
        "--metric", default="coverage", help="metric of the pilot comparison (default coverage)"
    )
    plan.add_argument("--alpha", type=float, default=0.05, help="two-sided significance level (default 0.05)")
    plan.add_argument("--power", type=float, default=0.8, help="power (default 0.8)")
    plan.add_argument("--unpaired", action="store_true", help="independent samples instead of paired tasks")
    plan.add_argument("--json", action="store_true", help="print the estimate as JSON")
    plan.set_defaults(func=plan_main)


def _presets() -> str:
    from ..ablation.files import preset_names

    return ", ".join(preset_names())


def main(args: argparse.Namespace) -> int:
    # Config and usage errors go to `run_reporting_errors`: one `error: ...` line, exit 2.
    if args.json_file:
        if args.json and args.json != "-":
            raise UsageError("give --json FILE or --json-file FILE, not both")
        args.json = args.json_file
    _check_outputs(args)  # fail before the work, not after it
    outcome: Outcome
    if args.reproduce:
        from ..ablation.seed_experiment import reproduce, total_runs

        backend = make_backend(args.backend, args.address, args.workers)
        with _progress(total_runs(), "seed experiment") as advance:
            outcome = reproduce(backend, advance)
        return _show(args, outcome)
    if args.config:
        from ..ablation import run
        from ..ablation.files import load_config

        cfg = load_config(args.config)  # a bad config is reported before a backend is started
        backend = make_backend(args.backend, args.address, args.workers)
        with _progress(run.total_runs(cfg), cfg.name) as advance:
            outcome = run.run_ablation(cfg, backend, advance)
        return _show(args, outcome)
    raise UsageError("give --reproduce, --config FILE, or the `plan` sub-command (see --help)")


def _show(args: argparse.Namespace, outcome: Outcome) -> int:
    """The results where the options send them: JSON first, then the tables, then the plots."""
    if args.json:
        _write_json(args.json, outcome.document)
    console = _console(args)
    outcome.render(console)
    if args.plots:
        files = outcome.plot(_plots_dir(args.plots))
        console.print("Plots: " + ", ".join(str(f) for f in files))
    return 0


@contextmanager
def _progress(total: int, label: str) -> Iterator[OnDone]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    # No refresh thread: the local backend forks worker processes while this is open.
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        auto_refresh=False,
        transient=True,
    ) as progress:
        task = progress.add_task(label, total=total)
        yield lambda k: progress.update(task, advance=k, refresh=True)


def _console(args: argparse.Namespace) -> Console:
    from rich.console import Console

    to_stderr = args.json == "-"
    # the terminal's width (a pipe: $COLUMNS or 80) — the tables fold long names to fit; --wide opts out
    return Console(stderr=to_stderr, highlight=False, width=WIDE if getattr(args, "wide", False) else None)


def _check_outputs(args: argparse.Namespace) -> None:
    if args.json and args.json != "-":
        check_output_file(args.json, "--json")  # a missing folder is made when the results are written
    if args.plots:
        _plots_dir(args.plots)


def _write_json(target: str, data: dict[str, Any]) -> None:
    text = json.dumps(data, indent=2)
    if target == "-":
        print(text)
        return
    from ..report import write_atomic

    try:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(Path(target), text + "\n")
    except OSError as e:
        raise UsageError(f"--json: cannot write {target}: {e.strerror or e}") from None


def _plots_dir(target: str) -> Path:
    d = Path(target)
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"--plots: cannot create {target}: {e.strerror or e}") from None
    return d


def plan_main(args: argparse.Namespace) -> int:
    from ..sim.stats import sample_size

    effect, sd, source = _plan_inputs(args)
    n = sample_size(effect, sd, args.alpha, args.power, paired=not args.unpaired)
    design = "unpaired" if args.unpaired else "paired"
    if args.json:
        out = {
            "tasks": n,
            "design": design,
            "effect": effect,
            "sd": sd,
            "alpha": args.alpha,
            "power": args.power,
        }
        print(json.dumps({**out, **({"pilot": source} if source else {})}))
        return 0
    unit = "tasks per configuration" if args.unpaired else "tasks (each run under both configurations)"
    print(
        f"{n} {unit} to detect a difference of {effect:.4g} with SD {sd:.4g} "
        f"(two-sided α = {args.alpha:g}, power {args.power:g}, {design}; normal approximation)"
    )
    if source:
        print(
            f"from pilot {source['file']}: {source['comparison']} / {source['metric']}, {source['n_tasks']} tasks"
        )
    return 0


def _plan_inputs(args: argparse.Namespace) -> tuple[float, float, dict[str, Any] | None]:
    if not args.pilot:
        if args.effect is None or args.sd is None:
            raise UsageError("give --effect and --sd, or --pilot FILE")
        return args.effect, args.sd, None
    from ..sim.summary import pilot_estimate

    try:
        data = json.loads(Path(args.pilot).read_text(encoding="utf-8"))
    except OSError as e:
        raise UsageError(f"--pilot: cannot read {args.pilot}: {e.strerror or e}") from None
    except json.JSONDecodeError as e:
        raise UsageError(f"--pilot: {args.pilot} is not JSON: {e}") from None
    est = pilot_estimate(data, args.comparison, args.metric)
    sd = args.sd if args.sd is not None else (est.sd_unpaired if args.unpaired else est.sd_paired)
    effect = args.effect if args.effect is not None else est.effect
    source = {"file": args.pilot, "comparison": est.comparison, "metric": est.metric, "n_tasks": est.n_tasks}
    return effect, sd, source
