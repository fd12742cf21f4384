"""`bughunt baseline`: accept an exploration's open bugs as known (`write`), or check a store against
the accepted ones (`check`, exit 3 when an open bug is not accepted). Both read the store only."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from bughunt.reporters import baseline as bl
from bughunt.reporters.records import read_run
from memgpt_lite.cli_dispatch import check_output_file
from memgpt_lite.errors import UsageError
from memgpt_lite.storage.directory import atomic_write_text


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "baseline", help="accept known bugs (write) or fail on bugs not accepted (check) for CI"
    )
    sub = p.add_subparsers(dest="baseline_command", metavar="write|check", required=True)
    w = sub.add_parser("write", help="write a baseline accepting every open bug of the store")
    w.add_argument("--store", type=Path, required=True, help="the exploration's store directory")
    w.add_argument(
        "--out",
        type=Path,
        default=bl.DEFAULT_PATH,
        help=f"baseline file to write (default {bl.DEFAULT_PATH})",
    )
    w.add_argument(
        "--reason", help="why these bugs are accepted (default: kept for bugs already in --out, "
        f"else {bl.DEFAULT_REASON!r})"
    )  # fmt: skip
    w.add_argument("--json", action="store_true", help="print the baseline written as JSON")
    w.set_defaults(func=run_write)
    c = sub.add_parser("check", help="exit 3 when the store has open bugs the baseline does not accept")
    c.add_argument("--store", type=Path, required=True, help="the exploration's store directory")
    c.add_argument(
        "--baseline", type=Path, default=bl.DEFAULT_PATH, help=f"baseline file (default {bl.DEFAULT_PATH})"
    )
    c.add_argument("--json", action="store_true", help="print new, accepted and stale bugs as JSON")
    c.set_defaults(func=run_check)


def run_write(args: argparse.Namespace) -> int:
    check_output_file(args.out, "--out")
    run = read_run(args.store)
    previous = None
    if os.path.lexists(args.out):
        if args.out.is_symlink() or not args.out.is_file():
            raise UsageError(f"--out {args.out} exists and is not a regular file; choose another path")
        previous = bl.load(args.out)  # refuses a file that is not a baseline: never overwrite it
    baseline = bl.accept_open(run, previous, args.reason)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(args.out, json.dumps(baseline.as_json(), indent=2) + "\n", mode=0o644)
    if args.json:
        print(json.dumps({"out": str(args.out), **baseline.as_json()}, indent=2))
    else:
        print(f"baseline written to {args.out} ({len(baseline.entries)} accepted bugs)")
    return 0


def run_check(args: argparse.Namespace) -> int:
    baseline = bl.load(args.baseline)
    result = bl.check(read_run(args.store), baseline)
    if args.json:
        print(json.dumps({"baseline": str(args.baseline), **result, "ok": not result["new"]}, indent=2))
    else:
        for bug in result["new"]:
            print(f"  [new] {bug['route']:<28} {bug['kind']:<24} {bug['fingerprint']}")
        print(
            f"{len(result['new'])} open bugs not in {args.baseline}, {len(result['accepted'])} accepted, "
            f"{len(result['stale'])} accepted but no longer open, "
            f"{len(result['suspected'])} suspected (leads, never new)"
        )
    return bl.EXIT_BUGS if result["new"] else 0
