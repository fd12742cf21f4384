"""Counts written "Label: N" in a toolbar above a list held in a wrapper, and the pages of that list.

Generic markup: a toolbar (`div.bar`) with a pager and "Total records: N", then a scrolling box
(`div.scroll`) around the table of rows, each row with its show link.
"""

from __future__ import annotations

from bughunt.oracles.counts import check_count_mismatch, parse_count
from bughunt.page import FetchedPage
from bughunt.urls import route_of

from .test_pagination_numbers import Recorder

ORIGIN = "http://rows.test"


def page(path: str, body: str) -> FetchedPage:
    html = f"<!doctype html><html><head><title>t</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


def listing(total: int, ids: range, pager: str = "") -> str:
    rows = "".join(f'<tr><td><a href="/rows/show/{i}">Show</a></td><td>Row {i}</td></tr>' for i in ids)
    return (
        f'<div class="bar">{pager}<div class="right"><strong>Total records:</strong> {total}</div></div>'
        f'<div class="scroll"><table class="table"><thead><tr><th></th><th>Name</th></tr></thead>'
        f"{rows}</table></div>"
    )


def test_a_colon_count_says_it_counts_only_with_a_word_that_counts():
    assert parse_count("Total records: 12") == ("Total records", 12)
    assert parse_count("Record Count: 70") == ("Record Count", 70)
    assert parse_count("Age: 34") is None and parse_count("Year: 2020") is None


def test_a_colon_count_above_a_wrapped_table_is_compared_with_its_rows():
    assert check_count_mismatch(page("/rows/", listing(3, range(1, 4)))) == []
    wrong = check_count_mismatch(page("/rows/", listing(9, range(1, 4))))
    assert [f.kind for f in wrong] == ["count_mismatch"]
    assert wrong[0].evidence["shown"] == 9 and wrong[0].evidence["listed"] == 3


def test_a_later_page_with_only_the_header_row_holds_no_rows():
    pager = '<ul class="pagination"><li class="active"><a href="#">1</a></li><li><a href="/rows/?page=2">2</a></li></ul>'
    first = page("/rows/", listing(9, range(1, 4), pager))
    empty = page("/rows/?page=2", listing(9, range(0), pager.replace('class="active"', "")))
    findings = check_count_mismatch(first, Recorder(empty))
    assert [f.kind for f in findings] == ["count_mismatch"] and findings[0].evidence["listed"] == 3
    full = page("/rows/?page=2", listing(9, range(4, 10), pager.replace('class="active"', "")))
    assert check_count_mismatch(first, Recorder(full)) == []


def test_a_short_texts_count_is_parsed_once_and_a_long_text_is_not_kept():
    from bughunt.oracles.count_labels import KEPT_CHARS, _parse_kept

    _parse_kept.cache_clear()
    assert parse_count("Posts (3)") == parse_count("Posts (3)") == ("Posts", 3)
    assert _parse_kept.cache_info().hits == 1
    long = "Posts " + "x" * KEPT_CHARS + " (3)"
    assert parse_count(long) is None and _parse_kept.cache_info().currsize == 1
