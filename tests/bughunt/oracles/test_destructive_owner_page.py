"""A deletion seen on its owner page (`oracles.owner_pages`): a record's own Delete (an attachment's
page, `/attach/a1?confirm`) deletes it, but the attachment's page stays (history) and so does its
link on the attachment list; only the page it was attached to drops it. Judged on the list that
offered it, or on its resource, the deletion was "no visible effect"."""

from __future__ import annotations

import pytest

from bughunt.oracles import ORACLES, Finding, OracleConfig
from bughunt.oracles.owner_pages import same_thing
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://wiki.test"
THING = "/attach/a1"
FULL = "/attach/79d93ae652c0faf7c46fc74eb083cfbe"
SHORT = "/attach/79d93ae652c0faf7"


class _Site:
    """A wiki whose attachment at `thing` is on page Home, linked there and on the attachment list
    as `linked` (a hash's abbreviation); `deletes`: whether `?confirm` really deletes."""

    def __init__(
        self, deletes: bool = True, thing: str = THING, linked: str = THING, named: str = ""
    ) -> None:
        self.deletes, self.thing, self.linked = deletes, thing, linked
        self.named = named or thing  # the address its Delete names (the full hash of an abbreviation)
        self.attached = True
        self.requests: list[str] = []

    def fetch(self, url: str) -> FetchedPage:
        route = route_of(url)
        self.requests.append(route)
        if route == self.named + "?confirm" and self.deletes:
            self.attached = False
        if route.startswith((self.thing, self.named)):
            note = "" if self.attached else "<p>This attachment has been deleted.</p>"
            body = f'<h1>Attachment</h1>{note}<a href="{self.named}?confirm">Delete</a><a href="/wiki/Home">Home</a>'
        elif route == "/attachlist":  # a history: every attachment ever, deleted or not
            others = "".join(f'<li><a href="/attach/a{i}">a{i}</a></li>' for i in range(2, 6))
            body = f'<li><a href="{self.linked}">it</a></li>{others}'
        elif route == "/wiki/Home":
            body = "<h1>Home</h1><p>Welcome</p>" + (
                f'<a href="{self.linked}">it</a>' if self.attached else ""
            )
        elif route == "/wiki/Other":
            body = "<h1>Other</h1><p>No attachments</p>"
        else:
            return FetchedPage(url, route, 404, {}, "text/html", "<h1>Not found</h1>", 1.0)
        html = f"<html><body><main>{body}</main></body></html>"
        return FetchedPage(url, route, 200, {}, "text/html", html, 1.0)

    def config(self, linking: list[str]) -> OracleConfig:
        """Memory: `linking` link to the attachment as linked; the list links to five."""
        links = {"/attachlist": [self.linked, *(f"/attach/a{i}" for i in range(2, 6))]}
        links.update({r: [self.linked] for r in linking if r != "/attachlist"})
        return OracleConfig(
            allow_destructive=True,
            linked_from=lambda route: linking if route == self.linked else [],
            links_of=lambda route: links.get(route, []),
            known_routes=lambda: [self.thing, self.linked, *links],
        )

    def judge(self, linking: list[str]) -> list[Finding]:
        page = self.fetch(ORIGIN + self.thing)
        return ORACLES["unconfirmed_destructive"](page, self.fetch, self.config(linking))


@pytest.mark.parametrize(
    ("thing", "linked", "named"),
    [
        (THING, THING, THING),
        (FULL, SHORT, FULL),  # the page at its full hash, linked by an abbreviation
        (SHORT, SHORT, FULL),  # the page at the abbreviation, its Delete at the full hash
    ],
)
def test_a_deletion_gone_from_its_owner_page_is_confirmed(thing: str, linked: str, named: str) -> None:
    site = _Site(thing=thing, linked=linked, named=named)
    (finding,) = site.judge(["/attachlist", "/wiki/Home", "/wiki/Other"])
    assert not site.attached  # opened: the delete happened
    assert not finding.suspected and "owner page" in finding.evidence["effect"]
    # the owner is the page linking to few attachments (Home), tried before the history's list
    assert site.requests.index("/wiki/Home") < site.requests.index(named + "?confirm")


@pytest.mark.parametrize(
    ("deletes", "linking"),
    [
        (False, ["/attachlist", "/wiki/Home"]),  # nothing deleted: Home keeps its link
        (True, ["/attachlist"]),  # only the history knows it: it keeps its link
        (True, ["/wiki/Other"]),  # memory's owner linked to it no more before the opening
    ],
)
def test_no_owner_page_losing_it_confirms_nothing(deletes: bool, linking: list[str]) -> None:
    (finding,) = _Site(deletes).judge(linking)
    assert finding.suspected and "no visible effect" in finding.evidence["effect"]


def test_a_hash_and_its_abbreviation_name_one_thing() -> None:
    assert same_thing(SHORT, FULL) and same_thing(FULL, SHORT)
    assert not same_thing("/attach/79d93ae6", "/attach/79d93ae7ffff")  # not its prefix
    assert not same_thing("/attach/79d9", FULL)  # too short to name one
    assert not same_thing(SHORT + "?ln=0", FULL)  # another view
