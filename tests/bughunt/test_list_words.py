"""A search a tester sends matches something (issue 25, `bughunt.list_words`): the search box of a
list page gets a value the page's list shows in some rows but not all (a status three orders share),
not the made-up "test" that matches nothing, so the filtered list is what the walk sees. Navigation,
values every row shows ("edit"), numbers and dates are never the word; a page with no list keeps
"test"."""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import parse_qsl

import pytest

from bughunt.actions import SAMPLE_WORD, extract_actions
from bughunt.cli import main
from bughunt.dom import parse_html
from bughunt.list_words import list_word
from bughunt.page import FetchedPage
from tests.support.loopback import QuietHandler, serving

_STATUSES = ["new", "paid", "cancelled", "paid", "shipped", "cancelled", "cancelled"]
_ORDERS = range(1, 15)


def _orders(status: str | None) -> str:
    rows = "".join(
        f'<tr><td><a href="/orders/{n}">edit</a></td><td>{n}</td><td>{_STATUSES[n % 7]}</td>'
        f"<td>2025-01-{n:02d}</td></tr>"
        for n in _ORDERS
        if status is None or _STATUSES[n % 7] == status
    )
    return (
        '<form method="get" action="/orders"><input type="search" name="q" value="">'
        '<button type="submit">Search</button></form>'
        f"<table><thead><tr><th></th><th>id</th><th>status</th><th>date</th></tr></thead>{rows}</table>"
    )


def _page(body: str) -> str:
    nav = (
        '<nav><ul><li><a href="/">Home of the shop</a></li><li><a href="/orders">Orders of the shop</a></li>'
        '<li><a href="/help">Help of the shop</a></li></ul></nav>'
    )
    return f"<!doctype html><html><head><title>Shop</title></head><body>{nav}{body}</body></html>"


class _Handler(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 — the http.server API
        path, _, query = self.path.partition("?")
        if path == "/":
            body = "<h2>Home</h2><p>Welcome.</p>"
        elif path == "/orders":
            status = dict(parse_qsl(query)).get("q") or None
            body = f"<h2>Orders</h2>{_orders(status)}"
        elif path == "/help" or (path.startswith("/orders/") and path[8:].isdigit()):
            body = f"<h2>{path}</h2><p>Nothing here yet.</p>"
        else:
            self.send_error(404)
            return
        self.reply(200, _page(body))


@pytest.fixture
def site() -> Iterator[str]:
    with serving(_Handler) as url:
        yield url


def test_the_search_sent_from_a_list_is_a_value_some_of_its_rows_show(site, tmp_path, capsys):
    argv = ["explore", "--url", site + "/", "--store", str(tmp_path / "s"), "--budget", "12"]
    assert main([*argv, "--ignore-robots", "--policy", "planner", "--json"]) in (0, 3)
    visited = json.loads(capsys.readouterr().out)["pages_visited"]
    assert "/orders?q=cancelled" in visited, visited
    assert visited.index("/orders?q=cancelled") < visited.index("/orders?q=test"), visited  # (all rows match)


def test_the_word_is_the_value_most_rows_share_never_navigation_every_row_or_a_number():
    assert list_word(parse_html(_page(_orders(None)))) == "cancelled"
    # a list of items: a word some items hold, not one every item holds
    items = "".join(f'<li class="post"><a href="/p/{n}">Garden hose {n}</a> tagged {t}</li>' for n, t in
                    enumerate(["spring", "autumn", "spring", "winter"]))  # fmt: skip
    assert list_word(parse_html(_page(f"<ul>{items}</ul>"))) == "spring"
    assert list_word(parse_html(_page("<p>No orders yet.</p>"))) is None


def test_a_page_without_a_list_keeps_the_sample_word():
    html = _page('<form method="get" action="/find"><input name="q"><button>Go</button></form>')
    page = FetchedPage("http://shop.test/", "/", 200, {}, "text/html", html, 1.0)
    assert [a.target for a in extract_actions(page) if a.kind == "form"] == [
        f"http://shop.test/find?q={SAMPLE_WORD}"
    ]
