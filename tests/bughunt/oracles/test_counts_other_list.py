"""A count that another list on the page holds exactly is that list's count: a report's heading
"(53 matches)" over its description's two bullets, a preferences form, then its table of rows is no
count_mismatch; the same heading over a table of fewer rows, with no list of that size, still is.
Made-up report page, generic markup."""

from __future__ import annotations

from bughunt.oracles.counts import check_count_mismatch
from tests.support.pages import Site

SITE = Site("http://reports.test", "<html><head><title>Report 1</title></head><body>", "</body></html>")


def report(rows: int) -> str:
    body = "".join(
        f'<tr><td><a href="/ticket/{n}">#{n}</a></td><td>Issue {n}</td></tr>' for n in range(1, rows + 1)
    )
    return (
        '<div id="content"><h1>{1} Active tickets <span class="numrows">(7 matches)</span></h1>'
        '<form method="get" action="/report/1"><label>Max items per page <input name="max" value="100">'
        '</label><input type="submit" value="Update"></form>'
        '<div id="description"><ul><li>List all active tickets by priority.</li>'
        "<li>Color each row based on priority.</li></ul></div>"
        f'<table class="listing"><thead><tr><th>Ticket</th><th>Summary</th></tr></thead><tbody>{body}</tbody>'
        "</table></div>"
    )


def test_a_count_that_the_pages_table_holds_is_not_the_descriptions_count():
    assert check_count_mismatch(SITE.page(report(7), "/report/1")) == []


def test_a_count_no_list_on_the_page_holds_is_still_reported():
    (finding,) = check_count_mismatch(SITE.page(report(5), "/report/1"))
    assert finding.kind == "count_mismatch"


def test_a_count_over_a_list_of_records_is_judged_even_when_a_menu_holds_that_many():
    menu = "".join(
        f'<li><a href="/view/{v}">{v}</a></li>' for v in ("Board", "List", "Calendar", "Gantt", "Files")
    )
    tasks = "".join(f'<div class="task"><a href="/task/{n}">Task {n}</a></div>' for n in range(1, 5))
    page = SITE.page(
        f'<ul class="views">{menu}</ul><h2>5 tasks</h2><div class="tasks">{tasks}</div>', "/list/10"
    )
    (finding,) = check_count_mismatch(page)
    assert finding.evidence["shown"] == 5 and finding.evidence["listed"] == 4
