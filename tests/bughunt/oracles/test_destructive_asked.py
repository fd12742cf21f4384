"""A Remove whose click asks in a dialog of the app's own `div`s (no `<dialog>`, no `role`: Transmission's
web client, a Backbone or jQuery plugin's confirm box): the dialog's own "Remove" is the confirmation,
and its refused write is no unconfirmed delete (a corpus clean build reported one at every run). A Remove
that sends its write at the first click is still reported."""

from __future__ import annotations

from dataclasses import replace

from bughunt.oracles.destructive import check_unconfirmed_destructive
from bughunt.page import FetchedPage

ORIGIN = "http://shell.test"
LIST = "<ul id='items'><li>Disc 1</li><li>Disc 2</li></ul>"
ASK = (
    "<div class='dialog_container'><div class='dialog_window'><h2>Remove Disc 1?</h2>"
    "<a href='#confirm'>Remove</a> <a href='#cancel'>Cancel</a></div></div>"
)
WRITE = (f"POST {ORIGIN}/rpc",)


def _page(body: str, route: str) -> FetchedPage:
    html = f"<!doctype html><html><head><title>Items</title></head><body><div title='Remove'></div>{body}</body></html>"
    return FetchedPage(ORIGIN + route, route, 200, {}, "text/html", html, 1.0)


def test_the_answer_to_a_question_a_remove_asked_is_no_unconfirmed_delete() -> None:
    loaded = _page(LIST, "/")
    asked = replace(_page(LIST + ASK, "/#click-1"), clicked_from=(loaded, "Remove Selected Items"))
    answered = replace(_page(LIST, "/#confirm"), clicked_from=(asked, "Remove"), refused_writes=WRITE)
    assert check_unconfirmed_destructive(asked) == []
    assert check_unconfirmed_destructive(answered) == []


def test_a_remove_that_writes_at_once_is_reported() -> None:
    loaded = _page(LIST, "/")
    at_once = replace(
        _page(LIST, "/#click-1"), clicked_from=(loaded, "Remove Selected Items"), refused_writes=WRITE
    )
    (found,) = check_unconfirmed_destructive(at_once)
    assert found.kind == "unconfirmed_destructive"
