"""A Delete link whose only question is a script's (`onclick="return confirm(…)"`, `data-confirm`)
still sends its GET to anyone without the script — a link prefetcher, a crawler, a browser with
scripts off. It is never suspected on its words; with --allow-destructive it is opened and its effect
decides: a grid that deletes on that GET is reported, one that answers a confirmation page is not.
The sites are small grids of our own."""

from __future__ import annotations

from urllib.parse import urlsplit

from bughunt.oracles import ORACLES, OracleConfig
from bughunt.page import FetchedPage
from tests.support.pages import Site

ORIGIN = "http://grid.test"


_page = Site(ORIGIN, "<html><body><main>", "</main></body></html>").page


class Grid:
    """`/varieties` lists rows with a Delete link guarded by a script's confirm(); `asks`: the GET
    answers a confirmation form (a POST) instead of deleting."""

    def __init__(self, asks: bool) -> None:
        self.asks, self.rows = asks, [1, 2, 3]

    def listing(self) -> FetchedPage:
        rows = "".join(
            f'<tr><td>Variety {n}</td><td><a href="/varieties/delete/{n}" '
            f"onclick=\"return confirm('Delete?')\">Delete</a></td></tr>"
            for n in self.rows
        )
        return _page(f"<table>{rows}</table>", "/varieties")

    def __call__(self, url: str) -> FetchedPage:
        path = urlsplit(url).path
        if path.startswith("/varieties/delete/"):
            if self.asks:
                return _page('<form method="post"><button>Confirm delete</button></form>', path)
            self.rows.remove(int(path.rsplit("/", 1)[1]))
        return self.listing()


def _check(site: Grid, **config: object) -> list:
    return ORACLES["unconfirmed_destructive"](
        site.listing(), site, OracleConfig(opened_destructive={}, **config)
    )


def test_a_delete_that_asks_only_in_a_script_and_deletes_on_get_is_reported_on_its_effect():
    site = Grid(asks=False)
    found = _check(site, allow_destructive=True)
    # one opened (the template's verdict), the other rows' links take it unopened: one root cause
    assert {(f.kind, f.suspected) for f in found} == {("unconfirmed_destructive", False)}
    assert found[0].route == "/varieties/delete/1" and found[0].evidence["observed"] is True
    assert site.rows == [2, 3]


def test_a_delete_that_asks_in_a_script_and_on_a_page_is_cleared():
    site = Grid(asks=True)
    assert _check(site, allow_destructive=True) == []
    assert site.rows == [1, 2, 3]


def test_unopened_it_is_listed_only_for_a_session_that_opens_after_its_walk():
    assert _check(Grid(asks=False)) == []
    listed = _check(Grid(asks=False), defer_opening=True)
    assert {f.suspected for f in listed} == {True} and len(listed) == 3
