"""A state change on a GET is judged on what the page shows, never on when it was loaded: a record's
dump that prints the server's time as an ISO 8601 stamp (`time: 2026-12-05T17:21:23Z`, YAML or JSON
beside the record's fields) ticks by one second between the page and its reload, and those digits are
no count that moved. A filter link whose query reads like an action on the record (`?id=9&task=…`) and
does nothing is no unsafe GET, whenever the reload falls; a link that does move a count by one still is.

The site is a small job queue of our own: one job's page with its task as a filter link, its dump with
the server's clock, and a counter of jobs in the menu.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from bughunt.oracles import ORACLES, OracleConfig
from bughunt.page import FetchedPage
from tests.support.pages import Site

ORIGIN = "http://queue.test"
_page = Site(ORIGIN, "<html><body>", "</body></html>").page


class Queue:
    """Job 9's page; every load is one second later on the server's clock. `retry_moves` makes the
    task link a real state change (it enqueues the job again: the menu's counter moves by one)."""

    def __init__(self, retry_moves: bool = False, stamp: str = "2026-12-05T17:21:{s:02d}Z") -> None:
        self.second = 20
        self.inactive = 11
        self.retry_moves = retry_moves
        self.stamp = stamp

    def job(self) -> FetchedPage:
        self.second += 1
        now = self.stamp.format(s=self.second)
        body = (
            f'<nav><a href="/jobs?state=inactive">Inactive <span class="badge">{self.inactive}</span></a></nav>'
            "<main><table><tr><th>Job ID</th><th>Task</th></tr>"
            '<tr><td><a href="/jobs?id=9">9</a></td>'
            '<td><a href="/jobs?id=9&amp;offset=0&amp;task=send_mail">send_mail</a></td></tr>'
            f"<tr><td colspan=2><pre>---\nid: 9\nstate: finished\ntime: {now}\n</pre></td></tr>"
            "</table></main>"
        )
        return _page(body, "/jobs?id=9")

    def __call__(self, url: str) -> FetchedPage:
        query = parse_qs(urlsplit(url).query)
        if "task" in query and self.retry_moves:
            self.inactive += 1
        return self.job()


def _opened(site: Queue) -> list[str]:
    findings = ORACLES["unconfirmed_destructive"](
        site.job(), site, OracleConfig(allow_destructive=True, opened_destructive={})
    )
    return [f.kind for f in findings]


def test_a_filter_link_beside_the_servers_clock_is_no_unsafe_get():
    assert _opened(Queue()) == []


def test_the_clock_with_fractions_and_an_offset_is_a_clock_too():
    assert _opened(Queue(stamp="2026-12-05 17:21:{s:02d}.250+01:00")) == []


def test_an_age_that_grows_by_one_minute_is_a_clock():
    assert _opened(Queue(stamp="{s} minutes ago")) == []


def test_a_running_jobs_runtime_is_a_clock():
    assert _opened(Queue(stamp="{s} minutes")) == []
    assert _opened(Queue(stamp="runtime {s}m")) == []


def test_a_link_that_moves_a_count_is_still_an_unsafe_get_beside_the_clock():
    assert _opened(Queue(retry_moves=True)) == ["unsafe_get"]
