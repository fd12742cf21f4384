"""An offset pager that draws its back controls from the page number it computes (`offset / limit + 1`)
draws none on a page whose offset is short of a whole page. Its Next link one row short (`offset +
limit - 1`) leads to such a page, which repeats the first page's last row with no control back: the
page before is the list's first page (the address without the offset) when that page links on to it.
A page at an offset the first page does not link to is compared with nothing.

A row's filter links keep the pager's offset (`?offset=0&queue=mail`): that is a list's address, no
record's, and a page of two rows whose queues differ still names each row by its own `?id=`.

The site is a small job queue of our own: jobs newest first, ten a page, a table row per job with its
task and queue as filter links, the pager under the table.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.oracles.lists import identities
from bughunt.page import FetchedPage, base_url
from tests.support.pages import Recorder, Site

ORIGIN = "http://queue.test"
_page = Site(ORIGIN, "<html><body><main>", "</main></body></html>").page
JOBS = list(range(11, 0, -1))
"""Eleven jobs, newest first: the first page shows 11..2, the second the last one."""
LIMIT = 10


def _queue(job: int) -> str:
    return "mail" if job % 2 else "default"


def _link(offset: int) -> str:
    return f"/jobs?state=inactive&amp;offset={offset}"


def jobs(offset: int | None, next_short: int = 0) -> FetchedPage:
    start = offset or 0
    rows = "".join(
        f'<tr><td><a href="/jobs?id={j}">{j}</a></td>'
        f'<td><a href="/jobs?state=inactive&amp;offset=0&amp;task=send_mail">send_mail</a></td>'
        f'<td><a href="/jobs?state=inactive&amp;offset=0&amp;queue={_queue(j)}">{_queue(j)}</a></td>'
        f"<td>inactive</td></tr>"
        for j in JOBS[start : start + LIMIT]
    )
    page = start // LIMIT + 1
    last = (len(JOBS) + LIMIT - 1) // LIMIT
    back = (
        '<li><a class="page-link">First</a></li><li><a class="page-link">Previous</a></li>'
        if page == 1
        else f'<li><a href="{_link(0)}">First</a></li><li><a href="{_link(max(start - LIMIT, 0))}">Previous</a></li>'
    )
    numbers = "".join(
        f"<li><a>{n}</a></li>" if n == page else f'<li><a href="{_link((n - 1) * LIMIT)}">{n}</a></li>'
        for n in range(1, last + 1)
    )
    on = (
        "<li><a>Next</a></li>"
        if page >= last
        else f'<li><a href="{_link(start + LIMIT - next_short)}">Next</a></li>'
    )
    shown = f"{start + 1}-{min(start + LIMIT, len(JOBS))} of {len(JOBS)}"
    body = (
        f"<p>{shown}</p><table><tr><th>Job ID</th><th>Task</th><th>Queue</th><th>State</th></tr>{rows}</table>"
        f'<nav><ul class="pagination">{back}{numbers}{on}</ul></nav>'
    )
    return _page(body, "/jobs?state=inactive" + ("" if offset is None else f"&offset={offset}"))


def kinds(page: FetchedPage, *served: FetchedPage) -> list[str]:
    return [f.kind for f in ORACLES["duplicate_pagination"](page, Recorder(*served))]


def test_next_one_short_repeats_the_first_pages_last_job_and_is_found():
    first = jobs(None, next_short=1)
    assert kinds(jobs(9, next_short=1), first) == ["duplicate_pagination"]


def test_a_right_next_repeats_nothing():
    assert kinds(jobs(10), jobs(None)) == []


def test_an_offset_the_first_page_does_not_link_to_is_compared_with_nothing():
    # the right pager's first page links on to offset 10 only: offset 9 came from elsewhere
    assert kinds(jobs(9), jobs(None)) == []


def test_filter_links_keeping_the_offset_name_no_job():
    page = jobs(9, next_short=1)
    table = page.document.find_all("table")[0]
    rows = [r for r in table.find_all("tr") if r.find_all("td")]
    assert identities(rows, base_url(page)) == [{f"href:{ORIGIN}/jobs?id=2"}, {f"href:{ORIGIN}/jobs?id=1"}]
