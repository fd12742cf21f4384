"""`bughunt report`: write an exploration's HTML report (site map, path, coverage, bugs with evidence)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "report",
        help="write a self-contained HTML report of an exploration",
        description="Write a self-contained HTML page: site map with the walked path, coverage over steps, "
        "and every bug with its evidence.",
    )
    p.add_argument("--store", type=Path, required=True, help="the exploration's store directory")
    p.add_argument("--out", type=Path, required=True, help="HTML file to write")
    p.add_argument("--json", action="store_true", help="print what was written as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bughunt.report import load_report_data, render_report, save_html

    data = load_report_data(args.store)  # errors go to the shared net: one line, its exit code
    html = render_report(data)
    save_html(html, args.out)
    live = [b for b in data.get("bugs", []) if not b.get("superseded_by")]
    info = {
        "out": str(args.out),
        "bytes": len(html.encode("utf-8")),
        "steps": (data.get("summary") or {}).get("steps", len(data.get("steps", []))),
        "pages_visited": len((data.get("summary") or {}).get("pages_visited", [])),
        "bugs": len(live),
        "open_bugs": sum(b.get("status") == "open" for b in live),
    }
    if args.json:
        print(json.dumps(info, indent=2))
    else:
        print(f"report written to {args.out} ({info['steps']} steps, {info['bugs']} bugs)")
    return 0
