"""A list paged without addresses (a single-page app's pager of `href="javascript:"` links): the
browser engine remembers which page a click state was made on, and the duplicate-pagination oracle
compares the second page's state with it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from bughunt.oracles import inspect_page
from bughunt.oracles.lists import clicked_previous_page
from bughunt.page import FetchedPage
from tests.support.engines import browser_on
from tests.support.loopback import script_shell

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

APP_JS = """
const app = document.getElementById('app');
const items = n => n.map(i => '<div class="preview"><h2>Article ' + i + '</h2><p>about ' + i + '</p></div>').join('');
const pager = '<ul class="pagination"><li><a href="javascript:" id="p1">1</a></li>'
  + '<li><a href="javascript:" id="p2">2</a></li></ul>';
const show = page => {
  // page 2 starts one article early: article 3 is on both pages
  app.innerHTML = '<h1>Tag</h1><div class="feed">' + items(page === 1 ? [1, 2, 3] : [3, 4, 5]) + '</div>' + pager
    + '<button id="star">Favorite</button>';
  document.getElementById('p1').addEventListener('click', () => show(1));
  document.getElementById('p2').addEventListener('click', () => show(2));
  document.getElementById('star').addEventListener('click', () => {
    app.insertAdjacentHTML('beforeend', '<p class="note">starred</p>');
  });
};
show(1);
"""


_Spa = script_shell(APP_JS)


@pytest.fixture(scope="module")
def fetcher() -> Iterator[object]:
    with browser_on(_Spa) as engine:
        yield engine


def _click(fetcher, label: str) -> FetchedPage:
    page = fetcher.fetch("/").page
    click = next(a for a in fetcher.actions(page) if a.kind == "click" and a.label == label)
    after = fetcher.perform(click)
    assert after.outcome == "page" and after.page is not None
    return after.page


def test_the_second_page_of_an_addressless_pager_is_compared_with_the_first(fetcher):
    second = _click(fetcher, "2")
    assert second.clicked_from is not None and second.clicked_from[1] == "2"
    assert clicked_previous_page(second) is second.clicked_from[0]
    found = [f for f in inspect_page(second) if f.kind == "duplicate_pagination"]
    assert len(found) == 1 and "Article 3" in found[0].evidence["repeated"], found


def test_another_click_at_the_same_url_is_not_a_page_of_the_list(fetcher):
    starred = _click(fetcher, "Favorite")
    assert starred.clicked_from is not None and clicked_previous_page(starred) is None
    assert [f for f in inspect_page(starred) if f.kind == "duplicate_pagination"] == []
