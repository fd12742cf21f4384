"""A menu's filter link with a badge ("Inactive 46" → `?state=inactive`) counts the list it opens: on
that list's own page, which says "1-10 of 11", a badge above the total is a count that disagrees. A
badge below it may count a part (the unread of a folder) and is left alone; a narrower list (another
filter added) or a link whose words name no filter of its address is no claim.

The site is a small job queue of our own: a menu of states with counts, and a job list with its range
line; a mail folder's menu for the part-count case.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.page import FetchedPage
from tests.support.pages import Site

ORIGIN = "http://queue.test"
_page = Site(ORIGIN, "<html><body>", "</body></html>").page


def jobs(badge: int, query: str = "state=inactive", total: int = 11, word: str = "Inactive") -> FetchedPage:
    menu = (
        '<nav><ul class="navbar-nav">'
        f'<li><a class="nav-link" href="/jobs?state=inactive">{word} <span class="badge">{badge}</span></a></li>'
        '<li><a class="nav-link" href="/jobs?state=failed">Failed <span class="badge">2</span></a></li>'
        "</ul></nav>"
    )
    shown = min(total, 10)
    rows = "".join(
        f'<tr><td><a href="/jobs?id={n}">{n}</a></td><td>send_mail</td></tr>' for n in range(shown)
    )
    body = f"{menu}<main><p>1-{shown} of {total}</p><table><tr><th>ID</th><th>Task</th></tr>{rows}</table></main>"
    return _page(body, f"/jobs?{query}")


def kinds(page: FetchedPage) -> list[str]:
    return [f.kind for f in ORACLES["count_mismatch"](page)]


def test_a_badge_above_the_lists_total_on_its_own_page_is_a_count_mismatch():
    assert kinds(jobs(46)) == ["count_mismatch"]


def test_a_badge_that_agrees_is_no_finding():
    assert kinds(jobs(11)) == []


def test_a_badge_below_the_total_may_count_a_part():
    assert kinds(jobs(3)) == []


def test_a_narrower_list_is_another_list():
    assert kinds(jobs(11, query="state=inactive&task=send_mail", total=3)) == []


def test_a_badge_whose_words_name_no_filter_is_no_claim():
    assert kinds(jobs(46, word="Queue")) == []


def test_the_same_list_in_another_page_size_is_judged_on_its_own_address_only():
    assert kinds(jobs(46, query="state=inactive&limit=20")) == []
