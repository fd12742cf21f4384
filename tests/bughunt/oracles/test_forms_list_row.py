"""An edit form whose "Cancel" leads back to the list it was opened from is compared with the record's
item of that list, not with the whole list; the list may sit in a form of its own (bulk actions: a
checkbox an item) and the item's values are the record's all the same. Made-up bookmark manager,
generic markup."""

from __future__ import annotations

from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site("http://marks.test", "<html><head><title>Marks</title></head><body>", "</body></html>")
MARKS = {
    3: ("Garden planner", "https://plants.example/", "Seasons and beds, with a watering table."),
    7: ("Conference talk notes", "https://talks.example/7", "Slides and the recording link."),
    9: ("Bread at home", "https://bread.example/", "Sourdough in five steps."),
}


def listing() -> FetchedPage:
    items = "".join(
        f'<li><input type="checkbox" name="bookmark_id" value="{n}">'
        f'<div class="title"><a href="{url}">{title}</a></div>'
        f'<div class="description">{text}</div>'
        f'<div class="actions"><a href="/marks/{n}/edit?return_url=/marks">Edit</a></div></li>'
        for n, (title, url, text) in MARKS.items()
    )
    return SITE.page(
        f'<form method="post" action="/marks/bulk"><select name="action"><option>Archive</option></select>'
        f'<button>Apply</button><ul class="marks">{items}</ul></form>',
        "/marks",
    )


def edit_form(description: str) -> FetchedPage:
    title, url, _ = MARKS[7]
    return SITE.page(
        '<form method="post" action="/marks/7/edit?return_url=/marks">'
        f'<label for="u">URL</label><input id="u" name="url" value="{url}">'
        f'<label for="t">Title</label><input id="t" name="title" value="{title}">'
        f'<label for="d">Description</label><textarea id="d" name="description">{description}</textarea>'
        '<button>Save</button> <a href="/marks">Cancel</a></form>',
        "/marks/7/edit?return_url=/marks",
    )


def test_a_description_the_records_item_shows_and_the_form_leaves_empty_is_dropped():
    (finding,) = check_form_drops_value(edit_form(""), SITE.fetcher(listing()))
    assert finding.evidence["fields"] == "description"
    assert finding.evidence["shown"] == MARKS[7][2]


def test_the_form_filled_with_the_records_description_is_silent():
    assert check_form_drops_value(edit_form(MARKS[7][2]), SITE.fetcher(listing())) == []
