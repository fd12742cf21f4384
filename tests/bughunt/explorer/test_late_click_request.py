"""A click whose script asks for the next rows a moment later (htmx's `click delay:…` trigger): the
browser engine reads the state after the rows came, not before — read too early, a pager's click looks
idle and is learned so, and the page's other pagers are never clicked."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from tests.support.engines import browser_on
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

APP_JS = """
document.getElementById('next').addEventListener('click', () => {
  setTimeout(async () => {
    const rows = await (await fetch('/rows?page=2')).text();
    document.getElementById('rows').innerHTML = rows;
  }, 300);
});
"""


class _Site(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/app.js":
            self.reply(200, APP_JS, "application/javascript")
        elif self.path.startswith("/rows"):
            self.reply(200, '<tr><td><a href="/item/11">Item 11</a></td></tr>')
        elif self.path == "/robots.txt":
            self.reply(404, "", "text/plain")
        else:
            self.reply(
                200,
                '<html><head><title>T</title></head><body><table><tbody id="rows">'
                '<tr><td><a href="/item/1">Item 1</a></td></tr></tbody></table>'
                '<button id="next">Next</button><script src="/app.js"></script></body></html>',
            )


@pytest.fixture(scope="module")
def fetcher() -> Iterator[object]:
    with browser_on(_Site) as engine:
        yield engine


def test_a_click_whose_request_starts_after_a_delay_is_read_with_its_answer(fetcher) -> None:
    page = fetcher.fetch("/").page
    click = next(a for a in fetcher.actions(page) if a.kind == "click" and a.label == "Next")
    after = fetcher.perform(click)
    assert after.outcome == "page" and after.page is not None
    assert "Item 11" in after.page.body and "Item 1<" not in after.page.body
