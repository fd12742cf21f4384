"""An error status with an empty body is the site's answer in the browser engine too: Chromium shows its
own error page for it (`goto` raises `ERR_HTTP_RESPONSE_CODE_FAILURE`), which was taken for a network
failure — a view answering an empty 500 (PHP's fatal error with `display_errors` off) was a
`network_error` step and never a server error. Loaded by address or reached by a click, it is a page of
that status now, as the HTTP engine reads it."""

from __future__ import annotations

import shutil

import pytest

from bughunt.actions import Action
from bughunt.oracles import inspect_page
from tests.support.engines import browser_on
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")


class _Site(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path == "/broken":
            return self.reply(500, "")  # a fatal error printed nowhere: status line and headers only
        if self.path == "/gone":
            return self.reply(404, "")
        self.reply(
            200,
            "<html><head><title>Feeds</title></head><body><h1>Feeds</h1>"
            '<a href="/broken">Global view</a>'
            '<button type="button" id="go" onclick="location.href=\'/broken\'">Open global view</button>'
            "</body></html>",
        )


def test_an_empty_500_loaded_by_address_is_a_server_error_page() -> None:
    with browser_on(_Site, respect_robots=False) as engine:
        result = engine.fetch("/broken")
        assert result.outcome != "network_error" and result.status == 500, result
        assert result.page is not None and result.page.body == ""
        kinds = [f.kind for f in inspect_page(result.page)]
        assert "server_error" in kinds, kinds
        missing = engine.fetch("/gone")
        assert missing.status == 404, missing


def test_an_empty_500_a_click_navigates_to_is_a_server_error_page() -> None:
    with browser_on(_Site, respect_robots=False) as engine:
        base = engine.url_of("/")
        done = engine.perform(Action("click", base, "Open global view", "#go"))
        assert done.outcome not in ("network_error", "blocked") and done.status == 500, done
        assert done.page is not None and done.page.route == "/broken"
