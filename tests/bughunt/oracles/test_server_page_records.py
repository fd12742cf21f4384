"""Applications of one server page per view, the record named in the query (`Display.html?id=7`,
`show.php?id=7`, `view.cgi?id=7`): what the oracles read there (issue 25).

Generic markup, no application's templates: a help desk whose ticket page `/Ticket/Display.html?id=N`
shows the ticket's title as its heading over two boxes side by side (the first, "Basics", links to the
ticket's edit page `/Ticket/Modify.html?id=N`), and a table of other tickets each linked by its number;
a reply form at `/Ticket/Update.html?id=N` (its proposed status a select, the ticket's number a hidden
field); a search whose tickets are drawn on two rows each, one `tbody` a ticket (the linked title row, then a
row of the requester, linked to their profile, and dates), paged by `?Page=N`.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.oracles.forms import check_form_drops_value
from bughunt.oracles.pagination import previous_page_url
from bughunt.page import FetchedPage
from bughunt.urls import route_of
from tests.support.pages import Recorder

ORIGIN = "http://desk.test"
TITLES = {7: "Printer jams on tray two", 8: "Wi-Fi slow in room B", 9: "Badge reader offline"}


def page(path: str, body: str) -> FetchedPage:
    html = f"<!doctype html><html><head><title>Desk</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


def others(n: int) -> str:
    rows = "".join(
        f'<tr><td><a href="/Ticket/Display.html?id={m}">{m}</a></td><td>{TITLES[m]}</td><td>open</td>'
        "<td>IT Support</td><td>Nobody in particular</td></tr>"
        for m in TITLES
        if m != n
    )
    return f"<h2>Other open tickets</h2><table>{rows}</table>"


def display(n: int, *, edit_links: tuple[int, ...] = ()) -> FetchedPage:
    box = (
        f'<div class="box"><div class="box-title"><a href="/Ticket/Modify.html?id={n}">Basics</a></div>'
        "<div>Status: open</div><div>Queue: IT Support</div><div>Estimated: 60 minutes</div></div>"
    )
    people = (
        '<div class="box"><div class="box-title">People</div><div>Owner: Nobody in particular</div></div>'
    )
    more = "".join(f'<a href="/Ticket/Modify.html?id={m}">Edit {m}</a>' for m in edit_links)
    return page(
        f"/Ticket/Display.html?id={n}",
        f'<h1>#{n}: {TITLES[n]}</h1><div class="row">{box}{people}</div>{more}{others(n)}',
    )


def modify(n: int, subject: str) -> FetchedPage:
    return page(
        f"/Ticket/Modify.html?id={n}",
        f'<ul class="tabs"><li><a href="/Ticket/Display.html?id={n}">Display</a></li>'
        f'<li><a href="/Ticket/History.html?id={n}">History</a></li></ul>'
        f'<form method="post" action="Modify.html"><input type="hidden" name="id" value="{n}">'
        f'<label>Subject:</label><input name="Subject" type="text" value="{subject}">'
        '<label>Status:</label><select name="Status"><option value="open" selected>open</option></select>'
        '<label>Estimated:</label><input name="TimeEstimated" type="text" value="60">'
        '<label>Worked:</label><input name="TimeWorked" type="text" value="">'
        '<input type="submit" value="Save Changes"></form>',
    )


def dropped(edit: FetchedPage, *pages: FetchedPage) -> list[str]:
    return [f.evidence["field"] for f in check_form_drops_value(edit, Recorder(*pages))]


def test_an_edit_page_named_with_a_file_suffix_is_compared_with_the_record_page_its_query_names():
    assert dropped(modify(7, ""), display(7)) == ["Subject"]
    assert dropped(modify(7, TITLES[7]), display(7)) == []


def test_a_box_linking_to_the_form_on_a_page_listing_other_records_forms_is_that_records_row():
    # Beside links to other tickets' forms the box is one record's row among others: only the box is
    # compared, and it shows no subject (the page's heading is no value of that row).
    assert dropped(modify(7, ""), display(7, edit_links=(8, 9))) == []


def reply(n: int) -> FetchedPage:
    return page(
        f"/Ticket/Update.html?Action=Comment&id={n}",
        f'<ul class="tabs"><li><a href="/Ticket/Display.html?id={n}">Display</a></li></ul>'
        f'<form method="post" action="Update.html"><input type="hidden" name="id" value="{n}">'
        '<input type="hidden" name="Action" value="Comment">'
        '<label>Status:</label><select name="Status"><option value="resolved" selected>resolved</option></select>'
        '<label>Worked:</label><input name="UpdateTimeWorked" type="text" value="">'
        '<label>Cc:</label><input name="UpdateCc" type="text" value="">'
        f'<label>Subject:</label><input name="UpdateSubject" type="text" value="{TITLES[n]}">'
        '<label>Message:</label><textarea name="UpdateContent"></textarea>'
        '<input type="submit" value="Update Ticket"></form>',
    )


def test_a_reply_forms_empty_fields_are_not_located_by_its_hidden_number_or_chosen_status():
    shown = page(
        "/Ticket/Display.html?id=7",
        f"<h1>#7: {TITLES[7]}</h1><p>resolved</p><p>Medium / Low</p><p>{TITLES[7]}</p>",
    )
    assert dropped(reply(7), shown) == []


def test_a_ticket_number_in_a_table_row_is_no_page_number():
    ticket = display(8)
    assert previous_page_url(ticket) is None
    fetch = Recorder(display(7))
    assert [f.kind for f in ORACLES["duplicate_pagination"](ticket, fetch)] == [] and fetch.asked == []


def search(number: int, tickets: range) -> FetchedPage:
    requesters = ["Zoe Jensen", "Hiro Ivanova", "Vera Garcia"]
    bodies = "".join(
        f'<tbody class="list-item"><tr><td><a href="/Ticket/Display.html?id={t}">{t}</a></td>'
        f'<td><a href="/Ticket/Display.html?id={t}">Ticket {t} subject</a></td><td>open</td></tr>'
        f'<tr><td></td><td><a href="/User/Summary.html?id={t % 3}">{requesters[t % 3]}</a></td>'
        "<td>3 days ago</td><td>2 days ago</td></tr></tbody>"
        for t in tickets
    )
    pager = " ".join(
        f'<a href="/Search/Results.html?Query=open&amp;Page={n}">{n}</a>' if n != number else f"<b>{n}</b>"
        for n in (1, 2, 3)
    )
    # the headings' rows stand bare in the table, as templates write them: the parser gives them a
    # `tbody` of their own
    head = "<tr><th>#</th><th>Subject</th><th>Status</th></tr><tr><th></th><th>Requester</th><th>Created</th></tr>"
    return page(
        f"/Search/Results.html?Query=open&Page={number}",
        f'<h1>Found 9 tickets</h1><table>{head}{bodies}</table><div class="paging">Page {pager}</div>',
    )


def test_records_drawn_on_two_rows_repeat_by_their_own_link_not_by_their_requesters():
    first = search(1, range(1, 4))
    assert [f.kind for f in ORACLES["duplicate_pagination"](search(2, range(4, 7)), Recorder(first))] == []
    repeated = search(2, range(3, 6))
    assert [f.kind for f in ORACLES["duplicate_pagination"](repeated, Recorder(first))] == [
        "duplicate_pagination"
    ]


def test_a_footer_line_closing_both_pages_beside_a_changing_line_is_no_repeat():
    def with_footer(p: FetchedPage, took: str) -> FetchedPage:
        footer = f'<div class="row"><div class="col">time to display: {took}</div><div class="col">Desk Inc.</div></div>'
        return FetchedPage(
            p.url, p.route, 200, {}, "text/html", p.body.replace("</body>", footer + "</body>"), 1.0
        )

    first = with_footer(search(1, range(1, 4)), "0.41")
    second = with_footer(search(2, range(4, 7)), "0.38")
    assert [f.kind for f in ORACLES["duplicate_pagination"](second, Recorder(first))] == []


def test_a_footer_named_so_is_no_list_the_pager_pages():
    # the credits line links the vendor's site: no bare line, but the template names its footer
    def with_footer(p: FetchedPage, took: str) -> FetchedPage:
        footer = (
            f'<div id="footer" class="row"><div class="col">time to display: {took}</div>'
            '<div class="col">Copyright <a href="https://desk.example/about">Desk Inc.</a></div></div>'
        )
        return FetchedPage(
            p.url, p.route, 200, {}, "text/html", p.body.replace("</body>", footer + "</body>"), 1.0
        )

    first = with_footer(search(1, range(1, 4)), "0.41")
    second = with_footer(search(2, range(4, 7)), "0.38")
    assert [f.kind for f in ORACLES["duplicate_pagination"](second, Recorder(first))] == []
