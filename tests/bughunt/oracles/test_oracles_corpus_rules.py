"""Rules learnt from the misses on real applications, each on small hand-made pages of imaginary apps
(no application's markup): a list paged by a "Load more" button whose page 2 has no way back; an edit
form whose "Back" link leads to the list, not the record, which shows its values as "Label: value"
lines; a count in a heading over a flat loop of items in the same container, paged by a row of
buttons with no pager around them; and one stored script payload shown on two pages of different
templates. Each fires on the bad page and is silent on the good one."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bughunt.explorer.inspection import same_root_cause
from bughunt.oracles import OracleConfig
from bughunt.oracles.counts import check_count_mismatch
from bughunt.oracles.forms import check_form_drops_value
from bughunt.oracles.lists import has_pagination, identities, list_items
from bughunt.oracles.pagination import check_duplicate_pagination, previous_page_url
from bughunt.oracles.scripts import check_unescaped_script
from bughunt.oracles.server_error import check_server_error
from bughunt.page import FetchedPage
from tests.support.pages import Site, open_bug

ORIGIN = "http://app.test"


SITE = Site(ORIGIN, "<html><head><title>t</title></head><body><main>", "</main></body></html>")
page = SITE.page
Fetcher = SITE.fetcher


# --- a people directory: rows in a table, a "Load more" row fetching `?page=N+1` by htmx ----------


def directory(ids: range, next_page: int) -> str:
    rows = "".join(
        f'<tr><td>Person {n}</td><td>{n}@mail.test</td><td><a href="/people/{n}/edit">Edit</a> '
        f'<a href="/people/{n}">View</a></td></tr>'
        for n in ids
    )
    more = (
        f'<tr><td colspan="3"><button hx-get="/people?page={next_page}" hx-target="closest tr">'
        "Load more</button></td></tr>"
    )
    return f"<table><thead><tr><th>Name</th><th>Email</th><th></th></tr></thead><tbody>{rows}{more}</tbody></table>"


@pytest.mark.parametrize(("second", "fires"), [(range(10, 20), False), (range(9, 19), True)])
def test_a_load_more_page_without_a_way_back_is_compared_with_the_page_before(
    second: range, fires: bool
) -> None:
    first = page(directory(range(0, 10), 2), "/people?page=1")
    two = page(directory(second, 3), "/people?page=2")
    fetch = Fetcher(first)
    assert previous_page_url(two) == first.url
    found = check_duplicate_pagination(two, fetch)
    assert fetch.calls == [first.url]
    assert [f.kind for f in found] == (["duplicate_pagination"] if fires else [])
    if fires:
        assert "Person 9" in found[0].evidence["repeated"]


def test_the_load_more_row_is_the_lists_control_not_an_item() -> None:
    doc = page(directory(range(0, 3), 2)).document
    [table] = doc.find_all("table")
    items = list_items(table) or []
    keys = identities(items, ORIGIN + "/")
    # the row of one cell spanning the table is its furniture: not an item at all (it once was one
    # without an identity, so it never counted as repeated)
    assert len(items) == 3 and all(keys)


def test_a_page_number_in_the_path_still_needs_the_pager() -> None:
    # No named parameter: `/people/2` may be a person, so nothing is made up.
    assert previous_page_url(page(directory(range(0, 3), 3), "/people/2")) is None


# --- an address book: the edit form's "Back" goes to the list; the record shows "Phone: …" lines ---


def edit_form(phone: str) -> FetchedPage:
    value = f' value="{phone}"' if phone else ""
    return page(
        '<form action="/people/7/edit" method="post"><fieldset><p><label for="email">Email</label>'
        '<input name="email" id="email" type="email" value="ann@mail.test"></p>'
        '<p><label for="name">Name</label><input name="name" id="name" value="Ann Lee"></p>'
        f'<p><label for="phone">Phone</label><input name="phone" id="phone" type="text"{value}></p>'
        '</fieldset><button>Save</button></form><p><a href="/people">Back</a></p>',
        "/people/7/edit",
    )


RECORD = page(
    "<h1>Ann Lee</h1><div><div>Phone: 555-0107</div><div><b>Email:</b> ann@mail.test</div></div>"
    '<p><a href="/people/7/edit">Edit</a> <a href="/people">Back</a></p>',
    "/people/7",
)
LIST = page(directory(range(0, 10), 2), "/people")


@pytest.mark.parametrize(("phone", "fires"), [("", True), ("555-0107", False)])
def test_an_edit_form_whose_back_link_goes_to_the_list_is_compared_with_its_record(
    phone: str, fires: bool
) -> None:
    fetch = Fetcher(RECORD, LIST)
    found = check_form_drops_value(edit_form(phone), fetch)
    assert [f.kind for f in found] == (["form_drops_value"] if fires else [])
    if fires:
        assert found[0].evidence["field"] == "phone" and found[0].evidence["shown"] == "555-0107"
        assert found[0].evidence["resource_url"] == RECORD.url


def test_a_block_of_several_labelled_lines_is_not_one_value() -> None:
    # The record shows both lines in one element: no "Phone: …" line of its own, nothing to compare.
    merged = page("<h1>Ann Lee</h1><p>Phone: 555-0107 Email: ann@mail.test <br>Notes: none</p>", "/people/7")
    assert check_form_drops_value(edit_form(""), Fetcher(merged, LIST)) == []


# --- a journal: "Entries by ann (N)" heading, then the entries, then a row of page buttons --------


def journal(path: str, shown: int, ids: range, pages: int) -> FetchedPage:
    entries = "".join(
        f'<article class="entry"><h2><a href="/entry/{n}">Entry {n}</a></h2><p>Text {n}.</p></article>'
        for n in ids
    )
    buttons = (
        "".join(f'<a class="btn" href="?page={n}">{n}</a>' for n in range(1, pages + 1)) if pages > 1 else ""
    )
    return page(f'<div class="col"><h1>Entries by ann ({shown})</h1>{entries}{buttons}</div>', path)


@pytest.mark.parametrize(("shown", "fires"), [(3, False), (5, True)])
def test_a_count_heading_over_a_flat_loop_in_its_container_is_compared(shown: int, fires: bool) -> None:
    found = check_count_mismatch(journal("/user/ann", shown, range(3), 1))
    assert [f.kind for f in found] == (["count_mismatch"] if fires else [])


@pytest.mark.parametrize(("shown", "fires"), [(5, False), (9, True)])
def test_a_row_of_page_buttons_pages_the_list_and_its_count_is_of_every_page(shown: int, fires: bool) -> None:
    first = journal("/user/ann", shown, range(3), 2)
    second = journal("/user/ann?page=2", shown, range(3, 5), 2)
    assert has_pagination(first)
    fetch = Fetcher(second)
    found = check_count_mismatch(first, fetch)
    assert fetch.calls == [second.url]
    assert [f.kind for f in found] == (["count_mismatch"] if fires else [])


def test_an_item_a_faulty_pager_repeats_is_counted_once() -> None:
    # Five entries; page 2 starts one early and repeats entry 2: the count of five is right.
    first = journal("/user/ann", 5, range(3), 2)
    second = journal("/user/ann?page=2", 5, range(2, 5), 2)
    assert check_count_mismatch(first, Fetcher(second)) == []
    wrong = journal("/user/ann", 7, range(3), 2)
    assert [f.kind for f in check_count_mismatch(wrong, Fetcher(second))] == ["count_mismatch"]


# --- one stored payload on a feed and on its author's page: one root cause ------------------------


def _post(path: str, payload: str) -> FetchedPage:
    return page(f'<div class="post"><p>Look at this <img src="x" onerror="{payload}"> nice</p></div>', path)


def test_the_same_stored_payload_on_two_templates_is_one_bug_and_another_payload_is_another() -> None:
    [on_feed] = check_unescaped_script(_post("/", "alert('one')"))
    [on_profile] = check_unescaped_script(_post("/user/elif", "alert('one')"))
    [other] = check_unescaped_script(_post("/user/elif", "document.title='two'"))
    assert on_feed.fingerprint != on_profile.fingerprint  # two templates: the routes alone differ
    [merged] = same_root_cause([on_profile], [open_bug(on_feed)])
    assert merged.fingerprint == on_feed.fingerprint and merged.route == "/user/elif"
    assert same_root_cause([other], [open_bug(on_feed)]) == [other]


def test_a_repeat_on_the_second_page_of_two_authors_is_oneopen_bug() -> None:
    # Each author's page 2 links its other pages, so its shape reads the page number as data
    # (`?page=<v>`); the bug stored from the first author's route reads it as a number.
    def second(author: str) -> FetchedPage:
        return journal(f"/user/{author}?page=2", 5, range(2, 5), 3)

    [first] = check_duplicate_pagination(second("ann"), Fetcher(journal("/user/ann?page=1", 5, range(3), 3)))
    [again] = check_duplicate_pagination(second("bo"), Fetcher(journal("/user/bo?page=1", 5, range(3), 3)))
    assert again.shape.endswith("?page=<v>") and first.fingerprint != again.fingerprint
    [merged] = same_root_cause([again], [open_bug(first)])
    assert merged.fingerprint == first.fingerprint and merged.route == "/user/bo?page=2"


def test_a_handler_on_a_named_field_of_the_sites_form_is_the_forms_own() -> None:
    form = (
        '<form method="post" action="/users"><label class="checkbox"><input name="verified" type="checkbox"'
        ' onchange="toggleMail();"> Verified</label><button>Create</button></form>'
    )
    assert check_unescaped_script(page(form, "/create-user")) == []
    pasted = '<div class="post"><p>Hi <input onfocus="alert(1)" autofocus> there</p></div>'
    assert [f.kind for f in check_unescaped_script(page(pasted, "/post/3"))] == ["unescaped_script"]


# --- a single-page feed: "More" appends the next batch to the posts shown, at the same URL ---------


def feed(posts: list[tuple[str, str]], before: FetchedPage | None = None) -> FetchedPage:
    items = "".join(
        f'<div class="post"><img src="/a.png"><div><p><a href="/user/{who}">{who}</a> — 2 hours ago:</p>'
        f"<p>{text}</p></div></div>"
        for who, text in posts
    )
    shown = page(f'<div class="feed">{items}</div><button>More</button>', "/")
    return shown if before is None else replace(shown, clicked_from=(before, "More"))


FIRST = [("ann", "Tea at noon."), ("bo", "Rain again."), ("cy", "New bike!")]


@pytest.mark.parametrize(
    ("batch", "fires"),
    [
        ([("cy", "New bike!"), ("ann", "Old photos.")], True),  # the batch starts with the last post shown
        ([("ann", "Old photos."), ("bo", "Sun at last.")], False),  # more posts by the same authors
    ],
)
def test_a_more_button_appending_a_post_already_shown_fires(
    batch: list[tuple[str, str]], fires: bool
) -> None:
    before = feed(FIRST)
    after = feed(FIRST + batch, before)
    found = check_duplicate_pagination(after, None)
    assert [f.kind for f in found] == (["duplicate_pagination"] if fires else [])
    if fires:
        assert "cy" in found[0].evidence["repeated"]


def test_a_count_wrong_on_page_one_of_an_author_and_page_two_of_another_is_oneopen_bug() -> None:
    [first] = check_count_mismatch(journal("/user/ann", 9, range(3), 1))
    # a second page is compared walked whole (it shows the rows left): its pager leads to the first
    bo, tea = journal("/user/bo?page=1", 9, range(3, 6), 2), journal("/tag/tea?page=1", 9, range(3, 6), 2)
    [again] = check_count_mismatch(journal("/user/bo?page=2", 9, range(3), 2), Fetcher(bo))
    [elsewhere] = check_count_mismatch(journal("/tag/tea?page=2", 9, range(3), 2), Fetcher(tea))
    [merged] = same_root_cause([again], [open_bug(first)])
    assert merged.fingerprint == first.fingerprint and merged.route == "/user/bo?page=2"
    assert same_root_cause([elsewhere], [open_bug(first)]) == [elsewhere]  # another collection


# --- an error handler that renders its error page with status 200 ---------------------------------


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        ('<div id="oops"><h2>Error!</h2><p>An error occurred. Please try again later.</p></div>', True),
        ("<div><h1>Something went wrong</h1><p>We are looking into it.</p></div>", True),
        ("<div><h2>Error</h2><p>That link was not found.</p></div>", False),  # a soft 404, not a crash
        ('<form><h2>Error</h2><p>Fix the fields below.</p><input name="email"></form>', False),
        ("<article><h1>Error handling in Go</h1><p>Errors are values.</p></article>", False),
        ("<div><h1>Settings</h1><h2>Error</h2><p>Boom</p></div>", False),  # not the page's heading
        # a last-resort handler: the exception's class and message in a box, status 200
        (
            "<div><h1>TypeError: join(): Argument #1 must be of type array, null given</h1>"
            "<p>An unforeseen error has occurred.</p><p>More info is in the error log.</p></div>",
            True,
        ),
        ("<div><h1>app.errors.QuotaException: over quota</h1><p>Sorry.</p></div>", True),
        # the layout's closed error dialog, ready for its scripts, above nothing but a smaller heading
        *(
            (f'<div><h4>Add users</h4><textarea name="u"></textarea></div>{closed}', False)
            for closed in (
                '<div class="modal" role="dialog" aria-hidden="true"><h2>Error</h2><p>The error</p></div>',
                '<div class="modal" role="dialog" data-bughunt-hidden=""><h2>Error</h2><p>Boom</p></div>',
                '<div style="color: red; display:none"><h2>Error</h2><p>The error</p></div>',
                "<dialog><h2>Error</h2><p>The error</p></dialog>",
                "<div hidden><h2>Error</h2><p>The error</p></div>",
            )
        ),
        ("<dialog open><h2>Error</h2><p>An error occurred.</p></dialog>", True),  # the dialog is shown
        # an article about an exception is long, and says more than a box of two lines
        (
            "<article><h1>TypeError: what it means</h1><p>"
            + "When a function gets a value of the wrong type, the runtime raises it. " * 6
            + "</p></article>",
            False,
        ),
    ],
)
def test_an_error_page_answered_200_is_a_server_error(body: str, fires: bool) -> None:
    header = '<header><h1>Shorty</h1><nav><a href="/">Home</a></nav></header>'
    found = check_server_error(page(header + body, "/settings"))
    assert [f.kind for f in found] == (["server_error"] if fires else [])


# --- an admin table paged by two icon buttons in its header, the next rows fetched in place -----------


def admin_table(ids: range, first_page: bool, footer: bool = False) -> str:
    """Rows `ids` under a header pager of two icon buttons, drawn again in the footer when `footer`,
    then beside search fields in the header's row (a run of wordless items nearer the pager)."""
    prev = ' disabled="true"' if first_page else ""
    nav = (
        '<tr><th colspan="2"><div id="pagination" class="pagination">'
        f'<button type="button" class="nav prev" onclick="skip(-1)"{prev}><svg><path d="M1"/></svg></button>'
        '<button type="button" class="nav next" onclick="skip(1)"><svg><path d="M2"/></svg></button>'
        "</div></th></tr>"
    )
    rows = "".join(f'<tr><td><a href="/s{n}">/s{n}</a></td><td>link {n}</td></tr>' for n in ids)
    foot = f"<tfoot>{nav}</tfoot>" if footer else ""
    field = (
        '<div class="search"><input name="{0}"><button type="button" aria-label="Clear"><svg/></button></div>'
    )
    fields = "".join(field.format(name) for name in ("q", "user", "domain"))
    head = nav.replace("<tr>", f"<tr><th><div>{fields}</div></th>", 1) if footer else nav
    return f"<table><thead>{head}</thead><tbody>{rows}</tbody>{foot}</table>"


