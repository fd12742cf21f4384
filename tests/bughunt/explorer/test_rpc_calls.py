"""A JSON-RPC call to the site is judged by what its method names, not by its HTTP method: a widget
toolkit's single-page app reads everything through one POST route, and refusing every POST there
refused the reads its login window waits for (a corpus ExtJS app could not be logged into at all)."""

from __future__ import annotations

import json

from bughunt.explorer.gate import Gate
from bughunt.explorer.rpc_calls import call_verb, refused_call, rpc_methods

HOME = "http://127.0.0.1:8000"
JSON = {"content-type": "application/json"}


def call(method: str, *params: object) -> bytes:
    return json.dumps({"method": method, "params": list(params), "id": 4}).encode()


def test_the_gate_admits_a_read_call_and_refuses_a_call_that_writes_or_destroys() -> None:
    gate = Gate(HOME, secret="s3cret&x")
    assert gate.judge("POST", HOME + "/json", JSON, call("system.listMethods")) is None
    assert gate.judge("POST", HOME + "/json", JSON, call("core.get_torrent_status", "ab", ["name"])) is None
    assert gate.judge("POST", HOME + "/json", JSON, call("web.update_ui", ["name"], {})) is None
    assert gate.judge("POST", HOME + "/json", JSON, call("web.register_event_listener", "Ev")) is None
    assert gate.judge("POST", HOME + "/json", JSON, call("core.remove_torrents", ["ab"], False)) is not None
    assert gate.judge("POST", HOME + "/json", JSON, call("core.set_torrent_options", ["ab"], {})) is not None
    assert gate.judge("POST", HOME + "/json", JSON, call("core.pause_torrent", ["ab"])) is not None
    assert gate.judge("POST", HOME + "/json", JSON, call("auth.delete_session")) is not None
    reasons = [r.reason for r in gate.take_refusals()]
    assert reasons[0] == "RPC call that destroys: core.remove_torrents"
    assert reasons[1] == "RPC call that writes: core.set_torrent_options"


def test_a_batch_is_refused_when_any_call_in_it_writes() -> None:
    gate = Gate(HOME)
    batch = json.dumps(
        [
            {"jsonrpc": "2.0", "method": "get_items", "id": 1},
            {"jsonrpc": "2.0", "method": "item.delete", "params": [3], "id": 2},
        ]
    )
    assert gate.judge("POST", HOME + "/rpc", JSON, batch.encode()) is not None
    reads = json.dumps([{"jsonrpc": "2.0", "method": "get_items", "id": 1}])
    assert gate.judge("POST", HOME + "/rpc", JSON, reads.encode()) is None


def test_what_is_no_call_keeps_the_write_rule() -> None:
    gate = Gate(HOME, secret="s3cret&x")
    # a JSON form with a field named `method` (how to pay) is a write, not a call
    assert rpc_methods(JSON, b'{"method": "card", "amount": 3}') is None
    assert gate.judge("POST", HOME + "/pay", JSON, b'{"method": "card", "amount": 3}') is not None
    # a call's shape sent as a form, or to another origin, is not admitted either
    assert gate.judge("POST", HOME + "/json", {"content-type": "text/plain"}, call("get_items")) is not None
    assert gate.judge("POST", "http://127.0.0.1:8001/json", JSON, call("get_items")) is not None
    # a read call carrying the password is the armed login's or nothing
    assert gate.judge("POST", HOME + "/json", JSON, call("auth.check", "s3cret&x")) is not None
    gate.arm_write(True)
    assert gate.judge("POST", HOME + "/json", JSON, call("auth.login", "s3cret&x")) is None


def test_a_method_is_read_by_its_last_segment_and_its_object() -> None:
    assert refused_call(JSON, call("web.get_events")) == ""
    assert refused_call(JSON, b"not json") is None
    assert call_verb("Player.Stop") == ("writes", "Player.Stop")  # an operation on what the server runs
    assert call_verb("torrents/queue_up") == ("writes", "torrents/queue_up")
    assert call_verb("update_display") is None  # the client's own screen
    assert call_verb("update_record") == ("writes", "update_record")
    assert call_verb("items.count") is None


class _Request:
    def __init__(self, body: bytes, method: str = "POST", kind: str = "xhr") -> None:
        self.method, self.resource_type, self.post_data_buffer = method, kind, body
        self.headers = {"Content-Type": "application/json"}


class _Response:
    def __init__(self, request: _Request, answer: object, status: int = 200) -> None:
        self.request, self.status, self.url = request, status, HOME + "/json"
        self.headers = {"content-type": "application/json"}
        self._body = json.dumps(answer).encode()

    def body(self) -> bytes:
        return self._body


def test_an_rpc_error_answer_is_a_failure_of_the_call_though_its_status_is_200() -> None:
    # JSON-RPC answers a failed call 200 with `error` set: a Details tab whose status call fails in
    # the server showed nothing, and no failed request was recorded.
    from bughunt.explorer.rpc_calls import failed_answer, read_call

    asked = _Request(call("core.get_torrent_status", "ab", ["comment"]))
    assert read_call(asked)
    failed = failed_answer(
        _Response(asked, {"result": None, "error": {"message": "AttributeError", "code": 4}})
    )
    assert failed is not None
    kind, text, where, _status = failed
    assert kind == "channel_error" and where == "/json?event=core.get_torrent_status"
    assert text.startswith("EMIT core.get_torrent_status: ")
    assert failed_answer(_Response(asked, {"result": {"name": "x"}, "error": None, "id": 4})) is None
    assert failed_answer(_Response(_Request(b'{"a": 1}'), {"error": "no call asked"})) is None
    assert failed_answer(_Response(asked, {"error": None}, status=500))[0] == "failed_request"  # type: ignore[index]
    assert not read_call(_Request(call("core.remove_torrents", ["ab"])))
