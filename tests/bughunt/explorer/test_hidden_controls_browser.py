"""Controls the page does not show when it is read — a closed modal's buttons, the items of a folded
menu, a button under `visibility: hidden` — are no clicks the browser engine offers: Playwright would
refuse each one before clicking (`click_failed`), a click of the budget spent for nothing. The read
marks them (`page_scripts.READ`, `actions.HIDDEN_MARK`) and drops the mark once they show."""

from __future__ import annotations

import shutil

import pytest

from bughunt.actions import HIDDEN_MARK
from tests.support.engines import browser_on
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

PAGE = """<!doctype html><html><head><title>Board</title></head><body>
<button id="open" onclick="document.getElementById('modal').style.display='block'">Open the form</button>
<div id="modal" style="display:none"><a href="#" id="close">Close</a><button id="pick">Pick a colour</button></div>
<nav><ul id="menu" style="visibility:hidden"><li><a href="#" id="sort">Sort</a></li></ul></nav>
<a href="#" id="more">More</a>
</body></html>"""


class Board(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802
        self.reply(200, PAGE)


def test_controls_hidden_when_read_are_not_offered_and_show_again_once_visible() -> None:
    with browser_on(Board) as engine:
        page = engine.fetch("/").page
        assert page is not None
        offered = {a.selector for a in engine.actions(page) if a.kind == "click"}
        assert offered == {"#open", "#more"}
        assert page.body.count(HIDDEN_MARK) == 3  # #close, #pick and #sort
        opened = engine.perform(next(a for a in engine.actions(page) if a.selector == "#open"))
        assert opened.page is not None
        shown = {a.selector for a in engine.actions(opened.page) if a.kind == "click"}
        assert {"#close", "#pick"} <= shown and "#sort" not in shown


PANEL = """<!doctype html><html><head><title>Books</title></head><body>
<table><tbody><tr tabindex="0" id="row1"><td>Book 1</td></tr><tr tabindex="0" id="row2"><td>Book 2</td></tr></tbody></table>
<button id="sort">Sort</button>
<div id="layer" style="position:fixed;top:0;left:0;right:0;bottom:0;background:#fff">
<aside><h2>Book 1</h2><button id="close">Close</button></aside></div>
</body></html>"""


class Panel(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802
        self.reply(200, PANEL)


def test_controls_under_an_open_layer_are_not_offered() -> None:
    """A side panel or modal open over the list covers its rows and buttons: a click on one lands on
    the layer, and Playwright gives up on it after its timeout (the log rows under a log's panel, each
    a failed click of the budget on a Svelte dashboard)."""
    with browser_on(Panel) as engine:
        page = engine.fetch("/").page
        assert page is not None
        offered = {a.selector for a in engine.actions(page) if a.kind == "click"}
        assert offered == {"#close"}
