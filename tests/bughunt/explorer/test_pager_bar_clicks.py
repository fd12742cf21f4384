"""A table paged by a script's accessible pager bar: icon buttons each with a screen-reader label ("Go to
next page"), in a plain `div` no class names as a pager. The bar is the list's pager: its "Go to next
page" is the way on the explorer takes, and the duplicate-pagination oracle compares the page it shows
with the page before it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from bughunt.oracles import inspect_page
from bughunt.oracles.lists import clicked_previous_page, pager_ways_on
from bughunt.page import FetchedPage
from tests.support.engines import browser_on
from tests.support.loopback import script_shell

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

APP_JS = """
const app = document.getElementById('app');
const rows = n => n.map(i => '<tr><td>Task ' + i + '</td><td>note ' + i + '</td></tr>').join('');
const button = (label, enabled) => '<button class="ghost"' + (enabled ? '' : ' disabled')
  + '><span class="sr-only">' + label + '</span><svg class="icon"></svg></button>';
const show = page => {
  // page 2 starts one row early: task 4 is on both pages
  app.innerHTML = '<div class="stack"><table><tbody>' + rows(page === 1 ? [1, 2, 3, 4] : [4, 5, 6, 7])
    + '</tbody></table><div class="bar"><span>Page ' + page + ' of 2</span><div class="row">'
    + button('Go to first page', page > 1) + button('Go to previous page', page > 1)
    + button('Go to next page', page < 2) + button('Go to last page', page < 2) + '</div></div></div>';
  const buttons = app.querySelectorAll('button');
  buttons[0].addEventListener('click', () => show(1));
  buttons[1].addEventListener('click', () => show(1));
  buttons[2].addEventListener('click', () => show(2));
  buttons[3].addEventListener('click', () => show(2));
};
show(1);
"""


_Spa = script_shell(APP_JS)


@pytest.fixture(scope="module")
def fetcher() -> Iterator[object]:
    with browser_on(_Spa) as engine:
        yield engine


def test_the_pager_bars_next_page_button_is_the_way_on_and_its_page_is_compared(fetcher) -> None:
    first: FetchedPage = fetcher.fetch("/").page
    assert [n.text() for n in pager_ways_on(first)] == ["Go to next page"]
    click = next(a for a in fetcher.actions(first) if a.kind == "click" and a.label == "Go to next page")
    after = fetcher.perform(click)
    assert after.outcome == "page" and after.page is not None
    second = after.page
    assert clicked_previous_page(second) is second.clicked_from[0]
    found = [f for f in inspect_page(second) if f.kind == "duplicate_pagination"]
    assert len(found) == 1 and "Task 4" in found[0].evidence["repeated"], found
