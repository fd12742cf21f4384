"""A record's page that outlives its deletion (an append-only store keeps the artifact's page): the
deletion is seen on the list that linked to the page, which no longer does (`oracles.record_lists`).
A list that drops the page on one read only (a rotating "recent" panel) is no effect."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from bughunt.explorer.http_engine import DEFAULT_AVOID
from bughunt.oracles import ORACLES, OracleConfig
from bughunt.oracles.destructive import confirms_itself
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://scm.test"


def _page(body: str, path: str) -> FetchedPage:
    url = ORIGIN + path
    html = f"<html><body><main>{body}</main></body></html>"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


class Attachments:
    """`/attachments` lists the live attachments, each linking to its artifact page `/artifact/<h>`,
    which stays as it was after a delete (the store forgets nothing) and offers "Delete" as a GET
    (`?confirm`) that deletes at once. `flaky`: the list leaves out a live one on every other read."""

    def __init__(self, *, deletes: bool = True, flaky: bool = False) -> None:
        self.live = ["a1", "b2", "c3"]
        self.deletes, self.flaky, self.reads = deletes, flaky, 0

    def artifact(self, h: str) -> FetchedPage:
        return _page(f'<h1>Attachment {h}</h1><a href="/artifact/{h}?confirm">Delete</a>', f"/artifact/{h}")

    def __call__(self, url: str) -> FetchedPage:
        parts = urlsplit(url)
        if parts.path == "/attachments":
            self.reads += 1
            shown = [h for h in self.live if not (self.flaky and self.reads % 2 == 0 and h == "a1")]
            rows = "".join(f'<li><a href="/artifact/{h}">{h}.txt</a></li>' for h in shown)
            return _page(f"<ul>{rows}</ul>", "/attachments")
        h = parts.path.rsplit("/", 1)[-1]
        if parts.query == "confirm" and self.deletes and h in self.live:
            self.live.remove(h)
        return self.artifact(h)


def _judge(site: Attachments) -> list:
    config = OracleConfig(
        allow_destructive=True, opened_destructive={}, linked_from=lambda route: ["/attachments", "/"]
    )
    return ORACLES["unconfirmed_destructive"](site.artifact("a1"), site, config)


def test_a_deleted_record_whose_page_stays_is_seen_gone_from_its_list() -> None:
    site = Attachments()
    (finding,) = _judge(site)
    assert "a1" not in site.live
    assert not finding.suspected
    assert finding.evidence["effect"] == "gone from the list that linked to its page"


@pytest.mark.parametrize("site", [Attachments(deletes=False), Attachments(flaky=True, deletes=False)])
def test_a_list_that_still_links_or_drops_it_once_is_no_effect(site: Attachments) -> None:
    (finding,) = _judge(site)
    assert finding.suspected  # opened, no effect seen: a lead, not a confirmed report


def test_a_bare_confirming_flag_is_set() -> None:
    """`?confirm` with no value is set for apps that test a key's presence: the walk never follows it,
    and unopened it is reported confirmed on its words like `?confirm=1`."""
    assert re.search(DEFAULT_AVOID, "/artifact/a1?confirm")
    assert re.search(DEFAULT_AVOID, "/artifact/a1?confirm&from=list")
    assert not re.search(DEFAULT_AVOID, "/artifact/a1?confirmed_at=2024")
    assert confirms_itself(ORIGIN + "/artifact/a1?confirm") == "confirm"
    assert confirms_itself(ORIGIN + "/artifact/a1?confirm=0") is None
    (finding,) = ORACLES["unconfirmed_destructive"](Attachments().artifact("a1"), None, OracleConfig())
    assert not finding.suspected and "confirm" in finding.evidence["effect"]
