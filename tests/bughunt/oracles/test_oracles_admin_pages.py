"""Rules learnt on an admin site of generated CRUD views (a list with sidebar filters, sort links,
"Showing a to b of n items" and a numbered pager; a details table of "Column | Value" rows; an edit
form whose Cancel goes to the list; a bare text/plain 500). Every page here is an imaginary gadget
shop written for the test, not any application's markup."""

from __future__ import annotations

import pytest

from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.inspection import same_root_cause
from bughunt.oracles import OracleConfig, counts
from bughunt.oracles.counts import check_count_mismatch
from bughunt.oracles.forms import check_form_drops_value
from bughunt.oracles.server_error import check_server_error
from bughunt.page import FetchedPage
from bughunt.planning import TEMPLATE_SAMPLE, planner_strategy
from bughunt.sim.memory import Memory
from bughunt.sim.rng import mulberry32
from bughunt.urls import route_of
from tests.support.pages import Site, open_bug

ORIGIN = "http://shop.test"


SITE = Site(
    ORIGIN, "<html><head><title>Gadgets</title></head><body><div class='wrap'>", "</div></body></html>"
)
page = SITE.page
Fetcher = SITE.fetcher


# --- the list: a table, then a footer with the range line and the pager ---------------------------


def gadgets(path: str, rows: range, first: int, last: int, total: int) -> FetchedPage:
    body = "".join(
        f'<tr><td><a href="/gadgets/view/{n}" title="View">o</a></td><td>{n}</td><td>Gadget {n}</td></tr>'
        for n in rows
    )
    return page(
        '<section class="panel"><div class="scroll"><table class="grid"><thead><tr><th></th><th>Id</th>'
        f"<th>Name</th></tr></thead><tbody>{body}</tbody></table></div>"
        f'<div class="panel-foot"><p class="muted">Showing <b>{first}</b> to <b>{last}</b> of <b>{total}</b>'
        ' gadgets</p><ul class="pages"><li><a href="/gadgets?page=1">1</a></li>'
        '<li><a href="/gadgets?page=2">2</a></li><li><a href="/gadgets?page=3">3</a></li></ul></div>'
        '</section><aside><h3>Colour</h3><ul><li><a href="?colour=red">red</a></li>'
        '<li><a href="?colour=blue">blue</a></li></ul></aside>',
        path,
    )


def test_a_range_line_reads_first_last_and_total() -> None:
    parse_range = counts.parse_range
    assert parse_range("Showing 11 to 20 of 64 items") == (11, 20, 64)
    assert parse_range("1–10 of 57") == (1, 10, 57)
    assert parse_range("Displaying results 1 - 25 of 300") == (1, 25, 300)
    assert parse_range("Chapter 11 to 20 of the book, then more") is None
    assert parse_range("Comments (4)") is None


@pytest.mark.parametrize(
    ("path", "rows", "first", "last", "total", "fires"),
    [
        ("/gadgets?colour=red", range(1, 6), 1, 10, 64, True),  # the filter's 5 rows, the whole count
        ("/gadgets?colour=red&page=2", range(0), 11, 20, 64, True),  # a page past the filtered rows
        ("/gadgets?colour=red", range(1, 6), 1, 5, 5, False),
        ("/gadgets?page=7", range(61, 65), 61, 64, 64, False),  # the last page: the range ends at the total
        ("/gadgets?colour=green", range(0), 1, 0, 0, False),  # nothing found: "1 to 0 of 0"
        ("/gadgets?page=2", range(10, 21), 11, 20, 64, False),  # a row of page 1 again: the pager's bug
    ],
)
def test_a_range_line_is_compared_with_the_rows_under_it(
    path: str, rows: range, first: int, last: int, total: int, fires: bool
) -> None:
    found = check_count_mismatch(gadgets(path, rows, first, last, total))
    assert [f.kind for f in found] == (["count_mismatch"] if fires else [])
    if fires:
        assert found[0].evidence["listed"] == len(rows)


# --- the details table and the edit form ------------------------------------------------------------


def details(released: str) -> FetchedPage:
    return page(
        '<table class="props"><thead><tr><th>Column</th><th>Value</th></tr></thead><tbody>'
        "<tr><td>Id</td><td>7</td></tr><tr><td>Name</td><td>Gadget 7</td></tr>"
        f"<tr><td>Released</td><td>{released}</td></tr></tbody></table>"
        '<a href="/gadgets" class="btn">Go Back</a> <a href="/gadgets/edit/7" class="btn">Edit</a>',
        "/gadgets/view/7",
    )


def editor(released: str) -> FetchedPage:
    return page(
        '<form action="/gadgets/edit/7" method="POST"><div class="row"><label for="name">Name</label>'
        '<input id="name" name="name" type="text" value="Gadget 7"></div>'
        '<div class="row"><label for="released">Released</label>'
        f'<input id="released" name="released" type="text" data-role="datepicker" value="{released}"></div>'
        '<a href="/gadgets" class="btn">Cancel</a><input type="submit" name="save" value="Save"></form>',
        "/gadgets/edit/7",
    )


