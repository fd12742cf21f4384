"""The user's `--header` values replace the request's own headers of the same name in any case:
HTTP header names are case-insensitive, and a header sent twice is read differently by servers."""

from __future__ import annotations

from bughunt.explorer.browser import with_user_headers


def test_a_user_header_in_another_case_replaces_the_requests_own():
    merged = with_user_headers({"x-token": "page", "accept": "text/html"}, {"X-Token": "user"})
    assert merged == {"accept": "text/html", "X-Token": "user"}


def test_request_headers_the_user_did_not_name_are_kept():
    merged = with_user_headers({"cookie": "a=1", "user-agent": "ua"}, {"Authorization": "Bearer t"})
    assert merged == {"cookie": "a=1", "user-agent": "ua", "Authorization": "Bearer t"}
