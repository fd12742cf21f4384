"""A widget toolkit numbers every element it draws (`#ext-gen44`): the bare shape `#<id>` is every
toolbar button's, so a lesson kept under it alone (the brand button does nothing: same state) made the
whole toolbar idle, and a corpus ExtJS app's walk ended `done` after 5 clicks. Such a control's lesson
is kept with what it says; a record row's own numbered "Delete" still teaches every row's."""

from __future__ import annotations

from bughunt.explorer.control_words import control_words, said_shape
from bughunt.explorer.graph import CLICK_MARK
from bughunt.explorer.idle_controls import control_shape, idle_test, numbered_widget

PAGE = "/"
WORDS = {"Deluge": control_words("Deluge"), "Add": control_words("Add"), "Delete": control_words("Delete")}


def _route(ident: str) -> str:
    return f"{PAGE}{CLICK_MARK}{ident}"


def test_a_numbered_widgets_lesson_holds_for_what_it_says_only() -> None:
    assert numbered_widget("#ext-gen44") and numbered_widget("#dijit_form_Button_3")
    assert not numbered_widget("#ext-gen96 > div > table > tbody > tr > td")  # a grid's cells: copies
    assert not numbered_widget("#toolbar > button")
    # what `lessons` keeps for the brand button that did nothing
    brand = said_shape(control_shape(_route("ext-gen44"), PAGE, "#ext-gen44"), WORDS["Deluge"])
    table = {brand: "same_state"}
    clicks = {_route("ext-gen44"): (PAGE, "#ext-gen44"), _route("ext-gen50"): (PAGE, "#ext-gen50")}
    said = {_route("ext-gen44"): WORDS["Deluge"], _route("ext-gen50"): WORDS["Add"]}
    is_idle = idle_test(table, clicks.get, lambda r: said.get(r, ""))
    assert is_idle(_route("ext-gen44"), PAGE)
    assert not is_idle(_route("ext-gen50"), PAGE)  # "Add" is a control of its own
    # a row's numbered Delete teaches the next row's, which says the same
    rows = {_route("del-12"): (PAGE, "#del-12"), _route("del-13"): (PAGE, "#del-13")}
    learned = {said_shape(control_shape(_route("del-12"), PAGE, "#del-12"), WORDS["Delete"]): "same_state"}
    assert idle_test(learned, rows.get, lambda r: WORDS["Delete"])(_route("del-13"), PAGE)


def test_a_numbered_widget_in_its_place_is_its_own_id() -> None:
    """The brand button's idle click, learned for its place, says nothing of the details tabs: a
    toolkit's numbered ids are its widgets' places (`idle_controls.placed_shape`)."""
    from bughunt.explorer.idle_controls import placed_shape

    assert placed_shape("#ext-gen44") != placed_shape("#ext-gen114")
    assert placed_shape("#ext-gen44") == placed_shape("#ext-gen44")
    # a record's row keeps its masked id: the same place in another record's row
    assert placed_shape("#row-3 > td:nth-of-type(2) > a") == placed_shape("#row-7 > td:nth-of-type(2) > a")


def test_a_numbered_widgets_place_survives_the_stores_reading() -> None:
    """Read back from the store, a lesson for `#ext-gen122` in its place stays its own (the stored table
    is shaped again on reading: masked, it held for every control the toolkit drew)."""
    import json

    from bughunt.explorer.graph import _idle_table

    table = _idle_table(json.dumps({"click@ #ext-gen122": "shown_before", "click@ #row-3 > a": "same_state"}))
    assert "click@ #ext-gen122" in table and "click@ #<id>" not in table


def test_a_grid_rows_click_is_a_records_selection() -> None:
    from bughunt.actions import page_clicks
    from bughunt.explorer.grid_rows import selects_row
    from bughunt.page import FetchedPage

    html = (
        "<html><body><button type='button' id='add'>Add</button><div id='g'>"
        + "".join(
            f"<div class='r'><table><tr><td tabindex='0'>Film {n}</td></tr></table></div>" for n in range(3)
        )
        + "</div></body></html>"
    )
    page = FetchedPage("http://t.test/", "/", 200, {}, "text/html", html, 1.0)
    walked = page_clicks(page)
    by_tag = {n.tag: walked.selectors.of(n) for n in walked.clickables}
    assert selects_row(page, by_tag["td"])
    assert not selects_row(page, by_tag["button"])
