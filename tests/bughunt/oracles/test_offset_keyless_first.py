"""An offset pager whose first page's address carries no offset (`offset_steps._keyless_first`): its
page 2 of three links its later pages with the key and its first page without. Pages are made up (a
catalogue of projects, ten a page, under a key no reading names); issue 25."""

from __future__ import annotations

from bughunt.oracles.offset_steps import offset_pagers
from bughunt.oracles.pagination import check_duplicate_pagination, previous_page_url
from bughunt.page import FetchedPage
from bughunt.urls import route_of

BASE = "http://catalogue.test/"
NAMES = [f"project-{n:02d}" for n in range(25)]


def _page(start: int, buggy: bool) -> FetchedPage:
    # the faulty build skips one row fewer than it should: each later page opens with the last row
    # of the page before
    first = max(0, start - 1) if buggy else start
    rows = "".join(
        f'<tr><td><a href="/p/{n}/">{n}</a></td><td>Owned by team {i % 3}</td></tr>'
        for i, n in enumerate(NAMES[first : first + 10])
    )
    pager = "".join(
        f'<li><a href="{"/" if v == 0 else f"/?o={v}"}">[{v // 10 + 1}]</a></li>' for v in (0, 10, 20)
    )
    body = f'<a href="/">Catalogue</a><table class="list">{rows}</table><ul class="pager">{pager}</ul>'
    url = BASE if start == 0 else f"{BASE}?o={start}"
    html = f"<html><head><title>Catalogue</title></head><body>{body}</body></html>"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def test_the_first_page_without_the_key_makes_the_third_value_of_page_two() -> None:
    (pager,) = offset_pagers(_page(10, buggy=False))
    assert (pager.key, pager.step, pager.here, pager.previous) == ("o", 10, 10, BASE)
    (last,) = offset_pagers(_page(20, buggy=False))
    assert (last.here, last.previous) == (20, f"{BASE}?o=10")


def test_page_two_repeating_the_first_pages_last_row_is_a_duplicate() -> None:
    pages = {p.url: p for p in (_page(0, True), _page(10, True), _page(20, True))}
    second = pages[f"{BASE}?o=10"]
    assert previous_page_url(second) == BASE
    (found,) = check_duplicate_pagination(second, pages.__getitem__)
    assert found.evidence["repeated"] == "project-09"
    clean = {p.url: p for p in (_page(0, False), _page(10, False), _page(20, False))}
    assert check_duplicate_pagination(clean[f"{BASE}?o=10"], clean.__getitem__) == []


def test_a_page_without_the_key_is_itself_the_first() -> None:
    (pager,) = offset_pagers(_page(0, buggy=False))
    assert (pager.here, pager.previous, pager.following) == (0, None, f"{BASE}?o=10")
