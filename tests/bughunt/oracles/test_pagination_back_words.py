"""A list paged by an offset under a key no reading names, whose later page links back in words only.

Generic markup, the way a forum's thread list pages newest first: a table of threads, 25 a page, an
"↓ Older..." link under the first page to `?x=25&n=25` (rows skipped, page size), and on that page one
"↑ Newer..." link back to the bare list — no numbered pager, no link written as a page number, and no
way on from the list's last page.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.oracles.pagination import previous_page_url
from bughunt.page import FetchedPage
from bughunt.urls import route_of
from tests.support.pages import Recorder

ORIGIN = "http://forum.test"


def page(path: str, body: str) -> FetchedPage:
    html = f"<!doctype html><html><head><title>t</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


def threads(ids: range, older: str = "", newer: str = "") -> str:
    rows = "".join(
        f'<tr><td>{i} days ago</td><td><a href="/forumpost/{i:04x}">Thread number {i}</a></td><td>no replies</td></tr>'
        for i in ids
    )
    top = f'<tr><td colspan="3"><a href="{newer}">&uarr; Newer...</a></td></tr>' if newer else ""
    bottom = f'<tr><td colspan="3"><a href="{older}">&darr; Older...</a></td></tr>' if older else ""
    return f"<h1>Threads</h1><table>{top}{rows}{bottom}</table>"


def test_the_link_back_in_words_names_the_page_before():
    second = page("/forum?x=25&n=25", threads(range(26, 31), newer="/forum?n=25"))
    assert previous_page_url(second) == ORIGIN + "/forum?n=25"


def test_a_later_page_repeating_the_last_row_of_the_page_before_is_reported():
    first = page("/forum?n=25", threads(range(1, 26), older="/forum?x=24&n=25"))
    repeated = page("/forum?x=24&n=25", threads(range(25, 31), newer="/forum?n=25"))
    fetch = Recorder(first)
    assert [f.kind for f in ORACLES["duplicate_pagination"](repeated, fetch)] == ["duplicate_pagination"]
    right = page("/forum?x=25&n=25", threads(range(26, 31), newer="/forum?n=25"))
    assert ORACLES["duplicate_pagination"](right, Recorder(first)) == []


def test_a_link_forward_in_words_is_no_way_back():
    other = page("/forum?x=25&n=25", threads(range(26, 31), older="/forum?x=50&n=25"))
    assert previous_page_url(other) is None
