"""Sessions with the browser engine: a click that changes the page at the same URL is a state of its
own (route + DOM structure), remembered under a harness-made route, explored and re-tested like a page."""

from __future__ import annotations

import shutil
from dataclasses import asdict

import pytest

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_engine, make_policy
from bughunt.explorer.graph import CLICK_MARK
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.summary import summary
from tests.support.spa import spa  # noqa: F401 (the loopback single-page app fixture)

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")


@pytest.mark.slow  # ~6 s of wall time in Chromium: started first
def test_a_click_state_at_the_same_url_is_explored_as_a_page(spa, tmp_path):  # noqa: F811
    fetcher, _ = make_engine("browser", spa + "/", timeout=10, respect_robots=False)
    store = ExplorerStore(tmp_path / "s")
    try:
        with make_policy("planner", store=store) as policy:
            result = Explorer(store, fetcher, policy, SessionConfig(budget=8)).run()
        data = summary(store, result)
        clicks = [r for r in data["pages_visited"] if CLICK_MARK in r]
        hashes = store.visits.structure_hashes()
        steps = [asdict(s) for s in store.history.steps()]
    finally:
        fetcher.close()
        store.close()
    assert {"/", "/item/1", "/item/2"} <= set(data["pages_visited"])
    assert len(clicks) == 1 and clicks[0].startswith("/" + CLICK_MARK), "the details view is a state"
    assert hashes[clicks[0]] != hashes["/"], "the same URL, another structure"
    assert data["stop_reason"] == "done", "nothing left: the state's own page was explored, not re-clicked"
    assert sum(CLICK_MARK in s["route"] for s in steps) == 1
