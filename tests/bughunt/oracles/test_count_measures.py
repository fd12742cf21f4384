"""A number with a unit of measure is a quantity, not the length of a list.

Generic markup: a record's page opens with its name and its size in a tooltip span ("(800 bytes)"),
then a list of its facts — the size says how big the record is, not how many facts are listed.
"""

from __future__ import annotations

import pytest

from bughunt.oracles.counts import check_count_mismatch, parse_count
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://files.test"


def page(path: str, body: str) -> FetchedPage:
    html = f"<!doctype html><html><head><title>t</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


def record(quantity: str, facts: int = 8) -> str:
    items = "".join(f"<li><span>Fact {i}:</span> <span>value {i}</span></li>" for i in range(facts))
    return (
        f'<p>Info for <code><a href="/files/get?name=a.zip">a.zip</a></code>:'
        f' (<span title="{quantity}">{quantity}</span>)</p><ul class="facts">{items}</ul>'
    )


@pytest.mark.parametrize("quantity", ["800 bytes", "1 byte", "640 KiB", "12 MiB", "3 TB", "40 km", "75 kg"])
def test_a_number_with_a_unit_of_measure_is_no_count(quantity: str) -> None:
    assert parse_count(quantity) is None
    assert check_count_mismatch(page("/files/info?name=a.zip", record(quantity))) == []


def test_a_count_of_things_in_the_same_place_is_still_compared() -> None:
    # the same markup with a count of items: the list under it is what it counts
    wrong = check_count_mismatch(page("/files/info?name=a.zip", record("9 facts")))
    assert [f.kind for f in wrong] == ["count_mismatch"]
    assert wrong[0].evidence["shown"] == 9 and wrong[0].evidence["listed"] == 8
