"""Which refused writes of a click are sent once after the walk (`explorer/state_writes.py`): a write whose
address names a state change, and the POST of a control named by a create word alone — a board's "+"
titled "Create new card" adds one blank record; a "Rebuild" or "Save" POST and a create control's PUT
are not sent."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bughunt.explorer.state_writes import creates, state_writes
from bughunt.page import FetchedPage

ORIGIN = "http://board.test"


def _page(route: str) -> FetchedPage:
    html = "<!doctype html><html><head><title>Board</title></head><body><h1>Board</h1></body></html>"
    return FetchedPage(ORIGIN + route, route, 200, {}, "text/html", html, 1.0)


def _clicked(label: str, *writes: str) -> FetchedPage:
    return replace(_page("/#click-1"), clicked_from=(_page("/"), label), refused_writes=writes)


POST = f"POST {ORIGIN}/api/resource/Backlog/0191.md"
SORT = f"PUT {ORIGIN}/api/sort"


@pytest.mark.parametrize("label", ["Create new card", "New lane", "Add", "addItem"])
def test_a_creating_controls_post_is_sent(label: str) -> None:
    assert creates(label)
    assert state_writes(_clicked(label, POST, SORT)) == (POST,)


@pytest.mark.parametrize(
    "label", ["Rebuild", "Save", "", "Add a note to every card of this lane", "Newsletter"]
)
def test_any_other_controls_post_is_not(label: str) -> None:
    assert state_writes(_clicked(label, POST, SORT)) == ()


def test_a_state_verb_write_is_sent_whatever_the_control_says() -> None:
    like = f"POST {ORIGIN}/api/items/7/like"
    assert state_writes(_clicked("▲", like, POST)) == (like,)


def test_a_loaded_page_sends_nothing() -> None:
    assert state_writes(replace(_page("/"), refused_writes=(POST,))) == ()
