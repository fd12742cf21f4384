"""Retrieval metrics against LoCoMo's evidence turns, per question and averaged per category.

- `frac@k`: share of the question's evidence turns in the top k (the LoCoMo paper's recall@k);
- `all@k`: 1 when every evidence turn is in the top k;
- `session@k`: 1 when a session holding evidence has a turn in the top k;
- `mrr`: 1 / rank of the first evidence turn (0 when none is ranked).
Averages are over questions (each question counts once), per category and over categories 1–4 / 1–5.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

DEFAULT_KS = (1, 5, 10, 25, 50)
GROUPS = {"overall_1_4": (1, 2, 3, 4), "overall_1_5": (1, 2, 3, 4, 5)}


def session_of(dia_id: str) -> str:
    return dia_id.split(":", 1)[0]


@dataclass(frozen=True)
class Scored:
    category: int
    values: dict[str, float]


def metric_names(ks: Sequence[int]) -> list[str]:
    return [f"{m}@{k}" for m in ("frac", "all", "session") for k in ks] + ["mrr"]


def score_question(ranked: Sequence[str], evidence: Iterable[str], ks: Sequence[int]) -> dict[str, float]:
    """Metrics of one ranking (dialogue ids, best first) against the evidence ids."""
    gold = set(evidence)
    if not gold:
        raise ValueError("a question without evidence cannot be scored")
    gold_sessions = {session_of(e) for e in gold}
    out: dict[str, float] = {}
    for k in ks:
        top = list(ranked[:k])
        found = len(gold.intersection(top))
        out[f"frac@{k}"] = found / len(gold)
        out[f"all@{k}"] = float(found == len(gold))
        out[f"session@{k}"] = float(any(session_of(r) in gold_sessions for r in top))
    first = next((i for i, r in enumerate(ranked) if r in gold), None)
    out["mrr"] = 0.0 if first is None else 1.0 / (first + 1)
    return out


def aggregate(scored: Sequence[Scored], ks: Sequence[int]) -> dict[str, dict[str, dict[str, float]]]:
    """{"categories": {"1".."5": metrics}, "overall_1_4": metrics, "overall_1_5": metrics}; each with `n`."""
    names = metric_names(ks)

    def mean(items: list[Scored]) -> dict[str, float]:
        if not items:
            return {name: 0.0 for name in names} | {"n": 0}
        return {name: sum(s.values[name] for s in items) / len(items) for name in names} | {"n": len(items)}

    result: dict[str, dict[str, Any]] = {"categories": {}}
    for cat in (1, 2, 3, 4, 5):
        result["categories"][str(cat)] = mean([s for s in scored if s.category == cat])
    for group, cats in GROUPS.items():
        result[group] = mean([s for s in scored if s.category in cats])
    return result
