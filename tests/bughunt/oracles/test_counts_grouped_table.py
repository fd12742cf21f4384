"""A report table grouped under headings that count their rows ("Release 1.0 (3 matches)"): the
first heading stands over the table, the others in rows spanning it; each counts its own group's
rows, not the table's. Made-up tracker report, generic markup."""

from __future__ import annotations

import pytest

from bughunt.oracles.counts import check_count_mismatch, parse_count
from tests.support.pages import Site

SITE = Site(
    "http://tracker.test", "<html><head><title>Report - Tracker</title></head><body>", "</body></html>"
)
COLUMNS = "<tr><th>Ticket</th><th>Summary</th></tr>"
GROUPS = {"Release 1.0": 3, "Release 2.0": 2, "Later": 4}


def heading(name: str, said: int) -> str:
    return f'<h2 class="group"><a href="/milestone/{name}">{name}</a> <span class="n">({said} matches)</span></h2>'


def report(said: dict[str, int]) -> str:
    body, number = "", 0
    for position, (name, rows) in enumerate(GROUPS.items()):
        if position:
            body += f'<tbody><tr class="group"><th colspan="100">{heading(name, said[name])}</th></tr>{COLUMNS}</tbody>'
        else:
            body += f"<thead>{COLUMNS}</thead>"
        cells = ""
        for _ in range(rows):
            number += 1
            cells += f'<tr><td><a href="/ticket/{number}">#{number}</a></td><td>Fix item {number}</td></tr>'
        body += f"<tbody>{cells}</tbody>"
    first = next(iter(GROUPS))
    return SITE.page(
        f'<h1>Open tickets by release</h1>{heading(first, said[first])}<table class="listing">{body}</table>',
        "/report/3",
    )


def test_a_bracketed_count_that_names_what_it_counts_is_a_count():
    assert parse_count("(12 matches)") == ("matches", 12)
    assert parse_count("(1 match)") == ("match", 1)


def test_each_group_heading_counting_its_own_rows_is_silent():
    assert check_count_mismatch(report(dict(GROUPS))) == []


@pytest.mark.parametrize("wrong", ["Release 1.0", "Release 2.0"])
def test_a_group_heading_counting_the_whole_table_is_a_mismatch(wrong: str):
    said = dict(GROUPS) | {wrong: sum(GROUPS.values())}
    (finding,) = check_count_mismatch(report(said))
    assert finding.evidence["shown"] == 9 and finding.evidence["listed"] == GROUPS[wrong]


def test_a_total_over_a_table_whose_group_headings_lead_its_rows_counts_the_table():
    rows = "".join(f"<tr><td>#{n}</td><td>Fix item {n}</td></tr>" for n in range(1, 4))
    page = SITE.page(
        '<h2>Tickets <span>(3 matches)</span></h2><table><tr><th colspan="2">Release 1.0 (3 matches)</th></tr>'
        f"{rows}</table>",
        "/report/4",
    )
    assert check_count_mismatch(page) == []
