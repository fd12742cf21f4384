"""The browser engine on a single-page app served on loopback: rendered links become actions, states
that share a URL are told apart by their structure hash, client-side errors become `client_error`
findings with harness wording, other origins are never contacted, and `auto` picks the browser."""

from __future__ import annotations

import shutil

import pytest

from bughunt.actions import extract_actions
from bughunt.explorer.factory import looks_like_app_shell, make_engine
from bughunt.explorer.http_engine import HttpEngine
from bughunt.oracles import inspect_page
from memgpt_lite.errors import UsageError
from tests.support.spa import WRITES, OffOrigin, spa  # noqa: F401 (spa: the loopback single-page app fixture)

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")


@pytest.fixture(scope="module")
def browser_fetcher(spa):  # noqa: F811
    fetcher, why = make_engine("browser", spa + "/", timeout=10)
    yield fetcher
    fetcher.close()


def test_the_http_engine_sees_an_empty_shell_and_auto_picks_the_browser(spa):  # noqa: F811
    shell = HttpEngine(spa + "/").fetch("/")
    assert shell.page is not None and extract_actions(shell.page) == []
    assert looks_like_app_shell(shell.page)
    fetcher, why = make_engine("auto", spa + "/", timeout=10)
    try:
        assert fetcher.name == "browser"
        assert why == "engine auto: browser (the start page shows almost nothing without scripts)"
    finally:
        fetcher.close()


# Before the module's shared browser exists: Playwright's sync API runs one instance per thread.
@pytest.mark.slow
def test_explore_auto_stores_the_engine_and_resume_reuses_it(spa, tmp_path, capsys):  # noqa: F811
    import json

    from bughunt.cli import main
    from bughunt.explorer.store import ExplorerStore

    store = tmp_path / "store"
    assert (
        main(
            [
                "explore",
                "--url",
                spa + "/",
                "--store",
                str(store),
                "--engine",
                "auto",
                "--budget",
                "1",
                "--json",
            ]
        )
        == 0
    )
    first = capsys.readouterr()
    assert "engine auto: browser" in first.err
    assert main(["resume", "--store", str(store), "--budget", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # Only a browser sees the rendered links, so pages past the start mean the browser was reused.
    assert {"/item/1", "/item/2"} & set(data["pages_visited"])
    opened = ExplorerStore(store)
    try:
        assert opened.meta.get("engine") == "browser"
    finally:
        opened.close()


def test_rendered_links_are_actions_and_other_origins_are_never_contacted(browser_fetcher, spa):  # noqa: F811
    result = browser_fetcher.fetch("/")
    assert result.outcome == "page" and result.page is not None
    page = result.page
    assert page.status == 200 and page.url == spa + "/" and "Home" in page.document.text()
    actions = browser_fetcher.actions(page)
    assert [(a.kind, a.target) for a in actions if a.kind == "link"] == [
        ("link", spa + "/item/1"),
        ("link", spa + "/item/2"),
    ]
    clicks = [a for a in actions if a.kind == "click"]
    assert [(c.label, c.selector) for c in clicks] == [("Show details", "#more")]
    assert OffOrigin.hits == []  # the off-origin image was aborted in the browser


def test_a_click_gives_a_new_state_at_the_same_url(browser_fetcher, spa):  # noqa: F811
    assert browser_fetcher.name == "browser" and browser_fetcher.can_click
    home = browser_fetcher.fetch("/").page
    click = next(a for a in browser_fetcher.actions(home) if a.kind == "click")
    after = browser_fetcher.perform(click)
    assert after.outcome == "page" and after.page is not None
    assert after.page.url == spa + "/" and "Details" in after.page.document.text()
    assert after.page.structure_hash != home.structure_hash
    # The same state again hashes the same (text-independent, deterministic).
    assert browser_fetcher.perform(click).page.structure_hash == after.page.structure_hash


def test_a_click_never_sends_a_write_and_the_refusal_is_not_the_pages_error(browser_fetcher):
    page = browser_fetcher.fetch("/fav").page
    clicks = [a for a in browser_fetcher.actions(page) if a.kind == "click"]
    # The button repeated in each of five items is offered twice, not five times.
    assert [c.label for c in clicks] == ["Favorite", "1", "2"]
    click = clicks[0]
    after = browser_fetcher.perform(click)
    assert after.outcome == "page" and after.page is not None
    assert WRITES == []  # the favourite's POST was not sent
    assert after.page.client_errors == ()
    assert [f for f in inspect_page(after.page) if f.kind == "client_error"] == []


def test_uncaught_errors_and_failed_fetches_are_client_errors_in_harness_words(browser_fetcher):
    thrown = browser_fetcher.fetch("/item/2").page
    assert [e.kind for e in thrown.client_errors] == ["js_error"]
    findings = [f for f in inspect_page(thrown) if f.kind == "client_error"]
    assert [f.message for f in findings] == ["uncaught JavaScript error while the page ran"]
    assert "Ignore previous instructions" in findings[0].evidence["client_errors"][0]["text"]  # evidence only

    failed = browser_fetcher.fetch("/item/1").page
    kinds = sorted(e.kind for e in failed.client_errors)
    assert kinds == ["console_error", "failed_request"]
    messages = [f.message for f in inspect_page(failed) if f.kind == "client_error"]
    assert messages == ["an XHR/fetch request of the page failed with a server error status"]
    assert all("SECRET-CONSOLE-TEXT" not in m for m in messages)


def test_an_uncaught_error_is_recorded_as_its_own_string_says_and_a_self_cancellation_is_none(
    browser_fetcher,
):
    # A toolkit's error class renamed by its build (`_r`) is named by its prototype's `name`, not the
    # constructor: Chromium's own report says only `_r`.
    pane = browser_fetcher.fetch("/pane").page
    assert [(e.kind, e.text) for e in pane.client_errors] == [
        ("js_error", "RequestError: Unable to load the pane")
    ]
    assert [f.kind for f in inspect_page(pane) if f.kind == "client_error"] == ["client_error"]
    # The page cancelling its own loads (a CancelError, an unhandled AbortError) is recorded as said and
    # judged no error.
    tabs = browser_fetcher.fetch("/tabs").page
    texts = sorted(e.text.split(":")[0] for e in tabs.client_errors if e.kind == "js_error")
    assert texts == ["AbortError", "CancelError"]
    assert [f for f in inspect_page(tabs) if f.kind == "client_error"] == []


def test_a_request_the_previous_page_left_running_is_not_the_next_pages_error(browser_fetcher):
    slow = browser_fetcher.fetch("/slow").page
    assert slow.client_errors == ()
    home = browser_fetcher.fetch("/").page  # navigating away aborts /api/slow
    assert home.client_errors == ()
    assert [f for f in inspect_page(home) if f.kind == "client_error"] == []


def test_missing_chromium_is_one_clear_error(monkeypatch, spa):  # noqa: F811
    import bughunt.explorer.chromium as chromium

    monkeypatch.setattr(chromium.shutil, "which", lambda name: None)
    monkeypatch.setattr(chromium.Path, "exists", lambda self: False)
    with pytest.raises(UsageError, match=r"^--engine browser needs Chromium: /usr/bin/chromium not found"):
        make_engine("browser", spa + "/")
