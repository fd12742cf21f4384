"""A table's column headings, read one way for every reader (`bughunt/oracles/table_heads.py`): the
heading rows leading the table, the last of more than one cell, an empty corner cell among headings,
cells placed by their spans. And the readers that follow them: a count cell's column (`count_targets`),
a record's cell under its field's heading (`form_values`), a table's kind (`explorer.missing_values`).
Made-up tables, generic markup."""

from __future__ import annotations

from bughunt.dom import Node, body_rows, own_rows, parse_html
from bughunt.explorer.missing_values import missing_value_targets
from bughunt.oracles.count_targets import count_cells
from bughunt.oracles.counts import check_count_mismatch
from bughunt.oracles.form_values import headed_row, shown_value
from bughunt.oracles.lists import list_items
from bughunt.oracles.table_heads import column_headings, column_of, columns
from tests.support.pages import Site


def _table(inner: str) -> Node:
    return parse_html(f"<html><body><table>{inner}</table></body></html>").find_all("table")[0]


def _texts(row: Node | None) -> list[str]:
    return [c.text() for c in columns(row) or []] if row is not None else []


_RECORDS = "<tr><td>anna</td><td>3</td></tr><tr><td>bob</td><td>5</td></tr>"


def test_the_column_headings_are_the_last_heading_row_of_several_cells_leading_the_table() -> None:
    # a title row of one cell across the table heads no column
    titled = _table(
        f'<thead><tr><th colspan="2">:: Users</th></tr><tr><th>Name</th><th>Posts</th></tr></thead>{_RECORDS}'
    )
    assert _texts(column_headings(titled)) == ["Name", "Posts"]
    # a footer's heading cells after the records are no column headings
    footed = _table(f"<tr><th>Name</th><th>Posts</th></tr>{_RECORDS}<tr><th>Total</th><th>8</th></tr>")
    assert _texts(column_headings(footed)) == ["Name", "Posts"]
    assert column_headings(_table(f"{_RECORDS}<tr><th>Total</th><th>8</th></tr>")) is None
    # an empty corner cell (a `td` over the rows' names) is one of the headings
    cornered = _table(f"<tr><td></td><th>Posts</th></tr>{_RECORDS}")
    assert _texts(column_headings(cornered)) == ["", "Posts"]
    # a table nested in a cell has headings of its own, not the outer table's
    nested = _table(
        "<tr><td><table><tr><th>A</th><th>B</th></tr></table></td></tr><tr><td>x</td><td>y</td></tr>"
    )
    assert column_headings(nested) is None


def test_cells_are_placed_by_their_spans_and_a_row_spanning_cell_places_none() -> None:
    table = _table('<tr><th colspan="2">Who</th><th>Posts</th></tr><tr><td>a</td><td>b</td><td>3</td></tr>')
    header = column_headings(table)
    assert _texts(header) == ["Who", "Who", "Posts"]
    row = table.find_all("tr")[1]
    assert [column_of(row, c) for c in row.find_all("td")] == [0, 1, 2]
    spanned = _table('<tr><th>Name</th><th>Posts</th></tr><tr><td rowspan="2">a</td><td>3</td></tr>')
    row = spanned.find_all("tr")[1]
    assert column_of(row, row.find_all("td")[1]) is None
    assert columns(_table('<tr><th rowspan="2">Name</th><th>Posts</th></tr>').find_all("tr")[0]) is None


BOARD = Site("http://board.test", "<html><head><title>Board</title></head><body>", "</body></html>")


def test_a_count_cell_under_headings_with_an_empty_corner_is_named_by_its_column() -> None:
    rows = "".join(
        f'<tr><td>{name}</td><td><a href="/issues?t={n}&amp;s=o">{n + 4}</a></td>'
        f'<td><a href="/issues?t={n}&amp;s=c">{n + 1}</a></td></tr>'
        for n, name in ((1, "Bug"), (2, "Feature"))
    )
    page = BOARD.page(f"<table><tr><td></td><th>open</th><th>closed</th></tr>{rows}</table>", "/summary")
    assert [(c.shown, sorted(c.words)) for c in count_cells(page)] == [
        (5, ["bug", "open"]),
        (2, ["bug", "closed"]),
        (6, ["feature", "open"]),
        (3, ["closed", "feature"]),
    ]


def test_a_record_row_is_read_under_the_headings_not_under_a_footer() -> None:
    table = _table(
        "<tr><th>Name</th><th>Posts</th></tr><tr><td>anna</td><td>3</td></tr>"
        "<tr><th>Total</th><th>3</th></tr>"
    )
    row, footer = table.find_all("tr")[1], table.find_all("tr")[2]
    assert headed_row(row) and not headed_row(footer)
    assert shown_value(row, {"name"}, record_item=True) == "anna"
    assert shown_value(row, {"total"}, record_item=True) == ""


def test_a_tables_kind_is_named_by_its_column_headings() -> None:
    # the kind of a row missing a value names its table by the headings, an empty corner among them
    rows = "".join(
        f'<tr><td><a href="/edit?id={n}">edit</a></td><td>Tool {n}</td><td>{"<i>NULL</i>" if n == 3 else f"Sturdy tool {n}"}</td></tr>'
        for n in range(1, 7)
    )
    head = '<tr><th colspan="3">:: Products</th></tr><tr><td></td><th>name</th><th>description</th></tr>'
    page = BOARD.page(f"<table>{head}{rows}</table>", "/products")
    assert missing_value_targets(page) == {"http://board.test/edit?id=3": "3 [2]  | name | description"}


def test_a_tables_own_rows_are_its_heads_and_bodys_not_a_nested_tables() -> None:
    table = _table(
        "<thead><tr><th>Name</th><th>Notes</th></tr></thead><tbody><tr><td>anna</td>"
        "<td><table><tr><td>inner</td></tr></table></td></tr></tbody><tfoot><tr><td>1</td></tr></tfoot>"
    )
    assert [r.text()[:4] for r in own_rows(table)] == ["Name", "anna", "1"]
    assert [r.text()[:4] for r in body_rows(table)] == ["anna", "1"]


def test_a_heading_row_with_an_empty_corner_is_no_record_of_the_list() -> None:
    rows = "".join(f"<tr><td>{name}</td><td>{n}</td></tr>" for n, name in ((4, "Bug"), (7, "Feature")))
    table = f"<table><tr><td></td><th>open</th></tr>{rows}</table>"
    assert [r.text() for r in list_items(_table(table[7:-8])) or []] == ["Bug 4", "Feature 7"]
    assert check_count_mismatch(BOARD.page(f"<h2>Trackers (2)</h2>{table}", "/trackers")) == []
