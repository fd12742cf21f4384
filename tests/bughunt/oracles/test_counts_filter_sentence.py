"""A sentence above a filtered list saying how many records match ("N bills match your filters"), over
a list drawn empty: an empty-state card whose icon is an inline SVG carrying its drawing tool's
`<metadata>`, a heading saying there is nothing, and a link offering to add the first record.

Generic markup in the shape a Bootstrap template draws a filtered list that matched nothing.
"""

from __future__ import annotations

from bughunt.dom import parse_html
from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://bills.test"
ICON = (
    '<i class="icon"><svg width="22pt" viewBox="0 0 22 32"><metadata>Created by potrace 1.14, written by'
    ' Peter Selinger 2001-2017</metadata><g><path d="M1 1 l2 2z"/></g></svg></i>'
)


def page(body: str, path: str = "/project/?search=rent") -> FetchedPage:
    html = f"<!doctype html><html><head><title>t</title></head><body><main>{body}</main></body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


def empty_state(offer: str = '<a href="/project/add">Add your first bill</a>') -> str:
    return (
        f'<div class="py-3 empty"><div class="card"><div class="card-body">{ICON}'
        f"<h3>No bills</h3><p>Nothing to list yet.<br>{offer}</p></div></div></div>"
    )


def test_an_icons_drawing_credits_are_no_text():
    assert parse_html(f"<p>{ICON}No bills</p>").find_all("p")[0].text() == "No bills"


def test_a_count_of_matches_over_a_list_drawn_empty_is_a_mismatch():
    found = check_count_mismatch(page(f'<p class="muted">237 bills match your filters</p>{empty_state()}'))
    assert [f.kind for f in found] == ["count_mismatch"]
    assert found[0].evidence["shown"] == 237 and found[0].evidence["listed"] == 0


def test_the_offer_to_add_the_first_one_is_read_by_its_address_in_any_language():
    # the page drawn in Czech (the language a session chose): "No bills. Nothing to list yet. Add..."
    czech = empty_state('<a href="/project/add">Přidat svůj první účet</a>').replace("No bills", "Žádné účty")
    czech = czech.replace("Nothing to list yet.", "Zatím nic k výpisu.")
    found = check_count_mismatch(page(f"<p>52 bills match your filters</p>{czech}"))
    assert [f.evidence["listed"] for f in found] == [0]


def test_an_empty_state_linking_elsewhere_is_not_read_as_empty():
    # a link that is not the offer to make the first one (a record's own link) keeps the reading off
    other = empty_state('<a href="/project/bills/3">See bill 3</a>')
    assert check_count_mismatch(page(f"<p>2 bills match your filters</p>{other}")) == []
