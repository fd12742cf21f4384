"""A list a component framework renders: each item inside its component's host element, an
autonomous custom element (`<feed-entry>`), the loop's items a run of that one custom tag beside the
pager's `nav` (`list_finding.component_host`). The feed's second page repeating the first page's last
entry is reported; distinct pages are not. Pages of our own, in the shape Angular, Lit or Stencil
render a feed."""

from __future__ import annotations

from bughunt.oracles.list_finding import component_host, item_runs
from bughunt.oracles.pagination import check_duplicate_pagination
from bughunt.page import FetchedPage
from tests.support.pages import Fetcher, Site, not_found

ORIGIN = "http://feed.test"

_page = Site(ORIGIN, "<html><body><main-app>", "</main-app></body></html>").page


def _feed(number: int, entries: range) -> FetchedPage:
    items = "".join(
        f'<feed-entry><div class="entry"><div class="meta"><a href="/people/ana">ana</a> <span>May {n}</span>'
        f'</div><a class="entry-link" href="/posts/entry-{n}"><h1>Entry {n}</h1><p>About {n}.</p></a></div>'
        "</feed-entry>"
        for n in entries
    )
    pager = "".join(
        f'<li class="page-item"><a class="page-link" href="/?page={p}">{p}</a></li>' for p in (1, 2, 3)
    )
    return _page(
        f'<feed-list>{items}<nav><ul class="pagination">{pager}</ul></nav></feed-list>', f"/?page={number}"
    )


def _check(first: FetchedPage, second: FetchedPage) -> list:
    return check_duplicate_pagination(second, Fetcher(first, second, missing=not_found(_page)))


def test_a_custom_element_is_a_component_host_and_a_known_tag_is_not():
    assert component_host(_feed(1, range(1, 3)).document.find_all("feed-entry")[0])
    assert not component_host(_feed(1, range(1, 3)).document.find_all("div")[0])


def test_a_run_of_one_component_is_a_list():
    page = _feed(1, range(1, 4))
    assert any(sig == "feed-entry" and len(items) == 3 for _c, sig, items in item_runs(page.document))


def test_the_second_page_repeating_the_first_pages_last_entry_is_reported():
    (found,) = _check(_feed(1, range(1, 4)), _feed(2, range(3, 6)))
    assert found.kind == "duplicate_pagination" and "Entry 3" in found.evidence["repeated"]


def test_distinct_pages_of_components_are_no_repeat():
    assert _check(_feed(1, range(1, 4)), _feed(2, range(4, 7))) == []
