"""After the destructive openings (--allow-destructive), a GET the walk left to them only for its words
(`?trash=1`: "trash" is a destroying verb) whose opening answered with a page asking first is walked with
the clicks left: it is a page (a list's trash, a form to delete for good on each row) the oracles had
never read (issue 25, Heimdall's "View trash (5)"). One that acted, one that removed nothing visible (its
page, loaded, would read as a delete run at once), one whose query marks an action, one visited, and the
clicks spent are not."""

from __future__ import annotations

from types import SimpleNamespace

from bughunt.explorer.harness import StepOutcome
from bughunt.explorer.loop import Explorer
from bughunt.oracles.base import OpenedAction

H = "http://h"


def _explorer(
    opened: list[OpenedAction], budget: int, spent: int
) -> tuple[Explorer, list[str], list[StepOutcome]]:
    explorer = Explorer.__new__(Explorer)
    explorer.opened_destructive = dict(enumerate(opened))
    explorer.config = SimpleNamespace(budget=budget)
    explorer.engine = SimpleNamespace(route_of=lambda url: url.removeprefix(H))
    explorer.graph = SimpleNamespace(is_visited=lambda route: route == "/seen?remove=1")
    stepped: list[str] = []

    def step(session_id: int, route: str, position: str) -> StepOutcome:
        stepped.append(route)
        return StepOutcome(0, route, "page", 200)

    explorer._step = step  # type: ignore[method-assign]
    outcomes = [StepOutcome(n, f"/p{n}", "page", 200) for n in range(spent)]
    return explorer, stepped, outcomes


OPENED = [
    OpenedAction(f"{H}/items?trash=1", None, "a confirmation step"),
    OpenedAction(f"{H}/items/delete/7", True, "gone from the page that listed it"),
    OpenedAction(f"{H}/_delete/", False, "no visible effect"),
    OpenedAction(f"{H}/tags?trash=1", None, "a confirmation step"),
    OpenedAction(f"{H}/seen?remove=1", None, "a confirmation step"),
    OpenedAction(f"{H}/mail?@action=detach&msg=7", None, "a confirmation step"),
]


def test_openings_that_removed_nothing_are_walked_as_pages() -> None:
    explorer, stepped, outcomes = _explorer(OPENED, budget=10, spent=5)
    explorer._walk_views(1, "/", outcomes)
    assert stepped == ["/items?trash=1", "/tags?trash=1"]
    assert sum(o.click for o in outcomes) == 7


def test_no_click_left_walks_nothing() -> None:
    explorer, stepped, outcomes = _explorer(OPENED, budget=5, spent=5)
    explorer._walk_views(1, "/", outcomes)
    assert stepped == []


def test_the_clicks_left_bound_the_views() -> None:
    explorer, stepped, outcomes = _explorer(OPENED, budget=6, spent=5)
    explorer._walk_views(1, "/", outcomes)
    assert stepped == ["/items?trash=1"]
