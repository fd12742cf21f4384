"""A first page that offers nothing is loaded once more before the session ends `done` (issue 25: a
single-page app read before it drew its first view ended a held-out run after 0 clicks)."""

from __future__ import annotations

from typing import ClassVar

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from tests.support.loopback import QuietHandler, serving


class LateStart(QuietHandler):
    """The start page is blank on its first load and shows its links from the second on."""

    loads: ClassVar[int] = 0

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path == "/robots.txt":
            self.reply(404, "", "text/plain")
        elif self.path == "/":
            LateStart.loads += 1
            links = '<a href="/a">A</a> <a href="/b">B</a>' if LateStart.loads > 1 else ""
            self.reply(200, f"<html><body><main>{links}</main></body></html>")
        else:
            self.reply(200, '<html><body><a href="/">home</a></body></html>')


class Blank(QuietHandler):
    """A site whose one page never links anywhere."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.reply(200, "<html><body><p>nothing here</p></body></html>")


def _run(handler: type[QuietHandler], tmp_path) -> tuple[int, int, str]:
    store = ExplorerStore(tmp_path / "s")
    with serving(handler) as url, make_policy("planner", store=store) as policy:
        engine = HttpEngine(url, timeout=2.0, respect_robots=False)
        config = SessionConfig(budget=5, retries=0, retry_backoff_s=0.0)
        result = Explorer(store, engine, policy, config).run()
    steps = len(store.history.steps())
    store.close()
    return result.clicks, steps, result.stop_reason


def test_a_blank_first_page_is_loaded_again_before_the_session_ends(tmp_path):
    LateStart.loads = 0
    clicks, _, status = _run(LateStart, tmp_path)
    assert clicks >= 2, (clicks, status)  # /a and /b, shown by the second load
    assert LateStart.loads >= 2


def test_a_page_that_stays_blank_ends_the_session_after_one_more_load(tmp_path):
    clicks, steps, status = _run(Blank, tmp_path)
    assert (clicks, steps, status) == (0, 2, "done")
