"""Edit forms of framework grids, admin tools and forums, compared with the page that shows the record.

Layouts the form oracle missed (corpus sets 7-9, session 21): a grid whose `/items/1` (the edit URL
without its edit segment) answers the list's empty frame while the record's "Details" page draws its
values in a read-only form; a select left with no option chosen beside a notes text area that
mentions the stored category; a forum topic whose one post shows its subject as the heading over its
message, the edit form's label saying "Subject (Required)" and the post's actions a list of links; a
database admin's row list under a header whose first cell is a select-all checkbox, the edit link
written `where[id]=1` and the form's fields named `fields[email]` beside `function[email]` menus.
Made-up sites, generic markup.
"""

from __future__ import annotations

from dataclasses import replace

from bughunt.oracles.base import DEFAULT_CONFIG, OracleConfig
from bughunt.oracles.form_urls import creates
from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://seeds.test",
    '<html><head><title>Seeds</title></head><body><header><h1><a href="/index">Seed library</a></h1>'
    '<nav><a href="/varieties">Varieties</a></nav></header><main>',
    "</main></body></html>",
)


def _found(found: list) -> list[tuple[str, str]]:
    return [(f.evidence["fields"], f.evidence["shown"]) for f in found]


def _config(*routes: str) -> OracleConfig:
    return replace(DEFAULT_CONFIG, known_routes=lambda: list(routes), linked_from=lambda _r: [])


# -- a grid: /varieties/1 is the list's empty frame, the record's details a read-only form ----------


def grid_edit(notes: str) -> FetchedPage:
    return SITE.page(
        '<h2>Varieties</h2><form method="POST" action="/varieties/edit/1">'
        '<label for="n">Name</label><input id="n" name="name" value="Ailsa Craig">'
        '<label for="c">Crop</label><input id="c" name="crop" value="Tomato">'
        f'<label for="t">Notes</label><textarea id="t" name="notes">{notes}</textarea>'
        '<input hidden="hidden" name="id" value="1"><input type="submit" value="Submit"></form>',
        "/varieties/edit/1",
    )


EMPTY_FRAME = SITE.page("<h2>Varieties</h2>None", "/varieties/1")
DETAILS = SITE.page(
    '<h2>Varieties</h2><form method="POST" action="/varieties/details/1">'
    '<div><label for="v_name">Name</label><div>Ailsa Craig</div></div>'
    '<div><label for="v_crop">Crop</label><div>Tomato</div></div>'
    '<div><label for="v_notes">Notes</label><div>Sown in a cold frame in March.</div></div>'
    '<input hidden="hidden" name="id" value="1"><input type="submit" value="Submit"></form>',
    "/varieties/details/1",
)
GRID = _config("/varieties", "/varieties/details/1", "/varieties/edit/1")


def test_a_grid_form_is_compared_with_the_records_read_only_details_not_the_lists_empty_frame():
    found = check_form_drops_value(grid_edit(""), SITE.fetcher(EMPTY_FRAME, DETAILS), GRID)
    assert _found(found) == [("notes", "Sown in a cold frame in March.")]


def test_the_grid_form_holding_its_notes_is_silent():
    filled = grid_edit("Sown in a cold frame in March.")
    assert check_form_drops_value(filled, SITE.fetcher(EMPTY_FRAME, DETAILS), GRID) == []


# -- a select with no option chosen; the notes mention the stored category --------------------------

TOOLS = SITE.page(
    "<table><thead><tr><th>Name</th><th>Category</th><th>Shelf</th><th></th></tr></thead><tbody>"
    '<tr id="1"><td>Angle grinder</td><td>Power tools</td><td>A1</td>'
    '<td><a href="/tools/view/1">View</a> <a href="/tools/edit/1">Edit</a></td></tr>'
    '<tr id="2"><td>Claw hammer</td><td>Hand tools</td><td>B2</td>'
    '<td><a href="/tools/view/2">View</a> <a href="/tools/edit/2">Edit</a></td></tr></tbody></table>',
    "/tools",
)


def tool_edit(chosen: str) -> FetchedPage:
    options = "".join(
        f'<option value="{c}"{" selected" if c == chosen else ""}>{c}</option>'
        for c in ("", "Hand tools", "Power tools", "Garden")
    )
    return SITE.page(
        '<form method="post" action="#">'
        '<label for="n">Name</label><input id="n" name="name" value="Angle grinder">'
        f'<label for="c">Category</label><select id="c" name="category">{options}</select>'
        '<label for="s">Shelf</label><input id="s" name="shelf" value="A1">'
        '<label for="t">Notes</label><textarea id="t" name="notes">Power tools kit, checked on return.</textarea>'
        '<button>Save</button></form><a href="/tools">Back</a>',
        "/tools/edit/1",
    )


