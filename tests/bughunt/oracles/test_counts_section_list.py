"""A count label's list found by the page's structure: the one list of repeated items in the label's
own section, whatever stands between them (count_mismatch, `count_sections`).

Generic markup, no application's: a card whose header holds the count and a button, whose body holds
a filter form posting back and then the table; a results section whose count stands under its list.
The label's neighbour shows no list in either, so only the section reading compares them.
"""

from __future__ import annotations

from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://records.test"
NAMES = ("Quarterly report", "Supplier audit", "Office move", "Budget review")


def _page(body: str, path: str = "/records") -> FetchedPage:
    html = f"<!doctype html><html><head><title>Records</title></head><body><main>{body}</main></body></html>"
    url = ORIGIN + path
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def _rows() -> str:
    return "".join(
        f'<tr><td><a href="/records/{i}">{name}</a></td><td>open since day {i}</td></tr>'
        for i, name in enumerate(NAMES, start=1)
    )


def card(shown: int, extra_list: str = "", header_note: str = "") -> FetchedPage:
    form = (
        '<form method="post" action="/records/filter" class="filters">'
        '<input type="hidden" name="csrf" value="x"><label>Status <select name="status">'
        "<option>open</option><option>closed</option></select></label><button>Filter</button></form>"
    )
    return _page(
        f'<div class="card"><div class="card-header"><h2>Records ({shown})</h2>{header_note}'
        '<button type="button">New record</button></div>'
        f'<div class="card-body">{form}<div class="wrap"><table><thead><tr><th>Name</th><th>State</th></tr>'
        f"</thead><tbody>{_rows()}</tbody></table></div>{extra_list}</div></div>"
    )


def footer(shown: int) -> FetchedPage:
    items = "".join(
        f'<li class="hit"><a href="/records/{i}">{n}</a> — filed on day {i}</li>' for i, n in enumerate(NAMES)
    )
    total = f'<p class="total">{shown} results</p>'
    return _page(f'<section class="results"><ul class="hits">{items}</ul>{total}</section>')


def test_a_count_in_a_cards_header_counts_the_table_in_its_body_past_a_filter_form():
    (finding,) = check_count_mismatch(card(5))
    assert finding.evidence["shown"] == 5 and finding.evidence["listed"] == len(NAMES)


def test_a_count_under_its_list_counts_that_list():
    (finding,) = check_count_mismatch(footer(7))
    assert finding.evidence["shown"] == 7 and finding.evidence["listed"] == len(NAMES)


def test_the_right_counts_are_silent():
    assert check_count_mismatch(card(len(NAMES))) == []
    assert check_count_mismatch(footer(len(NAMES))) == []


def test_a_section_holding_two_lists_is_silent():
    # a second list in the card (recent notes): which of the two the count counts is not known
    notes = '<ul class="notes"><li>Moved to the new office</li><li>Audit booked for March</li></ul>'
    assert check_count_mismatch(card(5, extra_list=notes)) == []


def test_a_count_beside_words_of_its_own_is_silent():
    assert check_count_mismatch(card(5, header_note="<p>Archived records are not shown</p>")) == []


def test_a_count_among_other_counts_is_silent():
    # a profile's stats bar: "12 records · 3 followers" sums up several things, not the list below
    stats = '<div class="stats"><span>12 records</span><span>3 followers</span></div>'
    head = f'<div class="head"><h2>alice</h2>{stats}</div><p>Works in accounting.</p>'
    body = f'<div class="profile">{head}<div class="box"><table><tbody>{_rows()}</tbody></table></div></div>'
    assert check_count_mismatch(_page(body)) == []


def test_a_count_inside_a_listed_item_is_silent():
    cards = "".join(
        f'<div class="post"><h3>{n}</h3><p>Some text of the post {i}</p>'
        f'<span class="meta">{i + 3} comments</span></div>'
        for i, n in enumerate(NAMES)
    )
    assert check_count_mismatch(_page(f'<div class="feed">{cards}</div>')) == []


def test_a_small_list_inside_the_one_item_shown_is_silent():
    # "Records (1)" over one record (no list of one) whose tags are a list: the tags are the record's
    record = (
        '<div class="record"><h3><a href="/records/1">Quarterly report</a></h3>'
        "<p>Figures for the third quarter, with the supplier costs broken down by region.</p>"
        '<ul class="tags"><li>finance</li><li>quarterly</li></ul></div>'
    )
    assert check_count_mismatch(_page(f'<div class="main"><h2>Records (1)</h2>{record}</div>')) == []


def test_an_empty_list_in_the_labels_card_is_its_list_not_the_cards_beside_it():
    # a dashboard card "0 reminders" over its own empty list, in a row beside a column of two
    # record cards: the count's section is its card, whose list has no items; the record cards in
    # the next column are another list
    cards = "".join(
        f'<div class="col"><div class="card"><a href="/records/{i}"><h4>{n}</h4></a>'
        f"<p>Opened on day {i} by the office team</p></div></div>"
        for i, n in enumerate(NAMES[:2])
    )
    timer = (
        '<div class="col-4"><div class="card"><div class="card-header"><a href="/reminders">Reminders</a></div>'
        '<div class="card-body"><span><strong>0 reminders</strong></span><div class="text"> </div></div>'
        '<ul class="list-group"></ul></div></div>'
    )
    page = _page(
        f'<div class="row">{timer}<section class="col-8"><div class="row">{cards}</div></section></div>'
    )
    assert check_count_mismatch(page) == []


def test_a_history_of_one_change_counts_the_change_not_the_fields_it_changed():
    # "Change History (1)" over a box holding one change: its own heading ("comment:1 by carol") over
    # the table of the two fields it changed, and the comment; the table is the change's, not the list
    change = (
        '<div class="change"><h3 class="change"><a href="#comment:1">comment:1</a> by carol</h3>'
        '<table class="changes"><tr><th>Resolution:</th><td>fixed</td></tr>'
        "<tr><th>Status:</th><td>new → closed</td></tr></table>"
        '<div class="comment"><p>Seen again on build 112.</p></div></div>'
    )
    page = _page(f'<h3>Change History <span class="count">(1)</span></h3><div id="changelog">{change}</div>')
    assert check_count_mismatch(page) == []


def thread(shown: int, aside: str) -> FetchedPage:
    """A comment thread a script drew into its box: the heading it wrote, a compose box, the comments
    (each with its permalink), and beside the heading what the box held before (`aside`)."""
    comments = "".join(
        f'<div class="comment" id="c-{i}"><div class="head"><b>Ann</b> <a href="#c-{i}">day {i}</a></div>'
        f"<div class='text'><p>{name}: a comment on the post</p></div></div>"
        for i, name in enumerate(NAMES, start=1)
    )
    compose = (
        '<div class="compose"><textarea name="text"></textarea><input type="submit" value="Submit"></div>'
    )
    return _page(
        f'<div id="thread">{aside}<h4>{shown} Comments</h4>{compose}<div id="root">{comments}</div></div>'
    )


def test_a_noscript_note_beside_a_scripts_heading_is_no_words_of_its_own():
    # Its text is shown only where scripts do not run: the heading beside it was drawn by the scripts.
    note = "<noscript>Javascript needs to be activated to view comments.</noscript>"
    (finding,) = check_count_mismatch(thread(9, note))
    assert finding.evidence["shown"] == 9 and finding.evidence["listed"] == len(NAMES)
    assert check_count_mismatch(thread(len(NAMES), note)) == []
    # Words a reader does see beside the count still say it may count something else.
    assert check_count_mismatch(thread(9, "<p>Comments awaiting review are counted too.</p>")) == []
