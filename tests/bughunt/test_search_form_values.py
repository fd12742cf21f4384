"""A GET search form with filters is sent as a person searches, and a form's ticked boxes are values.

Generic markup, no application's templates: a bills list's filter form holds a search box, a payer
select, two dates and two amount boxes. Every field filled at once (a one-day date range, "test" as a
minimum amount) matched nothing or was refused with a 500, so no list of results was ever seen; the
results page redraws the form with the query in the box, and the next empty box is a filter, not the
search. A record's edit form ticks the boxes of that record's values: which ones is data, not the
page's structure (each record was a structure of its own and its template never saturated).
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

from bughunt.actions import form_submission
from bughunt.dom import parse_html, structure_hash

FILTERS = (
    '<form method="GET" action="/bills/">'
    '<label for="search">Search</label><input type="text" id="search" name="search" value="{query}">'
    '<select id="payer" name="payer"><option value="">Any payer</option><option value="1">Ann</option></select>'
    '<input type="date" name="date_from" value=""><input type="date" name="date_to" value="">'
    '<input type="text" name="amount_min" placeholder="Min cost" value="">'
    '<input type="number" name="rows" value="" required>'
    '<button type="submit">Filter</button></form>'
)


def sent(html: str) -> dict[str, str]:
    form = parse_html(html).find_all("form")[0]
    return dict(
        parse_qsl(urlsplit(form_submission(form, "http://bills.test/bills/")).query, keep_blank_values=True)
    )


def test_a_filter_form_is_sent_with_the_search_typed_and_the_filters_left_empty():
    assert sent(FILTERS.format(query="")) == {
        "search": "test", "payer": "", "date_from": "", "date_to": "", "amount_min": "", "rows": "1",
    }  # fmt: skip


def test_the_results_page_redraws_the_query_and_its_filters_stay_empty():
    assert sent(FILTERS.format(query="test"))["amount_min"] == ""


def test_a_form_of_one_box_or_of_filters_alone_is_filled_as_before():
    assert sent('<form><input name="q"></form>') == {"q": "test"}
    dates = sent('<form><input type="date" name="from"><input type="date" name="to"></form>')
    assert dates == {"from": "2024-01-01", "to": "2024-01-01"}


def test_which_boxes_a_record_ticks_is_no_part_of_the_pages_structure():
    box = '<label><input type="checkbox" name="owes" value="{n}"{on}> {n}</label>'
    one = "".join(box.format(n=n, on=" checked" if n == 1 else "") for n in range(1, 4))
    every = "".join(box.format(n=n, on=" checked") for n in range(1, 4))
    select = '<select name="kind"><option{a}>Expense</option><option{b}>Refund</option></select>'
    first = f"<form>{one}{select.format(a=' selected', b='')}</form>"
    second = f"<form>{every}{select.format(a='', b=' selected')}</form>"
    assert structure_hash(parse_html(first)) == structure_hash(parse_html(second))
