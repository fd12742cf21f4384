"""A template's control drawn in every section of a page (a documentation page's copy button on each code
block) is anchored on each section's id: a selector shape per section, each teaching its lesson alone.
Learned `same_state` under two anchors, the control of that tail is idle under every anchor — one lesson,
not one click per section of every page."""

from __future__ import annotations

from bughunt.explorer.graph import CLICK_MARK
from bughunt.explorer.idle_controls import ANCHORS_LEARNED, control_shape, idle_test

PAGE = "/tutorial/stdlib.html"


def _click(section: str, tail: str = "div > div > span") -> tuple[str, tuple[str, str]]:
    return f"{PAGE}{CLICK_MARK}{section}", (PAGE, f"#{section} > {tail}")


def _table(*sections: str, why: str = "same_state") -> dict[str, str]:
    return {control_shape(route, *click): why for route, click in map(_click, sections)}


def _idle(table: dict[str, str], section: str, tail: str = "div > div > span") -> bool:
    route, click = _click(section, tail)
    return idle_test(table, {route: click}.get)(route, PAGE)


def test_a_tail_learned_under_two_anchors_is_idle_under_every_anchor() -> None:
    assert ANCHORS_LEARNED == 2
    assert not _idle(_table("file-wildcards"), "templating")  # one section's lesson is its own
    learned = _table("file-wildcards", "command-line-arguments")
    assert _idle(learned, "templating")
    assert not _idle(learned, "templating", tail="div > button")  # another control of the section
    # only a lesson that the click led nowhere new carries over
    assert not _idle(_table("file-wildcards", "command-line-arguments", why="round_trip"), "templating")
