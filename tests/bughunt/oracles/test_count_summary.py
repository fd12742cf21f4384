"""A line of counts under a table, the table's rows first (`count_summary`): a review tool's list of
changed files closed by "N files changed, N lines added, N lines removed". Pages are made up; issue 25."""

from __future__ import annotations

from bughunt.oracles.count_summary import summary_counts, summary_mismatches
from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from bughunt.urls import route_of

URL = "http://review.test/change/17"


def _page(body: str, url: str = URL) -> FetchedPage:
    html = f"<html><head><title>Change 17</title></head><body><main>{body}</main></body></html>"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def _changes(files: list[str], stated: int) -> str:
    rows = "".join(
        f'<tr><td><a href="/change/17/file/{f}">{f}</a></td><td>3</td>'
        '<td><table><tr><td class="plus"></td><td class="minus"></td></tr></table></td></tr>'
        for f in files
    )
    return (
        f'<table class="changes">{rows}</table><p>{stated} files changed, 9 lines added, 4 lines removed</p>'
    )


def test_a_summary_line_whose_first_count_is_not_the_rows_is_a_mismatch() -> None:
    page = _page(_changes(["a.c", "b.c"], 4))
    ((line, shown, listed),) = summary_mismatches(page)
    assert (line.tag, shown, listed) == ("p", 4, 2)  # the rows of the graph's own table are not rows
    (found,) = check_count_mismatch(page)
    assert (found.evidence["shown"], found.evidence["listed"]) == (4, 2)
    assert check_count_mismatch(_page(_changes(["a.c", "b.c"], 2))) == []


def test_counts_by_kind_that_sum_to_the_rows_agree() -> None:
    rows = "".join(f"<tr><td>case {n}</td><td>{'ok' if n < 3 else 'failed'}</td></tr>" for n in range(4))
    page = _page(f"<table><tr><th>Case</th><th>Result</th></tr>{rows}</table><div>3 passed, 1 failed</div>")
    assert summary_mismatches(page) == []


def test_what_is_no_summary_line() -> None:
    assert summary_counts("4 files changed, 2 insertions, 2 deletions") == [4, 2, 2]
    assert summary_counts("12 files") is None  # one clause: a count label's
    assert summary_counts("3 files, 12 KB") is None  # a measure
    assert summary_counts("Uploaded by Ada, 3 days ago") is None
    assert summary_counts("2 files changed, 1 insertion(+), 1 deletion(-)") == [2, 1, 1]  # git's own
    assert summary_counts("2 files (see below), 1 note") is None


def test_a_summary_over_a_paged_table_counts_more_than_one_page() -> None:
    pager = '<ul class="pagination"><li><a href="?page=1">1</a></li><li><a href="?page=2">2</a></li></ul>'
    page = _page(_changes(["a.c", "b.c"], 30) + pager, f"{URL}?page=1")
    assert summary_mismatches(page) == []
