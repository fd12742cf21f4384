"""Findings on two tenants' pages of one template are one bug (`explorer.structure_twins`): a budget
app's projects `/demo/` and `/flatmates/` are one word apart in their first segment, which routes
alone never join (`/followers/x`, `/following/x` are two pages) — memory's structure hashes do."""

from __future__ import annotations

import pytest

from bughunt.explorer.inspection import same_root_cause
from bughunt.explorer.structure_twins import structure_twin
from bughunt.oracles.base import Finding
from tests.bughunt.oracles.test_oracles_root_causes import as_bug

MESSAGE = "a displayed count disagrees with the number of items in the list it labels"
DEMO = "/demo/?search=Everyone&payer=&date_from="
FLAT = "/flatmates/?search=Todos&payer=&date_from="


def _count(route: str, status: int = 200) -> Finding:
    return Finding("count_mismatch", route, MESSAGE, {"shown": 52, "listed": 0, "status": status})


def test_one_template_by_structure_joins_two_tenants_findings() -> None:
    hashes = {DEMO: "bills-list", FLAT: "bills-list"}
    first, second = _count(DEMO), _count(FLAT)
    assert first.fingerprint != second.fingerprint  # the routes alone are two pages
    [joined] = same_root_cause([second], [as_bug(first)], hash_of=hashes.get)
    assert joined.fingerprint == first.fingerprint and joined.route == FLAT
    assert joined.shape == "/<slug>/?search=<v>&payer=&date_from="


@pytest.mark.parametrize(
    ("hashes", "status"),
    [
        ({DEMO: "bills-list", FLAT: "settings-form"}, 200),  # two page types: two bugs
        ({DEMO: "bills-list"}, 200),  # one page never written to memory: nothing known
        ({DEMO: "error", FLAT: "error"}, 500),  # the site's one error page says nothing of the template
    ],
)
def test_pages_of_another_structure_or_error_pages_stay_apart(hashes: dict[str, str], status: int) -> None:
    second = _count(FLAT, status)
    assert same_root_cause([second], [as_bug(_count(DEMO, status))], hash_of=hashes.get) == [second]


def test_twins_differ_in_one_plain_word_and_keep_their_query_keys() -> None:
    same = {
        "/a/x": "h",
        "/b/x": "h",
        "/a/x?q=1": "h",
        "/b/x?r=1": "h",
        "/a/7": "h",
        "/a/new": "h",
        "/a/b/x": "h",
    }
    assert structure_twin("/a/x", "/b/x", same.get) == "/<slug>/x"
    assert structure_twin("/a/x?q=1", "/b/x?r=1", same.get) is None  # other query keys
    assert structure_twin("/a/7", "/a/new", same.get) is None  # a record and a form
    assert structure_twin("/a/x", "/a/b/x", same.get) is None  # another depth
