"""Channel frames read and judged as the gate judges requests (`channel_frames`), and the gate's rules for
a long-poll channel's POST and a WebSocket's tunnel."""

from __future__ import annotations

import pytest

from bughunt.explorer.channel_frames import (
    error_of,
    is_channel,
    joined,
    judge_frames,
    read_frame,
    split_polling,
    verb_of,
)
from bughunt.explorer.gate import WRITE_REFUSED, Gate

SECRET = "hunter2-pass"
ORIGIN = "http://127.0.0.1:8000"
POLL = ORIGIN + "/socket.io/?EIO=4&transport=polling&sid=abc"


@pytest.mark.parametrize(
    ("frame", "event", "verb"),
    [
        ('42["deleteItem",3]', "deleteItem", "destroys"),
        ('421["getItem",{"id":3}]', "getItem", None),
        ('42/admin,7["user:kick",{"id":1}]', "user:kick", "destroys"),
        ('{"op":"reset_stats"}', "reset_stats", "destroys"),
        ('{"type":"item:update","id":3}', "item:update", "writes"),
        ('{"jsonrpc":"2.0","method":"listMonitors","id":1}', "listMonitors", None),
        ('["1","1","room:lobby","phx_join",{}]', "room:lobby phx_join", None),
        ("2", "", None),
        ('0{"sid":"x"}', "", None),
    ],
)
def test_a_frame_names_its_event_and_the_verb_it_carries(frame: str, event: str, verb: str | None) -> None:
    read = read_frame(frame)
    assert read.event == event
    assert (verb_of(read) or (None,))[0] == verb


@pytest.mark.parametrize(
    ("frame", "error"),
    [
        ('431[{"error":"db down"}]', ("db down", None)),
        ('{"re":3,"error":"boom","status":500}', ("boom", 500)),
        ('44{"message":"not authorized"}', ('{"message": "not authorized"}', None)),
        ('42["error","bad input"]', ("bad input", None)),
        ('431[{"ok":true,"error":null}]', None),
        ('{"re":3,"ok":[1,2]}', None),
    ],
)
def test_an_answer_reporting_an_error_is_one(frame: str, error: tuple[str, int | None] | None) -> None:
    assert error_of(read_frame(frame)) == error


def test_long_poll_bodies_split_and_join_in_their_own_framing() -> None:
    assert split_polling('40\x1e42["a"]') == ["40", '42["a"]']
    assert split_polling("2:405:42[1]") == ["40", "42[1]"]
    assert joined(["40", "42[1]"], "2:405:42[1]") == "2:405:42[1]"
    assert joined(["40"], '40\x1e42["a"]') == "40"
    assert is_channel(POLL) and is_channel(ORIGIN + "/echo/000/abcd/xhr_send")
    assert not is_channel(ORIGIN + "/api/items?transport=car")


def test_frames_that_write_destroy_or_carry_the_password_are_kept_back() -> None:
    frames = ['42["listItems"]', '42["deleteItem",3]', f'42["login",{{"password":"{SECRET}"}}]']
    carries = lambda f: SECRET in f  # noqa: E731
    kept, refused, secret = judge_frames(frames, carries, login=False, writes=False)
    assert kept == ['42["listItems"]'] and len(refused) == 2 and not secret
    kept, refused, secret = judge_frames(frames, carries, login=True, writes=False)
    assert kept == [frames[0], frames[2]] and secret
    kept, refused, _ = judge_frames(frames[:2], carries, login=False, writes=True)
    assert kept == frames[:2] and not refused


def test_the_gate_judges_a_channel_post_by_its_frames() -> None:
    gate = Gate(ORIGIN, secret=SECRET)
    assert gate.judge("POST", POLL, {}, b'42["listItems"]') is None
    assert gate.judge("POST", POLL, {}, b'42["deleteItem",3]') is not None
    assert gate.judge("POST", POLL, {}, f'42["login",{{"p":"{SECRET}"}}]'.encode()) is not None
    gate.arm_write(True)
    assert gate.judge("POST", POLL, {}, f'42["login",{{"p":"{SECRET}"}}]'.encode()) is None
    assert gate.judge("POST", POLL, {}, f'42["login",{{"p":"{SECRET}"}}]'.encode()) is not None  # once
    gate.arm_action(True)
    assert gate.judge("POST", POLL, {}, b'42["deleteItem",3]') is None
    other = "http://127.0.0.1:9000/socket.io/?EIO=4&transport=polling"
    assert gate.judge("POST", other, {}, b'42["listItems"]') == "another origin"


def test_without_realtime_a_channel_post_is_a_write_like_any_other() -> None:
    gate = Gate(ORIGIN, secret=SECRET, realtime=False)
    assert gate.judge("POST", POLL, {}, b'42["listItems"]') == WRITE_REFUSED
