"""A list's bulk-action bar says how many rows are ticked ("0 items selected"), not how many are
listed: on a filtered list of two rows it read as a count of 0 over 2 rows (issue 25; corpus
ho13_aiohttp_admin's clean build once its filter box was typed into). Pages here are made up."""

from __future__ import annotations

from bughunt.oracles.count_labels import parse_count
from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from bughunt.urls import route_of


def listing(label: str) -> FetchedPage:
    rows = "".join(f"<tr><td><input type='checkbox'></td><td>Oak {n}</td><td>Leeds</td></tr>" for n in (1, 2))
    html = (
        f"<html><body><div id='root'><h1>Trees</h1><div class='bulk'><h6>{label}</h6><button>Delete</button></div>"
        f"<table><thead><tr><th></th><th>Name</th><th>Town</th></tr></thead><tbody>{rows}</tbody></table>"
        "</div></body></html>"
    )
    url = "http://app.test/admin#/tree?filter=leeds"
    return FetchedPage(url, route_of(url, hash_routes=True), 200, {}, "text/html", html, 1.0)


def test_a_selection_count_is_no_count_of_the_list() -> None:
    assert parse_count("0 items selected") is None and parse_count("3 rows checked") is None
    assert check_count_mismatch(listing("0 items selected")) == []


def test_a_count_of_the_list_beside_it_is_still_read() -> None:
    assert parse_count("5 items") == ("items", 5)