@pytest.mark.parametrize(("second", "fires"), [(range(4, 8), True), (range(5, 9), False)])
@pytest.mark.parametrize("footer", [False, True])
def test_an_icon_only_pager_clicked_on_its_first_page_is_compared_with_it(
    second: range, fires: bool, footer: bool
) -> None:
    # `footer`: the pager drawn again below the table, its "next" a second copy of the same control
    before = page(admin_table(range(0, 5), True, footer), "/admin")
    after = replace(page(admin_table(second, False, footer), "/admin"), clicked_from=(before, ""))
    found = check_duplicate_pagination(after, None)
    assert [f.kind for f in found] == (["duplicate_pagination"] if fires else [])
    # On a later page both icons are enabled: which one was clicked is unknown, nothing is compared.
    later = replace(page(admin_table(second, False, footer), "/admin"), clicked_from=(after, ""))
    assert check_duplicate_pagination(later, None) == []
    # A click on a worded control of the first page ("20" rows a page) shows the first rows again: no pager turned.
    more = replace(page(admin_table(range(0, 10), False, footer), "/admin"), clicked_from=(before, "20"))
    assert check_duplicate_pagination(more, None) == []


def test_a_more_button_repeat_of_a_post_known_only_by_its_text_fires() -> None:
    # Every author posts twice: no post has a link or label of its own, only its text.
    posts = [("ann", "Tea at noon."), ("bo", "Rain again."), ("ann", "Old photos."), ("bo", "Sun at last.")]
    before = feed(posts)
    assert check_duplicate_pagination(feed([*posts, ("bo", "Sun at last."), ("ann", "Hi.")], before)) != []
    assert check_duplicate_pagination(feed([*posts, ("bo", "Snow."), ("ann", "Hi.")], before)) == []


