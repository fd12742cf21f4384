"""One grid's Delete link on two collections is one root cause however deep the framework routes
the collection (`/<app>/<controller>/<table>/delete/<table>/<id>`, as web2py's grid does): the
collection's words are not the template's. A Delete link drawn otherwise stays apart. Pages of our own."""

from __future__ import annotations

from bughunt.explorer.inspection import same_root_cause
from bughunt.oracles.destructive import check_unconfirmed_destructive
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://tools.test"


def _grid(table: str, row: str, label: str = "Delete") -> FetchedPage:
    path = f"/tools/catalogue/{table}"
    rows = "".join(
        f'<tr><td>{row} {n}</td><td><a class="button btn" href="/tools/catalogue/{table}/delete/{row}/{n}'
        f'?_signature=s{n}{row}">{label}</a></td></tr>'
        for n in (1, 2)
    )
    url = ORIGIN + path
    return FetchedPage(
        url, route_of(url), 200, {}, "text/html", f"<html><body><table>{rows}</table></body></html>", 1.0
    )


def test_one_grids_delete_on_two_deep_collections_is_one_root_cause():
    [tools] = check_unconfirmed_destructive(_grid("tools", "tool"))[:1]
    [suppliers] = check_unconfirmed_destructive(_grid("suppliers", "supplier"))[:1]
    assert tools.evidence["control_key"] == suppliers.evidence["control_key"]
    joined = same_root_cause([tools, suppliers], [])
    assert joined[0].fingerprint == joined[1].fingerprint


def test_a_delete_drawn_otherwise_is_another_template():
    [tools] = check_unconfirmed_destructive(_grid("tools", "tool"))[:1]
    [other] = check_unconfirmed_destructive(_grid("suppliers", "supplier", "Remove supplier"))[:1]
    assert tools.evidence["control_key"] != other.evidence["control_key"]
