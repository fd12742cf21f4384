"""`--allow-destructive` opens each destructive control template once a session per route shape: a list's Delete link
on every row deletes one record, not two a page, and the other rows take its verdict unopened; a
template that asks first is not opened again; a link that says it is confirmed (`?confirm=1`) is
opened like any other when opening is allowed; and a page of a record the session deleted reports
nothing. The site is a small one of our own: a list of notes whose Delete links delete on GET."""

from __future__ import annotations

import re

from bughunt.explorer.inspection import deleted_by_session
from bughunt.oracles import ORACLES, OracleConfig
from bughunt.oracles.base import NO_EFFECT_TRIES, OpenedAction
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://notes.test"
_DELETE = re.compile(r"/notes/(\d+)/delete$")
_ASK = re.compile(r"/posts/(\d+)/delete$")


def _page(body: str, path: str, status: int = 200, redirects: tuple[str, ...] = ()) -> FetchedPage:
    url = ORIGIN + path
    html = f"<html><body><main>{body}</main></body></html>"
    return FetchedPage(url, route_of(url), status, {}, "text/html", html, 1.0, redirects=redirects)


class NotesSite:
    """Notes 1–8, four a page; `/notes/<n>/delete` deletes on GET and redirects to the first page;
    `/posts/<n>/delete` answers a confirmation form (a POST), deleting nothing."""

    def __init__(self) -> None:
        self.notes = list(range(1, 9))
        self.requests: list[str] = []

    def listing(self, page: int = 1) -> FetchedPage:
        rows = "".join(
            f'<li>Note {n} <a class="btn" href="/notes/{n}/delete">Delete</a></li>'
            for n in self.notes[(page - 1) * 4 : page * 4]
        )
        return _page(f"<ul>{rows}</ul>", "/notes" + (f"?page={page}" if page > 1 else ""))

    def posts(self) -> FetchedPage:
        rows = "".join(f'<li>Post {n} <a href="/posts/{n}/delete">Delete</a></li>' for n in (1, 2, 3))
        return _page(f"<ul>{rows}</ul>", "/posts")

    def __call__(self, url: str) -> FetchedPage:
        self.requests.append(url)
        path = url.removeprefix(ORIGIN)
        if m := _DELETE.fullmatch(path.partition("?")[0]):
            if int(m[1]) in self.notes:
                self.notes.remove(int(m[1]))
                return _page(self.listing().body, "/notes", redirects=(url,))
            return _page("<h1>Not found</h1>", path, 404)
        if _ASK.fullmatch(path.partition("?")[0]):
            return _page('<h1>Sure?</h1><form method="post"><button>Delete</button></form>', path)
        if path.startswith("/notes"):
            page = int(path.rpartition("=")[2]) if "page=" in path else 1
            return self.listing(page)
        return _page("<h1>Not found</h1>", path, 404)

    def deletes(self) -> list[str]:
        return [u for u in self.requests if "/delete" in u]


def _destructive(page: FetchedPage, site: NotesSite, config: OracleConfig):
    return ORACLES["unconfirmed_destructive"](page, site, config)


def test_one_template_is_opened_once_and_its_other_rows_take_its_verdict():
    site, ledger = NotesSite(), {}
    config = OracleConfig(allow_destructive=True, opened_destructive=ledger)
    first = _destructive(site.listing(), site, config)
    assert site.deletes() == [ORIGIN + "/notes/1/delete"] and site.notes == [2, 3, 4, 5, 6, 7, 8]
    assert [f.route for f in first] == [
        "/notes/1/delete",
        "/notes/2/delete",
        "/notes/3/delete",
        "/notes/4/delete",
    ]
    assert not any(f.suspected for f in first)
    assert first[0].evidence["effect"] == "gone from the page that listed it"
    assert all(f.evidence["effect"].startswith("not opened: its template was opened at") for f in first[1:])
    assert len({f.evidence["control_key"] for f in first}) == 1
    # the next page of the list: its rows are the same template, nothing is opened
    second = _destructive(site.listing(2), site, config)
    assert [f.route for f in second] == ["/notes/6/delete", "/notes/7/delete", "/notes/8/delete"]
    assert not any(f.suspected for f in second)
    assert site.deletes() == [ORIGIN + "/notes/1/delete"] and len(site.notes) == 7


def test_without_a_record_every_page_opens_its_share():
    """What a session without the ledger did: two deletions a page, on every page of the list."""
    site = NotesSite()
    config = OracleConfig(allow_destructive=True)
    _destructive(site.listing(), site, config)
    _destructive(site.listing(2), site, config)
    assert len(site.deletes()) == 4 and len(site.notes) == 4


def test_a_template_that_asks_first_is_not_opened_again_nor_reported():
    site, ledger = NotesSite(), {}
    config = OracleConfig(allow_destructive=True, opened_destructive=ledger)
    assert _destructive(site.posts(), site, config) == []
    assert site.deletes() == [ORIGIN + "/posts/1/delete"]
    assert [(a.url, a.acted) for a in ledger.values()] == [(ORIGIN + "/posts/1/delete", None)]
    assert _destructive(site.posts(), site, config) == []
    assert site.deletes() == [ORIGIN + "/posts/1/delete"]


