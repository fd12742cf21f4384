"""A site that states its version on some pages only (an admin area's footer) has not changed when
the first such page is seen mid-session: the version is adopted as the first one and the pages this
session tested before it are not walked again. At 6beab4e every page seen so far became due for
re-test there, and the re-test walk spent the rest of the budget on pages the session had just seen
(a flat-file blog whose footer names its version only behind the login: 57 of 100 clicks repeats)."""

from __future__ import annotations

import json

from bughunt.cli import main
from bughunt.explorer.store import ExplorerStore
from tests.support import loopback

LINKS: dict[str, list[str]] = {
    "/": ["/a", "/b", "/admin"],
    "/a": ["/", "/a/1", "/a/2"],
    "/b": ["/", "/b/1"],
    "/admin": ["/", "/admin/posts", "/admin/settings"],
    "/admin/posts": ["/admin", "/a/1"],
    "/admin/settings": ["/admin"],
    "/a/1": ["/a"],
    "/a/2": ["/a"],
    "/b/1": ["/b"],
}


class _Site(loopback.QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = self.path.split("?")[0]
        if path not in LINKS:
            self.reply(404, "<html><body><h1>Not found</h1></body></html>")
            return
        links = "".join(f'<li><a href="{h}">{h}</a></li>' for h in LINKS[path])
        # only the admin area's layout names the version
        footer = "<footer>Powered by Blog version 3.1.1</footer>" if path.startswith("/admin") else ""
        self.reply(
            200, f"<html><head><title>{path}</title></head><body><ul>{links}</ul>{footer}</body></html>"
        )


def test_a_version_first_stated_mid_session_starts_no_retest(tmp_path, capsys):
    store = tmp_path / "s"
    with loopback.serving(_Site) as url:
        argv = ["explore", "--url", url, "--store", str(store), "--ignore-robots", "--budget", "30", "--json"]
        assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["app_version"] == "3.1.1", "the version is adopted"
    s = ExplorerStore(store)
    steps = s.history.steps()
    due = s.visits.needs_retest()
    s.close()
    assert not [r.route for r in steps if r.retest], "no page is re-tested: nothing changed"
    assert not due
    pages = [r.final_route for r in steps if r.outcome == "page"]
    assert set(LINKS) <= set(pages), "every page is seen"