# --- a bookmarks table: a row's pencil swaps its edit form into the row right after it -------------


def bookmarks(note: str, with_note: bool = True) -> FetchedPage:
    shown = '<p class="note">Recipes from grandma</p>' if with_note else ""
    row = f'<tr id="row-3"><td><a href="https://x.test/r">x.test/r</a>{shown}</td><td>3 days</td></tr>'
    other = '<tr id="row-4"><td><a href="https://y.test/q">y.test/q</a><p class="note">Other</p></td><td>1 day</td></tr>'
    form = (
        '<tr class="edit"><td><form hx-patch="/api/bookmarks/3">'
        '<label>Target: <input name="target" value="https://x.test/r"></label>'
        f'<label>Note: <input name="note" value="{note}"></label><button>Update</button></form></td></tr>'
    )
    return page(f"<table><tbody>{row}{form}{other}</tbody></table>", "/")


@pytest.mark.parametrize(
    ("note", "with_note", "fires"),
    [("", True, True), ("Recipes from grandma", True, False), ("", False, False)],
)
def test_an_edit_form_swapped_in_below_its_row_is_compared_with_that_row(
    note: str, with_note: bool, fires: bool
) -> None:
    found = check_form_drops_value(bookmarks(note, with_note), Fetcher())
    assert [f.kind for f in found] == (["form_drops_value"] if fires else [])
    if fires:
        assert found[0].evidence["field"] == "note" and found[0].evidence["shown"] == "Recipes from grandma"


