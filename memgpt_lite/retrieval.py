"""Generative-Agents retrieval scoring: recency · importance · relevance (arXiv 2304.03442).

For each candidate memory:
- recency = 0.995 ** (hours since it was last accessed) — recently used memories score higher;
- importance = 1..10, rated when the memory was written (by an LLM rater or `heuristic_importance`);
- relevance = cosine similarity between the query and the memory embeddings.
Each component is min-max normalised over the candidates to [0, 1] (all equal → 0.5, so a component
that cannot tell candidates apart adds the same to each), and the score is their weighted sum.

This module is pure arithmetic over what storage returns; it imports nothing from storage.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from memgpt_lite.errors import UsageError

RECENCY_DECAY = 0.995
IMPORTANCE_MIN, IMPORTANCE_MAX = 1, 10

ImportanceRater = Callable[[str], int]
"""Rates a text's importance 1..10 when it is written (e.g. an LLM prompt); `heuristic_importance` is the default."""


class ScoreWeights(BaseModel):
    model_config = ConfigDict(frozen=True)

    recency: float = Field(1.0, ge=0)
    importance: float = Field(1.0, ge=0)
    relevance: float = Field(1.0, ge=0)

    @model_validator(mode="after")
    def _not_all_zero(self) -> ScoreWeights:
        if self.recency == self.importance == self.relevance == 0:
            raise ValueError("at least one score weight must be positive")
        return self


EVIDENCE_WEIGHTS = ScoreWeights(recency=0.1, importance=0.1, relevance=1.0)
"""A preset for finding evidence (facts a question asks about), where the default 1/1/1 hurts: the same
formula, with recency and importance as tie-breakers at a tenth of relevance. On LoCoMo's dev
conversations through archival storage (docs/locomo.md) frac@10 over categories 1-4 is 0.68 with this
preset, 0.68 by relevance alone and 0.37 with 1/1/1; recency 0-0.1 and importance 0.1-0.25 all give
0.68-0.69. Why 1/1/1 loses there: min-max normalisation stretches any spread of access times to the full
[0, 1], so passages a few days newer than the rest outrank the one that answers."""


@dataclass(frozen=True)
class Scores:
    """Per-candidate arrays: the weighted total and the three normalised components."""

    total: np.ndarray
    recency: np.ndarray
    importance: np.ndarray
    relevance: np.ndarray


def recency(last_accessed: datetime, now: datetime) -> float:
    """0.995 ** hours since last access; an access in the future (clock skew) counts as now."""
    hours = max(0.0, (now - last_accessed).total_seconds() / 3600.0)
    return float(RECENCY_DECAY**hours)


