"""`python -m benchmarks.memory [--json] [--context-only]`: the speed claims of memgpt_lite, each with a
baseline from the same run (`python -m evals.bench` is the same command, kept for scripts).

- context step: the queue manager's per-step bookkeeping (append one message, then `prepare`: count the
  full request, check thresholds, build it) at 100 in-context messages in a 32k window, against
  recounting everything the request sends from scratch (a fresh counter, no caches) — which is what a
  manager without per-message caching does before every call. Recall writes are excluded from both (a
  list stands in for recall storage): they are storage's cost, measured by `recall_search_ms`' ingest.
- recall search, archival search, embedding: `benchmarks.storage` (see its docstring for baselines).

Progress goes to stderr, one line per stage with the time since the start: the storage part takes
minutes (about twelve on a shared 2-core machine the first time, when the archival corpus is indexed).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from memgpt_lite.cli_dispatch import run_reporting_errors
from memgpt_lite.context import (
    Block,
    ContextConfig,
    ContextManager,
    DeterministicSummarizer,
    TokenCounter,
    WorkingContext,
)
from memgpt_lite.messages import Message, TextPart, ToolCallPart, ToolResultPart, ToolSpec
from memgpt_lite.text_tables import print_table
from memgpt_lite.tools.memory_functions import register_memory_functions
from memgpt_lite.tools.registry import ToolRegistry

WORDS = (
    "page form login button error status visited link article comment profile settings tag feed search "
    "result saved submitted pagination favourite author follower password account delete edit share"
).split()


class _ListRecall:
    """Recall stand-in for the bookkeeping benchmark (storage is measured separately)."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    def append(self, msg: Message) -> None:
        self.messages.append(msg)


def _sentence(rng: np.random.Generator, words: int) -> str:
    return " ".join(rng.choice(WORDS, size=words)) + "."


def _messages(n: int, rng: np.random.Generator) -> list[Message]:
    """A realistic agent history: user turns, assistant replies and tool exchanges (~150 tokens each)."""
    out: list[Message] = []
    i = 0
    while len(out) < n:
        out.append(Message.user(f"Step {i}: " + _sentence(rng, int(rng.integers(60, 160)))))
        call = ToolCallPart(id=f"c{i}", name="conversation_search", arguments={"query": _sentence(rng, 4)})
        out.append(Message.assistant(TextPart(text=_sentence(rng, int(rng.integers(20, 60)))), call))
        out.append(
            Message.tool_results(
                ToolResultPart(tool_call_id=f"c{i}", name=call.name, content=_sentence(rng, 120))
            )
        )
        i += 1
    return out[:n]