# --- a profile editor with no identifier in its URL; the profile shows "about" under the name -------


def profile(about: str) -> FetchedPage:
    shown = f"<h5>{about}</h5>" if about else ""
    return page(
        f'<div class="card"><h1>ann</h1>{shown}<p>Member since: <time>3 days ago</time></p>'
        '<button>Edit</button></div><div class="posts"><p>First post here today.</p></div>',
        "/people/ann",
    )


def profile_editor(about: str) -> FetchedPage:
    return page(
        '<form><label for="username">Username</label><input id="username" value="ann">'
        '<label for="email">Email</label><input id="email" value="ann@mail.test">'
        f'<label for="about">About me</label><input id="about" value="{about}">'
        '<button type="submit">Save</button></form>',
        "/edit",
    )


@pytest.mark.parametrize(
    ("stored", "in_form", "fires"),
    [
        ("Loves tea and trains", "", True),
        ("Loves tea and trains", "Loves tea and trains", False),
        ("", "", False),
    ],
)
def test_an_empty_last_field_is_the_text_beside_the_shown_field_before_it(
    stored: str, in_form: str, fires: bool
) -> None:
    config = OracleConfig(linked_from=lambda route: ["/people/ann"] if route == "/edit" else [])
    found = check_form_drops_value(profile_editor(in_form), Fetcher(profile(stored)), config)
    assert [f.kind for f in found] == (["form_drops_value"] if fires else [])
    if fires:
        assert found[0].evidence["field"] == "about" and found[0].evidence["shown"] == stored


