"""`memgpt-lite demo`: a deterministic scripted conversation that fills the context window, shows the
memory-pressure warnings and flushes, and proves every evicted message can be found again in recall
storage with the `conversation_search` tool. No API key: the "assistant" is a `FunctionModel` answering from the request it is sent, and
the summarizer is the deterministic one. Running it again on the same store continues the conversation.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from memgpt_lite.context import Block, DeterministicSummarizer
from memgpt_lite.errors import UsageError
from memgpt_lite.memory import AgentMemory
from memgpt_lite.messages import Message, ModelRequest, ModelResponse, TextPart
from memgpt_lite.testing import FunctionModel
from memgpt_lite.text_tables import print_table
from memgpt_lite.tools.memory_functions import conversation_search
from memgpt_lite.tools.registry import ToolContext

TURN_KEY = "demo_turns"
SYSTEM_PROMPT = (
    "You are the memgpt-lite demo assistant. The user tells you one fact per turn; acknowledge it. "
    "Older turns leave the context window but stay in recall storage."
)
ITEMS = ("door code", "wifi password", "locker number", "parking level", "badge colour", "desk number")
PLACES = ("north lab", "staging server", "old warehouse", "main office", "test bench", "backup site")
SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "pe", "su", "do", "ga")


def codeword(n: int) -> str:
    """A unique, searchable pseudo-word for turn `n` (base-12 syllables, at least three)."""
    out = []
    for _ in range(3):
        n, r = divmod(n, len(SYLLABLES))
        out.append(SYLLABLES[r])
    while n:
        n, r = divmod(n, len(SYLLABLES))
        out.append(SYLLABLES[r])
    return "".join(out)


def turn_message_id(turn: int, role: str) -> str:
    """The id of turn `turn`'s user message or reply: fixed, so a turn replayed after a kill is found
    in recall instead of being stored twice (turn numbers never repeat within a store)."""
    return f"demo-turn-{turn}-{role}"


def user_message(turn: int) -> Message:
    code = codeword(turn)
    item, place = ITEMS[turn % len(ITEMS)], PLACES[(turn // len(ITEMS)) % len(PLACES)]
    text = (
        f"Turn {turn}. Please remember that the {item} for the {place} is {code}. "
        f"I will ask about it again much later, so keep it safe."
    )
    return Message.user(text, id=turn_message_id(turn, "user"), meta={"demo_turn": turn, "demo_code": code})


def assistant_reply(request: ModelRequest) -> ModelResponse:
    """What the scripted assistant says: it acknowledges the fact in the latest user message it was sent."""
    last = next(m for m in reversed(request.messages) if m.role == "user")
    turn, code = last.meta["demo_turn"], last.meta["demo_code"]
    in_view = len(request.messages)
    reply = Message.assistant(
        TextPart(text=f"Noted for turn {turn}: {code}. I can see {in_view} messages right now."),
        meta={"demo_turn": turn, "demo_code": code},
    )
    return ModelResponse(message=reply, stop_reason="end_turn", model="demo-scripted")


def found_by_conversation_search(memory: AgentMemory, msg: Message, max_pages: int = 50) -> bool:
    """Does the model-facing `conversation_search` tool return `msg`, paging as a model would?

    User and assistant messages are searched by their code word; memory-pressure notices (no code word)
    by their text among system-role messages.
    """
    ctx = ToolContext(memory=memory, page_size=10)
    code = msg.meta.get("demo_code")
    query, roles = (code, None) if code else (msg.text, [msg.role])
    for page in range(max_pages):
        result = conversation_search(ctx, query=query, roles=roles, page=page)
        if f"id={msg.id}]" in result:
            return True
        if f"More: page={page + 1}." not in result:
            return False
    return False


def run_demo(
    store: Path, context_window: int, turns: int, progress: Progress | None = None
) -> dict[str, Any]:
    if turns < 1:
        raise UsageError(f"--turns must be at least 1, got {turns}")
    # The summary gets ~10-15% of the window (timestamped lines count ~2-3 chars per token with the margin).
    summarizer = DeterministicSummarizer(max_chars=max(200, int(context_window * 0.25)), line_chars=90)
    model = FunctionModel(assistant_reply, name="demo-scripted", record=False)
    with AgentMemory.open(
        store,
        context_window=context_window,
        system_prompt=SYSTEM_PROMPT,
        blocks=[Block(name="persona", value="A patient assistant that remembers facts.", limit=300)],
        summarizer=summarizer,
    ) as memory:
        start = int(memory.extra.get(TURN_KEY, 0))
        events: list[dict[str, Any]] = []
        evicted_ids: list[str] = []
        max_prompt = 0
        task = progress.add_task("conversation", total=turns) if progress else None
        for turn in range(start + 1, start + turns + 1):
            # A turn interrupted by a kill left its messages in recall (resume re-linked them): append
            # only what is not there yet, keyed by the turn's message ids.
            if turn_message_id(turn, "user") not in memory.recall:
                memory.append(user_message(turn))
            if turn_message_id(turn, "assistant") in memory.recall:
                memory.extra[TURN_KEY] = turn
                memory.save()
                continue
            prepared = memory.prepare()
            max_prompt = max(max_prompt, prepared.prompt_tokens)
            for ev in prepared.events:
                events.append(
                    {
                        "turn": turn,
                        "type": ev.type,
                        "prompt_tokens_before": ev.prompt_tokens_before,
                        "prompt_tokens_after": ev.prompt_tokens_after,
                        "evicted_messages": ev.evicted_messages,
                    }
                )
                evicted_ids += ev.evicted_ids
            reply = model.request(prepared.request).message
            memory.append(reply.model_copy(update={"id": turn_message_id(turn, "assistant")}))
            memory.extra[TURN_KEY] = turn
            memory.save()
            if progress is not None and task is not None:
                progress.advance(task)
        # The reply just appended is sent with the next request: count that prompt too.
        max_prompt = max(max_prompt, memory.context.prompt_tokens())
        found = sum(found_by_conversation_search(memory, m) for m in memory.recall.get(evicted_ids))
        return {
            "context_window": memory.context.config.context_window,
            "events": events,
            "max_prompt_tokens": max_prompt,
            "recall_messages": memory.recall.count(),
            "in_context_messages": len(memory.context.in_context),
            "summary": memory.context.summary,
            "evicted_total": len(evicted_ids),
            "evicted_found_in_recall": found,
        }


def render(result: dict[str, Any], store: Path, console: Console, removed: bool = False) -> None:
    window = result["context_window"]
    table = Table(title=f"context events (window {window} tokens)")
    for col in ("turn", "event", "before", "after", "evicted"):
        table.add_column(col, justify="right" if col != "event" else "left")
    for ev in result["events"]:
        table.add_row(
            str(ev["turn"]),
            ev["type"],
            f"{ev['prompt_tokens_before']} ({ev['prompt_tokens_before'] / window:.0%})",
            f"{ev['prompt_tokens_after']} ({ev['prompt_tokens_after'] / window:.0%})",
            str(ev["evicted_messages"]),
        )
    print_table(console, table)
    warnings = sum(e["type"] == "memory_pressure_warning" for e in result["events"])
    flushes = sum(e["type"] == "flush" for e in result["events"])
    console.print(
        f"{warnings} warnings, {flushes} flushes; largest prompt {result['max_prompt_tokens']} tokens "
        f"({result['max_prompt_tokens'] / window:.0%} of the window)"
    )
    console.print(
        f"recall holds {result['recall_messages']} messages, {result['in_context_messages']} are in context; "
        f"[bold]{result['evicted_found_in_recall']}/{result['evicted_total']}[/bold] evicted messages found again "
        "by conversation search"
    )
    console.print(f"summary ({len(result['summary'])} chars), last lines:")
    for line in result["summary"].splitlines()[-3:]:
        console.print(f"  {line}", markup=False)
    if removed:
        console.print("store: temporary, removed (pass --store DIR to keep and continue it, or --keep)")
    else:
        console.print(f"store: {store}  (run again with --store to continue)")


def main(args: argparse.Namespace) -> int:
    temporary = not args.store
    store = Path(args.store) if args.store else Path(tempfile.mkdtemp(prefix="memgpt-lite-demo-"))
    keep = bool(getattr(args, "keep", False))
    try:
        return _run(args, store, temporary and not keep)
    finally:
        # A temporary store is removed however the run ends (error, Ctrl-C) unless --keep asks for it.
        if temporary and not keep:
            shutil.rmtree(store, ignore_errors=True)
        elif temporary:
            print(f"kept the temporary store: {store}", file=sys.stderr)


def _run(args: argparse.Namespace, store: Path, removed: bool) -> int:
    err = Console(stderr=True)
    # errors go to the shared net (memgpt_lite.cli_dispatch), which names them and picks the exit code
    if args.json:
        result = run_demo(store, args.context_window, args.turns)
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
        with Progress(*columns, console=err, transient=True) as progress:
            result = run_demo(store, args.context_window, args.turns, progress)
        render(result, store, Console(), removed)
    ok = result["evicted_found_in_recall"] == result["evicted_total"]
    ok = ok and result["max_prompt_tokens"] <= result["context_window"]
    return 0 if ok else 1


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "demo",
        help="scripted conversation that fills the context: warnings, flushes, recall search (no API key)",
        description=__doc__,
    )
    p.add_argument(
        "--store", metavar="DIR", help="store directory (default: a new temporary one); reuse to continue"
    )
    p.add_argument(
        "--context-window", type=int, default=4000, metavar="N", help="window in tokens (default 4000)"
    )
    p.add_argument(
        "--turns", type=int, default=200, metavar="T", help="turns to run: user message + reply (default 200)"
    )
    p.add_argument(
        "--keep",
        action="store_true",
        help="without --store: keep the temporary store and print its path (default: it is removed)",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=main)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(argparse.Namespace(store=None, context_window=4000, turns=200, json=False, keep=False)))
