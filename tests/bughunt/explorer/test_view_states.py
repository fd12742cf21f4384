"""What a click in place opened (`view_states`), which copies of one control are a menu of distinct
views (`alike_controls._menu`) and what the browser's read marks as acting (`focus_controls`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bughunt.actions import clickable
from bughunt.dom import parse_html
from bughunt.explorer.alike_controls import alike_sample
from bughunt.explorer.view_states import opened_view
from bughunt.focus_controls import ACTS_MARK, control_label
from bughunt.page import FetchedPage


def _page(body: str, before: FetchedPage | None = None) -> FetchedPage:
    page = FetchedPage("http://s/", "/", 200, {}, "text/html", f"<html><body>{body}</body></html>", 1.0)
    return replace(page, clicked_from=(before, "x")) if before is not None else page


LIST = '<h1>Boards</h1><div class="card">Alpha</div><div class="card">Beta</div>'


@pytest.mark.parametrize(
    ("after", "opened"),
    [
        ("<h1>Board Alpha</h1><ul><li>Plan</li></ul>", True),  # a record's view drawn in place
        (LIST + '<div class="panel"><h2>Alpha</h2></div>', True),  # a panel beside the list
        (LIST + '<ul role="menu"><li role="menuitem">Rename</li></ul>', False),  # a menu opened
        (LIST + "<p>3 more cards</p>", False),  # details unfolded
        (LIST, False),
    ],
)
def test_a_view_is_a_heading_the_state_before_did_not_show(after: str, opened: bool) -> None:
    assert opened_view(_page(after, _page(LIST))) is opened
    assert not opened_view(_page(after))  # a page loaded, not clicked: no view opened in place


def _feed(page: int) -> str:
    return "<h1>Feed</h1>" + "".join(f'<div class="item"><h2>Post {page}{n}</h2></div>' for n in range(3))


def test_a_lists_other_page_is_no_view_though_its_items_have_headings() -> None:
    assert not opened_view(_page(_feed(2), _page(_feed(1))))
    assert opened_view(_page(_feed(2).replace("Feed", "Drafts"), _page(_feed(1))))


def _copies(html: str, tag: str) -> list:
    return parse_html(f"<html><body>{html}</body></html>").find_all(tag)


@pytest.mark.parametrize(
    ("html", "tag", "kept"),
    [
        ('<div class="top">' + "".join(f"<span>{s}</span>" for s in ("Boards", "People", "Reports", "Settings")) + "</div>", "span", 4),
        ("<ul>" + "".join(f'<li><a href="#">{n}</a></li>' for n in ("Ann", "Bob", "Cleo")) + "</ul>", "a", 3),
        # one control per item: a part of its item, not the item
        ("".join(f"<article><h2>Post {n}</h2><p>text</p><button>Like</button></article>" for n in range(4)), "button", 2),
        # rows say more than a name
        ("<table>" + "".join(f'<tr tabindex="0"><td>Book number {n} of the shelf</td><td>{1990 + n}</td><td>a long note on the row</td></tr>' for n in range(4)) + "</table>", "tr", 2),
        # the same label twice is one control repeated
        ("<div>" + "".join("<span>Open</span>" for _ in range(4)) + "</div>", "span", 2),
        # more than a menu holds
        ("<div>" + "".join(f"<span>Tag {n}</span>" for n in range(12)) + "</div>", "span", 2),
    ],
)  # fmt: skip
def test_copies_that_are_a_menu_of_distinct_views_are_all_kept(html: str, tag: str, kept: int) -> None:
    assert len(alike_sample(_copies(html, tag))) == kept


def test_the_browsers_acting_mark_makes_a_control_and_names_a_shadow_button() -> None:
    doc = parse_html(
        f'<html><body><span {ACTS_MARK}="listener">Boards</span><wk-button {ACTS_MARK}="shadow Log out">'
        f'</wk-button><main {ACTS_MARK}="pointer">x</main><a href="/x"><span {ACTS_MARK}="pointer">y</span></a>'
        "<span>plain</span></body></html>"
    )
    span, host, main, inside, plain = (doc.find_all("span")[0], doc.find_all("wk-button")[0],
                                       doc.find_all("main")[0], doc.find_all("span")[1], doc.find_all("span")[2])  # fmt: skip
    assert clickable(span) and clickable(host)
    assert not clickable(main)  # a landmark: clicked through what it holds
    assert not clickable(inside)  # a link's part: its click is the link's
    assert not clickable(plain)
    assert control_label(host) == "Log out"  # read before a click, as a "Log out" is never clicked
