"""A dashboard's table of lists: each row's first cell links a list's page, one other cell says how
many it holds ("Name | Jobs"). The linked page states its total (its range line), and the two must
agree; a row whose number counts something else than what its page states is not a claim when the
row holds two numbers (which one the page counts is not said)."""

from __future__ import annotations

from bughunt.oracles.count_rows import row_counts, spread
from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from tests.support.pages import Fetcher, Site

SITE = Site(
    "http://jobs.test", "<html><head><title>Jobs</title></head><body><div id=main>", "</div></body></html>"
)

QUEUES = {"alpha": 3, "beta": 0, "gamma": 29, "mail": 55, "reports": 10}


def overview(failed: int, extra_column: str = "") -> FetchedPage:
    rows = "".join(
        f"<tr><td class=queue><a href='/queues/{name}'>{name}</a></td><td class=size>{size}</td>{extra_column}</tr>"
        for name, size in QUEUES.items()
    )
    head = "<th>Name</th><th>Jobs</th>" + ("<th>Workers</th>" if extra_column else "")
    return SITE.page(
        f"<h1>Queues</h1><table class=queues><tr>{head}</tr>{rows}"
        f"<tr class=failure><td class=queue><a href='/failed'>failed</a></td><td class=size>{failed}</td>"
        f"{extra_column}</tr></table>",
        "/overview",
    )


def listing(path: str, total: int) -> FetchedPage:
    shown = min(total, 20)
    rows = "".join(f"<li><dl><dt>Job</dt><dd>job {n}</dd></dl></li>" for n in range(shown))
    line = (
        f"Showing 0-{shown - 1} of <b>{total}</b> jobs"
        if total > 20
        else f"Showing 0 to <b>{total - 1}</b> jobs"
    )
    return SITE.page(f"<h1>Jobs</h1><p class=sub>{line}</p><ul class=jobs>{rows}</ul>", path)


def fetcher() -> Fetcher:
    pages = [listing(f"/queues/{name}", size) for name, size in QUEUES.items() if size]
    return SITE.fetcher(*pages, listing("/failed", 43))


def test_a_rows_count_beside_its_link_is_compared_with_the_linked_pages_total() -> None:
    found = check_count_mismatch(overview(74), fetcher())
    assert [f.kind for f in found] == ["count_mismatch"]
    assert (found[0].evidence["shown"], found[0].evidence["listed"]) == (74, 43)
    assert check_count_mismatch(overview(43), fetcher()) == []


def test_the_row_leading_to_another_kind_of_page_is_read_first_of_its_template() -> None:
    # six rows, three fetches a page: the queue rows are one template, judged on the first
    order = [c.url.removeprefix(SITE.origin) for c in spread(row_counts(overview(74)))]
    assert order[:2] == ["/queues/alpha", "/failed"]


def test_a_row_with_two_numbers_says_no_count_of_its_link() -> None:
    assert row_counts(overview(74, "<td>2</td>")) == []
    assert check_count_mismatch(overview(74, "<td>2</td>"), fetcher()) == []


def test_a_range_line_not_naming_what_the_column_counts_states_no_total() -> None:
    # the linked page pages something else ("of 43" with no noun, or another noun): not compared
    pages = [
        SITE.page(
            f"<h1>Queue</h1><p>Showing 0-2 of <b>{size + 5}</b> {noun}</p><ul><li>a</li><li>b</li><li>c</li></ul>",
            path,
        )
        for path, size, noun in [("/queues/alpha", 3, ""), ("/failed", 43, "workers")]
    ]
    assert check_count_mismatch(overview(43), SITE.fetcher(*pages)) == []


def test_one_summary_table_on_several_pages_is_one_bug_of_the_list_it_counts() -> None:
    # the overview, the queues page and the overview's polling fragment draw one table: one fingerprint
    pages = [overview(74)]
    pages += [
        SITE.page(pages[0].body.split("<div id=main>", 1)[1].split("</div></body>")[0], p)
        for p in ("/queues", "/overview.poll")
    ]
    found = [f for p in pages for f in check_count_mismatch(p, fetcher())]
    assert [f.route for f in found] == ["/overview", "/queues", "/overview.poll"]
    assert (
        len({f.fingerprint for f in found}) == 1 and found[0].evidence["list_url"] == SITE.origin + "/failed"
    )
