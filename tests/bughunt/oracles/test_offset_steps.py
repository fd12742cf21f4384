"""Offset pagers known by their links' steps (`offset_steps`), the duplicate oracle on such a list beside
another table of the same shape and fixed panels above it, and usage lines ("Aliases: 7 / 100") against
the table titled for those things (`count_usage`). Pages are made up (a mail admin's domain overview);
issue 25, PostfixAdmin."""

from __future__ import annotations

from bughunt.oracles.count_usage import parse_usage, usage_mismatches
from bughunt.oracles.counts import check_count_mismatch
from bughunt.oracles.lists import has_pagination
from bughunt.oracles.offset_steps import offset_pagers
from bughunt.oracles.pagination import check_duplicate_pagination, previous_page_url
from bughunt.page import FetchedPage
from bughunt.urls import route_of

BASE = "http://admin.test/list.php"
NAMES = [f"user{n:02d}" for n in range(34)]


def _page(url: str, body: str) -> FetchedPage:
    html = f"<html><head><title>Overview</title></head><body>{body}</body></html>"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def _links(values: list[int], here: int) -> str:
    """The pager's links, written as the range of names each page opens ("ab-ad"), as mail admins do."""
    return " ".join(
        f'<a href="?limit={v}&amp;domain=d.example">a{"bcde"[v // 10]}-a{"bcde"[v // 10]}z</a>'
        for v in values
        if v != here
    )


def _overview(start: int, buggy: bool) -> FetchedPage:
    url = f"{BASE}?domain=d.example" if start == 0 else f"{BASE}?limit={start}&domain=d.example"
    return _page(url, _overview_body(start, buggy))


def _overview_body(start: int, buggy: bool) -> str:
    first = max(0, start - 1) if buggy else start
    panels = (
        '<div class="panel"><a href="/list.php?domain=d.example&tab=all">All</a> Aliases: 3 / 100</div>'
        '<div class="panel"><table><tr><th>Alias domain</th></tr>'
        '<tr><td><a href="/list.php?domain=mirror.example">mirror.example</a></td></tr></table></div>'
    )
    # the aliases, paged by the same key, in a table of the same shape as the mailboxes'
    aliases = '<table id="admin_table">' + "".join(
        f'<tr><td><a href="/edit.php?alias=list{n}@d">list{n}@d</a></td></tr>' for n in (start, start + 1)
    )
    aliases += "</table>"
    rows = "".join(
        f'<tr><td>{n}@d.example</td><td><a href="/edit.php?mailbox={n}">edit</a></td></tr>'
        for n in NAMES[first : first + 10]
    )
    pager = f'<div class="nav_bar"><b>:: Mailboxes</b> {_links([0, 10, 20, 30], start)}</div>'
    body = f'<div class="container">{panels}<div class="panel">{aliases}</div>'
    return body + f'<div class="panel">{pager}<table id="mailbox_table">{rows}</table></div></div>'


def test_a_key_its_links_step_by_a_pages_rows_is_an_offset_whatever_its_name() -> None:
    second = _overview(10, buggy=False)
    (pager,) = offset_pagers(second)
    assert (pager.key, pager.step, pager.here) == ("limit", 10, 10)
    assert pager.previous == f"{BASE}?limit=0&domain=d.example"
    assert pager.following == f"{BASE}?limit=20&domain=d.example"
    first = _overview(0, buggy=False)
    assert [(p.here, p.previous, p.following) for p in offset_pagers(first)] == [
        (0, None, f"{BASE}?limit=10&domain=d.example")
    ]
    assert has_pagination(first)
    # read from the links among themselves on a bare address showing some default list
    bare = _page(BASE, _overview_body(0, buggy=False))
    assert [p.here for p in offset_pagers(bare)] == [None] and has_pagination(bare)


def test_a_page_size_menu_or_a_page_number_is_no_offset_pager() -> None:
    sizes = " ".join(f'<a href="?limit={v}">Show {v} rows</a>' for v in (10, 25, 50, 100))
    assert offset_pagers(_page(f"{BASE}?limit=25", sizes)) == ()
    written = " ".join(f'<a href="?limit={v}">{v}</a>' for v in (10, 20, 30, 40))
    assert offset_pagers(_page(f"{BASE}?limit=20", written)) == ()  # the menu says its sizes
    # a page at the default size beside a menu of sizes: said in its words, or skipping some (no 15)
    said = " ".join(f'<a href="?page_size={v}">{v} items</a>' for v in (5, 10, 15, 20))
    assert offset_pagers(_page(BASE, said)) == ()
    worded = " ".join(
        f'<a href="?page_size={v}">{w}</a>' for v, w in ((5, "Few"), (10, "More"), (20, "Most"))
    )
    assert offset_pagers(_page(BASE, worded)) == ()
    numbers = " ".join(f'<a href="?pg={v}">›</a>' for v in (1, 3, 4))
    assert offset_pagers(_page(f"{BASE}?pg=2", numbers)) == ()  # steps by 1: a page number
    unnamed = " ".join(f'<a href="?at={v}">›</a>' for v in (1, 3, 4))
    assert offset_pagers(_page(f"{BASE}?at=2", unnamed)) == ()  # by 1 under a key of no known name too
    # a windowed pager with a gap keeps its run around the page
    window = " ".join(f'<a href="?pos={v}">»</a>' for v in (0, 25, 50, 75, 225))
    (pager,) = offset_pagers(_page(f"{BASE}?pos=50", window))
    assert (pager.step, pager.previous) == (25, f"{BASE}?pos=25")


