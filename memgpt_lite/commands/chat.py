"""`memgpt-lite chat` (interactive) and `memgpt-lite run` (one turn, for scripts and CI).

Both talk to Claude through the Anthropic SDK when ANTHROPIC_API_KEY is set, or to any server that speaks
the Messages API with `--base-url` (Ollama, llama.cpp server, vLLM). The store directory holds the
agent: opening it again resumes the same agent with its memory.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape

from memgpt_lite.cli_dispatch import exit_code
from memgpt_lite.errors import (
    ConfigError,
    MemgptLiteError,
    ModelError,
    ServerMismatch,
    format_validation_error,
)
from memgpt_lite.llm.base import StatedWindow, StatesWindow
from memgpt_lite.llm.factory import NoModel, check_model_key, make_model

__all__ = ["NoModel", "chat_command", "register", "run_command"]


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--store", required=True, type=Path, help="agent store directory (created if missing)")
    p.add_argument("--base-url", default=None, help="Messages-API server (Ollama, llama.cpp, vLLM)")
    p.add_argument(
        "--model", default=None, help="model name (default: $MEMGPT_LITE_MODEL or claude-sonnet-4-5)"
    )
    p.add_argument(
        "--context-window",
        type=int,
        default=None,
        help="context window in tokens (new stores; default 32000, or what a --base-url server states)",
    )
    p.add_argument("--max-steps", type=int, default=10, help="model calls per user turn (default 10)")
    p.add_argument("--max-tokens", type=int, default=1024, help="output tokens per model call (default 1024)")
    p.add_argument("--max-retries", type=int, default=4, help="retries on 429/5xx/overload (default 4)")
    p.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="give up on a model call after this many seconds (per attempt; default 120)",
    )
    p.add_argument(
        "--embedder",
        choices=("minilm", "multilingual", "hashing"),
        default=None,
        help="embeddings of a new store: minilm (English, the default), multilingual (USE multilingual v3: "
        "Chinese and 15 other languages meet English), hashing (tests); a store remembers its own",
    )
    p.add_argument(
        "--summarizer",
        choices=("llm", "deterministic"),
        default="llm",
        help="how evicted messages are summarised: by the model (default) or deterministically (no extra calls)",
    )
    p.add_argument(
        "--memory-tool",
        action="store_true",
        help="also offer Claude's memory tool (memory_20250818), files under STORE/memories",
    )


def register(subparsers: Any) -> None:
    chat = subparsers.add_parser("chat", help="chat with an agent (Claude or a Messages-API server)")
    _common(chat)
    chat.set_defaults(func=chat_command)
    run = subparsers.add_parser("run", help="one non-interactive turn: send --message, print the reply")
    _common(run)
    run.add_argument("--message", required=True, help="the user message")
    run.add_argument("--json", action="store_true", help="print the turn as JSON")
    run.set_defaults(func=run_command)


def _open_agent(args: argparse.Namespace) -> Any:
    """Model first (fails fast and clearly without a key), then the memory and the agent."""
    check_model_key(args.base_url, needed_by=f"memgpt-lite {args.command}")  # before Chroma's ~1 s import
    from memgpt_lite.agent import Agent, AgentConfig
    from memgpt_lite.memory import AgentMemory
    from memgpt_lite.storage.embeddings import make_embedder

    try:  # checked before anything is created: a bad number must not leave a half-made store behind
        config = AgentConfig(max_steps=args.max_steps, max_tokens=args.max_tokens)
    except ValidationError as e:
        raise ConfigError("--" + format_validation_error(e, every=False).replace("_", "-", 1)) from None
    if not (math.isfinite(args.timeout) and args.timeout > 0):  # float() also accepts "inf" and "nan"
        raise ConfigError(f"--timeout: must be a positive number of seconds, got {args.timeout}")
    model = make_model(args.model, base_url=args.base_url, max_retries=args.max_retries, timeout=args.timeout)
    served = _served_window(model, args)
    summarizer = None
    if args.summarizer == "llm":
        from memgpt_lite.context import LLMSummarizer

        summary, max_input = _summary_budget(served)
        summarizer = LLMSummarizer(model, max_input, max_summary_tokens=summary)
    memory = AgentMemory.open(
        args.store,
        embedder=make_embedder(args.embedder) if args.embedder else None,
        context_window=args.context_window,
        summarizer=summarizer,
        served_window=served,
        # A local server counts with its own tokenizer and chat template: measure, do not guess.
        model=model,
        provider_counts=served is not None,
    )
    tools: list[Any] = []
    if args.memory_tool:
        from memgpt_lite.tools.memory_tool import MemoryTool

        tools.append(MemoryTool(Path(args.store) / "memories"))
    return Agent(model, memory, tools=tools, config=config)


def _served_window(model: Any, args: argparse.Namespace) -> StatedWindow | None:
    """The context size a `--base-url` server states; an explicit `--context-window` larger than it is
    refused here, before any store is created."""
    if not args.base_url or not isinstance(model, StatesWindow):
        return None
    served = model.stated_window()
    if served is not None and args.context_window is not None and args.context_window > served.tokens:
        raise ServerMismatch(
            f"--context-window {args.context_window} is larger than the {served.tokens} tokens the server "
            f"serves ({served.source}); give at most {served.tokens}, or leave it out to use the server's"
        )
    return served


def _summary_budget(served: StatedWindow | None) -> tuple[int, int]:
    """The LLM summarizer's summary and input budgets (tokens): its request must fit the server's context
    too, the summary it writes included."""
    if served is None:
        return 600, 8000  # LLMSummarizer's defaults
    summary = max(64, min(600, served.tokens // 8))
    return summary, min(8000, served.tokens - summary)


def _turn_json(result: Any, store: Path) -> dict[str, Any]:
    return {
        "store": str(store),
        "messages": result.messages,
        "reply": result.reply,
        "steps": result.steps,
        "stopped": result.stopped,
        "errors": result.errors,
        "usage": result.usage.model_dump(),
        "events": [e.model_dump(exclude={"evicted_ids"}) for e in result.events],
        "tool_calls": [c.model_dump() for c in result.tool_calls],
    }


def _clean(text: str) -> str:
    """Bytes of the terminal or argv that were not UTF-8 arrive as lone surrogates; keep the rest."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def run_command(args: argparse.Namespace) -> int:
    err = Console(stderr=True, soft_wrap=True)  # one line per error, whatever the width
    try:
        agent = _open_agent(args)
        try:
            # A failed turn keeps the user message in recall; the next run carries on from it.
            result = agent.step(_clean(args.message))
        finally:
            agent.memory.close()
    except MemgptLiteError as e:
        if not args.json:
            raise  # the shared net prints it and picks the exit code
        print(json.dumps({"store": str(args.store), "error": str(e), "kind": type(e).__name__}))
        return exit_code(e)
    if args.json:
        print(json.dumps(_turn_json(result, args.store), indent=2, default=str))
    else:
        for text in result.messages:
            print(text)
        if not result.messages:
            err.print(f"[yellow](no message for the user; stopped: {result.stopped})[/]")
    return 0


