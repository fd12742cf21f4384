"""An offset pager whose key the framework marks as its own (`?@startwith=3`, as `$skip` or
`start_index` elsewhere) and whose controls are drawn with ASCII arrows ("<< previous", "next >>"):
the page before is the same URL at the smaller offset, and an item it carries over is a repeat.

Generic markup of our own: a tracker's index, one table of tickets with its pager row inside it.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.oracles.reading import is_offset_key
from bughunt.page import FetchedPage
from bughunt.urls import route_of

from .test_pagination_numbers import Recorder

ORIGIN = "http://tracker.test"
TITLES = ["Printer jams", "Login loops", "Slow search", "Broken export", "Typo in help", "Crash on save"]


def index(start: int, size: int = 3, overlap: int = 0) -> FetchedPage:
    rows = "".join(
        f'<tr><td>{n + 1}</td><td><a href="ticket{n + 1}">{TITLES[n]}</a></td><td>open</td></tr>'
        for n in range(start, min(start + size, len(TITLES)))
    )
    back = f'<a href="ticket?@startwith={max(start - size + overlap, 0)}&amp;@pagesize={size}">&lt;&lt; previous</a>'
    on = f'<a href="ticket?@startwith={start + size - overlap}&amp;@pagesize={size}">next &gt;&gt;</a>'
    pager = (
        f'<tr><th colspan="3"><table><tr class="navigation"><th>{back if start else ""}</th>'
        f"<th>{start + 1}..{start + size} out of {len(TITLES)}</th><th>{on}</th></tr></table></th></tr>"
    )
    html = (
        '<html><head><title>Tickets</title></head><body><main><table class="list">'
        f"<tr><th>ID</th><th>Title</th><th>Status</th></tr>{rows}{pager}</table></main></body></html>"
    )
    url = f"{ORIGIN}/ticket?@startwith={start}&@pagesize={size}"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def kinds(page: FetchedPage, previous: FetchedPage) -> list[str]:
    return [f.kind for f in ORACLES["duplicate_pagination"](page, Recorder(previous))]


def test_marked_and_joined_offset_keys_count_rows():
    assert all(is_offset_key(k) for k in ("@startwith", "$skip", "start_index", "offset"))
    assert not any(is_offset_key(k) for k in ("@pagesize", "$top", "sort", "starred"))


def test_the_second_page_repeating_the_last_ticket_of_the_first_is_found():
    # with an overlap of one, page two starts at the third ticket, already on page one
    assert kinds(index(2, overlap=1), index(0)) == ["duplicate_pagination"]


def test_pages_without_overlap_repeat_nothing():
    assert kinds(index(3), index(0)) == []