def bench_context_step(
    n_messages: int = 100,
    window: int = 32_000,
    steps: int = 300,
    seed: int = 0,
    progress: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """p50/p95 ms of one step's bookkeeping vs recounting the whole request (same requests, same run)."""
    rng = np.random.default_rng(seed)
    history = _messages(n_messages + steps, rng)
    tools: list[ToolSpec] = register_memory_functions(ToolRegistry()).spec()
    counter = TokenCounter()
    blocks = [
        Block(name="persona", value=_sentence(rng, 80), limit=2000),
        Block(name="human", value=_sentence(rng, 60), limit=2000),
    ]
    system = "You are a test agent. " + _sentence(rng, 150)
    config = ContextConfig(context_window=window)
    ours: list[float] = []
    baseline: list[float] = []
    prompt_tokens: list[int] = []
    progress(f"context: {steps} steps at {n_messages} messages")
    for i in range(steps):
        if i and i % 100 == 0:
            progress(f"context: {i}/{steps} steps")
        # Context of n_messages - 1, then the timed step appends the n-th: the counts of the earlier
        # messages are already cached, as they are in a running agent.
        cm = ContextManager(
            _ListRecall(), counter, DeterministicSummarizer(), config, system,
            working_context=WorkingContext(blocks), messages=history[i : i + n_messages - 1],
            summary="Earlier: " + _sentence(rng, 40),
        )  # fmt: skip
        new = history[i + n_messages - 1]
        t = time.perf_counter()
        cm.append(new)
        prepared = cm.prepare(tools)
        ours.append(time.perf_counter() - t)
        prompt_tokens.append(prepared.prompt_tokens)
        assert not prepared.events, "the benchmark context must stay below the warning threshold"

        fresh = TokenCounter()  # no caches: count system, blocks, summary, every message and every tool
        t = time.perf_counter()
        full = fresh.count_request(cm.build_request(tools))
        baseline.append(time.perf_counter() - t)
        if full != prepared.prompt_tokens:
            raise AssertionError(f"incremental count {prepared.prompt_tokens} != full recount {full}")
        counter.forget([new.id])  # the next sample appends this message as new again
    p50, base50 = float(np.percentile(ours, 50)) * 1e3, float(np.percentile(baseline, 50)) * 1e3
    return {
        "p50": round(p50, 4),
        "p95": round(float(np.percentile(ours, 95)) * 1e3, 4),
        "baseline_p50": round(base50, 4),
        "baseline_p95": round(float(np.percentile(baseline, 95)) * 1e3, 4),
        "speedup": round(base50 / p50, 1),
        "messages": n_messages,
        "window": window,
        "prompt_tokens_p50": int(np.median(prompt_tokens)),
        "steps": steps,
    }


def run(skip_storage: bool, progress: Callable[[str], None]) -> dict[str, Any]:
    """Every result: the context step, then (unless skipped) storage's benchmarks."""
    result: dict[str, Any] = {"context_step_ms": bench_context_step(progress=progress)}
    if skip_storage:
        return result
    from benchmarks import storage  # recall FTS5, archival Chroma + scoring, MiniLM (slow imports)

    result["recall_search_ms"] = storage.bench_recall_search(progress=progress)
    result["archival_search_ms"] = storage.bench_archival_search(progress=progress)
    embed = storage.bench_embed(progress=progress)
    result["embed_per_s"] = embed["embed_per_s"]
    result["embed"] = embed
    return result


def stderr_progress() -> Callable[[str], None]:
    """Progress as lines on stderr with the seconds since the start (a spinner shows nothing when stderr
    is a pipe or a log file, and the storage part runs for minutes)."""
    started = time.perf_counter()

    def report(text: str) -> None:
        print(f"[{time.perf_counter() - started:7.1f} s] {text}", file=sys.stderr, flush=True)

    return report


def _met(ok: bool) -> str:
    return "[green]yes[/]" if ok else "[bold red]MISSED[/]"


CONTEXT_STEP_MS, CONTEXT_SPEEDUP = 1.0, 20
RECALL_SEARCH_MS = 5.0
ARCHIVAL_SEARCH_MS = 20.0
EMBED_PER_S = 150
"""The targets, stated once: judged by `targets_met` and printed in the table's target column."""


def targets_met(result: dict[str, Any]) -> dict[str, bool]:
    """Each benchmark's target, judged on this run's figures (the table's and the JSON's `targets_met`)."""
    met: dict[str, bool] = {}
    c = result["context_step_ms"]
    met["context_step"] = c["p50"] <= CONTEXT_STEP_MS and c["speedup"] >= CONTEXT_SPEEDUP
    if "recall_search_ms" in result:
        met["recall_search"] = result["recall_search_ms"]["p50"] <= RECALL_SEARCH_MS
    if "archival_search_ms" in result:
        met["archival_search"] = result["archival_search_ms"]["p50"] <= ARCHIVAL_SEARCH_MS
    if "embed_per_s" in result:
        met["embed"] = result["embed_per_s"] >= EMBED_PER_S
    return met


def render(result: dict[str, Any]) -> None:
    met = targets_met(result)
    table = Table(title="memgpt_lite benchmarks (baseline measured in the same run)")
    for col in ("benchmark", "p50", "p95", "baseline", "target", "met"):
        table.add_column(col, overflow="fold")
    c = result["context_step_ms"]
    table.add_row(
        f"context step, {c['messages']} msgs, {c['window'] // 1000}k window",
        f"{c['p50']:.3f} ms",
        f"{c['p95']:.3f} ms",
        f"{c['baseline_p50']:.3f} ms recount ({c['speedup']}x)",
        f"≤ {CONTEXT_STEP_MS:g} ms, ≥ {CONTEXT_SPEEDUP}x",
        _met(met["context_step"]),
    )
    if "recall_search_ms" in result:
        r = result["recall_search_ms"]
        base = r.get("baseline_like_scan", {}).get("p50")
        table.add_row(
            f"conversation_search ({r.get('n', 0):,} messages)",
            f"{r['p50']:.3f} ms",
            f"{r['p95']:.3f} ms",
            f"{base} ms LIKE scan",
            f"p50 ≤ {RECALL_SEARCH_MS:g} ms @100k",
            _met(met["recall_search"]),
        )
    if "archival_search_ms" in result:
        a = result["archival_search_ms"]
        base = a.get("baseline_bruteforce", {}).get("p50")
        table.add_row(
            f"archival search + scoring ({a.get('n', 0):,} passages)",
            f"{a['p50']:.3f} ms",
            f"{a['p95']:.3f} ms",
            f"{base} ms brute force",
            f"p50 ≤ {ARCHIVAL_SEARCH_MS:g} ms @100k",
            _met(met["archival_search"]),
        )
    if "embed_per_s" in result:
        base = result["embed"].get("baseline_padded_256_per_s")
        table.add_row(
            "embedding (MiniLM int8)",
            f"{result['embed_per_s']}/s",
            "",
            f"{base}/s padded to 256",
            f"≥ {EMBED_PER_S} sentences/s",
            _met(met["embed"]),
        )
    print_table(Console(), table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.memory", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--context-only", action="store_true", help="skip the storage benchmarks (minutes)")
    args = parser.parse_args(argv)
    progress = stderr_progress()
    result = run(args.context_only, progress)
    progress("done")
    if args.json:
        print(json.dumps({**result, "targets_met": targets_met(result)}, indent=2))
    else:
        render(result)
    return 0


if __name__ == "__main__":
    sys.exit(run_reporting_errors(main))
