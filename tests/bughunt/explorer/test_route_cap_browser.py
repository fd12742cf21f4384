"""A `history.replaceState` loop cannot make a route (or a store) as long as it likes: the browser's
URL after a client-side route change is named by a route capped like any other."""

from __future__ import annotations

import json
import shutil

import pytest

from bughunt.cli import main
from bughunt.explorer.store import DB_NAME, ExplorerStore
from bughunt.urls import MAX_ROUTE_CHARS
from tests.support.loopback import QuietHandler, serving

LOOP = """<script>
let n = 0;
const grow = () => { history.replaceState(null, '', '/p?' + 'x'.repeat(300000) + n); if (++n < 20) setTimeout(grow, 5); };
grow();
</script>"""


class Handler(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/robots.txt":
            return self.reply(404, "")
        body = f'<html><body><h1>Loop</h1><a href="/other">other</a>{LOOP}</body></html>'
        return self.reply(200, body)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")
def test_a_replace_state_loop_gives_a_capped_route_and_a_small_store(tmp_path, capsys):
    store_dir = tmp_path / "store"
    with serving(Handler) as url:
        code = main(["explore", "--url", url + "/", "--store", str(store_dir), "--budget", "3", "--engine", "browser", "--json"])  # fmt: skip
    assert code in (0, 1)
    json.loads(capsys.readouterr().out)
    store = ExplorerStore(store_dir, create=False, lock=False)
    try:
        routes = [s.route for s in store.history.steps()] + [
            s.final_route or "" for s in store.history.steps()
        ]
    finally:
        store.close()
    assert routes and max(len(r) for r in routes) <= MAX_ROUTE_CHARS
    assert (store_dir / DB_NAME).stat().st_size < 2_000_000
