"""A modal's layer covers the whole page, below the fold too. A list of forty script-driven rows under an
open dialog whose container (or backdrop) spans the viewport, as jQuery UI's `ui-widget-overlay`,
Bootstrap's `.modal` and ExtJS's mask lay one: the read tested a control's centre only inside the
viewport, so the rows below the fold were offered under the layer and each click failed (16 of 30 clicks
of a corpus torrent client went to a list's rows below an open "Connection Failed" dialog)."""

from __future__ import annotations

import shutil

import pytest

from bughunt.actions import HIDDEN_MARK
from tests.support.engines import browser_on
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")


def _page(modal: bool) -> str:
    rows = "".join(
        f'<li style="height:60px;cursor:pointer" onclick="pick({n})">Disc {n}</li>' for n in range(1, 41)
    )
    layer = (
        '<div id="layer" style="position:absolute;top:0;left:0;width:100%;height:100%;z-index:10">'
        '<div style="margin:100px auto;width:300px;background:#eee"><h2>Connection failed</h2>'
        '<button type="button" id="dismiss" onclick="this.parentNode.parentNode.remove()">Dismiss</button>'
        "</div></div>"
        if modal
        else ""
    )
    return (
        "<!doctype html><html><head><title>List</title></head><body style='margin:0'>"
        f'<ul id="items">{rows}</ul>{layer}<script>function pick(n) {{}}</script></body></html>'
    )


class _Modal(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path in ("/", "/open"):
            return self.reply(200, _page(self.path == "/open"))
        return self.reply(404, "<html><head><title>Not found</title></head><body>none</body></html>")


def _marks(html: str) -> dict[str, bool]:
    from bughunt.dom import parse_html

    root = parse_html(html)
    return {n.text(): HIDDEN_MARK in n.attrs for n in root.iter() if n.tag in ("li", "button")}


def test_rows_below_the_fold_under_a_modal_layer_are_read_hidden() -> None:
    with browser_on(_Modal) as engine:
        opened = engine.fetch("/open").page
        assert opened is not None
        marks = _marks(opened.body)
        assert marks["Dismiss"] is False  # the dialog's own control is shown
        assert marks["Disc 1"] is True  # covered where a click lands
        assert marks["Disc 40"] is True, marks  # below the fold, under the layer
        plain = engine.fetch("/").page
        assert plain is not None
        marks = _marks(plain.body)
        assert marks["Disc 40"] is False and marks["Disc 1"] is False  # no layer: below the fold is no cover