@pytest.mark.parametrize(("value", "fires"), [("", True), ("2021-03-04", False)])
def test_an_edit_form_is_compared_with_a_table_of_column_and_value_rows(value: str, fires: bool) -> None:
    config = OracleConfig(known_routes=lambda: ["/gadgets", "/gadgets/view/7", "/gadgets/view/8"])
    found = check_form_drops_value(editor(value), Fetcher(details("2021-03-04")), config)
    assert [f.kind for f in found] == (["form_drops_value"] if fires else [])
    if fires:
        assert found[0].evidence["field"] == "released" and found[0].evidence["shown"] == "2021-03-04"


def test_a_two_column_data_table_is_not_read_as_labels() -> None:
    # A list of names and e-mails: "Released" is a gadget's name here, not the label of a value.
    listing = page(
        "<table><tr><td>Released</td><td>ann@mail.test</td></tr><tr><td>Bo</td><td>bo@mail.test</td></tr>"
        "<tr><td>Cy</td><td>cy@mail.test</td></tr></table>",
        "/gadgets/view/7",
    )
    config = OracleConfig(known_routes=lambda: ["/gadgets/view/7"])
    found = check_form_drops_value(editor(""), Fetcher(listing), config)
    assert [f.evidence["shown"] for f in found] in ([], ["ann@mail.test"])


# --- a bare 500 ---------------------------------------------------------------------------------------


def test_a_server_error_in_plain_text_is_a_page_the_oracles_see() -> None:
    engine = HttpEngine(ORIGIN + "/", timeout=1.0, respect_robots=False)
    url = ORIGIN + "/gadgets?page=3"
    bare = FetchedPage(url, route_of(url), 500, {}, "text/plain; charset=utf-8", "", 1.0)
    assert engine.classify("/gadgets?page=3", bare).outcome == "page"
    assert [f.kind for f in check_server_error(bare)] == ["server_error"]
    pdf = FetchedPage(ORIGIN + "/a.pdf", "/a.pdf", 200, {}, "application/pdf", "", 1.0)
    assert engine.classify("/a.pdf", pdf).outcome == "non_html"


# --- one root cause on two lists, each with its own filters ---------------------------------------------


def test_a_count_wrong_on_two_filtered_lists_of_one_template_is_oneopen_bug() -> None:
    def listing(path: str) -> FetchedPage:
        return gadgets(path, range(1, 4), 1, 10, 64)

    [first] = check_count_mismatch(listing("/admin/gadget/list?colour=red"))
    [again] = check_count_mismatch(listing("/admin/maker/list?country=se&page=2"))
    assert first.fingerprint != again.fingerprint
    [merged] = same_root_cause([again], [open_bug(first)])
    assert merged.fingerprint == first.fingerprint
    # one key, two values: two views of one page, not one list filtered two ways
    [tab_a] = check_count_mismatch(listing("/people/ann?tab=likes"))
    [tab_b] = check_count_mismatch(listing("/people/bo?tab=followers"))
    assert same_root_cause([tab_b], [open_bug(tab_a)]) == [tab_b]


# --- the planner: a list's sort and filter keys are views of one page, not page types -----------------


def test_another_view_of_a_well_viewed_list_waits_for_its_records_but_its_next_page_does_not() -> None:
    mem = Memory()
    records = [f"/gadgets/view/{n}" for n in range(1, 6)]
    views = ["/gadgets", "/gadgets?colour=red", "/gadgets?sort=name"]
    for route in views:
        mem.write(route, (*records, *views))
    for route in records[:TEMPLATE_SAMPLE]:
        mem.write(route, ("/gadgets",))
    here = "/gadgets?colour=red"
    links = (*records, "/gadgets?colour=red&sort=name")
    mem.write(here, links)
    chosen = {planner_strategy(here, links, mem, mulberry32(s)) for s in range(1000, 1012)}
    assert chosen <= set(records[TEMPLATE_SAMPLE:]), chosen
    paged = (*links, "/gadgets?colour=red&page=2")
    mem.write(here, paged)
    chosen = {planner_strategy(here, paged, mem, mulberry32(s)) for s in range(1000, 1012)}
    assert chosen == {"/gadgets?colour=red&page=2"}


# --- a single-page admin: a create form with defaults, a "Remove" control that is a script's --------


def test_a_form_that_makes_a_record_drops_nothing() -> None:
    add = page(
        '<form><label>Name</label><input name="name" type="text" value="">'
        '<label>Currency</label><input name="currency" type="text" value="EUR">'
        '<label>Rating</label><input name="rating" type="number" value="0"><button>Create</button></form>',
        "/#/gadget/add/",
    )
    home = page("<h1>Welcome</h1><p class='name'>Gadget 7</p><p>EUR</p>", "/")
    config = OracleConfig(known_routes=lambda: ["/"], linked_from=lambda route: ["/"], loaded=lambda r: True)
    assert check_form_drops_value(add, Fetcher(home), config) == []


