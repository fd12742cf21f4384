"""`bughunt memory`: show an exploration's structured memory (what the harness wrote).

Prints visited pages, the link table, every bug entry (live and superseded, with version and time),
the working-context block the policy is shown, the notes that passed the filter, and archival items
(quarantined page observations with their provenance, plus the llm agent's archival passages).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bughunt.explorer.export import memory_snapshot
from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.summary import bug_lines


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("memory", help="show an exploration's structured memory")
    p.add_argument("--store", required=True, type=Path, help="store directory")
    p.add_argument("--json", action="store_true", help="print the memory as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # here, not at the top: the agent's memory imports Chroma (~1 s), which `bughunt --help` need not pay
    from bughunt.explorer.llm_policy import agent_archival

    data = memory_snapshot(args.store, agent_archival(args.store))  # errors: the CLI's shared net
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    print(f"visited ({len(data['visited'])}): {' '.join(data['visited'])}")
    print(f"link table: {len(data['links'])} pages, {sum(len(v) for v in data['links'].values())} links")
    print("bugs:")
    for b in data["bugs"]:
        sup = b["superseded_by"]
        tail = f"  superseded by {sup['status']} @ {sup['version']} {sup['seen_at']}" if sup else "  (live)"
        print(f"  [{b['status']:<5}] {b['route']:<28} {b['kind']:<24} v{b['version']} {b['seen_at']}{tail}")
        if not sup:  # the live entry: what to act on (the bug view, as `explore` prints it)
            print("\n".join(f"      {line}" for line in bug_lines(b)))
    print("working context:")
    for line in data["working_context"].splitlines():
        print(f"  {line}")
    print(f"notes ({len(data['notes'])}):")
    for note in data["notes"]:
        print(f"  - {note}")
    quarantined = sum(1 for a in data["archival"] if a["quarantined"])
    print(f"archival: {len(data['archival'])} items ({quarantined} quarantined page observations)")
    store = ExplorerStore(args.store, create=False, lock=False)
    try:
        refused = store.notebook.rejections()
    finally:
        store.close()
    if refused:
        # What the model tried to write and the harness refused: audit only, shown shortened.
        print(f"refused by the harness ({len(refused)}):")
        for r in refused:
            print(f"  - {r.what} at step {r.step}: {r.reason} [{r.text[:60]}…]")
    return 0
