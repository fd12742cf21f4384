"""`memgpt-lite inspect`: what is in an agent's context window and where — a memory map of one store.

Read-only: it never writes to the store (no resume repairs, no state save).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from memgpt_lite.memory import AgentMemory
from memgpt_lite.state import orphaned_tool_calls

REGION_STYLES = {
    "system": "bold magenta",
    "working context": "bold cyan",
    "tools": "bold yellow",
    "summary": "bold blue",
    "messages": "bold green",
    "free": "grey50",
}


def inspect_store(store: Path) -> dict[str, Any]:
    """The inspect report (JSON keys are a contract) plus `_regions`/`_messages` details for the map."""
    memory = AgentMemory.open(store, create=False, read_only=True)
    try:
        cm = memory.context
        counter = cm.counter
        window = cm.config.context_window
        wc_text = cm.working_context.render()
        regions = {
            "system": counter.apply_margin(counter.count_text(cm.system_prompt)),
            "working context": counter.apply_margin(counter.count_text(wc_text)),
            "tools": counter.apply_margin(cm.last_tools_tokens),
            "summary": counter.apply_margin(counter.count_message(m))
            if (m := cm.request_messages()[0] if cm.summary else None)
            else 0,
            "messages": counter.apply_margin(sum(counter.count_message(m) for m in cm.in_context)),
        }
        # The last tool schemas sent are part of every prompt, so they count here as well.
        prompt = counter.apply_margin(counter.count_request_raw(cm.build_request()) + cm.last_tools_tokens)
        regions["free"] = max(0, window - prompt)
        messages = [
            {
                "id": m.id,
                "role": m.role,
                "tokens": counter.apply_margin(counter.count_message(m)),
                "kind": m.meta.get("kind", ""),
                "text": " ".join(m.text.split())[:80],
            }
            for m in cm.in_context
        ]
        return {
            "context_window": window,
            "prompt_tokens": prompt,
            "pressure": round(prompt / window, 4),
            "in_context_messages": len(cm.in_context),
            "recall_messages": memory.recall.count(),
            "archival_passages": memory.archival_count(),
            "blocks": {
                b.name: {"chars": len(b.value), "limit": b.limit, "value": b.value}
                for b in cm.working_context.blocks
            },
            "summary": cm.summary,
            "_regions": regions,
            "_messages": messages,
            "_orphaned_tool_calls": sum(len(c) for _, c in orphaned_tool_calls(cm.in_context)),
        }
    finally:
        memory.close()


def memory_bar(regions: dict[str, int], window: int, width: int = 72) -> Text:
    bar = Text()
    for name, tokens in regions.items():
        cells = round(width * tokens / window) if tokens else 0
        if tokens and cells == 0:
            cells = 1
        bar.append(("░" if name == "free" else "█") * cells, style=REGION_STYLES[name])
    return bar


def render(report: dict[str, Any], store: Path, console: Console) -> None:
    window = report["context_window"]
    console.print(
        f"[bold]{store}[/bold] — {report['prompt_tokens']} / {window} tokens ({report['pressure']:.0%})"
    )
    console.print(memory_bar(report["_regions"], window))
    legend = Table(show_header=True, box=None, pad_edge=False)
    legend.add_column("region")
    legend.add_column("tokens", justify="right")
    legend.add_column("share", justify="right")
    for name, tokens in report["_regions"].items():
        legend.add_row(Text("■ " + name, style=REGION_STYLES[name]), str(tokens), f"{tokens / window:.0%}")
    console.print(legend)

    blocks = Table(title="working context blocks")
    for col in ("block", "chars", "limit", "value"):
        blocks.add_column(col, justify="right" if col in ("chars", "limit") else "left")
    for name, b in report["blocks"].items():
        blocks.add_row(name, str(b["chars"]), str(b["limit"]), " ".join(b["value"].split())[:60])
    console.print(blocks)

    msgs = Table(
        title=f"in-context messages ({report['in_context_messages']}, newest last; showing up to 15)"
    )
    for col in ("#", "role", "tokens", "text"):
        msgs.add_column(col, justify="right" if col in ("#", "tokens") else "left")
    shown = report["_messages"][-15:]
    offset = len(report["_messages"]) - len(shown)
    for i, m in enumerate(shown, start=offset + 1):
        role = f"{m['role']} ({m['kind']})" if m["kind"] else m["role"]
        msgs.add_row(str(i), role, str(m["tokens"]), Text(m["text"]))
    console.print(msgs)
    console.print(
        f"recall storage: {report['recall_messages']} messages · archival storage: {report['archival_passages']} passages"
    )
    if report["_orphaned_tool_calls"]:
        console.print(
            f"[yellow]{report['_orphaned_tool_calls']} tool call(s) without a result: the next open repairs them[/yellow]"
        )
    if report["summary"]:
        console.print(f"summary ({len(report['summary'])} chars):")
        console.print(Text(report["summary"]), style="blue")


def main(args: argparse.Namespace) -> int:
    store = Path(args.store)
    report = inspect_store(store)  # a store that is not ours: the shared net says so and exits 2
    if args.json:
        print(
            json.dumps(
                {k: v for k, v in report.items() if not k.startswith("_")}, indent=2, ensure_ascii=False
            )
        )
    else:
        render(report, store, Console())
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "inspect", help="memory map of a store: what is in the context window and where", description=__doc__
    )
    p.add_argument("--store", required=True, metavar="DIR", help="store directory to inspect (read-only)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=main)
