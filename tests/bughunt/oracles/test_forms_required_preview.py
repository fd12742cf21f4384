"""An edit form that draws a preview of its record inside itself (a tile with the record's title, the
way a dashboard's link editor does) and leaves its *required* title input empty dropped the title: the
preview's words are no tags widget's chips beside the input, since a browser refuses to send a form whose
required field is empty. Made-up link dashboard, generic markup."""

from __future__ import annotations

from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site("http://tiles.test", "<html><head><title>Tiles</title></head><body>", "</body></html>")
LINKS = {4: ("Photo archive", "https://photos.example/"), 8: ("Recipe box", "https://recipes.example/")}


def listing() -> FetchedPage:
    rows = "".join(
        f"<tr><td>{title}</td><td><a href='{url}'>{url}</a></td>"
        f"<td><a href='/links/{n}/edit' title='Edit {title}'><i class='icon-edit'></i></a></td></tr>"
        for n, (title, url) in LINKS.items()
    )
    return SITE.page(
        f"<table><thead><tr><th>Title</th><th>Address</th><th>Edit</th></tr></thead><tbody>{rows}</tbody></table>",
        "/links",
    )


def edit_form(title: str, required: str = "required") -> FetchedPage:
    stored, url = LINKS[8]
    return SITE.page(
        '<form method="post" action="/links/8"><input type="hidden" name="_method" value="PATCH">'
        f'<div class="preview"><div class="tile"><span class="name">{stored}</span></div></div>'
        f'<div class="row"><label>Name *</label><input placeholder="Title" name="title" {required} value="{title}"></div>'
        f'<div class="row"><label>Address</label><input name="url" value="{url}"></div>'
        '<button>Save</button> <a href="/links">Cancel</a></form>',
        "/links/8/edit",
    )


def test_a_required_title_left_empty_beside_the_records_preview_is_dropped():
    (finding,) = check_form_drops_value(edit_form(""), SITE.fetcher(listing()))
    assert finding.evidence["fields"] == "title"
    assert finding.evidence["shown"] == "Recipe box"


def test_the_title_filled_is_silent():
    assert check_form_drops_value(edit_form("Recipe box"), SITE.fetcher(listing())) == []


def test_an_optional_input_whose_value_the_form_shows_is_still_read_as_chips():
    assert check_form_drops_value(edit_form("", required=""), SITE.fetcher(listing())) == []
