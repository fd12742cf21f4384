"""A wordless bin icon inside a card that links to its record (`<a href="/lists/7">… <button><svg>`),
given a click listener of its own, is a control of its own: it is offered apart from the link, and
when its click sends `DELETE /api/lists/7` at once — the record the card links to — that is an
unconfirmed destructive control; when it opens a dialog instead, nothing is reported. Made-up
shopping-list page, generic markup."""

from __future__ import annotations

import shutil
from typing import ClassVar
from urllib.parse import urlsplit

import pytest

from bughunt.oracles.destructive import check_unconfirmed_destructive
from tests.support.engines import browser_on
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

BIN = "<svg viewBox='0 0 24 24' aria-hidden='true'><path d='M19,4H15.5L14.5,3H9.5L8.5,4H5V6H19M6,19V7H18V19Z'/></svg>"

DELETE_AT_ONCE = """
for (const bin of document.querySelectorAll('.bin')) {
  bin.addEventListener('click', e => {
    e.preventDefault();
    fetch('/api/lists/' + bin.dataset.list, {method: 'DELETE'});
  });
}
"""

ASK_FIRST = """
for (const bin of document.querySelectorAll('.bin')) {
  bin.addEventListener('click', e => {
    e.preventDefault();
    document.getElementById('ask').hidden = false;
  });
}
"""


class _Lists(QuietHandler):
    script: ClassVar[str] = DELETE_AT_ONCE

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = urlsplit(self.path).path
        if path == "/app.js":
            return self.reply(200, self.script, "application/javascript")
        if path.startswith("/lists/"):
            return self.reply(
                200, f"<html><body><h1>List {path[7:]}</h1><ul><li>Milk</li></ul></body></html>"
            )
        cards = "".join(
            f"<a class='card' href='/lists/{n}'><div class='title'>{name}"
            f"<button type='button' class='bin' data-list='{n}'>{BIN}</button></div></a>"
            for n, name in ((7, "Groceries"), (8, "Market"), (9, "Party"))
        )
        self.reply(
            200,
            "<html><head><title>Lists</title></head><body><main><h1>Shopping lists</h1>"
            f"<section>{cards}</section>"
            "<div id='ask' role='dialog' hidden><p>Delete this list?</p><button>Confirm</button></div>"
            "</main><script src='/app.js'></script></body></html>",
        )


class _AskingLists(_Lists):
    script = ASK_FIRST


def _bin_click(engine) -> object:
    page = engine.fetch_page(engine.url_of("/lists"))
    (action,) = [
        a for a in engine.actions(page) if "a:nth-of-type(1)" in a.selector and "button" in a.selector
    ]
    result = engine.perform(action)
    assert result.page is not None
    return result.page


def test_a_bin_icon_that_deletes_the_card_s_record_at_once_is_reported() -> None:
    with browser_on(_Lists) as engine:
        state = _bin_click(engine)
        assert state.refused_writes == ("DELETE /api/lists/7",)
        (finding,) = check_unconfirmed_destructive(state)
        assert finding.kind == "unconfirmed_destructive"


def test_a_bin_icon_that_asks_first_is_silent() -> None:
    with browser_on(_AskingLists) as engine:
        state = _bin_click(engine)
        assert state.refused_writes == ()
        assert check_unconfirmed_destructive(state) == []
