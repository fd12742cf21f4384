"""A heading renamed in place (`oracles/heading_rename.py`): a click on a card's name in its dialog swaps
the name for a text box; a box that starts empty dropped the name it edits (corpus ho29_tasksmd's
planted bug), one that holds it is right, and a "Rename" button's blank box, a heading that still shows
the name and a box outside the heading are no finding."""

from __future__ import annotations

from dataclasses import replace

from bughunt.explorer.inspection import same_root_cause
from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.bughunt.oracles.test_oracles_root_causes import as_bug

ORIGIN = "http://board.test"
NAME = "Quarterly report"


def _page(route: str, heading: str, rest: str = "") -> FetchedPage:
    html = (
        "<!doctype html><html><head><title>Board</title></head><body><dialog open><header>"
        f"<h1>{heading}</h1><button type='button'>Rename</button></header>"
        f"<p>Notes on the numbers.</p>{rest}</dialog></body></html>"
    )
    return FetchedPage(ORIGIN + route, route, 200, {}, "text/html", html, 1.0)


BEFORE = _page("/card/", f"<div role='button' tabindex='0'>{NAME}</div>")


def _after(heading: str, label: str = NAME, rest: str = "") -> FetchedPage:
    return replace(_page("/card/#click-1", heading, rest), clicked_from=(BEFORE, label))


def _kinds(page: FetchedPage) -> list[str]:
    return [f.kind for f in check_form_drops_value(page)]


def test_a_name_box_that_starts_empty_drops_the_name() -> None:
    found = check_form_drops_value(_after("<div><input type='text' value=''></div>"))
    assert [f.kind for f in found] == ["form_drops_value"]
    assert found[0].route == "/card/#click-1"


def test_a_name_box_holding_the_name_is_right() -> None:
    assert _kinds(_after(f"<div><input type='text' value='{NAME}'></div>")) == []


def test_a_rename_buttons_blank_box_is_not_read() -> None:
    assert _kinds(_after("<div><input type='text' value=''></div>", label="Rename")) == []


def test_a_heading_still_showing_the_name_swapped_nothing() -> None:
    assert _kinds(_after(f"{NAME} <input type='text' value=''>")) == []


def test_a_box_outside_the_heading_is_not_its_name() -> None:
    assert _kinds(_after("Edit", rest="<input type='text' value=''>")) == []


def test_a_loaded_page_is_not_read() -> None:
    assert _kinds(_page("/card/", "<div><input type='text' value=''></div>")) == []


def _record(route: str, place: str) -> FetchedPage:
    """A record's own page (its address its name, a first segment of its own) whose heading, clicked on
    the name, drew an empty box; `place` is the element the heading sits in."""
    before = FetchedPage(
        ORIGIN + route, route, 200, {}, "text/html",
        f"<html><body><{place}><h1><div role='button'>{NAME}</div></h1></{place}></body></html>", 1.0,
    )  # fmt: skip
    after = replace(
        before,
        url=ORIGIN + route + "#click-1",
        route=route + "#click-1",
        body=f"<html><body><{place}><h1><input type='text' value=''></h1></{place}></body></html>",
        clicked_from=(before, NAME),
    )
    [found] = check_form_drops_value(after)
    return found


def test_one_templates_heading_on_two_records_pages_is_one_bug() -> None:
    first, second = _record("/Alpha.md/", "dialog"), _record("/Beta%20plan.md/", "dialog")
    assert first.fingerprint != second.fingerprint  # two first segments: no route template joins them
    [joined] = same_root_cause([second], [as_bug(first)])
    assert joined.fingerprint == first.fingerprint


def test_headings_of_two_places_stay_two_bugs() -> None:
    first, second = _record("/Alpha.md/", "dialog"), _record("/Beta%20plan.md/", "aside")
    [alone] = same_root_cause([second], [as_bug(first)])
    assert alone.fingerprint == second.fingerprint
