"""A single-page app whose view throws while it renders draws its error boundary ("Something went
wrong") in place of the view: one failure, the script's. Read as a server's error page as well, it was
a second report of the one bug (issue 25; corpus ho13_aiohttp_admin, a record page whose nested list
throws on every record of one collection). Pages here are made up (a hash-routed catalogue)."""

from __future__ import annotations

from dataclasses import replace

from bughunt.oracles import inspect_page
from bughunt.page import ClientError, FetchedPage
from bughunt.urls import route_of

APP = "http://app.test"
BOUNDARY = (
    "<html><body><div id='root'><header><a href='#/shelf'>Shelves</a></header><main>"
    "<div class='panel'><h2>Something went wrong</h2><p>A client error occurred.</p>"
    "<button>Go back</button></div></main></div><script src='/bundle-91c2.js'></script></body></html>"
)
THROWN = ClientError(
    "console_error",
    "TypeError: Cannot read properties of undefined (reading 'find')\n    at q (bundle-91c2.js:1:9)",
    "",
)


def view(*errors: ClientError, route: str = "/shelf/4/show") -> FetchedPage:
    url = f"{APP}/#{route}"
    return FetchedPage(
        url, route_of(url, hash_routes=True), 200, {}, "text/html", BOUNDARY, 1.0, client_errors=errors
    )


def test_an_error_boundary_after_the_script_threw_is_one_client_error() -> None:
    findings = inspect_page(view(THROWN))
    assert [f.kind for f in findings] == ["client_error"], [(f.kind, f.message) for f in findings]


def test_an_error_page_with_no_script_failure_is_still_a_server_error() -> None:
    findings = inspect_page(view())
    assert [f.kind for f in findings] == ["server_error"]


def test_an_error_page_after_a_failed_request_keeps_both_readings() -> None:
    failed = ClientError("failed_request", "GET 500", f"{APP}/api/shelf/4", 500)
    kinds = sorted(f.kind for f in inspect_page(view(failed, THROWN)))
    assert kinds == ["client_error", "server_error"]


def test_a_click_that_leaves_the_error_boundary_in_place_is_that_failure_still() -> None:
    thrown = view(THROWN)
    clicked = replace(view(), clicked_from=(thrown, "Go back"))  # the click's record starts afresh
    assert inspect_page(clicked) == []
    # a click from a page that did not throw onto an error view is read as it was
    assert [f.kind for f in inspect_page(replace(view(), clicked_from=(view(), "Open")))] == ["server_error"]
