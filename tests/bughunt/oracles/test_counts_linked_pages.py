"""A count on one page of a list another page shows (`bughunt/oracles/count_targets.py`): a tracker's
overview table whose numbers link the filtered issue lists ("open | closed | total" per tracker), and
a reader's list of categories each saying how many feeds it holds, its item linking the category's
page of feeds. The linked page states its total (a range line "(1-18/18)", a heading "Design > Feeds
(2)"), and the two must agree. Made-up tracker and reader, generic markup."""

from __future__ import annotations

import pytest

from bughunt.oracles.count_labels import parse_range
from bughunt.oracles.count_targets import count_cells, item_counts
from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from tests.support.pages import Site

TRACKER = Site("http://tracker.test", "<html><head><title>Tracker</title></head><body>", "</body></html>")

ISSUES = {"bug": (18, 3), "feature": (9, 0)}
"""Open and closed issues of each tracker."""


def overview(open_bug: int) -> FetchedPage:
    rows = ""
    for n, (tracker, (opened, closed)) in enumerate(ISSUES.items(), start=1):
        shown = open_bug if tracker == "bug" else opened
        link = f"/projects/web/issues?set_filter=1&amp;tracker_id={n}"
        rows += (
            f'<tr><td class="name"><a href="{link}">{tracker.title()}</a></td>'
            f'<td><a href="{link}">{shown}</a></td>'
            f'<td><a href="{link}&amp;status_id=c">{closed}</a></td>'
            f'<td class="total"><a href="{link}&amp;status_id=%2A">{opened + closed}</a></td></tr>'
        )
    return TRACKER.page(
        '<div id="content"><h2>Overview</h2><div class="issues box"><h3>Issue tracking</h3>'
        '<table class="list"><thead><tr><th></th><th>open</th><th>closed</th><th>Total</th></tr></thead>'
        f'<tbody>{rows}</tbody></table><p><a href="/projects/web/issues">View all issues</a></p></div></div>',
        "/projects/web",
    )


def issue_list(tracker: int, status: str, count: int, rows: int | None = None) -> FetchedPage:
    body = "".join(
        f'<tr class="issue"><td class="id">{100 + n}</td><td class="subject"><a href="/issues/{100 + n}">'
        f"Issue {n}</a></td></tr>"
        for n in range(count if rows is None else rows)
    )
    query = f"set_filter=1&tracker_id={tracker}" + (f"&status_id={status}" if status else "")
    return TRACKER.page(
        '<div id="content"><h2>Issues</h2><form id="query_form"><table id="filters-table"></table></form>'
        f'<form><table class="list issues"><thead><tr><th>#</th><th>Subject</th></tr></thead><tbody>{body}'
        '</tbody></table></form><span class="pagination"><ul class="pages"></ul>'
        f'<span><span class="items">(1-{count}/{count})</span></span></span></div>',
        f"/projects/web/issues?{query}",
    )


def lists(open_listed: int = 18) -> list[FetchedPage]:
    return [
        issue_list(1, "", open_listed),
        issue_list(1, "c", 3),
        issue_list(1, "%2A", open_listed + 3),
        issue_list(2, "", 9),
        issue_list(2, "c", 0),
        issue_list(2, "%2A", 9),
    ]


@pytest.mark.parametrize(("open_bug", "fires"), [(18, False), (21, True)])
def test_a_count_cell_is_compared_with_the_total_of_the_list_it_links(open_bug: int, fires: bool) -> None:
    page = overview(open_bug)
    found = check_count_mismatch(page, TRACKER.fetcher(*lists()))
    assert [(f.kind, f.evidence["shown"], f.evidence["listed"]) for f in found] == (
        [("count_mismatch", 21, 18)] if fires else []
    )


def test_a_count_cell_is_named_by_its_column_and_row_and_fetches_few_pages() -> None:
    cells = count_cells(overview(21))
    assert [(c.shown, sorted(c.words)) for c in cells[:3]] == [
        (21, ["bug", "open"]),
        (3, ["bug", "closed"]),
        (21, ["bug", "total"]),
    ]
    fetcher = TRACKER.fetcher(*lists())
    check_count_mismatch(overview(18), fetcher)  # no mismatch: the first row's three lists only
    assert len(fetcher.calls) == 3


def test_numbers_naming_records_or_days_are_no_counts() -> None:
    # an id column linking each record, a calendar's days linking the day's events: the number is in
    # the address, and the linked page's range line says nothing about it
    rows = "".join(f'<tr><td><a href="/issues/{n}">{n}</a></td><td>Issue {n}</td></tr>' for n in (4, 5))
    days = "".join(f'<td><a href="/events?date=2026-12-{d:02d}">{d}</a></td>' for d in (7, 8, 9))
    page = TRACKER.page(
        f"<table><thead><tr><th>#</th><th>Subject</th></tr></thead><tbody>{rows}</tbody></table>"
        f"<table><thead><tr><th>Mon</th><th>Tue</th><th>Wed</th></tr></thead><tbody><tr>{days}</tr></tbody></table>",
        "/issues",
    )
    assert count_cells(page) == []


