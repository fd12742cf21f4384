"""A realtime app whose login form and views come only over a channel (`tests/support/realtime_site.py`):
a plain WebSocket (`/ws/`) and an engine.io-style long-poll (`/lp/`). The browser engine logs in over
the channel, explores its views, finds the planted bugs (a server error answered over the channel on a
load and after a click, an unescaped note, an unconfirmed delete) and never lets the delete reach the
server. Main could not log in: every WebSocket was closed, every long-poll POST refused as a write.

Waits on a channel are bounded: an event never answered, and a channel that floods, cost a page at
most the settle window."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_engine, make_policy
from bughunt.explorer.login import Credentials, LoginFailed
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from tests.support.realtime_site import ERRORS, PASSWORD, PLANTED, USER, serving_realtime

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")
MODES = ["ws", "lp"]


def _engine(url: str, mode: str, **options: object) -> object:
    creds = Credentials(login_url=f"{url}/{mode}/", username=USER, password=PASSWORD)
    engine, _ = make_engine(
        "browser", f"{url}/{mode}/", timeout=10, credentials=creds, respect_robots=False, **options
    )
    return engine


@pytest.mark.parametrize("mode", MODES)
def test_a_realtime_app_is_logged_into_and_explored_to_its_bugs(tmp_path: Path, mode: str) -> None:
    with serving_realtime() as (url, site):
        engine = _engine(url, mode)
        store = ExplorerStore(tmp_path / "s")
        try:
            engine.log_in()  # type: ignore[attr-defined]
            with make_policy("planner", store=store) as policy:
                Explorer(store, engine, policy, SessionConfig(budget=40, retries=0)).run()  # type: ignore[arg-type]
            bugs = store.bug_table.live()
            said = " ".join(b.route + " " + b.message + " " + b.evidence for b in bugs)
            routes = {s.route.partition("#click")[0] for s in store.history.steps() if s.outcome == "page"}
            kinds = sorted(b.kind for b in bugs)
        finally:
            engine.close()  # type: ignore[attr-defined]
            store.close()
        assert kinds == sorted(PLANTED.values()), (kinds, sorted(routes))
        assert all(error in said for error in ERRORS), said
        assert site.deleted == [], "a destructive event reached the server"
        assert {"login", "listItems", "listPeople", "listNotes"} <= set(site.events)
        assert len(routes) >= 6, sorted(routes)
        # the click's error is tied to the click that sent its event
        (clicked,) = [b for b in bugs if b.kind == "server_error"]
        assert clicked.route.endswith("?event=peopleStats"), clicked.route
        assert "#click" in clicked.evidence, clicked.evidence  # a click state's finding
        assert PASSWORD not in said


@pytest.mark.parametrize("mode", MODES)
def test_without_realtime_the_login_form_never_comes_and_the_error_says_why(mode: str) -> None:
    with serving_realtime() as (url, site):
        engine = _engine(url, mode, realtime=False)
        try:
            with pytest.raises(LoginFailed) as failed:
                engine.log_in()  # type: ignore[attr-defined]
        finally:
            engine.close()  # type: ignore[attr-defined]
        said = str(failed.value)
        assert "WebSocket closed" in said if mode == "ws" else "write not made by the harness" in said, said
        assert "login" not in site.events


def test_a_channel_that_never_answers_or_floods_costs_a_page_a_bounded_wait() -> None:
    with serving_realtime() as (url, _site):
        engine = _engine(url, "ws")
        try:
            engine.log_in()  # type: ignore[attr-defined]
            for route, shown in (("/ws/#/waiting", "Asked."), ("/ws/#/ticks", "Ticks")):
                started = time.monotonic()
                result = engine.fetch(route)  # type: ignore[attr-defined]
                took = time.monotonic() - started
                assert result.page is not None and shown in result.page.body, result
                assert took < 6.0, (route, took)
        finally:
            engine.close()  # type: ignore[attr-defined]
