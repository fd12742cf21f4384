"""A range line that counts from 0, as its pager's offset does ("Showing 0-19 of 43 jobs" over
twenty rows, `?start=20` the next page): the first page holds last - first + 1 rows, as any other
page; an empty list's "0 to 0 of 0" still says none. Offset-paged dashboards (Rack/Sinatra tools,
admin consoles over redis or a queue) print the offset itself."""

from __future__ import annotations

import pytest

from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://jobs.test", "<html><head><title>Jobs</title></head><body><div id=main>", "</div></body></html>"
)


def jobs(line: str, rows: int, query: str = "") -> FetchedPage:
    body = "".join(
        f"<tr><td class=class>Mailer</td><td class=args>[{n}, 'x{n}']</td></tr>" for n in range(rows)
    )
    pager = (
        "<div class=pagination><span>1</span> <a href='/queues/mail?start=20'>2</a> "
        "<a href='/queues/mail?start=40'>3</a> <a href='/queues/mail?start=20' class=more>Next</a></div>"
    )
    return SITE.page(
        f"<h1>Pending jobs on mail</h1><p class=sub>{line}</p>"
        f"<table class=jobs><tr><th>Class</th><th>Args</th></tr>{body}</table>{pager}",
        "/queues/mail" + query,
    )


@pytest.mark.parametrize(
    ("line", "rows", "fires"),
    [
        ("Showing 0-19 of <b>55</b> jobs", 20, False),  # the first page, counted from 0
        ("Showing 0-19 of <b>55</b> jobs", 12, True),  # says twenty, lists twelve
        ("Showing 1-20 of <b>55</b> jobs", 20, False),  # counted from 1, as before
        ("Showing 0 to 0 of 0 jobs", 0, False),  # an empty list says none
    ],
)
def test_a_range_counted_from_zero_says_last_plus_one_rows(line: str, rows: int, fires: bool) -> None:
    found = check_count_mismatch(jobs(line, rows))
    assert [f.kind for f in found] == (["count_mismatch"] if fires else [])


def test_a_later_page_whose_range_ends_past_its_total_still_contradicts_itself() -> None:
    found = check_count_mismatch(jobs("Showing 40-59 of <b>55</b> jobs", 15, "?start=40"))
    assert [f.kind for f in found] == ["count_mismatch"]
