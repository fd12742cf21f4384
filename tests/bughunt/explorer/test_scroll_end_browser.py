"""A list that loads its next batch when its end scrolls into view (an `IntersectionObserver` on a
sentinel after the last card) is read as it stands after a scroll to the page's end: a batch that
repeats cards already shown is a `duplicate_pagination` on the page, and a right one is simply more
cards. Made-up card grid, generic markup."""

from __future__ import annotations

import json
import shutil
from typing import ClassVar
from urllib.parse import parse_qs, urlsplit

import pytest

from bughunt.oracles.pagination import check_duplicate_pagination
from tests.support.engines import browser_on
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

SCRIPT = """
let page = 1;
const grid = document.getElementById('grid');
function draw(cards) {
  for (const n of cards) {
    const card = document.createElement('div'); card.className = 'card'; card.style.height = '120px';
    card.innerHTML = '<a href="/cards/' + n + '">Card ' + n + '</a><p>What card ' + n + ' holds.</p>';
    grid.appendChild(card);
  }
}
fetch('/api/cards?page=1').then(r => r.json()).then(cards => {
  draw(cards);
  new IntersectionObserver(entries => {
    if (!entries[0].isIntersecting || page > 1) return;
    page += 1;
    fetch('/api/cards?page=' + page).then(r => r.json()).then(draw);
  }).observe(document.getElementById('end'));
});
"""


class _Grid(QuietHandler):
    first: ClassVar[int] = 21
    """Where the second batch starts: 21 is right, 11 repeats the first batch's last ten cards."""
    size: ClassVar[int] = 20

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        url = urlsplit(self.path)
        if url.path == "/app.js":
            return self.reply(200, SCRIPT, "application/javascript")
        if url.path == "/api/cards":
            page = int(parse_qs(url.query)["page"][0])
            start = 1 if page == 1 else self.first
            return self.reply(200, json.dumps(list(range(start, start + self.size))), "application/json")
        if url.path.startswith("/cards/"):
            return self.reply(200, f"<html><body><h1>Card {url.path[7:]}</h1></body></html>")
        self.reply(
            200,
            "<html><head><title>Cards</title></head><body><main><div id='grid'></div><div id='end'></div>"
            "</main><script src='/app.js'></script></body></html>",
        )


class _Repeating(_Grid):
    first = 11


def test_a_next_batch_that_repeats_cards_is_found_after_the_scroll() -> None:
    with browser_on(_Repeating) as engine:
        page = engine.fetch_page(engine.url_of("/"))
        (finding,) = check_duplicate_pagination(page)
        assert finding.kind == "duplicate_pagination"
        assert "Card 11" in finding.evidence["repeated"]


def test_a_right_next_batch_is_read_as_more_cards() -> None:
    with browser_on(_Grid) as engine:
        page = engine.fetch_page(engine.url_of("/"))
        assert page.body.count('class="card"') == 40
        assert check_duplicate_pagination(page) == []


class _TallStill(QuietHandler):
    """A tall page that watches no scrolling: scrolling it draws nothing, so it is not scrolled."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.reply(
            200,
            "<html><head><title>Long read</title></head><body><main><h1>Long read</h1>"
            "<div style='height: 4000px'>Text.</div></main></body></html>",
        )


class _TallListening(_TallStill):
    """A tall page that draws its next part when a scroll listener sees the end near."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.reply(
            200,
            "<html><head><title>Long read</title></head><body><main><h1>Long read</h1>"
            "<div style='height: 4000px'>Text.</div><div id='more'></div></main><script>"
            "addEventListener('scroll', () => { if (scrollY > 1000 && !more.textContent) {"
            " more.textContent = 'Part two'; } });</script></body></html>",
        )


def test_a_tall_page_watching_no_scrolling_is_read_where_it_stands() -> None:
    with browser_on(_TallStill) as engine:
        engine.fetch_page(engine.url_of("/"))
        assert engine._page.evaluate("scrollY") == 0  # noqa: SLF001 (the tab's own state)


def test_a_tall_page_listening_for_scrolls_is_read_after_the_scroll() -> None:
    with browser_on(_TallListening) as engine:
        page = engine.fetch_page(engine.url_of("/"))
        assert "Part two" in page.body
