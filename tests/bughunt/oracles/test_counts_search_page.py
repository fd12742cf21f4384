"""A search's "Page 1 of N results" counts the results listed under the search form redrawn below it.

Generic markup, no application's templates: the results page says what was searched, then "Page 1 of
7 results", then the search form holding the query, a rule, and the table of results in the next
row. "Page 1 of 3" (no word after the number) counts pages, not results.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.oracles.counts import parse_count
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://people.test"


def results(said: int, listed: int) -> FetchedPage:
    rows = "".join(
        f'<tr><td><a href="/people/{n}">tester_{n}</a></td><td>Club {n}</td></tr>' for n in range(listed)
    )
    html = (
        "<!doctype html><html><head><title>People</title></head><body><main>"
        '<div class="row"><div class="col">'
        "<h5>Searching for people with <strong>name</strong> matching <strong>test</strong></h5>"
        f"<h6>Page 1 of {said} results</h6>"
        '<form method="GET"><select name="field"><option selected value="name">Name</option></select>'
        '<input name="q" type="text" value="test"><button type="submit">Search</button></form>'
        '</div></div><hr><div class="row"><div class="col"><table><thead><tr><th>Name</th><th>Club</th>'
        f"</tr></thead><tbody>{rows}</tbody></table></div></div></main></body></html>"
    )
    url = f"{ORIGIN}/people?field=name&q=test"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def test_page_of_n_results_is_a_count_of_results_and_page_of_n_is_not():
    assert parse_count("Page 1 of 7 results") == ("results", 7)
    assert parse_count("Page 1 of 3") is None


def test_a_results_count_above_the_redrawn_search_form_is_compared_with_the_table_below():
    assert [f.kind for f in ORACLES["count_mismatch"](results(7, 5))] == ["count_mismatch"]
    assert ORACLES["count_mismatch"](results(5, 5)) == []
