"""A data browser's filter form redrawn over filtered rows: each applied filter a row of a column select
(the filter's column chosen), an operator select and a value box.

Generic markup, no application's templates: `?author_id=20` (or `?author_id__gt=5`) shows the rows
so chosen under a GET form sending to the page itself, whose first row chooses `author_id` and
whose last row is the empty "add a filter" row.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.oracles.search_echo import check_search_echo
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://data.test"
COLUMNS = ("id", "title", "author_id", "genre_id")


def page(path: str, body: str) -> FetchedPage:
    html = f"<!doctype html><html><head><title>t</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


def select(name: str, chosen: str) -> str:
    options = "".join(f"<option{' selected' if c == chosen else ''}>{c}</option>" for c in COLUMNS)
    return f'<div class="wrap"><select name="{name}"><option value="">- column -</option>{options}</select></div>'


def operators(name: str, chosen: str) -> str:
    ops = (("exact", "="), ("gt", ">"), ("contains", "contains"))
    options = "".join(f'<option value="{k}"{" selected" if k == chosen else ""}>{d}</option>' for k, d in ops)
    return f'<div class="wrap op"><select name="{name}">{options}</select></div>'


def books(column: str, op: str, value: str | None, path: str) -> FetchedPage:
    box = f' value="{value}"' if value is not None else ""
    rows = "".join(
        f'<tr><td><a href="/books/{i}">{i}</a></td><td>Book {i}</td><td>20</td></tr>' for i in (3, 7)
    )
    form = (
        '<form class="filters" action="/books" method="get">'
        f'<div class="row">{select("_col_1", column)}{operators("_op_1", op)}'
        f'<input type="text" name="_val_1" class="value"{box}></div>'
        f'<div class="row">{select("_col", "")}{operators("_op", "exact")}<input type="text" name="_val" class="value"></div>'
        '<div class="row"><input type="submit" value="Apply"></div></form>'
        # an export form carries the query in hidden inputs: nothing a person reads
        f'<form action="/books.csv" method="get"><input type="hidden" name="{column}" value="{value or 20}"></form>'
    )
    return page(
        path, f"<h1>books</h1>{form}<table><tr><th>id</th><th>title</th><th>author_id</th></tr>{rows}</table>"
    )


def test_an_applied_filter_drawn_without_its_value_is_reported():
    dropped = books("author_id", "exact", None, "/books?author_id=20")
    found = ORACLES["form_drops_value"](dropped, None)
    assert [f.kind for f in found] == ["form_drops_value"]
    assert found[0].evidence["column"] == "author_id"
    assert check_search_echo(books("author_id", "gt", "", "/books?author_id__gt=5")) != []


def test_a_filter_row_holding_its_value_and_rows_not_filtered_are_left_alone():
    assert check_search_echo(books("author_id", "exact", "20", "/books?author_id=20")) == []
    assert check_search_echo(books("author_id", "gt", "5", "/books?author_id__gt=5")) == []
    # the page is not filtered by the chosen column (sorted by it), and a page with no query at all
    assert check_search_echo(books("author_id", "exact", None, "/books?_sort=author_id")) == []
    assert check_search_echo(books("", "exact", None, "/books")) == []
