"""`python -m evals.locomo [--data FILE] [--k 1 5 10 25 50] [--json] [--report FILE]`.

Ingests each LoCoMo conversation into a fresh memgpt_lite store, ranks every question with the
framework's hybrid search and with a plain BM25 baseline, and scores both against the evidence turns.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from evals.locomo.data import load
from evals.locomo.metrics import DEFAULT_KS
from evals.locomo.report import ablation_table, archival_table, document, markdown, table
from evals.locomo.run import Progress as Callbacks
from evals.locomo.run import evaluate
from memgpt_lite.cli_dispatch import check_output_file, run_reporting_errors
from memgpt_lite.errors import MemgptLiteError, UsageError
from memgpt_lite.search import HybridConfig
from memgpt_lite.storage.embeddings import MiniLMEmbedder, make_embedder
from memgpt_lite.text_tables import print_table

err = Console(stderr=True)
# Two LoCoMo conversations travel with the package (CC BY-NC 4.0; license and attribution beside them).
DEV_DATA = Path(__file__).resolve().parent / "data" / "locomo_dev.json"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m evals.locomo", description=__doc__.splitlines()[0])
    p.add_argument(
        "--data",
        type=Path,
        default=DEV_DATA,
        help="LoCoMo JSON file, a list of samples (default: the two shipped dev conversations, "
        "CC BY-NC 4.0, evals/locomo/data/)",
    )
    p.add_argument(
        "--k", type=int, nargs="+", default=list(DEFAULT_KS), help="cut-offs (default 1 5 10 25 50)"
    )
    p.add_argument("--json", action="store_true", help="print the results as JSON on stdout")
    p.add_argument("--report", type=Path, help="also write a Markdown report to this file")
    p.add_argument(
        "--embedder",
        choices=("minilm", "multilingual", "hashing"),
        default="minilm",
        help="minilm (offline all-MiniLM-L6-v2 int8, the default), multilingual (USE multilingual v3) "
        "or hashing (fast, for smoke runs)",
    )
    p.add_argument("--ablate", action="store_true", help="also score each step of the fusion (frac@10 table)")
    p.add_argument(
        "--archival",
        action="store_true",
        help="also put every turn into archival storage and score ArchivalStore.search (Generative-Agents "
        "weights and relevance only)",
    )
    p.add_argument("--limit", type=int, help="only the first N conversations")
    p.add_argument(
        "--weights",
        type=float,
        nargs=4,
        metavar=("LEX", "DENSE", "WIN_LEX", "WIN_DENSE"),
        help="view weights of the hybrid search (default 1 1 1 1)",
    )
    p.add_argument("--radius", type=int, help="window radius in messages (default 2)")
    p.add_argument(
        "--speaker-boost", type=float, help="added to the turns of the person a question names (default 0)"
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    ks = sorted(set(args.k))
    if ks[0] < 1:
        print(f"error: --k values must be >= 1, got {ks[0]}", file=sys.stderr)
        return 2
    if args.limit is not None and args.limit < 1:
        print(f"error: --limit must be at least 1, got {args.limit}", file=sys.stderr)
        return 2
    try:
        check_output_file(args.report, "--report")
        conversations = load(args.data)
        if args.limit is not None:
            conversations = conversations[: args.limit]
        embedder = MiniLMEmbedder() if args.embedder == "minilm" else make_embedder(args.embedder)
        overrides: dict[str, float | int] = {}
        if args.weights:
            overrides |= dict(
                zip(("lexical", "dense", "window_lexical", "window_dense"), args.weights, strict=True)
            )
        if args.radius is not None:
            overrides["radius"] = args.radius
        if args.speaker_boost is not None:
            overrides["speaker_boost"] = args.speaker_boost
        try:
            config = HybridConfig(**overrides)
        except ValidationError as e:  # one line naming the option, not pydantic's report
            first = e.errors()[0]
            raise UsageError(f"--{str(first['loc'][0]).replace('_', '-')}: {first['msg']}") from None
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err,
            transient=True,
        ) as bar:
            task = bar.add_task("LoCoMo", total=None)
            callbacks = Callbacks(
                start=lambda total: bar.update(task, total=total),
                advance=lambda text: bar.update(task, advance=1, description=text),
            )
            run = evaluate(
                conversations,
                ks,
                embedder,
                config,
                ablate=args.ablate,
                archival=args.archival,
                progress=callbacks,
            )
    except (MemgptLiteError, OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    settings = {
        "data": str(args.data),
        "conversations": [c.sample_id for c in conversations],
        "k": ks,
        "embedder": embedder.name,
        "search": config.model_dump(),
        "baseline": "Okapi BM25 k1=1.5 b=0.75, English stop words, no stemming",
    }
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(markdown(run, ks, settings), encoding="utf-8")
    if args.json:
        print(json.dumps(document(run, settings), indent=2))
        return 0
    out = Console(width=max(Console().width, 120))
    print_table(out, table(run, ks))
    if run.ablation:
        out.print(ablation_table(run))
    if run.archival:
        out.print(archival_table(run))
    out.print(
        f"{run.questions} questions ({run.skipped} skipped: no valid evidence), {run.turns} turns, "
        f"{run.seconds:.1f} s, embedder {embedder.name}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(run_reporting_errors(main))