def test_a_link_that_says_it_is_confirmed_is_opened_when_opening_is_allowed():
    """`?confirm=1` reads as confirmed; opened, this one shows a confirmation form: no finding."""
    listing = _page('<ul><li>Post 4 <a href="/posts/4/delete?confirm=1">Delete</a></li></ul>', "/posts")
    site = NotesSite()
    (unopened,) = _destructive(listing, site, OracleConfig())
    assert not unopened.suspected and site.requests == []
    assert _destructive(listing, site, OracleConfig(allow_destructive=True, opened_destructive={})) == []
    assert site.deletes() == [ORIGIN + "/posts/4/delete?confirm=1"]


def test_the_pages_of_a_record_the_session_deleted():
    gone = [OpenedAction(ORIGIN + "/contacts/31/delete", True, "gone from the page that listed it")]
    assert deleted_by_session("/contacts/31/edit", gone) and deleted_by_session("/contacts/31", gone)
    assert not deleted_by_session("/contacts/3/edit", gone) and not deleted_by_session("/contacts", gone)
    shown = [OpenedAction(ORIGIN + "/groups/delete/3", True, "its resource now answers 404")]
    assert deleted_by_session("/groups/show/3", shown) and not deleted_by_session("/groups/show/4", shown)
    kept = [OpenedAction(ORIGIN + "/contacts/31/delete", False, "no visible effect")]
    assert not deleted_by_session("/contacts/31/edit", kept)


class WikiSite:
    """Pages named by words, each offering its own Delete link (`/pages/<name>/delete`, a GET that
    deletes and redirects home); the home page is kept whatever its link says (no visible effect);
    with `inert` no page is ever deleted."""

    def __init__(self, inert: bool = False) -> None:
        self.pages = ["Home", "Alpha", "Beta", "Gamma", "Delta"]
        self.inert = inert
        self.requests: list[str] = []

    def page(self, name: str) -> FetchedPage:
        if name not in self.pages:
            return _page("<h1>Not found</h1>", f"/wiki/{name}", 404)
        link = f'<a class="btn" href="/pages/{name}/delete">Delete this page</a>'
        return _page(f"<h1>{name}</h1><p>Some text.</p>{link}", f"/wiki/{name}")

    def __call__(self, url: str) -> FetchedPage:
        self.requests.append(url)
        path = url.removeprefix(ORIGIN)
        if m := re.fullmatch(r"/pages/(\w+)/delete", path):
            if m[1] != "Home" and not self.inert and m[1] in self.pages:
                self.pages.remove(m[1])
            return _page(self.page("Home").body, "/wiki/Home", redirects=(url,))
        return self.page(path.removeprefix("/wiki/"))

    def deletes(self) -> list[str]:
        return [u.removeprefix(ORIGIN) for u in self.requests if "/delete" in u]


def test_each_record_page_draws_one_template():
    """A record's own page offering its Delete link (`/wiki/Alpha` → `/pages/Alpha/delete`): the
    record's name is the page's, so every such page is one template, opened once."""
    site, ledger = WikiSite(), {}
    config = OracleConfig(allow_destructive=True, opened_destructive=ledger)
    (alpha,) = _destructive(site.page("Alpha"), site, config)
    (beta,) = _destructive(site.page("Beta"), site, config)
    assert site.deletes() == ["/pages/Alpha/delete"] and "Beta" in site.pages
    assert alpha.evidence["control_key"] == beta.evidence["control_key"] and len(ledger) == 1
    assert alpha.evidence["observed"] and not beta.suspected


def test_a_record_with_no_visible_effect_hands_over_to_the_next():
    """The home page is kept: its Delete did nothing visible, which says little of the template, so
    the next record's page opens its own and that settles it."""
    site, ledger = WikiSite(), {}
    config = OracleConfig(allow_destructive=True, opened_destructive=ledger)
    (home,) = _destructive(site.page("Home"), site, config)
    assert home.suspected and home.evidence["effect"] == "no visible effect"
    (alpha,) = _destructive(site.page("Alpha"), site, config)
    assert not alpha.suspected and alpha.evidence["observed"]
    (beta,) = _destructive(site.page("Beta"), site, config)
    assert not beta.suspected
    assert site.deletes() == ["/pages/Home/delete", "/pages/Alpha/delete"]


def test_no_visible_effect_stands_after_a_few_records():
    site, ledger = WikiSite(inert=True), {}
    config = OracleConfig(allow_destructive=True, opened_destructive=ledger)
    for name in site.pages:
        (finding,) = _destructive(site.page(name), site, config)
        assert finding.suspected
    assert site.deletes() == [f"/pages/{n}/delete" for n in site.pages[:NO_EFFECT_TRIES]]
    assert next(iter(ledger.values())).settled


def test_one_macro_on_two_collections_is_opened_on_each():
    """One Delete macro draws every list's link; the posts' view asks first, the notes' view deletes on
    GET. The posts' confirmation page must not clear the notes' links unopened."""
    site, ledger = NotesSite(), {}
    config = OracleConfig(allow_destructive=True, opened_destructive=ledger)
    posts = _page('<ul><li>Post 1 <a class="btn" href="/posts/1/delete">Delete</a></li></ul>', "/posts")
    assert _destructive(posts, site, config) == []
    found = _destructive(site.listing(), site, config)
    assert ORIGIN + "/notes/1/delete" in site.deletes() and 1 not in site.notes
    assert found and not any(f.suspected for f in found)
    assert found[0].evidence["effect"] == "gone from the page that listed it"
    # one root cause to report: both collections' links share the drawn control
    (asked,) = [a for a in ledger.values() if a.acted is None]
    assert asked.url == ORIGIN + "/posts/1/delete"