def test_a_category_the_row_shows_and_the_select_leaves_unchosen_is_dropped():
    found = check_form_drops_value(tool_edit(""), SITE.fetcher(TOOLS), _config("/tools"))
    assert _found(found) == [("category", "Power tools")]


def test_the_select_with_the_stored_category_chosen_is_silent():
    assert check_form_drops_value(tool_edit("Power tools"), SITE.fetcher(TOOLS), _config("/tools")) == []


# -- a forum topic's one post: its subject the heading over its message -------------------------------

FORUM = Site(
    "http://forum.test",
    '<html><head><title>Fixers</title></head><body><div id="brdheader"><h1><a href="index.php">Fixers'
    '</a></h1></div><div id="brdmain">',
    "</div></body></html>",
)
MESSAGE = "Fixing a wobbly table (again). I would replace the part, they are cheap."
TOPIC = FORUM.page(
    '<ul class="crumbs"><li><a href="index.php">Index</a></li>'
    '<li><a href="viewtopic.php?id=25">Fixing a wobbly table (again)</a></li></ul>'
    '<div id="p108" class="blockpost"><h2><span>#1 <a href="viewtopic.php?pid=108#p108">2026-03-09 09:33'
    '</a></span></h2><div class="box"><div class="inbox"><div class="postleft"><dl><dt>alice</dt>'
    '<dd>Member</dd></dl></div><div class="postright"><h3>Fixing a wobbly table (again)</h3>'
    f'<div class="postmsg"><p>{MESSAGE}</p></div></div></div><div class="inbox"><p>Online</p>'
    '<ul><li class="postreport"><a href="misc.php?report=108">Report</a></li>'
    '<li class="postedit"><a href="edit.php?id=108">Edit</a></li>'
    '<li class="postquote"><a href="post.php?qid=108">Quote</a></li></ul></div></div></div>',
    "/viewtopic.php?pid=108",
)


def post_edit(subject: str) -> FetchedPage:
    return FORUM.page(
        '<ul class="crumbs"><li><a href="index.php">Index</a></li>'
        '<li><a href="viewtopic.php?id=25">Fixing a wobbly table (again)</a></li></ul>'
        '<h2><span>Edit post</span></h2><form id="edit" method="post" action="edit.php?id=108&amp;action=edit">'
        '<input type="hidden" name="form_sent" value="1">'
        '<label class="required"><strong>Subject <span>(Required)</span></strong><br>'
        f'<input type="text" name="req_subject" value="{subject}"></label>'
        '<label class="required"><strong>Message <span>(Required)</span></strong><br>'
        f'<textarea name="req_message">{MESSAGE}</textarea></label>'
        '<a href="help.php#bbcode">BBCode</a><input type="submit" name="submit" value="Submit"></form>',
        "/edit.php?id=108",
    )


HELP = FORUM.page("<h2>Help</h2><p>BBCode is a collection of formatting tags.</p>", "/help.php")
LINKED = replace(DEFAULT_CONFIG, linked_from=lambda _r: ["/viewtopic.php?pid=108"])


def test_a_posts_subject_shown_as_the_heading_over_its_message_is_dropped_by_the_empty_subject():
    found = check_form_drops_value(post_edit(""), FORUM.fetcher(TOPIC, HELP), LINKED)
    assert _found(found) == [("req_subject", "Fixing a wobbly table (again)")]


def test_the_post_form_holding_its_subject_is_silent():
    filled = post_edit("Fixing a wobbly table (again)")
    assert check_form_drops_value(filled, FORUM.fetcher(TOPIC, HELP), LINKED) == []


# -- a database admin's rows: `where[id]=1`, `fields[email]` beside a `function[email]` menu ----------

ADMIN = Site("http://db.test", "<html><head><title>Admin</title></head><body>", "</body></html>")
ROWS = {
    1: ("Ada Moreau", "ada@example.test", "Lyon"),
    2: ("Ben Tanaka", "ben@example.test", "Oslo"),
    3: ("Cleo Quinn", "cleo@example.test", "Porto"),
}
SELECT = ADMIN.page(
    '<form action="" method="post"><table><thead><tr><td><input type="checkbox" id="all"></td>'
    '<th><a href="?select=customers&amp;order[0]=name">name</a></th>'
    '<th><a href="?select=customers&amp;order[0]=email">email</a></th>'
    '<th><a href="?select=customers&amp;order[0]=city">city</a></th></tr></thead>'
    + "".join(
        f'<tr><td><a href="?edit=customers&amp;where[id]={n}">edit</a> '
        f'<a href="?edit=customers&amp;where[id]={n}&amp;delete=1">delete</a> '
        f'<input type="checkbox" name="check[]" value="where[id]={n}"></td>'
        f"<td>{name}</td><td>{mail}</td><td>{city}</td></tr>"
        for n, (name, mail, city) in ROWS.items()
    )
    + "</table></form>",
    "/?select=customers",
)