def test_the_repeated_row_of_an_offset_pagers_second_page_is_a_duplicate() -> None:
    pages = {p.url: p for p in (_overview(0, True), _overview(10, True), _overview(20, True))}
    pages[f"{BASE}?limit=0&domain=d.example"] = pages[f"{BASE}?domain=d.example"]
    second = pages[f"{BASE}?limit=10&domain=d.example"]
    assert previous_page_url(second) == f"{BASE}?limit=0&domain=d.example"
    (found,) = check_duplicate_pagination(second, pages.__getitem__)
    assert found.evidence["list"].endswith("#mailbox_table")  # the mailbox table, told apart by its id
    clean = {p.url: p for p in (_overview(0, False), _overview(10, False))}
    clean[f"{BASE}?limit=0&domain=d.example"] = clean[f"{BASE}?domain=d.example"]
    # the fixed panels leading both pages (an export button's, the usage line's) are the page's own
    assert check_duplicate_pagination(clean[f"{BASE}?limit=10&domain=d.example"], clean.__getitem__) == []


def _posts(start: int) -> FetchedPage:
    """A blog's list in a layout's rows (`div.row` each), its offset pager's links in a row among them."""
    rows = "".join(
        f'<div class="row"><div class="col"><h3><a href="/post.php?id={n}">Post number {n}</a></h3>'
        f"<p>Words of post {n}.</p></div></div>"
        for n in range(start, start + 10)
    )
    links = " ".join(f'<a href="?limit={v}">p{v // 10 + 1}</a>' for v in (0, 10, 20, 30) if v != start)
    body = f'<div class="container">{rows}<div class="row"><div class="col">{links}</div></div></div>'
    return _page(BASE if start == 0 else f"{BASE}?limit={start}", body)


def test_an_offset_pagers_own_row_among_the_records_is_no_repeated_record() -> None:
    # the row holding the pager's links is the page's frame, not a record: its links (p3, p4) are on
    # both pages of a list paged right
    pages = {p.url: p for p in (_posts(0), _posts(10))}
    pages[f"{BASE}?limit=0"] = pages[BASE]
    second = pages[f"{BASE}?limit=10"]
    assert previous_page_url(second) == f"{BASE}?limit=0"
    assert check_duplicate_pagination(second, pages.__getitem__) == []


def test_a_usage_line_is_a_count_of_the_things_it_names() -> None:
    assert parse_usage("Aliases: 7 / 100") == ("Aliases", 7, 100)
    assert parse_usage("Email Accounts 3/10") == ("Email Accounts", 3, 10)
    for text in (
        "Score: 7 / 10",
        "Status: 3 / 4",
        "12/2020",
        "Disk: 1.2 / 5",
        "Aliases: 120 / 100",
        "Days: 3 / 7",
    ):
        assert parse_usage(text) is None, text


def _domain(aliases_said: int, pager: str = "") -> FetchedPage:
    rows = "".join(f"<tr><td>list{n}@d.example</td><td>x@y</td></tr>" for n in range(3))
    boxes = "".join(f"<tr><td>user{n}@d.example</td></tr>" for n in range(4))
    body = f"<ul><li>Aliases: {aliases_said} / 100</li><li>Mailboxes: 4 / 100</li></ul>{pager}"
    body += f'<table id="admin_table"><tr><th colspan="2">:: Aliases</th></tr><tr><th>Alias</th><th>To</th></tr>{rows}</table>'
    body += f'<table id="mailbox_table"><tr><th>:: Mailboxes</th></tr>{boxes}</table>'
    return _page(f"{BASE}?domain=d.example", body)


def test_a_usage_line_above_the_whole_list_it_names_is_compared() -> None:
    assert [(n.text(), a, b) for n, a, b in usage_mismatches(_domain(7))] == [("Aliases: 7 / 100", 7, 3)]
    assert [f.kind for f in check_count_mismatch(_domain(7))] == ["count_mismatch"]
    assert usage_mismatches(_domain(3)) == [] and check_count_mismatch(_domain(3)) == []
    # a list that pages on is not shown whole: the count may be of every page
    paged = _domain(7, _links([0, 10, 20], 0))
    assert usage_mismatches(paged) == []


def test_the_page_before_the_second_page_without_a_link_back_is_the_list_without_the_key() -> None:
    # a pager that draws only the pages after the first (no `?limit=0`): the first page is the
    # list's address without the key, as an offset key named as one reads (`first_page_of_offset`)
    page = _page(f"{BASE}?limit=10&domain=d.example", _links([20, 30], 10))
    (pager,) = offset_pagers(page)
    assert (pager.key, pager.step, pager.here) == ("limit", 10, 10)
    assert pager.previous == f"{BASE}?domain=d.example"
