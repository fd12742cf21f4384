"""`ExplorationGraph.linking_to`: the pages memory knows that lead to a route — a click state that
navigated there (a profile's "Edit" button, no link) stands for the page it was clicked on, so the
form oracle can open that page to find the record a form without an identifier edits."""

from __future__ import annotations

from pathlib import Path

from bughunt.explorer.graph import CLICK_MARK, ExplorationGraph
from bughunt.explorer.store import ExplorerStore


def test_a_click_that_navigated_to_the_form_stands_for_the_page_it_was_made_on(tmp_path: Path) -> None:
    store = ExplorerStore(tmp_path / "s")
    click = "/people/ann" + CLICK_MARK + "0a1b2c"
    stray = "/orphan" + CLICK_MARK + "9f9f9f"  # a click state memory holds no click for
    with store.transaction():
        store.link_table.add_click(click, "/people/ann", "div > button")
        store.link_table.replace(click, ["/edit"])
        store.link_table.replace(stray, ["/edit"])
        store.link_table.replace("/", ["/people/ann", "/edit"])
    assert ExplorationGraph(store).linking_to("/edit") == ["/", "/people/ann"]
