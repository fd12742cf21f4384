"""The record whose row shows a missing value is opened from the list (issue 25,
`bughunt.explorer.missing_values`): a table of 24 products draws row 17's description as a
placeholder in other markup (`<i>NULL</i>`), and that product's edit page breaks on the missing
value (a 500). The walk samples the edit pages in document order and would open rows 1 and 2; a
tester opens the odd row, and so does the walk, right after the list. A table whose rows are all
filled marks nothing, nor does one where most rows miss the value (that is the table's data); the
list's second page showing a kind its first page showed is not wanted again."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from bughunt.cli import main
from bughunt.explorer.facts import PageFacts
from bughunt.explorer.hints import SessionHints
from bughunt.explorer.missing_values import missing_value_targets
from bughunt.page import FetchedPage
from tests.support.loopback import QuietHandler, serving

_NULL = 17
_PRODUCTS = range(1, 25)


def _row(n: int, missing: bool) -> str:
    described = "<i>NULL</i>" if missing else f"Sturdy tool {n}, ships in {n % 5 + 1} days"
    return (
        f'<tr><td><a href="/edit?id={n}" class="edit">edit</a></td><td>{n}</td>'
        f'<td>Tool model {n}</td><td><a href="/categories/{n % 3 + 1}">Kitchen {n % 3 + 1}</a></td>'
        f"<td>{described}</td></tr>"
    )


def _table(missing: set[int]) -> str:
    head = "<thead><tr><th></th><th>id</th><th>name</th><th>category</th><th>description</th></tr></thead>"
    return f"<table>{head}<tbody>{''.join(_row(n, n in missing) for n in _PRODUCTS)}</tbody></table>"


def _page(body: str) -> str:
    nav = '<ul class="menu"><li><a href="/">Home</a></li><li><a href="/products">Products</a></li></ul>'
    return f"<!doctype html><html><head><title>Shop</title></head><body>{nav}{body}</body></html>"


class _Handler(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 — the http.server API
        path, _, query = self.path.partition("?")
        if path == "/":
            body = "<h2>Home</h2><p>Welcome to the shop.</p>"
        elif path == "/products":
            body = "<h2>Products</h2>" + _table({_NULL})
        elif path == "/edit" and query.startswith("id=") and query[3:].isdigit():
            n = int(query[3:])
            if n == _NULL:  # the description trimmed as a string: a NULL is an error
                self.reply(500, "<h1>Internal Server Error</h1>")
                return
            body = f'<h2>Edit product {n}</h2><form method="post"><input name="name" value="Tool model {n}"></form>'
        elif path.startswith("/categories/"):
            body = f"<h2>Category {path[12:]}</h2><p>Tools.</p>"
        else:
            self.send_error(404)
            return
        self.reply(200, _page(body))


@pytest.fixture
def site() -> Iterator[str]:
    with serving(_Handler) as url:
        yield url


def test_the_record_whose_row_misses_a_value_is_opened_from_the_list(site, tmp_path, capsys):
    argv = ["explore", "--url", site + "/", "--store", str(tmp_path / "s"), "--budget", "6"]
    assert main([*argv, "--ignore-robots", "--policy", "planner", "--json"]) in (0, 3)
    out = json.loads(capsys.readouterr().out)
    visited = out["pages_visited"]
    listed = visited.index("/products")
    assert f"/edit?id={_NULL}" in visited[listed + 1 : listed + 3], visited
    assert "server_error" in json.dumps(out["bugs"]), out["bugs"]


def _targets(missing: set[int]) -> set[str]:
    return set(
        missing_value_targets(
            FetchedPage(
                "http://shop.test/products", "/products", 200, {}, "text/html", _page(_table(missing)), 1.0
            )
        )
    )


def test_only_the_own_links_of_one_row_of_each_kind_are_marked() -> None:
    # rows 5 and 9 miss the same column: one of them, its edit link, not its shared category link
    assert _targets({5, 9}) == {"http://shop.test/edit?id=5"}


def test_a_filled_table_or_a_mostly_empty_column_marks_nothing() -> None:
    assert _targets(set()) == set()
    assert _targets(set(range(1, 16))) == set()


def test_a_kind_already_shown_by_the_lists_first_page_is_not_wanted_again_on_its_second() -> None:
    hints = SessionHints()
    first = {"/edit?id=5": "5 [4] id | name", "/edit?id=9": "5 [2] id | name"}
    hints.absorb(PageFacts(own="/products", odd_rows=first))
    hints.absorb(PageFacts(own="/products?page=2", odd_rows={"/edit?id=55": "5 [4] id | name"}))
    assert hints.odd_rows == {"5 [4] id | name": ("/edit?id=5",), "5 [2] id | name": ("/edit?id=9",)}


def test_a_group_heading_in_the_body_is_no_part_of_the_kind() -> None:
    def kinds(group: str) -> set[str]:
        table = _table({5}).replace("<tbody>", f'<tbody><tr><th colspan="5">{group}</th></tr>')
        page = FetchedPage("http://shop.test/p", "/p", 200, {}, "text/html", _page(table), 1.0)
        return set(missing_value_targets(page).values())

    assert kinds("urgent") == kinds("bug") and len(kinds("bug")) == 1
