"""With `allow_destructive` a destructive GET is judged by its effect, before the page it answers:
a file manager that deletes on GET and answers with its upload form (a POST form) has acted, while a
confirmation page that deletes nothing is cleared even when the list draws a fresh token on every
load. The sites are small ones of our own."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from bughunt.explorer.http_engine import DEFAULT_AVOID
from bughunt.oracles import ORACLES, OracleConfig
from bughunt.oracles.destructive_words import deferred_action
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://files.test"
_UPLOAD = '<form method="post" action="/media" enctype="multipart/form-data"><input type="file" name="f"><button>Upload</button></form>'


def _page(body: str, path: str) -> FetchedPage:
    url = ORIGIN + path
    html = f"<html><body><main>{body}</main></body></html>"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


class FileManager:
    """`/media?file=<f>` shows a file with a Delete link carrying the session's token; a GET of
    `/media?delete=<f>&sectok=<t>` deletes it and answers the manager (its upload form), no redirect."""

    def __init__(self) -> None:
        self.files = ["card.txt", "logo.png"]

    def details(self, name: str) -> FetchedPage:
        shown = (
            f'<h2>{name}</h2><a class="button" href="/media?delete={name}&amp;sectok=s3ss">Delete</a>'
            if name in self.files
            else "<p>No file selected</p>"
        )
        return _page(_UPLOAD + shown, f"/media?file={name}")

    def __call__(self, url: str) -> FetchedPage:
        query = parse_qs(urlsplit(url).query)
        if "delete" in query:
            if query.get("sectok") == ["s3ss"] and query["delete"][0] in self.files:
                self.files.remove(query["delete"][0])
            return _page(_UPLOAD + "<p>Deleted.</p>", urlsplit(url).path + "?" + urlsplit(url).query)
        return self.details(query.get("file", [""])[0])


class AsksFirst:
    """`/items` draws each row's Delete link with a fresh token on every load; the link answers a
    confirmation form (a POST) and deletes nothing."""

    def __init__(self) -> None:
        self.loads = 0

    def listing(self) -> FetchedPage:
        self.loads += 1
        rows = "".join(
            f'<li>Item {n} <a href="/items/{n}/delete?csrf_token=t{self.loads}">Delete</a></li>'
            for n in (1, 2)
        )
        return _page(f"<ul>{rows}</ul>", "/items")

    def __call__(self, url: str) -> FetchedPage:
        path = urlsplit(url).path
        if path.endswith("/delete"):
            return _page('<h1>Sure?</h1><form method="post"><button>Delete</button></form>', path)
        return self.listing()


def _destructive(page: FetchedPage, fetch) -> list:
    return ORACLES["unconfirmed_destructive"](
        page, fetch, OracleConfig(allow_destructive=True, opened_destructive={})
    )


def test_a_get_that_deletes_and_answers_an_upload_form_has_acted():
    site = FileManager()
    (found,) = _destructive(site.details("card.txt"), site)
    assert site.files == ["logo.png"]
    assert not found.suspected and found.evidence["effect"] == "gone from the page that listed it"
    assert found.route == "/media?delete=card.txt&sectok=s3ss"


def test_a_confirmation_page_is_cleared_though_the_list_draws_a_fresh_token_each_load():
    site = AsksFirst()
    assert _destructive(site.listing(), site) == []


class ShortVerbs:
    """A one-script file manager: `/index.php?p=docs` lists the folder, each row's icon-only Delete link
    a GET `?p=docs&del=<f>` that deletes at once and answers the folder again (its upload form)."""

    def __init__(self) -> None:
        self.files = ["card.txt", "logo.png"]

    def listing(self) -> FetchedPage:
        rows = "".join(
            f'<tr><td><a href="?p=docs&amp;view={f}">{f}</a></td>'
            f'<td><a title="Delete" href="?p=docs&amp;del={f}"><i class="icon-trash"></i></a></td></tr>'
            for f in self.files
        )
        return _page(_UPLOAD + f"<table>{rows}</table>", "/index.php?p=docs")

    def __call__(self, url: str) -> FetchedPage:
        query = parse_qs(urlsplit(url).query)
        if "del" in query and query["del"][0] in self.files:
            self.files.remove(query["del"][0])
        return self.listing()


def test_a_short_verb_in_a_query_key_deletes_on_get_and_is_judged_by_its_effect():
    site = ShortVerbs()
    found = _destructive(site.listing(), site)
    assert site.files == ["logo.png"]  # opened once: the other row's link takes its verdict
    assert found[0].route == "/index.php?p=docs&del=card.txt" and not any(f.suspected for f in found)
    assert found[0].evidence["effect"] == "gone from the page that listed it"
    # never clicked by the walk; a short form elsewhere (a path, a view key's value) is no verb
    assert re.search(DEFAULT_AVOID, "/index.php?p=docs&del=card.txt")
    assert deferred_action(ORIGIN + "/connector?cmd=rm&target=l1_x") is not None
    assert deferred_action(ORIGIN + "/docs/rm/notes") is None
    assert deferred_action(ORIGIN + "/index.php?p=docs&view=del") is None
