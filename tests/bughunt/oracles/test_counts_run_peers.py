"""A line of a run is one of the run, not a count over the lines after it (a false report on Debian's
gitweb, a clean application nobody here wrote): a diff drawn as one `<div class="diff add">` per line
has a line `+    wait_for_timeout(500)`, read as "Label (500)" over the 13 lines after it — "the
count says 500 but 13 items are listed". A count that labels a flat run stands outside it (a heading over
`<article>`s); an element of the run's own kind is one of its items.

The pages are small diffs of our own, drawn as gitweb draws one.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.page import FetchedPage
from tests.support.pages import Site

_page = Site("http://git.test", "<html><body>", "</body></html>").page


def diff(first: str) -> FetchedPage:
    # a hunk's header and context lines, then the added lines to the end of the file
    lines = [first] + [f"+    line_{n} = {n}" for n in range(13)]
    body = (
        '<div class="page_body"><div class="patch"><div class="diff chunk_header">@@ -1,2 +1,16 @@</div>'
        '<div class="diff ctx"> def test():</div><div class="diff ctx">     page = open()</div>'
        + "".join(f'<div class="diff add">{line}</div>' for line in lines)
    )
    return _page(body + "</div></div>", "/repo.cgi?p=main.git;a=blobdiff;f=x")


def kinds(page: FetchedPage) -> list[str]:
    return [f.kind for f in ORACLES["count_mismatch"](page)]


def test_a_line_of_a_diff_is_no_count_over_the_lines_after_it():
    assert kinds(diff("+    page.wait_for_timeout(500)")) == []


def test_a_heading_over_a_run_still_counts_it():
    body = "<h2>Posts (7)</h2>" + "".join(
        f'<article class="post"><p>Post {n}</p></article>' for n in range(5)
    )
    assert kinds(_page(body, "/posts")) == ["count_mismatch"]