# --- the same table's edit form opened as a partial of its own, its row's pencil a URL template -----

UUID = "3f2b8c1e-5d4a-4e7b-9c0d-1a2b3c4d5e6f"


def bookmark_rows() -> FetchedPage:
    rows = "".join(
        f'<tr id="tr-{uid}"><td><a href="https://{host}/r">https://{host}/r</a><p class="note">{note}</p></td>'
        f'<td><button hx-get="/bookmark/edit/{{id}}" hx-ext="path-params" hx-vals=\'{{"id":"{uid}"}}\'>'
        "<svg></svg></button></td></tr>"
        for uid, host, note in [
            ("0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d", "y.test", "Other"),
            (UUID, "x.test", "Recipes from grandma"),
        ]
    )
    return page(f"<table><tbody>{rows}</tbody></table>", "/")


def bookmark_form(note: str) -> FetchedPage:
    return page(
        f'<form hx-patch="/api/bookmarks/{UUID}"><input name="target" value="https://x.test/r">'
        f'<input name="note" value="{note}"><button>Update</button></form>',
        f"/bookmark/edit/{UUID}",
    )


@pytest.mark.parametrize(("note", "fires"), [("", True), ("Recipes from grandma", False)])
def test_an_edit_partial_is_compared_with_the_row_that_names_its_record(note: str, fires: bool) -> None:
    config = OracleConfig(linked_from=lambda route: ["/"])
    found = check_form_drops_value(bookmark_form(note), Fetcher(bookmark_rows()), config)
    assert [f.kind for f in found] == (["form_drops_value"] if fires else [])
    if fires:
        # The row of this record, not the other row's "Other".
        assert found[0].evidence["shown"] == "Recipes from grandma"


