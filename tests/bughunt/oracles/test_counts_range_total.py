"""A count heading over a table paged by a script: the table and its pager bar (a range line, icon
buttons) sit in one box right after the heading, and the range line states the list's whole total.
The heading's count is that total, not the rows of one page, so the two totals are compared."""

from __future__ import annotations

import pytest

from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://tasks.test", "<html><head><title>Tasks</title></head><body><main>", "</main></body></html>"
)


def tasks(heading: int, total: int, rows: int = 10) -> FetchedPage:
    body = "".join(
        f"<tr><td>Task {n}</td><td>note {n}</td><td><button>⋮</button></td></tr>" for n in range(rows)
    )
    return SITE.page(
        f'<div class="stack"><h2 class="title">Your tasks ({heading})</h2>'
        '<div class="stack gap"><div class="table-box"><table><thead><tr><th>Title</th><th>Note</th>'
        f"<th>Actions</th></tr></thead><tbody>{body}</tbody></table></div>"
        '<div class="bar"><div class="row"><div class="muted">Showing 1 to '
        f'{rows} of <span class="strong">{total}</span> entries</div>'
        '<div class="row"><p>Rows per page</p><button role="combobox">10</button></div></div>'
        '<div class="row"><span>Page</span><span>1</span><span>of</span><span>4</span>'
        '<div class="row"><button disabled><span class="sr-only">Go to first page</span><svg></svg></button>'
        '<button disabled><span class="sr-only">Go to previous page</span><svg></svg></button>'
        '<button><span class="sr-only">Go to next page</span><svg></svg></button>'
        '<button><span class="sr-only">Go to last page</span><svg></svg></button></div></div></div>'
        "</div></div>",
        "/tasks",
    )


@pytest.mark.parametrize(("heading", "total", "fires"), [(60, 37, True), (37, 37, False), (30, 37, True)])
def test_a_count_over_a_paged_table_is_compared_with_the_total_its_range_line_states(
    heading: int, total: int, fires: bool
) -> None:
    found = check_count_mismatch(tasks(heading, total))
    assert [f.kind for f in found] == (["count_mismatch"] if fires else [])
    if fires:
        assert (found[0].evidence["shown"], found[0].evidence["listed"]) == (heading, total)


def test_a_count_of_the_one_page_shown_agrees_with_its_rows() -> None:
    # a short list: all its rows on the page, the heading counts them
    assert check_count_mismatch(tasks(4, 4, rows=4)) == []
    assert [f.kind for f in check_count_mismatch(tasks(5, 4, rows=4))] == ["count_mismatch"]
