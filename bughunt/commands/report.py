"""`bughunt report`: write an exploration's HTML report (site map, path, coverage, bugs with evidence)."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from memgpt_lite.cli_dispatch import check_output_file
from memgpt_lite.errors import UsageError

REPORT_MARK = '<meta name="generator" content="bughunt report">'
"""Written into every report's <head>: `--out` replaces only a file that carries it."""
_MARK_WINDOW = 4096


class ReportRefused(UsageError):
    """`--out` names something this command must not replace (bad input: exit 2)."""


def mark_report(html: str) -> str:
    if REPORT_MARK in html[:_MARK_WINDOW]:
        return html
    head = html.find("<head>")
    if head == -1:
        return REPORT_MARK + "\n" + html
    return html[: head + len("<head>")] + REPORT_MARK + html[head + len("<head>") :]


def check_report_target(out: Path) -> None:
    """Refuse `out` unless it is free or a report bughunt wrote (it carries `REPORT_MARK`): a folder,
    somebody's page, a symlink are never replaced — whichever command (`report --out`, `explore
    --report`) would write it. Checked before exploring too, so a refusal costs no exploration."""
    if not os.path.lexists(out):
        return
    if out.is_symlink() or not out.is_file():
        raise ReportRefused(f"{out} exists and is not a regular file; choose another path")
    try:
        with open(out, "rb") as f:
            head = f.read(_MARK_WINDOW).decode("utf-8", errors="replace")
    except OSError as err:
        raise ReportRefused(f"{out} exists and cannot be read ({err.strerror or err})") from None
    if REPORT_MARK not in head:
        raise ReportRefused(
            f"refusing to overwrite {out}: it is not a report written by bughunt "
            "(choose another path, or move the file away first)"
        )


def write_report_file(html: str, out: Path) -> None:
    """Atomically write `html` to `out` (temporary file in the same folder + rename; the temporary file
    is removed on any failure), under `check_report_target`'s rule."""
    check_report_target(out)
    from bughunt.report import save_html  # the report module's one atomic write

    save_html(mark_report(html), out)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "report",
        help="write a self-contained HTML report of an exploration, or its JUnit XML / SARIF for CI",
        description="Write a self-contained HTML page: site map with the walked path, coverage over steps, "
        "and every bug with its evidence.",
    )
    p.add_argument("--store", type=Path, required=True, help="the exploration's store directory")
    p.add_argument(
        "--out",
        type=Path,
        help="HTML file to write (an existing file is replaced only if it is an earlier bughunt report)",
    )
    p.add_argument("--junit", type=Path, help="write JUnit XML: a test case per oracle and per bug")
    p.add_argument("--sarif", type=Path, help="write SARIF 2.1.0: a result per open bug")
    p.add_argument(
        "--baseline",
        type=Path,
        help="mark the bugs this baseline accepts (skipped in JUnit, unchanged in SARIF)",
    )
    p.add_argument("--json", action="store_true", help="print what was written as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # errors go to the shared net (memgpt_lite.cli_dispatch): one line and its exit code
    if args.out is None and args.junit is None and args.sarif is None:
        raise UsageError("give --out FILE (HTML), --junit FILE or --sarif FILE")
    for path, option in ((args.junit, "--junit"), (args.sarif, "--sarif")):
        check_output_file(path, option)
    ci = _write_ci_files(args) if args.junit is not None or args.sarif is not None else {}
    if args.out is None:
        if args.json:
            print(json.dumps(ci, indent=2))
        else:
            print(f"written: {', '.join(ci['written'])} ({ci['open_bugs']} open bugs)")
        return 0
    from bughunt.report import counts, load_report_data, render_report
    from bughunt.report.overview import is_lead

    data = load_report_data(args.store)
    html = mark_report(render_report(data))
    write_report_file(html, args.out)
    live = [b for b in data.get("bugs", []) if not b.get("superseded_by")]
    shown = counts(data)  # the numbers the page shows: clicks of every session, not the last one's
    info = {
        "out": str(args.out),
        "bytes": len(html.encode("utf-8")),
        "clicks": shown["clicks"],
        "steps": shown["clicks"],  # the old name of clicks
        "sessions": len(data.get("sessions", [])),
        "pages_visited": shown["pages_visited"],
        "bugs": len(live),
        # what a CI gate counts; the suspected ones apart, as `leads` (the JUnit/SARIF path says the same)
        "open_bugs": sum(b.get("status") == "open" and not is_lead(b) for b in live),
        "leads": sum(is_lead(b) for b in live),
        **({"ci_files": ci["written"]} if ci else {}),
    }
    if args.json:
        print(json.dumps(info, indent=2))
    else:
        print(
            f"report written to {args.out} ({info['clicks']} clicks in {info['sessions']} "
            f"session{'s' if info['sessions'] != 1 else ''}, {info['bugs']} bugs)"
        )
        if ci:
            print(f"written: {', '.join(ci['written'])}")
    return 0


def _write_ci_files(args: argparse.Namespace) -> dict[str, Any]:
    """--junit / --sarif from the store, read-only (the store is opened without a lock and not written)."""
    from bughunt.reporters import baseline as bl
    from bughunt.reporters.files import write_ci_files
    from bughunt.reporters.records import read_run

    accepted = bl.load(args.baseline).fingerprints if args.baseline is not None else None
    run = read_run(args.store)
    written = write_ci_files(run, junit=args.junit, sarif=args.sarif, accepted=accepted)
    return {
        "written": [str(p) for p in written],
        "open_bugs": len(run.gating_bugs()),
        "leads": len(run.leads()),
    }