def test_a_rows_secondary_line_of_links_is_not_the_fields_value() -> None:
    # The row has no note: its "note"-styled line only names the owner through links.
    rows = page(
        f'<table><tbody><tr id="tr-{UUID}"><td><a href="https://x.test/r">https://x.test/r</a>'
        '<p class="note">by <a href="/users/ann">ann@mail.test</a> (<a href="/links?user=ann">view links</a>)</p>'
        "</td></tr><tr><td>other</td></tr></tbody></table>",
        "/",
    )
    config = OracleConfig(linked_from=lambda route: ["/"])
    assert check_form_drops_value(bookmark_form(""), Fetcher(rows), config) == []


def test_a_not_found_page_answered_200_is_no_record_and_the_row_still_is() -> None:
    soft_404 = page(
        '<h2>404 | Link could not be found.</h2><a href="/">Back to homepage</a>', f"/bookmark/{UUID}"
    )
    config = OracleConfig(linked_from=lambda route: ["/"])
    found = check_form_drops_value(bookmark_form(""), Fetcher(soft_404, bookmark_rows()), config)
    assert [f.evidence["resource_url"] for f in found] == [ORIGIN + "/"]


def test_a_page_of_the_list_that_does_not_hold_the_record_is_not_its_record() -> None:
    # The record is on the list's next page: this page shows its target in a side panel, and another
    # record's note first — neither is this record's.
    other = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a"
    rows = page(
        bookmark_rows()
        .body.replace("</main>", "<p>Latest: https://x.test/r</p></main>")
        .replace(UUID, other),
        "/",
    )
    config = OracleConfig(linked_from=lambda route: ["/"])
    assert check_form_drops_value(bookmark_form(""), Fetcher(rows), config) == []


# --- a wiki page's editor: the title field empty, the page shows its title only as its heading --------


@pytest.mark.parametrize(
    ("title_value", "edit_title", "fires"),
    [
        ("", "Notebook – Edit page Groceries", True),
        ("Groceries", "Notebook – Edit page Groceries", False),  # the clean editor
        ("", "Notebook – Edit page", False),  # the edit page never named the heading: an optional title
    ],
)
def test_an_empty_title_field_beside_the_heading_its_page_shows_is_a_dropped_value(
    title_value: str, edit_title: str, fires: bool
) -> None:
    notes = Site(ORIGIN, "<html><head><title>{t}</title></head><body><main>", "</main></body></html>")
    shown = page(
        "<h1>Groceries</h1><p>Milk, eggs and groceries for the week.</p>"
        '<a href="/notes/groceries/edit">Edit</a>',
        "/notes/groceries",
    )
    form = (
        '<form method="post" action="/notes/groceries">'
        f'<input type="text" name="noteTitle" placeholder="Enter the title" value="{title_value}">'
        '<textarea name="body">Milk, eggs and groceries for the week.</textarea>'
        '<input type="submit" value="Save"> <a href="/">Cancel</a></form>'
    )
    editor = FetchedPage(
        ORIGIN + "/notes/groceries/edit",
        "/notes/groceries/edit",
        200,
        {},
        "text/html",
        notes.before.replace("{t}", edit_title) + form + notes.after,
        1.0,
    )
    config = OracleConfig(known_routes=lambda: ["/notes/groceries"])
    found = check_form_drops_value(editor, Fetcher(shown), config)
    assert [f.kind for f in found] == (["form_drops_value"] if fires else [])
    if fires:
        assert found[0].evidence["field"] == "noteTitle" and found[0].evidence["shown"] == "Groceries"


