"""`python -m evals fixture|layer1|layer2 ...` — the two-layer memory evaluation.

(`python -m evals.locomo` is a separate module with its own entry point; `python -m evals.bench` is an alias
of `python -m benchmarks.memory`.)
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from evals.case_schema import DEFAULT_CASES_DIR, CaseError, load_cases
from evals.dataset_paths import resolve_old_layout
from evals.fixture import EMBEDDERS, check_store_records, read_manifest, write_fixture
from evals.fixture_records import records_files_for, unique_files
from memgpt_lite.cli_dispatch import check_output_file, require_model_access, run_reporting_errors
from memgpt_lite.text_tables import print_table

err = Console(stderr=True)


@contextmanager
def _store(args: argparse.Namespace) -> Iterator[Path]:
    """The store given with --store, or a fixture built into a temporary directory with the records
    files the cases bring (their directory's records.yaml) and those given with --records."""
    records = unique_files([*records_files_for(args.cases), *(args.records or [])])
    if args.store:
        path = Path(args.store)
        if not path.is_dir():
            raise CaseError(f"--store {path}: no such directory")
        check_store_records(path, records)
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="evals-fixture-") as tmp:
        with err.status("building the fixture store"):
            write_fixture(Path(tmp) / "store", embedder=args.embedder, records=records)
        yield Path(tmp) / "store"


def _extra_records(store: Path) -> list[dict[str, object]]:
    """What the run's store added to the generated fixture (file, sha256, ids), for the JSON summary."""
    return [e.model_dump() for e in read_manifest(store).extra_records]


@contextmanager
def _progress(total: int, label: str) -> Iterator[Callable[..., None]]:
    """Progress on stderr, also under --json (stdout carries the JSON, stderr the progress): a bar on
    a terminal, else a plain line at most every `PLAIN_EVERY_S` seconds and at the end, so a run in CI
    or piped to a file is never silent for minutes."""
    if err.is_terminal:
        with Progress(console=err, transient=True) as bar:
            task = bar.add_task(label, total=total)
            yield lambda *_a, **_k: bar.advance(task)
        return
    started = last = time.monotonic()
    done = 0

    def tick(*_a: object, **_k: object) -> None:
        nonlocal done, last
        done += 1
        now = time.monotonic()
        if now - last >= PLAIN_EVERY_S or done == total:
            last = now
            print(f"{label}: {done}/{total} ({now - started:.0f} s)", file=sys.stderr, flush=True)

    yield tick


PLAIN_EVERY_S = 10.0


def _cmd_fixture(args: argparse.Namespace) -> int:
    manifest = write_fixture(args.out, embedder=args.embedder, records=unique_files(args.records or []))
    info = {
        "out": str(args.out),
        "fixture_version": manifest.fixture_version,
        "items": len(manifest.items),
        "archival": sum(i.store == "archival" for i in manifest.items),
        "recall": sum(i.store == "recall" for i in manifest.items),
        "embedder": manifest.embedder,
        "extra_records": [e.model_dump() for e in manifest.extra_records],
    }
    if args.json:
        print(json.dumps(info))
    else:
        print(
            f"wrote {info['items']} items ({info['archival']} archival, {info['recall']} recall) to {args.out}"
        )
    return 0


def _cmd_layer1(args: argparse.Namespace) -> int:
    from evals.layer1 import run_layer1
    from evals.report import layer1_html, layer1_markdown, write_report

    check_output_file(args.report, "--report")
    cases = load_cases(args.cases)
    with _store(args) as store, _progress(len(cases), "layer 1") as tick:
        run = run_layer1(cases, store, str(args.cases), progress=tick)
        extra = _extra_records(store)
    if args.report:
        detail = run.report_json()
        for p in write_report(args.report, detail, layer1_markdown(detail), layer1_html(detail)):
            err.print(f"report: {p}")
    if args.json:
        print(json.dumps({**run.as_json(), "extra_records": extra}, ensure_ascii=False))
    else:
        # fold long names instead of cutting them with an ellipsis; plain text (no Markdown backticks)
        t = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, collapse_padding=True)
        for header in ("case", "category", "result", "expected", "evidence found", "violations"):
            t.add_column(header, overflow="fold")
        for r in run.results:
            s = r.summary()
            t.add_row(
                s["id"], s["category"], "pass" if s["passed"] else "[red]FAIL[/]",
                f"{s['expected_mode']} / {s['support_layer']}", ", ".join(s["evidence_found"]) or "–",
                escape("\n".join(s["violations"]).replace("`", "")) or "–",
            )  # fmt: skip
        print_table(Console(), t)
    return 0 if all(r.passed for r in run.results) else 1


