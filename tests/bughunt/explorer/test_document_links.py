"""Links that answer no page (a feed, a calendar, a download): one of a kind is opened, the rest wait
behind the pages still unseen — nothing on them is read but their status."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from tests.support.loopback import QuietHandler, serving

NAMES = ("north", "south", "east", "west", "upper", "lower")
FIGURES = (
    "<p>Sales: 12</p>",
    "<ul><li>Sales: 12</li></ul>",
    "<table><tr><td>Sales</td><td>12</td></tr></table>",
    "<dl><dt>Sales</dt><dd>12</dd></dl>",
    "<pre>Sales: 12</pre>",
    "<blockquote>Sales: 12</blockquote>",
)
"""Each region's page drawn its own way: pages of one type whose data differ, none saturated."""


class _Reports(QuietHandler):
    """A list of regions, each row a link to its page and to its CSV export."""

    requests: list[str] = []
    lock = threading.Lock()

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        with self.lock:
            self.requests.append(self.path)
        if self.path == "/":
            rows = "".join(
                f'<tr><td><a href="/regions/{n}">{n.title()} region</a></td>'
                f'<td><a href="/exports/{n}.csv">CSV</a></td></tr>'
                for n in NAMES
            )
            return self.reply(200, f"<html><body><h1>Regions</h1><table>{rows}</table></body></html>")
        m = re.fullmatch(r"/regions/(\w+)", self.path)
        if m and m.group(1) in NAMES:
            figure = FIGURES[NAMES.index(m.group(1))]
            body = f'<nav><a href="/">Regions</a></nav><h1>{m.group(1)}</h1>{figure}'
            return self.reply(200, f"<html><body>{body}</body></html>")
        m = re.fullmatch(r"/exports/(\w+)\.csv", self.path)
        if m and m.group(1) in NAMES:
            return self.reply(200, "month,sales\njan,12\n", content_type="text/csv")
        return self.reply(404, "<html><body>no</body></html>")


def test_one_download_of_a_kind_then_the_pages_still_unseen(tmp_path: Path) -> None:
    handler = type("Reports", (_Reports,), {"requests": []})
    with serving(handler) as url:
        store = ExplorerStore(tmp_path / "s")
        try:
            engine = HttpEngine(url + "/", timeout=2.0, respect_robots=False)
            with make_policy("planner", store=store) as policy:
                Explorer(store, engine, policy, SessionConfig(budget=len(NAMES) + 1, retries=0)).run()
        finally:
            store.close()
    walked = [p for p in handler.requests if p.startswith(("/regions/", "/exports/"))]
    # the six regions and one export, in whichever order: a second export is no new kind of page
    assert sum(p.startswith("/exports/") for p in walked) == 1, walked
    assert {p for p in walked if p.startswith("/regions/")} == {f"/regions/{n}" for n in NAMES}, walked