def test_a_remove_control_that_goes_nowhere_is_no_get_that_destroys() -> None:
    from bughunt.oracles.destructive import check_unconfirmed_destructive

    widget = page(
        '<div class="tags"><span>red</span><a href="#" title="Remove" class="remove"><svg></svg></a></div>',
        "/#/gadget/7/",
    )
    assert check_unconfirmed_destructive(widget) == []
    linked = page('<a href="/gadget/7/remove">Remove</a>', "/gadget/7")
    assert [f.kind for f in check_unconfirmed_destructive(linked)] == ["unconfirmed_destructive"]


# --- a record's row in a list: its values stand under the column headings ----------------------------


def bookings(start: str) -> FetchedPage:
    return page(
        "<table><thead><tr><th></th><th>Booked By</th><th>Start Date</th><th></th></tr></thead><tbody>"
        '<tr><td><input type="checkbox"></td><td><a href="/#/booking/1/">ann_63</a></td>'
        f'<td><span>{start}</span></td><td><a href="#">Menu</a></td></tr>'
        '<tr><td><input type="checkbox"></td><td><a href="/#/booking/2/">bo_12</a></td>'
        "<td><span>2022-02-22</span></td><td><a href='#'>Menu</a></td></tr></tbody></table>",
        "/#/booking/",
    )


def booking_form(start: str) -> FetchedPage:
    return page(
        '<form><label>Booked By</label><input name="booked_by" type="text" value="ann_63">'
        '<label>Note</label><input name="note" type="text" value="window seat">'
        f'<label>Start Date</label><input name="start_date" type="date" value="{start}">'
        "<button>Save</button></form>",
        "/#/booking/1/",
    )


@pytest.mark.parametrize(("value", "fires"), [("", True), ("2022-01-20", False)])
def test_a_form_reached_from_a_list_is_compared_with_the_cell_under_its_fields_heading(
    value: str, fires: bool
) -> None:
    config = OracleConfig(linked_from=lambda route: ["/#/booking/"], loaded=lambda route: True)
    found = check_form_drops_value(booking_form(value), Fetcher(bookings("2022-01-20")), config)
    assert [f.kind for f in found] == (["form_drops_value"] if fires else [])
    if fires:
        assert found[0].evidence["field"] == "start_date" and found[0].evidence["shown"] == "2022-01-20"


def test_links_in_a_fields_label_and_script_controls_in_the_form_are_not_the_record_it_edits() -> None:
    # A foreign key's "add" and "edit" buttons (in its label, opening a new tab) lead to the related
    # record, and `href="#"` (a dropdown) resolves to the app's root: none of them shows the booking.
    form = page(
        '<form><label>Booked By</label><input name="booked_by" type="text" value="ann_63">'
        '<label>Show <a href="#/show/add/" target="_blank">+</a><a href="#/show/1/" target="_blank">'
        '<svg aria-hidden="true"></svg></a></label><input type="text" value="Hamlet">'
        '<input type="hidden" name="show" value="1"><a href="#">Pick</a>'
        '<label>Start Date</label><input name="start_date" type="date" value="">'
        "<button>Save</button></form>",
        "/#/booking/1/",
    )
    show = page(
        "<h1>Hamlet</h1><form><input name='title' value='Hamlet'><button>Save</button></form>", "/#/show/1/"
    )
    config = OracleConfig(linked_from=lambda route: ["/#/booking/"], loaded=lambda route: True)
    fetcher = Fetcher(bookings("2022-01-20"), show, page("<h1>Home</h1>", "/"))
    found = check_form_drops_value(form, fetcher, config)
    assert [f.kind for f in found] == ["form_drops_value"]
    assert found[0].evidence["resource_url"] == ORIGIN + "/#/booking/"


# --- a form a single-page app sends itself is no GET to navigate to -----------------------------------


def test_a_form_without_method_or_action_that_a_script_sends_is_not_submitted_as_a_get() -> None:
    from bughunt.actions import extract_actions

    editor_page = page(
        '<form><input name="name" value="Ann"><input name="city" value="Oslo"><button>Save</button></form>'
        '<form action="/search"><input name="q"><button>Go</button></form>'
        "<form><input name='q'><button>Find</button></form>",
        "/people/7",
    )
    forms = [a.target for a in extract_actions(editor_page) if a.kind == "form"]
    assert len(forms) == 2 and not any("city=" in t for t in forms)


def test_a_one_field_form_without_action_on_a_hash_routed_page_is_not_submitted_as_a_get() -> None:
    from bughunt.actions import extract_actions

    body = "<form><input name='date' type='date'><button>Download</button></form>"
    routed = [a for a in extract_actions(page(body, "/#/forms/schedule/")) if a.kind == "form"]
    plain = [a for a in extract_actions(page(body, "/schedule")) if a.kind == "form"]
    assert routed == [] and len(plain) == 1
