"""A count in a list's header bar, beside the bar's controls, counts the rows after the bar
(count_mismatch).

Generic markup: a `div.list` holding a header bar (the count "N tasks", "Select all / none" links, an
actions menu, a sort menu) and then the rows, one `div.row` each, with no element of their own around
them. The bar's controls are no list the count labels; the rows after the bar are.
"""

from __future__ import annotations

from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://board.test"
TASKS = ("Fix footer links", "Review pricing table", "Write release notes", "Test checkout flow")


def page(shown: int, bar_note: str = "") -> FetchedPage:
    rows = "".join(
        f'<div class="row"><span class="title"><a href="/task/{i}">{title}</a></span>'
        f'<div class="details">P{i % 3} · REF-{100 + i}</div></div>'
        for i, title in enumerate(TASKS, start=1)
    )
    bar = (
        f'<div class="list-header"><div class="count">{shown} tasks</div>'
        '<div class="links"><a href="#">Select All</a> / <a href="#">Unselect All</a></div>'
        '<div class="actions">- <div class="dropdown"><a href="#"><strong>Apply action</strong></a>'
        '<ul><li><a href="/tasks/bulk/move">Move selected tasks</a></li></ul></div></div>'
        f'<div class="menu"><a href="/list?order=title">Sort</a></div>{bar_note}</div>'
    )
    html = (
        "<!doctype html><html><head><title>List</title></head><body><main>"
        f'<div class="list">{bar}{rows}</div></main></body></html>'
    )
    url = ORIGIN + "/list/3"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def test_a_count_beside_the_bars_controls_is_compared_with_the_rows_after_the_bar():
    (finding,) = check_count_mismatch(page(5))
    assert finding.evidence["shown"] == 5 and finding.evidence["listed"] == len(TASKS)


def test_the_right_count_is_silent():
    assert check_count_mismatch(page(len(TASKS))) == []


def test_a_count_beside_words_of_its_own_is_not_carried_past_them():
    # the bar says more than its controls: what the count counts is not known to be the rows
    assert check_count_mismatch(page(5, '<p class="note">Closed tasks are hidden here</p>')) == []
