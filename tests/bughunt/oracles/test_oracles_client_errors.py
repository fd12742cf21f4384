"""The client-error oracle: one root cause is one bug, whichever page shows it. Pages and routes here
are made up (a hash-routed members app), none is a built-in site's."""

from __future__ import annotations

from dataclasses import replace

from bughunt.oracles import inspect_page
from bughunt.oracles.client_errors import check_client_errors, error_signature, request_signature
from bughunt.page import ClientError, FetchedPage
from bughunt.urls import route_of

APP = "http://app.test"
API = "http://api.test"


def spa(route: str, *errors: ClientError) -> FetchedPage:
    url = f"{APP}/#{route}"
    html = (
        '<html><body><div id="app"><h1>Members</h1></div><script src="/app-3f9a.js"></script></body></html>'
    )
    return FetchedPage(
        url, route_of(url, hash_routes=True), 200, {}, "text/html", html, 1.0, client_errors=errors
    )


def cors_failure(member: str) -> tuple[ClientError, ...]:
    """What a browser shows when an API 500 carries no CORS header: a refused fetch, then console lines."""
    api = f"{API}/v1/posts?starred_by={member}&limit=10&offset=0"
    return (
        ClientError(
            "console_error",
            f"Access to fetch at '{api}' from origin '{APP}' has been blocked by CORS policy.",
            f"{APP}/#/member/{member}/starred",
        ),
        ClientError("failed_request", "GET failed: net::ERR_FAILED", api, None),
        ClientError("console_error", "TypeError: Failed to fetch\n    at q.load (app-3f9a.js:1:2088)", ""),
    )


def test_one_failing_api_call_on_every_members_tab_is_one_bug():
    pages = [spa(f"/member/{m}/starred", *cors_failure(m)) for m in ("ines", "tomas", "wren", "zoe")]
    findings = [f for p in pages for f in inspect_page(p) if f.kind == "client_error"]
    assert len(findings) == 4  # one per page, each an occurrence on its own route ...
    assert len({f.route for f in findings}) == 4
    assert len({f.fingerprint for f in findings}) == 1  # ... of one bug
    assert findings[0].evidence["signature"] == "GET /v1/posts?limit=<v>&offset=<v>&starred_by=<v> failed"
    # The console lines that followed the refused fetch are its evidence, not bugs of their own.
    assert [e["kind"] for e in findings[0].evidence["client_errors"]] == [
        "console_error", "failed_request", "console_error",
    ]  # fmt: skip


def test_different_endpoints_methods_and_statuses_are_different_bugs():
    def failed(url: str, status: int | None, method: str = "GET") -> FetchedPage:
        text = f"{method} {status}" if status else f"{method} failed: net::ERR_FAILED"
        return spa("/member/ines", ClientError("failed_request", text, url, status))

    prints = {
        check_client_errors(page)[0].fingerprint
        for page in (
            failed(f"{API}/v1/posts?starred_by=ines", 500),
            failed(f"{API}/v1/posts?tag=ines", 500),  # another query key: another endpoint
            failed(f"{API}/v1/posts?starred_by=ines", 404),
            failed(f"{API}/v1/posts?starred_by=ines", None),
            failed(f"{API}/v1/comments?starred_by=ines", 500),
            failed(f"{API}/v1/posts?starred_by=ines", 500, "DELETE"),
        )
    }
    assert len(prints) == 6


def test_a_plain_word_the_page_route_carries_is_data_in_the_request_path():
    a = ClientError("failed_request", "GET 500", f"{API}/v1/members/ines/badges", 500)
    b = ClientError("failed_request", "GET 500", f"{API}/v1/members/tomas/badges", 500)
    assert request_signature(a, "/#/member/ines") == request_signature(b, "/#/member/tomas")
    assert request_signature(a, "/#/member/ines") == "GET /v1/members/<v>/badges 500"
    # Without the route's help a plain word stays: `/v1/settings` and `/v1/billing` differ.
    assert request_signature(ClientError("failed_request", "GET 500", f"{API}/v1/settings", 500)) != (
        request_signature(ClientError("failed_request", "GET 500", f"{API}/v1/billing", 500))
    )


