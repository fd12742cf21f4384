"""The error's own text, not the site's banner (`bughunt/oracles/server_error.py`, `error_summary`).

A made-up wiki's layout draws its project name in an `h1` on every page (one theme adds the page's
title beside it); its error page says "Bad Request" in the title and the error itself in the content.
One error answered on two sibling routes, under two themes, is one error key and so one bug; two
errors stay two keys. Generic markup."""

from __future__ import annotations

from bughunt.explorer.inspection import _flagged_twins, same_root_cause
from bughunt.oracles.server_error import check_server_error, error_summary
from tests.support.pages import Site, open_bug

WIKI = Site("http://wiki.test", "<html>", "</html>")

THEMES = {
    "plain": '<div class="header"><div class="title"><h1>Acme</h1>Bad Request</div></div>',
    "dark": '<div class="top"><h1>Acme <small>&nbsp;Bad Request</small></h1><a href="/logout">Logout</a></div>',
}


def error_page(path: str, theme: str, error: str = "Invalid thread mode") -> str:
    return (
        f"<head><title>Acme: Bad Request</title></head><body>{THEMES[theme]}"
        '<div class="menu"><a href="/home">Home</a><a href="/forum">Forum</a></div>'
        f'<div class="content"><h1>/thread: {error}: &quot;c&quot;</h1></div>'
        '<div class="footer">Served by a wiki</div></body>'
    )


def test_the_error_is_read_past_the_banner_whatever_the_theme() -> None:
    plain = WIKI.page(error_page("/thread/abdf492684?t=c&unf", "plain"), "/thread/abdf492684?t=c&unf", 500)
    dark = WIKI.page(error_page("/thread/8719365514?t=c", "dark"), "/thread/8719365514?t=c", 500)
    assert error_summary(plain) == error_summary(dark) == '/thread: Invalid thread mode: "c"'
    [first], [second] = check_server_error(plain), check_server_error(dark)
    assert first.evidence["error_key"] == second.evidence["error_key"]
    # a hash id all of whose digits happen to be decimal, a display flag (`&unf`) on one visit only
    [joined] = same_root_cause([second], [open_bug(first)])
    assert joined.fingerprint == first.fingerprint


def test_a_display_flag_joins_and_another_value_does_not() -> None:
    assert _flagged_twins("/thread/abdf492684?t=c&unf", "/thread/8719365514?t=c")
    assert not _flagged_twins("/thread/abdf492684?t=c&unf", "/thread/8719365514?t=r")
    assert not _flagged_twins("/thread/abdf492684?unf", "/thread/8719365514")  # no value kept: nothing said
    assert not _flagged_twins("/thread/abdf492684?t=c&unf", "/wiki/8719365514?t=c")


def test_two_errors_keep_two_keys_and_a_bare_error_page_reads_as_before() -> None:
    one = WIKI.page(error_page("/thread/abdf492684?t=c", "plain"), "/thread/abdf492684?t=c", 500)
    other = WIKI.page(
        error_page("/thread/abdf492684?t=x", "plain", "Missing reply"), "/thread/abdf492684?t=x", 500
    )
    assert (
        check_server_error(one)[0].evidence["error_key"] != check_server_error(other)[0].evidence["error_key"]
    )
    # nothing says more than the title: the first heading, as before
    bare = WIKI.page(
        "<head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1>"
        "<p>The server encountered an internal error.</p></body>",
        "/x",
        500,
    )
    assert error_summary(bare) == "Internal Server Error"
