"""The one item showing a form's record, wherever the record is shown (`form_witness`).

Layouts no per-layout reading had: a profile's definition list above its own form that has no
action (it posts to its page all the same); a single-page app's record section beside a list of
other records, the form opened in place by a click; a profile page whose definition list sits
beside a sidebar of other members with the same labels. Made-up sites, generic markup.
"""

from __future__ import annotations

from dataclasses import replace

from bughunt.oracles.base import OracleConfig
from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://club.test",
    '<html><head><title>Club</title></head><body><nav><a href="/">Home</a> <a href="/me">Me</a>'
    ' <a href="/settings">Settings</a></nav>',
    "</body></html>",
)


def _fields(*fields: tuple[str, str, str]) -> str:
    return "".join(
        f'<label for="{k}">{label}</label><input type="text" id="{k}" name="{k}" value="{v}">'
        for k, label, v in fields
    )


def _found(found: list) -> list[tuple[str, str]]:
    return [(f.evidence["fields"], f.evidence["shown"]) for f in found]


# A profile's definition list over its own edit form, which has no action: it posts to its page.
def own_profile(bio: str) -> FetchedPage:
    return SITE.page(
        "<main><h1>alice</h1><dl><dt>E-mail</dt><dd>alice@club.test</dd><dt>City</dt><dd>Lisbon</dd>"
        "<dt>Bio</dt><dd>Keeps bees on the roof</dd></dl>"
        '<form method="post">'
        + _fields(("email", "E-mail", "alice@club.test"), ("city", "City", "Lisbon"), ("bio", "Bio", bio))
        + "<button>Save</button></form></main>",
        "/me",
    )


def test_a_profile_definition_list_over_its_own_actionless_form_witnesses_the_dropped_bio():
    assert _found(check_form_drops_value(own_profile(""), SITE.fetcher())) == [
        ("bio", "Keeps bees on the roof")
    ]


def test_the_profile_form_holding_every_value_is_silent():
    assert check_form_drops_value(own_profile("Keeps bees on the roof"), SITE.fetcher()) == []


# A single-page app's note view beside a list of the other notes; "Edit" swapped the view for a form.
OTHERS = "".join(
    f"<li><p><b>Title:</b> {t}</p><p><b>Content:</b> {c}</p></li>"
    for t, c in [("Chores", "sweep the hall"), ("Books", "return two")]
)
NOTE_VIEW = (
    f"<aside><h2>Other notes</h2><ul>{OTHERS}</ul></aside>"
    "<section><h2>Groceries</h2><p><b>Content:</b> milk and eggs</p>"
    '<button type="button">Edit</button></section>'
)


def note_form(content: str) -> str:
    return (
        f"<aside><h2>Other notes</h2><ul>{OTHERS}</ul></aside>"
        "<section><form>"
        + _fields(("title", "Title", "Groceries"))
        + f'<label for="content">Content:</label><textarea id="content" name="content">{content}</textarea>'
        '<button type="submit">Save</button></form></section>'
    )


def opened(before: str, after: str) -> FetchedPage:
    return replace(SITE.page(after, "/notes/3"), clicked_from=(SITE.page(before, "/notes/3"), "Edit"))


def test_a_record_section_beside_a_list_of_other_records_witnesses_the_form_a_click_opened():
    found = check_form_drops_value(opened(NOTE_VIEW, note_form("")), SITE.fetcher())
    assert _found(found) == [("content", "milk and eggs")]


def test_the_opened_form_holding_the_sections_value_is_silent():
    assert check_form_drops_value(opened(NOTE_VIEW, note_form("milk and eggs")), SITE.fetcher()) == []


# A settings form (no record in its URL) linked from the member's profile, whose definition list sits
# beside a sidebar of other members shown with the same labels — first in the page.
SIDEBAR = (
    "<aside><h2>New members</h2><ul>"
    "<li><b>bo</b><p>Affiliation: Harbour College</p></li><li><b>cy</b><p>Affiliation: Dock School</p></li>"
    "</ul></aside>"
)