def test_two_failing_endpoints_on_one_page_are_two_findings():
    page = spa(
        "/member/ines",
        ClientError("failed_request", "GET 500", f"{API}/v1/posts?author=ines", 500),
        ClientError("failed_request", "GET 500", f"{API}/v1/posts?author=ines&page=2", 500),  # other keys
        ClientError("failed_request", "GET 503", f"{API}/v1/badges", 503),
    )
    assert len(check_client_errors(page)) == 3


def test_errors_without_a_failed_request_are_fingerprinted_by_their_normalised_message():
    def thrown(route: str, text: str) -> FetchedPage:
        return spa(
            route, ClientError("js_error", text, ""), ClientError("console_error", "render failed", "")
        )

    one = check_client_errors(
        thrown("/post/how-to-cook-rice-k2", "TypeError: x is undefined\n at a (m.js:1:2)")
    )
    two = check_client_errors(
        thrown("/post/ten-pasta-rules-p9", "TypeError: x is undefined\n at b (m.js:9:7)")
    )
    other = check_client_errors(thrown("/post/ten-pasta-rules-p9", "RangeError: bad length"))
    assert one[0].fingerprint == two[0].fingerprint != other[0].fingerprint
    assert one[0].message == "uncaught JavaScript error while the page ran"  # the most telling kind
    # Console lines with URLs and ids: shaped, so the same line about another record is the same error.
    x = ClientError("console_error", f"could not load {API}/v1/posts/4711?x=1 (id 4711)", "")
    y = ClientError("console_error", f"could not load {API}/v1/posts/815?x=2 (id 815)", "")
    assert error_signature(x) == error_signature(y)
    assert "4711" not in error_signature(x) and "api.test" not in error_signature(x)


def test_page_text_stays_out_of_messages():
    findings = check_client_errors(spa("/member/ines", *cors_failure("ines")))
    assert all("ines" not in f.message and "CORS" not in f.message for f in findings)
    assert findings[0].message == "an XHR/fetch request of the page failed before any answer was usable"


def test_an_api_500_after_a_click_is_a_server_error_of_the_api_route_tied_to_the_click():
    before = spa("/orders?status=open")
    failed = ClientError("failed_request", "GET 500", f"{API}/v1/orders?status=open&page=2", 500)
    said = ClientError("console_error", "Uncaught (in promise) Error: HTTP 500", "")
    after = replace(spa("/orders?status=open", failed, said), clicked_from=(before, "2"))
    findings = check_client_errors(after)
    assert [(f.kind, f.route) for f in findings] == [("server_error", "/v1/orders?status=open&page=2")]
    found = findings[0]
    assert found.message == "HTTP 500 Internal Server Error from an API request a click made"
    assert found.evidence["action"] == "2" and found.evidence["clicked_on"] == before.route
    assert found.evidence["request"] == "GET /v1/orders?status=open&page=2"
    # The same request failing after the same click elsewhere is the same bug.
    other = replace(
        spa("/orders?status=paid", replace(failed, url=f"{API}/v1/orders?status=paid&page=2")),
        clicked_from=(spa("/orders?status=paid"), "2"),
    )
    assert check_client_errors(other)[0].fingerprint == found.fingerprint
    # Loaded with the page (no click), the failure stays the page's client error.
    assert [f.kind for f in check_client_errors(spa("/orders", failed))] == ["client_error"]
    # A 4xx after a click is a client error, with the click as evidence.
    lost = ClientError("failed_request", "GET 404", f"{API}/v1/orders/9", 404)
    client = check_client_errors(replace(spa("/orders", lost), clicked_from=(before, "Details")))
    assert [f.kind for f in client] == ["client_error"] and client[0].evidence["action"] == "Details"


