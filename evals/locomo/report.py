"""Rendering a run: a rich table for the terminal, Markdown for `--report`, and the `--json` document."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from evals.locomo.data import CATEGORIES
from evals.locomo.run import RunResult

ROWS = [(str(c), f"{c} {name}") for c, name in CATEGORIES.items()] + [
    ("overall_1_4", "overall 1–4"),
    ("overall_1_5", "overall 1–5"),
]


def _get(result: dict[str, Any], key: str) -> dict[str, float]:
    row: dict[str, float] = result["categories"][key] if key in result["categories"] else result[key]
    return row


def columns(ks: list[int]) -> list[str]:
    wanted = [f"frac@{k}" for k in ks] + ["all@10" if 10 in ks else f"all@{ks[-1]}", "mrr"]
    wanted.append("session@10" if 10 in ks else f"session@{ks[-1]}")
    return wanted


def document(run: RunResult, config: dict[str, Any]) -> dict[str, Any]:
    """The `--json` document (keys fixed by issue 8)."""
    out: dict[str, Any] = {
        "categories": run.ours["categories"],
        "overall_1_4": run.ours["overall_1_4"],
        "overall_1_5": run.ours["overall_1_5"],
        "baseline_bm25": {
            "overall_1_4": run.baseline["overall_1_4"],
            "overall_1_5": run.baseline["overall_1_5"],
            "categories": run.baseline["categories"],
        },
        "config": {
            **config,
            "questions": run.questions,
            "skipped_questions": run.skipped,
            "turns": run.turns,
            "seconds": round(run.seconds, 2),
        },
    }
    if run.ablation:
        out["ablation"] = run.ablation
    if run.archival:
        out["archival"] = run.archival
    return out


def table(run: RunResult, ks: list[int]) -> Table:
    cols = columns(ks)
    t = Table(title="LoCoMo retrieval: memgpt_lite hybrid search vs plain BM25")
    for name in ("category", "system", "n", *cols):
        t.add_column(name, justify="left" if name in ("category", "system") else "right", no_wrap=True)
    for key, label in ROWS:
        ours, base = _get(run.ours, key), _get(run.baseline, key)
        t.add_row(label, "ours", str(ours["n"]), *(f"{ours[c]:.3f}" for c in cols))
        t.add_row("", "bm25", "", *(f"{base[c]:.3f}" for c in cols), end_section=True)
    return t


def ablation_table(run: RunResult) -> Table:
    t = Table(title="Ablation: frac@10 as each view is added")
    t.add_column("step")
    for key, label in ROWS:
        t.add_column(label.split(" ")[0] if key.isdigit() else label, justify="right")
    for row in run.ablation:
        t.add_row(row["step"], *(f"{_get(row, key)['frac@10']:.3f}" for key, _ in ROWS))
    return t


def archival_table(run: RunResult) -> Table:
    t = Table(title="frac@10: recall hybrid search vs ArchivalStore.search over the same turns")
    t.add_column("search")
    for key, label in ROWS:
        t.add_column(label.split(" ")[0] if key.isdigit() else label, justify="right")
    rows = [("recall hybrid (ours)", run.ours)] + [(f"archival {n}", r) for n, r in run.archival.items()]
    for name, result in rows:
        t.add_row(name, *(f"{_get(result, key)['frac@10']:.3f}" for key, _ in ROWS))
    return t


def markdown(run: RunResult, ks: list[int], config: dict[str, Any]) -> str:
    cols = columns(ks)
    lines = [
        "# LoCoMo retrieval report",
        "",
        f"{run.questions} questions ({run.skipped} without valid evidence skipped) over {run.turns} turns; "
        f"{run.seconds:.1f} s; embedder {config.get('embedder')}.",
        "",
        "Each cell: memgpt_lite hybrid search, then the plain BM25 baseline in brackets.",
        "",
        "| category | n | " + " | ".join(cols) + " |",
        "|---|---:|" + "---:|" * len(cols),
    ]
    for key, label in ROWS:
        ours, base = _get(run.ours, key), _get(run.baseline, key)
        cells = " | ".join(f"{ours[c]:.3f} ({base[c]:.3f})" for c in cols)
        lines.append(f"| {label} | {ours['n']} | {cells} |")
    if run.ablation:
        lines += ["", "## Ablation (frac@10)", "", "| step | " + " | ".join(lbl for _, lbl in ROWS) + " |"]
        lines.append("|---|" + "---:|" * len(ROWS))
        for row in run.ablation:
            lines.append(
                f"| {row['step']} | " + " | ".join(f"{_get(row, k)['frac@10']:.3f}" for k, _ in ROWS) + " |"
            )
    if run.archival:
        lines += [
            "",
            "## Archival storage (frac@10)",
            "",
            "| search | " + " | ".join(lbl for _, lbl in ROWS) + " |",
        ]
        lines.append("|---|" + "---:|" * len(ROWS))
        for name, result in [
            ("recall hybrid (ours)", run.ours),
            *((f"archival {n}", r) for n, r in run.archival.items()),
        ]:
            lines.append(
                f"| {name} | " + " | ".join(f"{_get(result, k)['frac@10']:.3f}" for k, _ in ROWS) + " |"
            )
    lines += ["", "Configuration: `" + ", ".join(f"{k}={v}" for k, v in config.items()) + "`", ""]
    return "\n".join(lines)
