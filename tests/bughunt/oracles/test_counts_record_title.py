"""A record whose name ends in a number in brackets ("Parser crash (2)") shown as its page's heading,
a table of its properties under it: the page's `<title>` repeats the name, so it is what the page is
called, not a count of the rows after it. Made-up tracker, generic markup."""

from __future__ import annotations

from bughunt.oracles.counts import check_count_mismatch
from tests.support.pages import Site

PROPERTIES = (
    '<table class="properties"><tr><th>Reported by:</th><td>ann</td></tr><tr><th>Owner:</th><td>bob</td></tr>'
    "<tr><th>Priority:</th><td>minor</td></tr><tr><th>Keywords:</th><td>ux</td></tr></table>"
)


def record(title: str, heading: str) -> Site:
    site = Site("http://tracker.test", f"<html><head><title>{title}</title></head><body>", "</body></html>")
    return site.page(
        f'<h1 class="ticket-title"><span class="summary">{heading}</span></h1>{PROPERTIES}', "/issue/4"
    )


def test_a_heading_the_title_repeats_is_the_records_name_not_a_count():
    assert check_count_mismatch(record("#4 (Parser crash (2)) - Tracker", "Parser crash (2)")) == []


def test_a_count_the_title_does_not_repeat_is_still_compared():
    (finding,) = check_count_mismatch(record("Tracker", "Watchers (2)"))
    assert finding.evidence["shown"] == 2 and finding.evidence["listed"] == 4


def test_a_title_naming_the_list_but_not_its_number_keeps_the_count():
    (finding,) = check_count_mismatch(record("Watchers - Tracker", "Watchers (2)"))
    assert finding.evidence["shown"] == 2
