"""A deletion seen on its owner page (`oracles.owner_pages`): a record's own Delete (an attachment's
page, `/attach/a1?confirm`) deletes it, but the attachment's page stays (history) and so does its
link on the attachment list; only the page it was attached to drops it. Judged on the list that
offered it, or on its resource, the deletion was "no visible effect"."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bughunt.oracles import ORACLES, Finding, OracleConfig
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://wiki.test"
THING = "/attach/a1"


class _Site:
    """A wiki whose attachment `a1` is on page Home; `deletes`: whether `?confirm` really deletes."""

    def __init__(self, deletes: bool = True) -> None:
        self.deletes = deletes
        self.attached = True
        self.requests: list[str] = []

    def fetch(self, url: str) -> FetchedPage:
        route = route_of(url)
        self.requests.append(route)
        if route == THING + "?confirm" and self.deletes:
            self.attached = False
        if route.startswith(THING):
            note = "" if self.attached else "<p>This attachment has been deleted.</p>"
            body = f'<h1>Attachment a1</h1>{note}<a href="{THING}?confirm">Delete</a><a href="/wiki/Home">Home</a>'
        elif route == "/attachlist":  # a history: every attachment ever, deleted or not
            body = "".join(f'<li><a href="/attach/a{i}">a{i}</a></li>' for i in range(1, 6))
        elif route == "/wiki/Home":
            body = "<h1>Home</h1><p>Welcome</p>" + (f'<a href="{THING}">a1</a>' if self.attached else "")
        elif route == "/wiki/Other":
            body = "<h1>Other</h1><p>No attachments</p>"
        else:
            return FetchedPage(url, route, 404, {}, "text/html", "<h1>Not found</h1>", 1.0)
        html = f"<html><body><main>{body}</main></body></html>"
        return FetchedPage(url, route, 200, {}, "text/html", html, 1.0)


LINKS = {
    "/attachlist": [f"/attach/a{i}" for i in range(1, 6)],
    "/wiki/Home": [THING],
    "/wiki/Other": [THING],  # memory's stale word: it links to a1 no more
}


def _config(linked: list[str]) -> OracleConfig:
    linked_from: Callable[[str], list[str]] = lambda route: linked if route == THING else []  # noqa: E731
    return OracleConfig(
        allow_destructive=True, linked_from=linked_from, links_of=lambda route: LINKS.get(route, [])
    )


def _judge(site: _Site, linked: list[str]) -> list[Finding]:
    page = site.fetch(ORIGIN + THING)
    return ORACLES["unconfirmed_destructive"](page, site.fetch, _config(linked))


def test_a_deletion_gone_from_its_owner_page_is_confirmed() -> None:
    site = _Site()
    (finding,) = _judge(site, ["/attachlist", "/wiki/Home", "/wiki/Other"])
    assert not site.attached  # opened: the delete happened
    assert not finding.suspected and "owner page" in finding.evidence["effect"]
    # the owner is the page linking to few attachments (Home), tried before the history's list
    assert site.requests.index("/wiki/Home") < site.requests.index(THING + "?confirm")


@pytest.mark.parametrize(
    ("deletes", "linked"),
    [
        (False, ["/attachlist", "/wiki/Home"]),  # nothing deleted: Home keeps its link
        (True, ["/attachlist"]),  # only the history knows it: it keeps its link
        (True, ["/wiki/Other"]),  # memory's owner linked to it no more before the opening
    ],
)
def test_no_owner_page_losing_it_confirms_nothing(deletes: bool, linked: list[str]) -> None:
    (finding,) = _judge(_Site(deletes), linked)
    assert finding.suspected and "no visible effect" in finding.evidence["effect"]
