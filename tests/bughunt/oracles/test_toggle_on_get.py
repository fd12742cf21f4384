"""A GET toggle whose verb reads as destroying ("Unsubscribe") is judged by its effect: its undo
("Subscribe") drawn in its place means nothing was lost — an unsafe GET (RFC 9110 §9.2.1), not an
unconfirmed destructive action; and both directions of one toggle on one handler are one root cause,
whichever record each names (a topic's, a forum's). A real deletion stays a deletion. The site is a
small forum of our own, answering like a PHP board's `misc.php?action=…&csrf_hash=…` links."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from bughunt.explorer.inspection import same_root_cause
from bughunt.oracles import ORACLES, OracleConfig
from bughunt.page import FetchedPage
from tests.support.pages import Site

ORIGIN = "http://board.test"


_page = Site(ORIGIN, "<html><body><main>", "</main></body></html>").page


class Board:
    """A topic and a forum, each with a subscription link that flips on a GET; a reply's Delete link
    that deletes on a GET. Every load signs the links with a fresh hash."""

    def __init__(self) -> None:
        self.subscribed = {"tid": False, "fid": True}
        self.replies = [11, 12]
        self.loads = 0

    def _toggle(self, kind: str, n: int) -> str:
        verb = "unsubscribe" if self.subscribed[kind] else "subscribe"
        label = "Unsubscribe" if self.subscribed[kind] else "Subscribe"
        return f'<a href="/misc.php?action={verb}&amp;{kind}={n}&amp;csrf_hash=h{self.loads}">{label}</a>'

    def topic(self) -> FetchedPage:
        self.loads += 1
        replies = "".join(
            f'<li>Reply {r} <a href="/delete.php?id={r}&amp;delete=1&amp;csrf_hash=h{self.loads}">Delete</a></li>'
            for r in self.replies
        )
        return _page(
            f"<h1>Topic</h1><ul>{replies}</ul><p>{self._toggle('tid', 36)}</p>", "/viewtopic.php?id=36"
        )

    def forum(self) -> FetchedPage:
        self.loads += 1
        return _page(f"<h1>Forum</h1><p>{self._toggle('fid', 2)}</p>", "/viewforum.php?id=2")

    def __call__(self, url: str) -> FetchedPage:
        parts = urlsplit(url)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        if parts.path == "/misc.php":
            kind = "tid" if "tid" in query else "fid"
            self.subscribed[kind] = query["action"] == "subscribe"
            return self.topic() if kind == "tid" else self.forum()
        if parts.path == "/delete.php":
            self.replies = [r for r in self.replies if r != int(query["id"])]
            return self.topic()
        return self.forum() if parts.path == "/viewforum.php" else self.topic()


def _opened(page: FetchedPage, site: Board) -> list:
    return ORACLES["unconfirmed_destructive"](
        page, site, OracleConfig(allow_destructive=True, opened_destructive={})
    )


def test_an_unsubscribe_whose_subscribe_takes_its_place_is_an_unsafe_get_not_a_deletion():
    site = Board()
    (found,) = _opened(site.forum(), site)
    # unsubscribed, then subscribed again: its undo, opened to see the effect twice (`seen_twice`),
    # leaves the forum as it was
    assert site.subscribed["fid"] is True
    assert (found.kind, found.suspected) == ("unsafe_get", False)
    assert found.route.startswith("/misc.php?action=unsubscribe&fid=2")


def test_both_directions_of_one_toggle_are_one_root_cause_and_a_deletion_stays_one():
    site = Board()
    on_topic = _opened(site.topic(), site)
    by_kind = {f.kind: f for f in on_topic}
    assert set(by_kind) == {"unsafe_get", "unconfirmed_destructive"}  # subscribe flipped; a reply deleted
    assert site.replies == [12]
    [on_forum] = _opened(site.forum(), site)
    subscribe, unsubscribe = by_kind["unsafe_get"], on_forum
    assert subscribe.route.startswith("/misc.php?action=subscribe&tid=36")
    joined = same_root_cause([subscribe, unsubscribe], [])
    assert joined[0].fingerprint == joined[1].fingerprint


class Profile:
    """A member's profile showing the server's time and a "Change password" link marked as an action
    (`?action=change_pass&id=3`) that changes nothing on a GET; the clock ticks between two loads."""

    def __init__(self) -> None:
        self.minute = 4

    def page(self) -> FetchedPage:
        self.minute += 1
        body = (
            f"<h1>alice</h1><p>Posts: 12</p><p>Last visit: 2026-12-05 10:{self.minute:02d}</p>"
            '<p><a href="/profile.php?action=change_pass&amp;id=3">Change password</a></p>'
        )
        return _page(body, "/profile.php?id=3")

    def __call__(self, url: str) -> FetchedPage:
        return self.page()


def test_a_clock_ticking_between_two_loads_is_no_effect_of_the_action():
    site = Profile()
    assert _opened(site.page(), site) == []


def test_one_key_for_a_path_toggle_on_every_record_both_ways():
    from bughunt.oracles.action_effect import toggle_key

    origin = "http://cms.test"
    a = toggle_key(origin + "/admin/uninstall-plugin/pluginAPI", origin + "/admin/install-plugin/pluginAPI")
    b = toggle_key(origin + "/admin/install-plugin/pluginTags", origin + "/admin/uninstall-plugin/pluginTags")
    assert a is not None and a == b
    # enable/disable hold no verb of the other: one stem under negating prefixes
    c = toggle_key(origin + "/feeds/3/disable", origin + "/feeds/3/enable")
    d = toggle_key(origin + "/feeds/9/enable", origin + "/feeds/9/disable")
    assert c is not None and c == d and c != a