def test_a_partial_opened_as_a_document_reports_its_failed_requests_not_its_handlers_errors():
    # An htmx endpoint's rows: no title, no script of its own; its buttons call the host page's code.
    rows = '<table><tr><td>a</td><td><button onclick="setLimit(event)">10</button></td></tr></table>'
    missing = ClientError("js_error", "setLimit is not defined", "")
    failed = ClientError("failed_request", "GET 500", f"{APP}/api/count", 500)

    def partial(*errors: ClientError) -> FetchedPage:
        return FetchedPage(
            f"{APP}/api/rows", "/api/rows", 200, {}, "text/html", rows, 1.0, client_errors=errors
        )

    assert check_client_errors(partial(missing)) == []
    [finding] = check_client_errors(partial(missing, failed))
    assert finding.evidence["signature"] == "GET /api/count 500"
    # The same error on a page with a script of its own is the page's bug.
    assert [f.kind for f in check_client_errors(spa("/rows", missing))] == ["client_error"]


def test_a_lone_404_for_one_item_by_its_id_is_an_existence_check_and_a_missing_endpoint_is_a_bug():
    def failed(url: str, status: int, *more: ClientError) -> FetchedPage:
        return spa("/member/ines", ClientError("failed_request", f"GET {status}", url, status), *more)

    assert check_client_errors(failed(f"{API}/v1/me/following/12", 404)) == []
    assert [f.kind for f in check_client_errors(failed(f"{API}/v1/posts/", 404))] == ["client_error"]
    assert [f.kind for f in check_client_errors(failed(f"{API}/v1/me/following/12", 500))] == ["client_error"]
    crash = ClientError("js_error", "TypeError: Cannot read properties of undefined (reading 'name')", "")
    assert [f.kind for f in check_client_errors(failed(f"{API}/v1/members/12", 404, crash))] == [
        "client_error"
    ]


def test_a_request_the_page_cancelled_itself_is_no_error_but_a_real_one_beside_it_is():
    cancelled = [
        ClientError("js_error", "CancelError: Request canceled", ""),  # Dojo, a pane's load superseded
        ClientError("js_error", "AbortError: signal is aborted without reason", ""),  # AbortController
        ClientError("js_error", "CanceledError: canceled", ""),  # axios
    ]
    assert check_client_errors(spa("/member/ines/tabs", *cancelled)) == []
    real = ClientError("js_error", "RequestError: Unable to load /v1/tabs status: 500", "")
    findings = check_client_errors(spa("/member/ines/tabs", *cancelled, real))
    assert [e["text"] for f in findings for e in f.evidence["client_errors"]] == [real.text]
    # Words that merely begin like a cancellation are not one, nor a console line saying it.
    for text, kind in (
        ("Cancellable is not defined", "js_error"),
        ("CancelError: Request canceled", "console_error"),
    ):
        assert len(check_client_errors(spa("/member/ines/tabs", ClientError(kind, text, "")))) == 1


def test_a_get_answered_409_as_the_page_loads_is_a_state_the_page_reads_and_a_fault_beside_it_is_a_bug():
    # a device panel asks whether its device is connected (409: not now) and its system info
    state = ClientError("failed_request", "GET 409", f"{API}/v1/device", 409)
    fault = ClientError("failed_request", "GET 500", f"{API}/v1/system/info", 500)
    assert check_client_errors(spa("/panel", state)) == []
    findings = check_client_errors(spa("/panel", state, fault))
    assert [f.evidence["signature"] for f in findings] == ["GET /v1/system/info 500"]
    # a write refused as a conflict is no question about state
    write = ClientError("failed_request", "POST 409", f"{API}/v1/device/connect", 409)
    assert len(check_client_errors(spa("/panel", write))) == 1
    # after a click the click asked for it: its answer is the click's
    clicked = replace(spa("/panel", state), clicked_from=(spa("/panel"), "Refresh"))
    assert len(check_client_errors(clicked)) == 1
