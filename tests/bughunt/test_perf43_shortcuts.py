"""Shortcuts of Session 43's pass (issue 28, readings skipped where they cannot apply): each answers
what the reading it skips would have answered."""

from __future__ import annotations

import random

import pytest

from bughunt.oracles import listed_twice as listed_twice_module
from bughunt.oracles.count_links import anchored_mismatch
from bughunt.oracles.counts import parse_count
from bughunt.oracles.pager_empty import offered_empty_page
from bughunt.oracles.pagination import check_duplicate_pagination
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site("http://rows.test", "<html><head><title>Rows</title></head><body>", "</body></html>")
_WORDS = ("Garden", "Notes", "Bread", "Sky")


def _item(rnd: random.Random, tag: str) -> str:
    words = " ".join(rnd.choice(_WORDS) for _ in range(rnd.randint(0, 2)))
    link = f"<a href='/items/{rnd.randint(1, 4)}/edit'>edit</a>" if rnd.random() < 0.8 else ""
    if tag == "tr":
        return f"<tr><td>{words}</td><td>{link}</td></tr>"
    return f"<{tag} class='row'>{words} {link}</{tag}>"


def _random_body(rnd: random.Random) -> str:
    parts = []
    for _ in range(rnd.randint(1, 3)):
        shape = rnd.choice(("table", "ul", "div"))
        items = "".join(
            _item(rnd, {"table": "tr", "ul": "li", "div": "div"}[shape]) for _ in range(rnd.randint(2, 6))
        )
        parts.append(
            f"<table><tbody>{items}</tbody></table>" if shape == "table" else f"<{shape}>{items}</{shape}>"
        )
    return "".join(parts)


def _findings(page: FetchedPage) -> list[dict[str, object]]:
    return [f.to_dict() for f in check_duplicate_pagination(page, SITE.fetcher())]


def test_a_page_whose_runs_repeat_no_text_lists_no_record_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(43)
    bodies = [_random_body(rnd) for _ in range(400)]
    gated = [_findings(SITE.page(body, "/items")) for body in bodies]
    skipped = sum(
        not listed_twice_module._texts_repeat(SITE.page(body, "/items").document) for body in bodies
    )
    monkeypatch.setattr(listed_twice_module, "_texts_repeat", lambda root: True)
    plain = [_findings(SITE.page(body, "/items")) for body in bodies]
    assert gated == plain
    assert sum(bool(f) for f in plain) >= 20  # pages that list a record twice were judged
    assert skipped >= 20  # ... and pages whose lists were never found


def _kept(page: FetchedPage) -> set[str]:
    """The names of the readings the page (or its shared tree readings) kept: those some reader made."""
    return {compute.__name__ for compute in (*page._derived, *page._tree.of_pages)}


def test_a_page_whose_runs_repeat_no_text_finds_no_content_lists_for_listed_twice() -> None:
    rows = "".join(
        f"<tr><td>Row {n}</td><td><a href='/items/{n}/edit'>edit {n}</a></td></tr>" for n in range(4)
    )
    page = SITE.page(f"<table><tbody>{rows}</tbody></table>", "/items")
    assert check_duplicate_pagination(page, SITE.fetcher()) == []
    assert "_items_by_position" not in _kept(page)
    twice = SITE.page(f"<table><tbody>{rows}{rows}</tbody></table>", "/items")
    assert check_duplicate_pagination(twice, SITE.fetcher())
    assert "_items_by_position" in _kept(twice)


def _paged(body: str, path: str) -> FetchedPage:
    pager = "<ul class='pagination'><li><a href='/list?page=1'>1</a></li><li><a href='/list?page=2'>2</a></li></ul>"
    return SITE.page(body + pager, path)


def test_a_page_with_no_count_link_to_a_place_on_it_is_not_asked_whether_it_is_paged() -> None:
    page = _paged("<h2>Notes</h2><ul><li>a</li><li>b</li></ul><a href='/other'>3 more</a>", "/list")
    assert anchored_mismatch(page, parse_count) == []
    assert "_has_pagination" not in _kept(page)
    linked = _paged(
        "<a href='#notes'>3 notes</a><h2 id='notes'>Notes</h2><ul><li>a</li><li>b</li></ul>", "/list"
    )
    assert anchored_mismatch(linked, parse_count) == []  # paged: counted on no one page
    assert "_has_pagination" in _kept(linked)
    unpaged = SITE.page(
        "<a href='#notes'>3 notes</a><h2 id='notes'>Notes</h2><ul><li>a</li><li>b</li></ul>", "/l"
    )
    assert [(shown, listed) for _, shown, listed in anchored_mismatch(unpaged, parse_count)] == [(3, 2)]


def test_a_page_that_is_no_page_n_of_a_list_by_its_url_or_click_reads_no_pager_for_an_empty_page() -> None:
    first = _paged("<div class='entry'>Nothing here yet.</div>", "/list")
    assert offered_empty_page(first, SITE.fetcher()) is None
    assert "_pager_nodes" not in _kept(first)
    second = _paged("<div class='entry'>Nothing here yet.</div>", "/list?page=2")
    assert offered_empty_page(second, SITE.fetcher(first)) is None
    assert "_pager_nodes" in _kept(second)