def chat_command(args: argparse.Namespace) -> int:
    out = Console()
    err = Console(stderr=True, soft_wrap=True)  # one line per error, whatever the width
    agent = _open_agent(args)  # errors go to the shared net
    memory = agent.memory
    try:
        total = memory.recall.count()
        state = "resumed" if total else "new"
        out.print(
            f"[bold]{state} agent[/] in {args.store} — model {agent.model.name}; "
            f"{total} messages in recall, {len(memory.context.in_context)} in context. "
            "Type /memory to see the working context, /quit to leave."
        )
        while True:
            try:
                line = input("you> ").strip()
            except EOFError:
                break
            if not line:
                continue
            if line in ("/quit", "/exit"):
                break
            if line == "/memory":
                out.print(memory.working_context.render() or "(working context is empty)")
                continue
            try:
                with out.status("thinking…"):
                    result = agent.step(_clean(line))
            except ModelError as e:
                err.print(f"[red]model error:[/] {escape(str(e))} (your message is saved; try again)")
                continue
            for text in result.messages:
                out.print(f"[bold green]agent>[/] {text}")
            for event in result.events:
                out.print(
                    f"[dim]({event.type}: {event.prompt_tokens_before} → {event.prompt_tokens_after} tokens)[/]"
                )
            if result.stopped != "yield":
                out.print(f"[yellow](turn stopped: {result.stopped})[/]")
    finally:
        memory.close()
    return 0
