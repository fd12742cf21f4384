"""`bughunt report`: write an exploration's HTML report (site map, path, coverage, bugs with evidence)."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

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
        help="write a self-contained HTML report of an exploration",
        description="Write a self-contained HTML page: site map with the walked path, coverage over steps, "
        "and every bug with its evidence.",
    )
    p.add_argument("--store", type=Path, required=True, help="the exploration's store directory")
    p.add_argument(
        "--out",
        type=Path,
        required=True,
        help="HTML file to write (an existing file is replaced only if it is an earlier bughunt report)",
    )
    p.add_argument("--json", action="store_true", help="print what was written as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bughunt.report import counts, load_report_data, render_report

    # errors go to the shared net (memgpt_lite.cli_dispatch): one line and its exit code
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
        "open_bugs": sum(b.get("status") == "open" for b in live),
    }
    if args.json:
        print(json.dumps(info, indent=2))
    else:
        print(
            f"report written to {args.out} ({info['clicks']} clicks in {info['sessions']} "
            f"session{'s' if info['sessions'] != 1 else ''}, {info['bugs']} bugs)"
        )
    return 0
