"""A single-page admin draws each collection's edit form with one form component: a long-text box
that opens empty on the shelves' form and on the crates' form is that component's bug, one report
(issue 25; corpus ho13_aiohttp_admin, whose edit forms drop every multi-line value). Two
server-rendered forms at paths of their own stay two reports: two templates may draw alike boxes.
Pages here are made up."""

from __future__ import annotations

from bughunt.explorer.inspection import same_root_cause
from bughunt.oracles.forms import check_form_drops_value
from bughunt.oracles.view_widgets import widget_key
from bughunt.page import FetchedPage
from bughunt.urls import route_of
from tests.support.pages import Fetcher

APP = "http://app.test/admin"
BOX = 'class="Kit-input Kit-multiline"'


def at(url: str, body: str) -> FetchedPage:
    html = f"<html><body><div id='root'><nav><a href='#/shelf'>Shelves</a></nav>{body}</div></body></html>"
    return FetchedPage(url, route_of(url, hash_routes="#/" in url), 200, {}, "text/html", html, 1.0)


def missing(url: str) -> FetchedPage:
    return FetchedPage(url, route_of(url), 404, {}, "text/html", "<h1>Not found</h1>", 1.0)


def edit(base: str, collection: str, n: int, name: str, field: str) -> FetchedPage:
    return at(
        f"{base}#/{collection}/{n}" if base == APP else f"{base}/{collection}/{n}/edit",
        f"<h1>Edit {name}</h1><a href='{_show(base, collection, n)}'>Show</a><form>"
        f"<label for='name'>Name</label><input id='name' name='name' value='{name}'>"
        f"<label for='{field}'>{field.title()}</label><textarea id='{field}' name='{field}' {BOX}></textarea>"
        "<button type='submit'>Save</button></form>",
    )


def _show(base: str, collection: str, n: int) -> str:
    return f"{base}#/{collection}/{n}/show" if base == APP else f"{base}/{collection}/{n}"


def show(base: str, collection: str, n: int, name: str, field: str, text: str) -> FetchedPage:
    return at(
        _show(base, collection, n),
        f"<h1>{name}</h1><dl><dt>Name</dt><dd id='name'>{name}</dd><dt>{field.title()}</dt>"
        f"<dd id='{field}'>{text}</dd></dl>",
    )


def findings(base: str) -> list:
    found = []
    for collection, n, name, field, text in (
        ("shelf", 4, "Oak shelf", "notes", "Bought at the spring fair in Leeds."),
        ("crate", 2, "Pine crate", "remarks", "Holds the winter coats and two lamps."),
    ):
        page = edit(base, collection, n, name, field)
        fetch = Fetcher(show(base, collection, n, name, field, text), missing=missing)
        found += check_form_drops_value(page, fetch)
    return found


def test_one_widget_dropping_its_value_in_two_views_of_a_single_page_app_is_one_bug() -> None:
    found = findings(APP)
    assert [f.kind for f in found] == ["form_drops_value", "form_drops_value"], found
    assert found[0].evidence["widget_key"] == found[1].evidence["widget_key"] is not None
    joined = same_root_cause(found, [])
    assert len({f.fingerprint for f in joined}) == 1


def test_two_server_rendered_forms_stay_two_bugs() -> None:
    found = findings("http://app.test")
    assert len(found) == 2 and all(f.evidence["widget_key"] is None for f in found)
    assert len({f.fingerprint for f in same_root_cause(found, [])}) == 2


def test_the_key_names_the_document_and_the_widget() -> None:
    assert widget_key("http://x/p", []) is None
    assert widget_key("http://x/admin#/a/1", []) is None


def filtered(base: str, collection: str, total: int) -> FetchedPage:
    rows = "".join(f"<tr><td>{n}</td><td>Oak {n}</td></tr>" for n in range(1, 4))
    query = f"?filter=%7B%22{collection}_name%22%3A%22oak%22%7D&order=ASC&page=1&perPage=10&sort=id"
    url = f"{base}#/{collection}{query}" if base == APP else f"{base}/{collection}{query}"
    return at(
        url,
        f"<h1>{collection.title()}</h1><table><thead><tr><th>Id</th><th>Name</th></tr></thead><tbody>{rows}</tbody>"
        f"</table><div class='Kit-pager'><p class='Kit-displayed'>1-10 of {total}</p></div>",
    )


def test_one_list_footer_wrong_over_two_filtered_collections_is_one_bug() -> None:
    from bughunt.oracles.counts import check_count_mismatch

    spa = [f for c, n in (("shelf", 64), ("crate", 16)) for f in check_count_mismatch(filtered(APP, c, n))]
    assert [f.kind for f in spa] == ["count_mismatch", "count_mismatch"]
    assert len({f.fingerprint for f in same_root_cause(spa, [])}) == 1
    paths = [
        f
        for c, n in (("shelf", 64), ("crate", 16))
        for f in check_count_mismatch(filtered("http://app.test", c, n))
    ]
    assert len(paths) == 2 and len({f.fingerprint for f in same_root_cause(paths, [])}) == 2