# --- a search page: "Results (N) for <words>" above a description list of matches ---------------------


@pytest.mark.parametrize(("said", "fires"), [(5, True), (4, False)])
def test_a_search_count_for_its_words_labels_the_description_list_of_matches(said: int, fires: bool) -> None:
    matches = "".join(
        f'<dt><a href="/notes/n{n}?hl=test">n{n}</a><span>, line {n}</span></dt><dd>a test of {n}</dd>'
        for n in range(4)
    )
    results = page(
        f'<form action="/search"><input name="q" value="test"></form>'
        f'<h2>Search results ({said}) for&nbsp;<b>test</b></h2><dl class="matches">{matches}</dl>',
        "/search?q=test",
    )
    found = check_count_mismatch(results, Fetcher(results))
    assert [f.kind for f in found] == (["count_mismatch"] if fires else [])


# --- an admin's member table: a range line with a second sentence, a row of buttons under the rows ----


@pytest.mark.parametrize(("last", "fires"), [(4, True), (3, False)])
def test_a_range_line_with_a_total_after_it_counts_the_records_not_the_button_row(
    last: int, fires: bool
) -> None:
    rows = "".join(
        f'<tr class="member"><td><input type="checkbox" name="pick[m{n}]"></td><td><a href="/admin/m{n}">m{n}</a></td>'
        f"<td>Member {n}</td></tr>"
        for n in range(3)
    )
    buttons = (
        '<tbody><tr><td colspan="3"><button name="fn[delete]">Delete selected</button>'
        '<button name="fn[next]" disabled>next</button></td></tr></tbody>'
    )
    admin = page(
        f"<div><p>Displaying members 1-{last} of {last} found. {last} members total.</p>"
        '<form method="post"><table><thead><tr><th></th><th>Login</th><th>Name</th></tr></thead>'
        f"<tbody>{rows}</tbody>{buttons}</table></form></div>",
        "/admin/members",
    )
    found = check_count_mismatch(admin, Fetcher(admin))
    assert [f.kind for f in found] == (["count_mismatch"] if fires else [])


# --- a changelog paged by an offset, its "newer"/"older" controls forms that are only a button -------


def changelog(ids: range, offset: int) -> str:
    entries = "".join(
        f'<li><a href="/notes?id=home&amp;rev={1000 + n}">rev {1000 + n}</a> <span class="sum">edit {n}</span></li>'
        for n in ids
    )
    newer = (
        '<form method="get" action="/notes"><input type="hidden" name="do" value="log">'
        f'<input type="hidden" name="offset" value="{max(offset - 10, 0)}"><input type="hidden" name="id" value="home">'
        '<button type="submit">&lt;&lt; more recent</button></form>'
        if offset
        else ""
    )
    older = (
        '<form method="get" action="/notes"><input type="hidden" name="do" value="log">'
        f'<input type="hidden" name="offset" value="{offset + 10}"><input type="hidden" name="id" value="home">'
        '<button type="submit">less recent &gt;&gt;</button></form>'
    )
    return f'<ul class="changes">{entries}</ul><div class="pagenav">{newer}{older}</div>'


@pytest.mark.parametrize(("second", "fires"), [(range(10, 20), False), (range(9, 19), True)])
def test_an_offset_pager_s_page_is_compared_with_the_page_its_newer_button_opens(
    second: range, fires: bool
) -> None:
    first = page(changelog(range(0, 10), 0), "/notes?do=log&offset=0&id=home")
    two = page(changelog(second, 10), "/notes?do=log&offset=10&id=home")
    assert previous_page_url(two) == first.url
    found = check_duplicate_pagination(two, Fetcher(first))
    assert [f.kind for f in found] == (["duplicate_pagination"] if fires else [])