def test_a_lone_linked_number_and_a_headerless_table_make_no_claim() -> None:
    lone = TRACKER.page(
        '<table><tr><th>Tracker</th><th>open</th></tr><tr><td>Bug</td><td><a href="/issues?t=1">21</a></td></tr>'
        '</table><table><tr><td>Bug</td><td><a href="/issues?t=1">21</a></td><td><a href="/issues?t=2">9</a>'
        "</td></tr></table>",
        "/summary",
    )
    assert count_cells(lone) == []


def test_a_slashed_range_line_beside_an_empty_pager_describes_the_table() -> None:
    # "(1-18/18)" is a range line; the pager's empty `ul` beside it (one page) is no list of 0 items
    assert parse_range("(1-18/18)") == (1, 18, 18)
    assert parse_range("3-12/2020") is None
    assert check_count_mismatch(issue_list(1, "", 18)) == []
    found = check_count_mismatch(issue_list(1, "", 18, rows=17))
    assert [(f.evidence["shown"], f.evidence["listed"]) for f in found] == [(18, 17)]


READER = Site("http://reader.test", "<html><head><title>", "</body></html>")
FEEDS = {1: ("All", 0), 4: ("Design", 2), 2: ("Engineering", 3)}


def reader_page(title: str, body: str, path: str) -> FetchedPage:
    # the title repeats the page's heading, count and all, as many apps title their lists
    return READER.page(
        f'{title} - Reader</title></head><body><header><nav><ul><li><a href="/unread">Unread '
        f'<span class="badge">(83)</span></a></li><li><a href="/categories">Categories</a></li></ul></nav>'
        f"</header><main>{body}</main>",
        path,
    )


def categories(stated: int | None) -> FetchedPage:
    items = "".join(
        f'<article class="item"><div class="item-header"><span class="item-title">'
        f'<a href="/category/{n}/entries">{name}</a></span> (<span title="There are '
        f'{count if stated is None else stated} feeds.">{count if stated is None else stated}</span>)</div>'
        f'<div class="item-meta"><ul><li><a href="/category/{n}/feeds">See subscriptions</a></li>'
        f'<li><a href="/category/{n}/edit">Edit</a></li></ul></div></article>'
        for n, (name, count) in FEEDS.items()
    )
    return reader_page(
        f"Categories ({len(FEEDS)})",
        f'<section class="page-header"><h1>Categories ({len(FEEDS)})</h1></section><div class="items">{items}</div>',
        "/categories",
    )


def category_feeds(n: int) -> FetchedPage:
    name, count = FEEDS[n]
    items = "".join(
        f'<article class="item"><div class="item-header"><a href="/feed/{n}{k}/entries">Feed {k}</a> '
        f'(<span title="Number of unread entries">{k + 2}</span>/<span title="Number of read entries">1</span>)'
        "</div></article>"
        for k in range(count)
    )
    body = f'<div class="items">{items}</div>' if count else '<p class="alert">No subscriptions.</p>'
    heading = f"{name} &gt; Feeds ({count})"
    return reader_page(
        heading, f'<section class="page-header"><h1>{heading}</h1></section>{body}', f"/category/{n}/feeds"
    )


@pytest.mark.parametrize(("stated", "fires"), [(None, False), (7, True)])
def test_an_items_count_is_compared_with_the_page_its_link_names(stated: int | None, fires: bool) -> None:
    fetcher = READER.fetcher(*(category_feeds(n) for n in FEEDS))
    found = check_count_mismatch(categories(stated), fetcher)
    assert [(f.kind, f.evidence["shown"], f.evidence["listed"]) for f in found] == (
        [("count_mismatch", 7, 0)] if fires else []
    )
    assert "http://reader.test/unread" not in fetcher.calls  # a menu's badge counts what is new


def test_an_items_count_names_its_things_by_its_numbers_tooltip() -> None:
    claims = item_counts(categories(None))
    assert [(c.shown, c.url, sorted(c.words)) for c in claims] == [
        (0, "http://reader.test/category/1/feeds", ["feeds"]),
        (2, "http://reader.test/category/4/feeds", ["feeds"]),
        (3, "http://reader.test/category/2/feeds", ["feeds"]),
    ]


def test_an_items_count_with_no_link_naming_its_things_makes_no_claim() -> None:
    # "Design (7)" whose item links only the category's entries and its edit form: what it counts is
    # not a page the item links
    page = READER.page(
        '</title></head><body><main><div class="items">'
        + "".join(
            f'<article class="item"><div class="item-header"><a href="/category/{n}/entries">C{n}</a> ({n + 4})</div>'
            f'<a href="/category/{n}/edit">Edit</a></article>'
            for n in (1, 2)
        )
        + "</div></main>",
        "/categories",
    )
    assert item_counts(page) == []
