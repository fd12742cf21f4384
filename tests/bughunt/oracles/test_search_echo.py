"""A search form's results page that draws its box empty dropped the words searched for (issue 25,
`bughunt.oracles.search_echo`): the box's template writes a `value` and writes it empty while the page
answers the box's own words. A box written without a `value` (a header's quick search that clears by
design), a second box holding the words, a page that is not the form's answer, and a number in the
box are no finding.

The site is a small repository browser of our own: a search box on every page sending `?q=` to `/log`.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.page import FetchedPage
from tests.support.pages import Site

ORIGIN = "http://code.test"
_page = Site(ORIGIN, "<html><body>", "</body></html>").page

_ROWS = "<table><tr><td><a href='/rev/1'>Fix the parser</a></td></tr><tr><td><a href='/rev/2'>Add a test</a></td></tr></table>"


def results(box: str, query: str = "q=parser", action: str = "/log", extra: str = "") -> FetchedPage:
    form = f'<form class="search" action="{action}"><p>{box}</p></form>'
    return _page(f"<h1>Search</h1>{form}{extra}{_ROWS}", f"/log?{query}")


def kinds(page: FetchedPage) -> list[str]:
    return [f.kind for f in ORACLES["form_drops_value"](page)]


def test_a_results_page_drawing_its_box_empty_drops_the_words_searched_for():
    found = ORACLES["form_drops_value"](results('<input name="q" type="text" value="" />'))
    assert [f.kind for f in found] == ["form_drops_value"]
    assert found[0].route == "/log?q=parser" and found[0].evidence["field"] == "q"


def test_a_box_holding_the_words_searched_for_is_no_finding():
    assert kinds(results('<input name="q" type="text" value="parser" />')) == []
    # the words as sent (a space becomes `+`), read back decoded
    assert kinds(results('<input name="q" value="fix parser">', query="q=fix+parser")) == []


def test_a_box_written_without_a_value_echoes_nothing_by_design():
    assert kinds(results('<input name="q" type="search">')) == []


def test_a_second_box_holding_the_words_is_where_the_page_shows_them():
    second = '<form action="/log"><input name="q" value="parser"><button>Search</button></form>'
    assert kinds(results('<input name="q" value="">', extra=second)) == []


def test_a_page_that_is_not_the_forms_answer_is_no_finding():
    # the query carries a key the form has no field for, or the form sends elsewhere
    assert kinds(results('<input name="q" value="">', query="q=parser&author=bob")) == []
    assert kinds(results('<input name="q" value="">', action="/search")) == []
    # a form that writes (POST) is an edit form, judged elsewhere
    post = _page('<form method="post" action="/log"><input name="q" value=""></form>', "/log?q=parser")
    assert kinds(post) == []


def test_a_number_in_the_query_is_no_words():
    assert kinds(results('<input name="q" value="">', query="q=42")) == []
