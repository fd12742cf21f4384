"""The pieces of an application shell over an RPC dialect, read without a browser: a call envelope that is
not JSON-RPC's (`rpc_calls`), a 4xx the script sends again at once (`retried_requests`), a list's row
whose selection says nothing of the others (`grid_rows.list_row`) and a click that enabled what the page
showed disabled (`enabled_controls.enabled_by`). See `test_rpc_shell_browser.py` for the walk."""

from __future__ import annotations

import json

from bughunt.explorer.enabled_controls import enabled_by
from bughunt.explorer.gate import Gate
from bughunt.explorer.grid_rows import selects_row
from bughunt.explorer.retried_requests import RetriedRequests
from bughunt.explorer.rpc_calls import call_verb, rpc_methods
from bughunt.page import ClientError, FetchedPage

HOME = "http://127.0.0.1:8000"
JSON = {"content-type": "json"}


def _call(method: str, **envelope: object) -> bytes:
    return json.dumps({"method": method, **envelope}).encode()


def test_a_dialects_envelope_is_a_call_and_a_forms_method_field_is_not() -> None:
    assert rpc_methods(JSON, _call("torrent-get", arguments={"fields": ["id"]}, tag=4)) == ["torrent-get"]
    assert rpc_methods(JSON, _call("session-get")) == ["session-get"]  # a read with no arguments
    assert rpc_methods(JSON, _call("card")) is None  # one word: a form's value, no method's name
    assert rpc_methods(JSON, _call("credit_card", amount=3)) is None  # a form's other fields
    gate = Gate(HOME)
    assert gate.judge("POST", HOME + "/rpc", JSON, _call("torrent-get", arguments={})) is None
    assert gate.judge("POST", HOME + "/rpc", JSON, _call("session-stats")) is None
    for write in (
        "torrent-remove",
        "torrent-stop",
        "session-close",
        "torrent-set-location",
        "queue-move-top",
    ):
        assert gate.judge("POST", HOME + "/rpc", JSON, _call(write, arguments={"ids": [1]})) is not None, (
            write
        )


def test_an_object_first_method_name_is_read_by_its_verb() -> None:
    assert call_verb("torrent-set-location") == ("writes", "torrent-set-location")
    assert call_verb("queue-move-top") == ("writes", "queue-move-top")
    assert call_verb("torrent-rename-path") == ("writes", "torrent-rename-path")
    assert call_verb("session-close") == ("writes", "session-close")  # it stops the server
    assert call_verb("get_upload_limit") is None  # led by a read: reads what it names
    assert call_verb("core.get_torrent_status") is None


class _Request:
    def __init__(self, body: bytes, url: str = HOME + "/rpc") -> None:
        self.method, self.url, self.post_data_buffer = "POST", url, body


def test_a_4xx_the_script_sent_again_with_success_is_taken_back() -> None:
    held = RetriedRequests()
    first = ClientError("failed_request", "POST 409", HOME + "/rpc", 409)
    held.failed(_Request(b'{"method": "session-get"}'), first)
    assert held.answered(_Request(b'{"method": "torrent-get"}'), 200) is None  # another call
    assert held.answered(_Request(b'{"method": "session-get"}'), 409) is None  # failed again
    assert held.answered(_Request(b'{"method": "session-get"}'), 200) is first
    server = ClientError("failed_request", "POST 500", HOME + "/rpc", 500)
    held.failed(_Request(b"{}"), server)
    assert held.answered(_Request(b"{}"), 200) is None  # a server error is no handshake


def _page(html: str, route: str = "/") -> FetchedPage:
    return FetchedPage(HOME + route, route, 200, {}, "text/html", html, 1.0)


ROWS = "".join(f'<li style="cursor:pointer" onclick="pick({n})">Disc {n}</li>' for n in range(1, 5))


def test_a_lists_row_selects_one_record() -> None:
    page = _page(f"<html><body><ul id='items'>{ROWS}</ul><a href='#' onclick='x()'>Help</a></body></html>")
    assert selects_row(page, "#items > li:nth-of-type(2)")
    assert not selects_row(page, "html > body > a")


def test_a_click_that_enabled_the_toolbar_enabled_something() -> None:
    bar = '<div id="bar"><button type="button" id="rm" {}>Remove</button></div>'
    before = _page(f"<html><body>{bar.format('disabled')}<ul id='items'>{ROWS}</ul></body></html>")
    after = _page(f"<html><body>{bar.format('')}<ul id='items'>{ROWS}</ul></body></html>", "/#click-1")
    again = _page(
        f"<html><body>{bar.format('disabled')}<ul id='items'>{ROWS}</ul></body></html>", "/#click-2"
    )
    assert enabled_by(before, after) == frozenset({"#rm"})
    assert enabled_by(before, again) == frozenset()