def min_max(values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Scale to [0, 1]; when every value is equal (or there is one), each becomes 0.5."""
    arr = np.asarray(values, dtype=np.float64)
    if arr.size == 0:
        return arr
    lo, hi = float(arr.min()), float(arr.max())
    if hi - lo <= 1e-12 * max(1.0, abs(hi)):
        return np.full_like(arr, 0.5)
    return (arr - lo) / (hi - lo)


def hybrid_relevance(
    cosine: Sequence[float] | np.ndarray,
    bm25: Sequence[float] | np.ndarray,
    lexical_weight: float = 1.0,
) -> np.ndarray:
    """Relevance from meaning and words: min-max(cosine) + lexical_weight · min-max(bm25).

    Each view is normalised over the candidates, as the recall hybrid search does (docs/locomo.md:
    normalised score fusion beats both views alone, reciprocal-rank fusion does not). A candidate no
    query word matches has bm25 0. The sum goes into `score` as the relevance, where it is min-max
    normalised like the other components."""
    cos = np.asarray(cosine, dtype=np.float64)
    lex = np.asarray(bm25, dtype=np.float64)
    if cos.shape != lex.shape or cos.ndim != 1:
        raise UsageError("hybrid_relevance() needs two 1-d sequences of equal length")
    if lexical_weight < 0:
        raise UsageError(f"lexical_weight must be >= 0, got {lexical_weight}")
    if lexical_weight == 0 or not lex.any():
        return cos
    return min_max(cos) + lexical_weight * min_max(lex)


def score(
    hours_since_access: Sequence[float] | np.ndarray,
    importance: Sequence[float] | np.ndarray,
    relevance: Sequence[float] | np.ndarray,
    weights: ScoreWeights | None = None,
) -> Scores:
    """Score candidates from raw components (same length each); higher total is better."""
    w = weights or ScoreWeights()
    hours = np.maximum(np.asarray(hours_since_access, dtype=np.float64), 0.0)
    imp = np.asarray(importance, dtype=np.float64)
    rel = np.asarray(relevance, dtype=np.float64)
    if not hours.shape == imp.shape == rel.shape or hours.ndim != 1:
        raise UsageError("score() needs three 1-d sequences of equal length")
    rec_n = min_max(RECENCY_DECAY**hours)
    imp_n = min_max(imp)
    rel_n = min_max(rel)
    total = w.recency * rec_n + w.importance * imp_n + w.relevance * rel_n
    return Scores(total=total, recency=rec_n, importance=imp_n, relevance=rel_n)


def rank(scores: Scores, tie_break: Sequence[float] | np.ndarray | None = None) -> np.ndarray:
    """Indices best first; ties broken by `tie_break` (higher first, e.g. created time), then input order."""
    keys: list[np.ndarray] = [np.arange(len(scores.total))]
    if tie_break is not None:
        keys.append(-np.asarray(tie_break, dtype=np.float64))
    keys.append(-scores.total)
    return np.lexsort(keys)


# -- importance heuristic ---------------------------------------------------------------------------
_WORD = re.compile(r"[a-z0-9']+")
_KEY_EVENTS = frozenset(
    """bug bugs crash crashed crashes error errors exception fail failed failure broken regression
    security vulnerability leak password secret deadline urgent critical important remember never always
    must decided decision learned lesson fixed fix regressed blocked married divorced died death born
    pregnant engaged diagnosed allergic allergy hospital accident fired hired promoted graduated moved
    adopted birthday anniversary wedding funeral breakup cancer""".split()
)
_PREFERENCES = frozenset(
    "prefer prefers preferred favorite favourite love loves hate hates dislike want goal plan".split()
)
_SMALL_TALK = frozenset(
    "hi hello hey thanks thank ok okay sure yes no bye lol cool nice great good morning".split()
)


def heuristic_importance(text: str) -> int:
    """A cheap, documented stand-in for an LLM importance rating (1 = mundane, 10 = poignant).

    Start at 3; +3 if it mentions a key event or failure word (bug, crash, security, deadline, married,
    diagnosed, ...), +1 for each further distinct key word (at most +2); +1 for a stated preference or
    goal (prefer, favorite, plan, ...); +1 if it carries specifics (digits: versions, dates, amounts);
    +1 if it is substantial (25+ words). Pure small talk ("ok thanks!") scores 1. Result clamped to 1..10.
    """
    if not isinstance(text, str):
        raise UsageError(f"importance needs text, got {type(text).__name__}")
    words = _WORD.findall(text.lower())
    if not words:
        return IMPORTANCE_MIN
    if all(w in _SMALL_TALK for w in words):
        return IMPORTANCE_MIN
    value = 3
    events = {w for w in words if w in _KEY_EVENTS}
    if events:
        value += 3 + min(2, len(events) - 1)
    if any(w in _PREFERENCES for w in words):
        value += 1
    if any(ch.isdigit() for ch in text):
        value += 1
    if len(words) >= 25:
        value += 1
    return max(IMPORTANCE_MIN, min(IMPORTANCE_MAX, value))


def check_importance(value: object) -> int:
    """Validate an importance given by a caller or a rater: an integer 1..10."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise UsageError(f"importance must be an integer 1..10, got {value!r}")
    if not IMPORTANCE_MIN <= int(value) <= IMPORTANCE_MAX:
        raise UsageError(f"importance must be 1..10, got {value}")
    return int(value)