def _cmd_layer2(args: argparse.Namespace) -> int:
    # before the fixture is built (seconds), before any file is written, and before the run's modules
    # (Chroma, dateparser: ~1 s of imports) load
    if args.agent == "anthropic":
        require_model_access(args.base_url, "--agent anthropic")
    from evals.layer2 import report_data, run_layer2, run_trivial, summarise, trivial_summary

    check_output_file(args.log, "--log")
    cases = load_cases(args.cases)
    with (
        _store(args) as store,
        _progress(len(cases) * args.runs, f"layer 2 ({args.agent})") as tick,
    ):
        records = run_layer2(
            cases, store, agent=args.agent, runs=args.runs, log=args.log, model=args.model,
            base_url=args.base_url, progress=tick,
        )  # fmt: skip
        trivial = trivial_summary(cases, run_trivial(cases, store))
        extra = _extra_records(store)
    summary = {**summarise(cases, records), "trivial_agents": trivial}
    if args.report:
        from evals.report import layer2_html, layer2_markdown, write_report

        store_text = str(args.store) if args.store else f"a temporary fixture ({args.embedder} embedder)"
        info = {"cases_dir": str(args.cases), "agent": args.agent, "runs": args.runs, "store": store_text,
                "model": records[0]["model"] if records else None, "log": str(args.log) if args.log else None}  # fmt: skip
        detail = report_data(cases, records, {**info, "trivial_agents": trivial})
        for p in write_report(args.report, detail, layer2_markdown(detail), layer2_html(detail)):
            err.print(f"report: {p}")
    if args.json:
        print(
            json.dumps(
                {
                    "cases_dir": str(args.cases),
                    "agent": args.agent,
                    "runs": args.runs,
                    "log": str(args.log) if args.log else None,
                    "extra_records": extra,
                    **summary,
                },
                ensure_ascii=False,
            )
        )
    else:
        names = list(trivial)
        t = Table("category", "runs", f"{args.agent} passed", *names)
        for cat, s in summary["per_category"].items():
            t.add_row(cat, str(s["runs"]), str(s["passed"]),
                      *(f"{trivial[n]['per_category'][cat]['passed']}/{trivial[n]['per_category'][cat]['runs']}" for n in names))  # fmt: skip
        t.add_row("all", str(summary["runs_total"]), str(summary["passed_total"]),
                  *(f"{trivial[n]['passed']}/{trivial[n]['runs']}" for n in names))  # fmt: skip
        print_table(Console(), t)
        t = Table("case", "category", "runs", "passed", "violations (first run that failed)")
        for s in summary["per_case"]:
            t.add_row(
                s["id"], s["category"], str(s["runs"]), str(s["passed"]), "\n".join(s["violations"]) or "–"
            )
        print_table(Console(), t)
        if args.log:
            err.print(f"records: {args.log}")
    return 0


def _data_path(text: str) -> Path:
    """A path as given; one of the old layout (`evals/heldout2`) that no longer exists is its dataset."""
    return resolve_old_layout(Path(text))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m evals", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument(
            "--cases", type=_data_path, default=DEFAULT_CASES_DIR,
            help="case directory or YAML file (default: evals/datasets/own)",
        )  # fmt: skip
        sp.add_argument(
            "--store", type=Path, help="a store written by `fixture` (default: build one in a temp dir)"
        )
        sp.add_argument(
            "--embedder", choices=EMBEDDERS, default="default", help="embedder for a temp fixture"
        )
        sp.add_argument("--json", action="store_true", help="print JSON")
        records_flag(sp)

    def records_flag(sp: argparse.ArgumentParser) -> None:
        sp.add_argument(
            "--records", type=_data_path, action="append", metavar="FILE",
            help="extra fixture records (YAML) appended to the generated fixture; repeatable "
            "(a case directory's records.yaml is used without it)",
        )  # fmt: skip

    f = sub.add_parser("fixture", help="write the BugHunt memory fixture into a new store directory")
    f.add_argument("--out", type=Path, required=True)
    f.add_argument("--embedder", choices=EMBEDDERS, default="default")
    f.add_argument("--json", action="store_true")
    records_flag(f)
    f.set_defaults(func=_cmd_fixture)

    l1 = sub.add_parser("layer1", help="deterministic evidence retention")
    common(l1)
    l1.add_argument("--report", type=Path, help="write the evidence report (.md or .html; a .json twin too)")
    l1.set_defaults(func=_cmd_layer1)

    l2 = sub.add_parser("layer2", help="an agent in the loop answers from memory")
    common(l2)
    l2.add_argument("--agent", choices=("anthropic", "baseline"), required=True)
    l2.add_argument("--runs", type=int, default=1, help="runs per case")
    l2.add_argument("--log", type=Path, help="append one JSONL record per run to this file")
    l2.add_argument("--model", default=None, help="model name for --agent anthropic")
    l2.add_argument("--base-url", default=None, help="Messages-API server for --agent anthropic")
    l2.add_argument("--report", type=Path, help="write the answers report (.md or .html; a .json twin too)")
    l2.set_defaults(func=_cmd_layer2)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "runs", 1) < 1:
        err.print("error: --runs must be at least 1")
        return 2
    return run_reporting_errors(lambda: args.func(args))


if __name__ == "__main__":
    sys.exit(main())
