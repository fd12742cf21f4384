from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from pydantic import ValidationError

from memgpt_lite.errors import UsageError
from memgpt_lite.retrieval import (
    ScoreWeights,
    check_importance,
    heuristic_importance,
    min_max,
    rank,
    recency,
    score,
)


def test_recency_decays_by_hours_since_access():
    now = datetime(2024, 1, 2, tzinfo=UTC)
    assert recency(now, now) == 1.0
    assert recency(now - timedelta(hours=10), now) == pytest.approx(0.995**10)
    assert recency(now + timedelta(hours=1), now) == 1.0  # clock skew is not a bonus


def test_newer_ranks_above_older_at_equal_importance_and_relevance():
    # Candidates in order oldest → newest; one known implementation sorted recency backwards.
    hours = [100.0, 10.0, 1.0]
    s = score(hours, [5, 5, 5], [0.7, 0.7, 0.7])
    assert list(rank(s)) == [2, 1, 0]
    assert s.recency[2] == 1.0 and s.recency[0] == 0.0


def test_min_max_edges():
    assert list(min_max([3, 3, 3])) == [0.5, 0.5, 0.5]
    assert list(min_max([7])) == [0.5]
    assert min_max([]).size == 0
    assert list(min_max([1, 2, 3])) == [0.0, 0.5, 1.0]
    assert list(min_max([-1.0, 1.0])) == [0.0, 1.0]


def test_all_equal_components_add_half_each():
    s = score([5, 5], [4, 4], [0.2, 0.2])
    assert list(s.total) == [1.5, 1.5]


def test_weights_change_the_winner():
    # 0: very relevant but old and unimportant; 1: recent and important but less relevant
    hours, imp, rel = [500, 1], [2, 9], [0.9, 0.3]
    assert rank(score(hours, imp, rel))[0] == 1
    assert rank(score(hours, imp, rel, ScoreWeights(recency=0, importance=0, relevance=1)))[0] == 0
    assert rank(score(hours, imp, rel, ScoreWeights(recency=0.1, importance=0.1, relevance=3)))[0] == 0


def test_tie_break_prefers_newer():
    s = score([1, 1], [5, 5], [0.5, 0.5])
    assert list(rank(s, tie_break=[100.0, 200.0])) == [1, 0]


def test_weights_validation():
    with pytest.raises(ValidationError):
        ScoreWeights(recency=-1)
    with pytest.raises(ValidationError):
        ScoreWeights(recency=0, importance=0, relevance=0)


def test_score_shape_mismatch():
    with pytest.raises(UsageError):
        score([1, 2], [1], [0.1, 0.2])


def test_heuristic_importance_orders_mundane_below_poignant():
    small_talk = heuristic_importance("ok thanks!")
    chore = heuristic_importance("I brushed my teeth this morning")
    pref = heuristic_importance("My favorite food is sushi")
    bug = heuristic_importance("Bug: clicking Save on /settings crashes with a 500 error since v1.3")
    life = heuristic_importance("My sister got married last June and I was diagnosed with an allergy")
    assert small_talk == 1
    assert small_talk < chore < pref < bug
    assert bug >= 8 and life >= 8
    assert all(1 <= v <= 10 for v in (small_talk, chore, pref, bug, life))
    assert heuristic_importance("") == 1


def test_check_importance():
    assert check_importance(7) == 7 and check_importance(3.0) == 3
    for bad in (0, 11, 2.5, "5", True, None):
        with pytest.raises(UsageError):
            check_importance(bad)


def test_rank_returns_numpy_indices():
    assert isinstance(rank(score([1], [1], [1])), np.ndarray)


def test_hybrid_relevance_fuses_min_max_normalised_views():
    from memgpt_lite.retrieval import hybrid_relevance

    cos, bm25 = [0.9, 0.5, 0.1], [0.0, 6.0, 3.0]
    assert list(hybrid_relevance(cos, bm25)) == pytest.approx([1.0, 1.5, 0.5])
    assert list(hybrid_relevance(cos, bm25, lexical_weight=2)) == pytest.approx([1.0, 2.5, 1.0])
    # No word matched, or words switched off: relevance is the cosine itself (the formula's own).
    assert list(hybrid_relevance(cos, [0, 0, 0])) == cos
    assert list(hybrid_relevance(cos, bm25, lexical_weight=0)) == cos
    # Found by words only (lowest cosine) ties with the nearest by meaning that no word matches.
    s = score([1, 1], [5, 5], hybrid_relevance([0.8, 0.2], [0.0, 4.0]))
    assert list(s.relevance) == [0.5, 0.5]
    with pytest.raises(UsageError):
        hybrid_relevance([0.1], [1.0, 2.0])
    with pytest.raises(UsageError):
        hybrid_relevance([0.1], [1.0], lexical_weight=-1)


def test_evidence_preset_is_the_same_formula_with_small_tie_breakers():
    from memgpt_lite.retrieval import EVIDENCE_WEIGHTS

    assert EVIDENCE_WEIGHTS.relevance == 1 and 0 < EVIDENCE_WEIGHTS.recency < 1
    assert ScoreWeights() == ScoreWeights(recency=1, importance=1, relevance=1)  # the spec's default
    # Relevance decides; among equally relevant passages, newer and more important win.
    s = score([100, 1, 1], [5, 5, 9], [0.7, 0.7, 0.7], EVIDENCE_WEIGHTS)
    assert list(rank(s)) == [2, 1, 0]
    s = score([1, 500], [9, 2], [0.3, 0.9], EVIDENCE_WEIGHTS)
    assert rank(s)[0] == 1
    assert rank(score([1, 500], [9, 2], [0.3, 0.9]))[0] == 0  # 1/1/1: recent + important beats relevant