def row_edit(email: str, city: str) -> FetchedPage:
    def field(col: str, value: str) -> str:
        return (
            f'<tr><th>{col}</th><td><select name="function[{col}]"><option></option><option>lower</option>'
            f'</select></td><td><textarea name="fields[{col}]">{value}</textarea></td></tr>'
        )

    return ADMIN.page(
        '<form action="" method="post"><table>'
        + field("name", "Ben Tanaka")
        + field("email", email)
        + field("city", city)
        + '</table><input type="submit" value="Save"></form>',
        "/?edit=customers&where%5Bid%5D=2",
    )


ROWS_LINK = replace(DEFAULT_CONFIG, linked_from=lambda _r: ["/?select=customers"])


def test_values_the_rows_cells_show_under_a_checkbox_headed_table_and_the_form_leaves_empty_are_dropped():
    # the second row's: its own cells, not the first row's (the table read whole)
    found = check_form_drops_value(row_edit("", ""), ADMIN.fetcher(SELECT), ROWS_LINK)
    assert _found(found) == [("fields[email]\nfields[city]", "ben@example.test")]


def test_the_row_form_holding_every_value_is_silent_whatever_its_function_menus():
    filled = row_edit("ben@example.test", "Oslo")
    assert check_form_drops_value(filled, ADMIN.fetcher(SELECT), ROWS_LINK) == []


def test_a_grids_new_record_page_named_before_its_table_makes_a_record():
    # web2py's grid: `/tools/new/tool` makes a `tool`; `/tools/edit/tool/1` edits one (clean build
    # of corpus ho8_web2py: its new-tool form was compared with the list and reported)
    assert creates("http://seeds.test/tools/new/tool") and creates("http://seeds.test/items/new")
    assert not creates("http://seeds.test/tools/edit/tool/1") and not creates("http://seeds.test/new/7/edit")
    # a CMS's `/admin/new-content` (clean build of corpus ho7_bludit) and `/users/add_user` make records;
    # a page named "new-york-trip" is edited at `/trips/new-york-trip/edit`
    assert creates("http://seeds.test/admin/new-content") and creates("http://seeds.test/users/add_user")
    assert not creates("http://seeds.test/trips/new-york-trip/edit")


# -- a tracker's issue form posting to itself; its row in the index, columns in the index's order -----

TRACKER = Site("http://bugs.test", "<html><head><title>Tracker</title></head><body>", "</body></html>")
INDEX = TRACKER.page(
    "<table><tr><th>ID</th><th>Activity</th><th>Title</th><th>Status</th><th>Creator</th><th>Assigned To</th></tr>"
    + "".join(
        f'<tr><td>{n}</td><td>just now</td><td><a href="/issue{n}">{title}</a> ({n})</td><td>unread</td>'
        "<td>admin</td><td>alice</td></tr>"
        for n, title in ((121, "Typo in the German translation"), (122, "Crash on empty search"))
    )
    + "</table>",
    "/issue",
)
ISSUE = TRACKER.page(
    '<h1>Typo in the German translation</h1><form method="post" action="issue121">'
    '<table><tr><th>Title</th><td><input name="title" value="Typo in the German translation"></td></tr>'
    '<tr><th>Priority</th><td><select name="priority"><option value="1" selected>critical</option></select></td></tr>'
    '<tr><th>Status</th><td><select name="status"><option value="1" selected>unread</option></select></td></tr>'
    '<tr><th>Superseder</th><td><input name="superseder" value="">'
    '<a href="issue?@template=help&amp;property=superseder">(list)</a></td></tr>'
    '<tr><th>Nosy</th><td><input name="nosy" value="alice,hana"></td></tr>'
    '<tr><th>Change note</th><td><textarea name="@note"></textarea></td></tr></table>'
    '<input type="submit" value="Submit changes"></form>',
    "/issue121",
)
POPUP = TRACKER.page(
    "<h2>Issues</h2><p>Pick the issues this one supersedes.</p>", "/issue?@template=help&property=superseder"
)


def test_an_indexs_columns_are_not_read_by_the_forms_order():
    # the popup the form links shows none of the record: the index's row is the record's; its
    # "Activity" cell is no stored superseder
    config = replace(DEFAULT_CONFIG, linked_from=lambda _r: ["/issue"])
    assert check_form_drops_value(ISSUE, TRACKER.fetcher(INDEX, POPUP), config) == []


# -- a click in place that clears a field itself (a select widget's "×") ----------------------------


def test_a_field_the_explorers_own_click_cleared_is_no_dropped_value():
    served = tool_edit("Power tools")
    cleared = replace(tool_edit(""), clicked_from=(served, "Remove all items"))
    fetch = SITE.fetcher(TOOLS)
    config = _config("/tools", "/tools/edit/1")
    assert check_form_drops_value(cleared, fetch, config) == []
    # the same empty select as the server drew it is still compared
    assert _found(check_form_drops_value(tool_edit(""), fetch, config)) != []
