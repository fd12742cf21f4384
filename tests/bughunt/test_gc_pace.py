"""The collector's pace during a session (`bughunt.explorer.gc_pace`)."""

from __future__ import annotations

import argparse
import gc
from collections.abc import Iterator

import pytest

from bughunt.explorer.gc_pace import YOUNG_OBJECTS, paced_collector


@pytest.fixture
def thresholds() -> Iterator[tuple[int, ...]]:
    before = gc.get_threshold()
    yield before
    gc.set_threshold(*before)


def test_paced_collector_raises_the_young_threshold_and_restores_it(thresholds: tuple[int, ...]) -> None:
    gc.set_threshold(700, 10, 10)
    with paced_collector():
        assert gc.get_threshold() == (YOUNG_OBJECTS, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)


def test_paced_collector_keeps_a_higher_threshold_and_restores_after_an_error(
    thresholds: tuple[int, ...],
) -> None:
    gc.set_threshold(YOUNG_OBJECTS * 2, 5, 5)
    with pytest.raises(RuntimeError), paced_collector():
        assert gc.get_threshold() == (YOUNG_OBJECTS * 2, 5, 5)
        raise RuntimeError("a session that failed")
    assert gc.get_threshold() == (YOUNG_OBJECTS * 2, 5, 5)


def test_explore_runs_its_session_under_the_paced_collector(
    thresholds: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    from bughunt import settings
    from bughunt.commands import explore

    seen: list[tuple[int, ...]] = []

    def session(*args: object, **kwargs: object) -> int:
        seen.append(gc.get_threshold())
        return 0

    monkeypatch.setattr(explore, "_run_session", session)
    monkeypatch.setattr(settings, "apply", lambda args, stored: ({}, {}))
    gc.set_threshold(700, 10, 10)
    args = argparse.Namespace(
        password_given=None, password_env=None, url="http://127.0.0.1:9", builtin_site=False
    )
    assert explore.run_session(args, resume=False) == 0
    assert seen == [(YOUNG_OBJECTS, 10, 10)]
    assert gc.get_threshold() == (700, 10, 10)
