"""An unsafe GET is reported only when its effect is seen twice (`bughunt.oracles.seen_twice`): kept on
a reload of the page it changed, and seen again when the link is followed a second time. A page that
changes between loads on its own — a view counter, a word of the day, a rotating banner — gives a
GET clicked on it an "effect" in one comparison that no reload keeps; a real toggle, and a real like
counter whose link keeps its label, are still reported on pages that count their views too. The
site is a small newsroom of our own, on loopback."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from tests.support.loopback import QuietHandler, serving

WORDS = ("amber", "birch", "cobalt", "dune", "ember")


def _html(body: str) -> str:
    return f"<html><head><title>news</title></head><body><nav><a href='/'>home</a></nav>{body}</body></html>"


class _Newsroom(QuietHandler):
    """`/news` counts its reads, shows a word of the day that changes with every load and a banner
    that rotates through three stories (`?action=promote&story=K`, which changes nothing); its
    "Reload" link redirects back and changes nothing. Each photo counts its views and has a
    Star/Unstar link that a plain GET flips (a real unsafe GET) and that redirects back. The column
    counts its views and its likes; its "Like" link adds one on a GET and redirects back."""

    reads: int
    likes: int
    views: dict[str, int]
    starred: set[str]
    requests: list[str]
    lock = threading.Lock()

    def _back(self, where: str) -> None:
        self.send_response(302)
        self.send_header("Location", where)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        cls = type(self)
        with cls.lock:
            cls.requests.append(self.path)
            if self.path == "/":
                links = "".join(f'<li><a href="/photos/{n}">photo {n}</a></li>' for n in cls.views)
                links += '<li><a href="/column">column</a></li>'
                return self.reply(200, _html(f'<h1>Home</h1><a href="/news">news</a><ul>{links}</ul>'))
            if self.path == "/like":
                cls.likes += 1
                return self._back("/column")
            if self.path == "/column":
                cls.reads += 1
                body = (
                    f'<h1>Column</h1><p>{cls.reads} views</p><p>{cls.likes} likes</p><a href="/like">Like</a>'
                )
                return self.reply(200, _html(body))
            if self.path == "/news/reload":
                return self._back("/news")
            if self.path.startswith("/news"):
                cls.reads += 1
                story = cls.reads % 3 + 1
                body = (
                    f"<h1>News</h1><p>Read {cls.reads} times</p><p>Word of the day: {WORDS[cls.reads % 5]}</p>"
                    f'<p>Featured: <a href="/news?action=promote&amp;story={story}">story {story}</a></p>'
                    '<a href="/news/reload">Reload</a>'
                )
                return self.reply(200, _html(body))
            m = re.fullmatch(r"/photos/(\d)(/(star|unstar))?", self.path)
            if not m or m.group(1) not in cls.views:
                return self.reply(404, _html("<p>no such photo</p>"))
            n, verb = m.group(1), m.group(3)
            if verb is not None:
                (cls.starred.add if verb == "star" else cls.starred.discard)(n)
                return self._back(f"/photos/{n}")
            cls.views[n] += 1
            toggle = f"/photos/{n}/{'unstar' if n in cls.starred else 'star'}"
            body = (
                f"<h1>Photo {n}</h1><p>Starred by {int(n in cls.starred)}</p><p>Viewed {cls.views[n]} times</p>"
                f'<a href="{toggle}">{"Unstar" if n in cls.starred else "Star"}</a>'
            )
            return self.reply(200, _html(body))


@contextmanager
def _newsroom() -> Iterator[tuple[str, type[_Newsroom]]]:
    handler = type(
        "Newsroom",
        (_Newsroom,),
        {"reads": 0, "likes": 3, "views": {"1": 10, "2": 20}, "starred": set(), "requests": []},
    )
    with serving(handler) as url:
        yield url + "/", handler


def _explore(url: str, store_dir: Path) -> ExplorerStore:
    store = ExplorerStore(store_dir)
    engine = HttpEngine(url, timeout=2.0, respect_robots=False, avoid_actions=True)
    config = SessionConfig(budget=25, retries=0, allow_destructive=True)
    with make_policy("planner", store=store) as policy:
        Explorer(store, engine, policy, config).run()
    return store


def test_a_page_that_changes_on_its_own_gives_no_unsafe_get_and_a_real_toggle_still_does(tmp_path):
    with _newsroom() as (url, site):
        store = _explore(url, tmp_path / "s")
        try:
            # the walk clicked the no-op Reload and the banner's action was opened after it: each
            # compared once with the page before, the counter, the word and the banner had moved
            assert "/news/reload" in site.requests, site.requests
            assert any("action=promote" in p for p in site.requests), site.requests
            bugs = [(b.kind, re.sub(r"\d", "<n>", b.route)) for b in store.bug_table.live()]
            assert [b for b in bugs if b[0] == "unsafe_get" and b[1].startswith("/news")] == [], bugs
            assert ("unsafe_get", "/photos/<n>/star") in bugs, bugs
            assert ("unsafe_get", "/like") in bugs, bugs  # its count kept on the reload, stepped again
            assert site.likes == 5
        finally:
            store.close()