def member_profile(affiliation: str) -> FetchedPage:
    shown = f"<dt>Affiliation</dt><dd>{affiliation}</dd>" if affiliation else ""
    return SITE.page(
        f"{SIDEBAR}<main><h1>alice</h1><dl><dt>Website</dt><dd>https://alice.example.org</dd>{shown}</dl></main>",
        "/members/alice",
    )


def settings(affiliation: str) -> FetchedPage:
    return SITE.page(
        '<form method="post" action="/settings">'
        + _fields(
            ("name", "Name", "alice"),
            ("website", "Website", "https://alice.example.org"),
            ("affiliation", "Affiliation", affiliation),
        )
        + "<button>Save</button></form>",
        "/settings",
    )


def _settings_findings(shown: str, kept: str) -> list[tuple[str, str]]:
    config = OracleConfig(linked_from=lambda route: ["/members/alice"], loaded=lambda route: True)
    return _found(check_form_drops_value(settings(kept), SITE.fetcher(member_profile(shown)), config))


def test_the_members_own_definition_list_not_the_sidebar_of_others_witnesses_the_dropped_affiliation():
    assert _settings_findings("Loopback University", "") == [("affiliation", "Loopback University")]


def test_other_members_values_beside_a_profile_that_shows_none_are_no_dropped_value():
    assert _settings_findings("", "") == []


# One record drawn in two blocks with no block around both: its name in a heading's section, its
# e-mail and bio in a table of properties (the name inside the e-mail counts once, for the e-mail).
SPLIT_RECORD = (
    "<section><h1>alice</h1></section><table><tr><td>E-mail</td><td>alice@club.test</td></tr>"
    "<tr><td>Bio</td><td>Keeps bees on the roof</td></tr></table>"
)


def test_a_record_split_over_two_blocks_is_read_as_one():
    form = (
        '<form method="post">'
        + _fields(("name", "Name", "alice"), ("email", "E-mail", "alice@club.test"), ("bio", "Bio", ""))
        + "<button>Save</button></form>"
    )
    found = check_form_drops_value(opened(SPLIT_RECORD, form), SITE.fetcher())
    assert _found(found) == [("bio", "Keeps bees on the roof")]


# A new-booking form (no record in its URL) whose one default value, a film's title, is also one row of
# the films table; the site's menu — a plain `div`, no `nav` — links the form from every page, so the
# films page is a page "linking to it". One row showing one value is one record among others, and not
# the form's: its empty fields (a customer's name) are no values the films page shows.
MENU = (
    '<div class="sidebar"><p><a href="/films">Films</a></p><p><a href="/forms/booking">Booking</a></p></div>'
)
FILMS = SITE.page(
    MENU
    + "<table><tr><th>id</th><th>Name</th><th>Rating</th><th>Director</th></tr>"
    + "".join(
        f"<tr><td>{n}</td><td>{name}</td><td>{r}</td><td>{d}</td></tr>"
        for n, name, r, d in [
            (1, "The Lantern of Ember", 99, "Hana Ito"),
            (2, "A Voyage to the Moon", 71, "Ida Berg"),
            (3, "The Forest of Winter", 64, "Ravi Shah"),
        ]
    )
    + "</table>",
    "/films",
)


def booking(name: str) -> FetchedPage:
    return SITE.page(
        MENU
        + '<form method="post">'
        + _fields(("film", "Film", "A Voyage to the Moon"), ("name", "Name", name), ("email", "E-mail", ""))
        + "<button>Book</button></form>",
        "/forms/booking",
    )


BOOKING_LINKED = OracleConfig(linked_from=lambda route: ["/films"], loaded=lambda route: True)


def test_a_default_value_one_row_of_a_list_shows_makes_that_list_no_witness_of_the_form():
    assert check_form_drops_value(booking(""), SITE.fetcher(FILMS), BOOKING_LINKED) == []
