"""Findings on two tenants' pages of one template are one bug (`explorer.tenant_routes`): a budget
app's projects `/demo/` and `/flatmates/` are one word apart in their first segment, which routes
alone never join (`/followers/x`, `/following/x` are two pages) — the places each page links to
below its tenant do. Two kinds, two templates of one tenant pair, or two collections of a CRUD site
stay two bugs."""

from __future__ import annotations

from collections.abc import Callable

from bughunt.explorer.inspection import same_root_cause
from bughunt.explorer.tenant_routes import places_below, tenant_twin
from bughunt.oracles.base import Finding
from tests.bughunt.oracles.test_oracles_root_causes import as_bug

COUNT = "a displayed count disagrees with the number of items in the list it labels"
DEMO = "/demo/?search=Everyone&payer=&date_from="
FLAT = "/flatmates/?search=Todos&payer=&date_from="


def _menu(tenant: str) -> list[str]:
    """A project's page: its menu below the tenant, its records, and the site's own pages."""
    return [
        "/",
        "/create",
        f"/{tenant}/",
        f"/{tenant}/statistics",
        f"/{tenant}/history",
        f"/{tenant}/settle_bills",
        f"/{tenant}/edit",
        f"/{tenant}/members/add",
        f"/{tenant}/bills/12/edit",
        f"/{tenant}/?page=2",
    ]


LINKS = {
    DEMO: _menu("demo"),
    FLAT: _menu("flatmates"),
    "/demo/statistics": _menu("demo"),
    "/flatmates/statistics": _menu("flatmates"),
}


def _count(route: str, message: str = COUNT, kind: str = "count_mismatch") -> Finding:
    return Finding(kind, route, message, {"shown": 52, "listed": 0, "status": 200})


def _links(table: dict[str, list[str]]) -> Callable[[str], list[str]]:
    return lambda route: table.get(route, [])


def test_two_tenants_of_one_template_are_one_bug() -> None:
    first, second = _count(DEMO), _count(FLAT)
    assert first.fingerprint != second.fingerprint  # the routes alone are two pages
    [joined] = same_root_cause([second], [as_bug(first)], links_of=_links(LINKS))
    assert joined.fingerprint == first.fingerprint and joined.route == FLAT
    assert joined.shape.startswith("/<slug>/?")


def test_without_memory_of_links_they_stay_two() -> None:
    first, second = _count(DEMO), _count(FLAT)
    [alone] = same_root_cause([second], [as_bug(first)], links_of=_links({}))
    assert alone.fingerprint == second.fingerprint


def test_two_kinds_on_two_tenants_stay_two_bugs() -> None:
    first = _count(DEMO)
    other = _count(FLAT, "the list repeats an item of the previous page", "duplicate_pagination")
    [alone] = same_root_cause([other], [as_bug(first)], links_of=_links(LINKS))
    assert alone.fingerprint == other.fingerprint


def test_one_kind_on_two_templates_of_two_tenants_stays_two_bugs() -> None:
    first, second = _count(DEMO), _count("/flatmates/statistics")
    [alone] = same_root_cause([second], [as_bug(first)], links_of=_links(LINKS))
    assert alone.fingerprint == second.fingerprint


def test_two_collections_of_a_crud_site_are_no_tenants() -> None:
    # `/users/` and `/groups/` link to their records and one action word: no menu of places.
    crud = {
        "/users/?q=a": ["/users/new", "/users/1", "/users/1/edit", "/users/2", "/users/export"],
        "/groups/?q=b": ["/groups/new", "/groups/1", "/groups/1/edit", "/groups/2", "/groups/export"],
    }
    first, second = _count("/users/?q=a"), _count("/groups/?q=b")
    assert tenant_twin("/users/?q=a", "/groups/?q=b", _links(crud)) is None
    [alone] = same_root_cause([second], [as_bug(first)], links_of=_links(crud))
    assert alone.fingerprint == second.fingerprint


def test_followers_and_following_are_two_pages() -> None:
    pages = {
        "/followers/ana": ["/followers/ana?page=2", "/profile/ana", "/following/ana"],
        "/following/ana": ["/following/ana?page=2", "/profile/ana", "/followers/ana"],
    }
    assert tenant_twin("/followers/ana", "/following/ana", _links(pages)) is None


def test_places_are_plain_words_below_the_tenant() -> None:
    assert places_below("demo", _menu("demo")) == {
        "statistics",
        "history",
        "settle_bills",
        "edit",
        "members",
        "bills",
    }
    assert places_below("demo", _menu("flatmates")) == frozenset()
