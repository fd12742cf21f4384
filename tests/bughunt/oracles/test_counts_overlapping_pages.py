"""A count over a list whose pager overlaps its pages (`bughunt/oracles/count_pages.py`, `_distinct`): an
admin's tree of nodes says "Nodes (5)" over two pages of three rows, the second starting with the last
row of the first (the pager's own bug, reported by the pagination oracle). Five distinct rows: the
count is right, even though the root row has no identity of its own ("1 Trunk", its id and name, reads
like a count). Made-up admin, generic markup."""

from __future__ import annotations

import pytest

from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from tests.support.pages import Site

ADMIN = Site("http://admin.test", "<html><head><title>Admin</title></head><body>", "</body></html>")

NODES = [("1", "Trunk", ""), *((str(n), f"Leaf {n}", "Branch 1") for n in range(2, 6))]
"""Id, name, parent: the root row reads "1 Trunk", like a count of trunks, and so has no identity."""


def page(number: int, rows: list[tuple[str, str, str]], count: int) -> FetchedPage:
    body = "".join(f"<tr><td>{n}</td><td>{name}</td><td>{parent}</td></tr>" for n, name, parent in rows)
    pager = '<ul class="pagination"><li><a href="/nodes/?page=0">1</a></li><li><a href="/nodes/?page=1">2</a></li></ul>'
    return ADMIN.page(
        f"<h2>Nodes ({count})</h2><table><thead><tr><th>Id</th><th>Name</th><th>Parent</th></tr></thead>"
        f"<tbody>{body}</tbody></table>{pager}",
        "/nodes/" if number == 0 else f"/nodes/?page={number}",
    )


@pytest.mark.parametrize(("count", "fires"), [(5, False), (7, True)])
def test_a_row_repeated_over_two_pages_is_counted_once(count: int, fires: bool) -> None:
    first = page(0, NODES[:3], count)
    second = page(1, NODES[2:], count)  # starts with the first page's last row
    found = check_count_mismatch(first, ADMIN.fetcher(second, page(0, NODES[:3], count)))
    assert bool(found) is fires
