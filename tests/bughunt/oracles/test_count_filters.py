"""A filter panel's "Paused (12)", clicked, redraws the grid in place: a grid that then holds more rows
than the filter counts is a `count_mismatch` (a filter that lets records through); the same number,
fewer (a paged list), or a click whose label counts nothing, is not (`count_filters`)."""

from __future__ import annotations

from dataclasses import replace

from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage


def _grid(rows: int) -> str:
    body = "".join(
        f'<div class="g-row{" g-row-alt" if n % 2 else ""}"><table><tbody><tr><td>Film {n}</td><td>{n} KiB</td>'
        "</tr></tbody></table></div>"
        for n in range(rows)
    )
    return (
        '<html><body><div class="filters"><dl><dt>All (36)</dt><dt>Paused (12)</dt><dt>Seeding (6)</dt></dl></div>'
        f'<div class="grid"><div class="g-body">{body}</div></div></body></html>'
    )


def _state(before_rows: int, after_rows: int, label: str, extra: str = "") -> FetchedPage:
    before = FetchedPage("http://t.test/", "/", 200, {}, "text/html", _grid(before_rows), 1.0)
    after_html = _grid(after_rows).replace("</body>", extra + "</body>")
    after = FetchedPage("http://t.test/", "/#click-1", 200, {}, "text/html", after_html, 1.0)
    return replace(after, clicked_from=(before, label))


def test_a_filter_that_lists_more_rows_than_it_counts_is_found() -> None:
    (found,) = check_count_mismatch(_state(36, 24, "Paused (12)"))
    assert found.kind == "count_mismatch" and found.evidence["shown"] == 12 and found.evidence["listed"] == 24


def test_a_filter_that_lists_what_it_counts_or_fewer_is_not() -> None:
    assert check_count_mismatch(_state(36, 12, "Paused (12)")) == []
    assert check_count_mismatch(_state(36, 10, "Paused (12)")) == []  # a screenful, or a page
    assert check_count_mismatch(_state(36, 24, "Paused")) == []  # no count in its words
    assert check_count_mismatch(_state(24, 24, "Paused (12)")) == []  # the click redrew nothing
