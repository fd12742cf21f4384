"""A count over a table whose records are interleaved with date dividers and closed by an empty row.

Generic markup, the way a timeline or an activity log draws its rows: a heading "N events by user
carol", then one table where a row of another class holds only the day's date in its first cell (the
other cells empty) before that day's records, each record a time link, an empty graph cell and the
entry's text; a last row of empty cells closes the table.
"""

from __future__ import annotations

from bughunt.oracles.counts import check_count_mismatch
from bughunt.oracles.lists import list_items
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://log.test"


def page(body: str, path: str = "/timeline?u=carol") -> FetchedPage:
    html = f"<!doctype html><html><head><title>t</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


def timeline(stated: int, days: dict[str, int]) -> str:
    rows = []
    n = 0
    for day, count in days.items():
        rows.append(f'<tr class="dateRow"><td><div class="divider">{day}</div></td><td></td><td></td></tr>')
        for _ in range(count):
            n += 1
            rows.append(
                f'<tr><td class="time"><a href="/timeline?c={n:04x}">1{n % 10}:00</a></td><td class="graph"></td>'
                f'<td class="comment">Entry {n}: changed the parser (user: carol)</td></tr>'
            )
    rows.append('<tr class="bottom"><td></td><td></td><td></td></tr>')
    return f'<h2>{stated} events by user carol</h2><table class="timeline">{"".join(rows)}</table>'


def test_date_rows_and_the_closing_row_are_not_records():
    doc = page(timeline(7, {"2021-03-05": 3, "2021-03-04": 4})).document
    table = doc.find_all("table")[0]
    items = list_items(table)
    assert items is not None and len(items) == 7
    assert all("dateRow" not in r.classes and "bottom" not in r.classes for r in items)


def test_a_count_over_dated_records_is_compared_with_the_records():
    assert check_count_mismatch(page(timeline(7, {"2021-03-05": 3, "2021-03-04": 4}))) == []
    wrong = check_count_mismatch(page(timeline(5, {"2021-03-05": 3, "2021-03-04": 4})))
    assert len(wrong) == 1 and wrong[0].kind == "count_mismatch"


def test_a_record_with_empty_cells_drawn_like_the_others_stays_a_record():
    rows = "".join(
        f"<tr><td>Member {i}</td><td>{'' if i == 2 else f'member{i}@example.com'}</td></tr>"
        for i in range(1, 4)
    )
    table = page(f"<h2>3 members</h2><table>{rows}</table>").document.find_all("table")[0]
    assert len(list_items(table) or []) == 3
