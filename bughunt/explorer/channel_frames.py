"""What a realtime channel carries, read the way the gate reads requests: which addresses are channels,
how a channel's body splits into frames, what event a frame names, whether that event writes or
destroys, and whether an answer frame reports an error.

A channel is a same-origin connection a page's script keeps open to exchange messages: a WebSocket,
or the long-poll transports that stand in for one over plain requests — engine.io/socket.io's
`?EIO=4&transport=polling` (a GET held open until the server has frames, a POST carrying the page's
frames), SockJS's `/<server>/<session>/xhr` and `/xhr_send`, SignalR's `transport=longPolling`. Their
frames are the page's requests: a frame's event name plays the part of a request's path and method.

Frames are judged by their event's name, never by one application's words: socket.io's event
(`42["deleteItem",7]`), a JSON message's name-like field (`{"type": "item:remove"}`, JSON-RPC's
`method`), or the first strings of a JSON array (Phoenix's `[ref, ref, topic, event, payload]`). The
name's words are the destructive verbs (`destructive_words.VERBS`, plus what destroys over a live
connection: reset, kick, ban, clear, purge) or the verbs that write (create, update, save… and the
state verbs of `unsafe_get`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bughunt.oracles.destructive_words import VERBS, names_action
from bughunt.oracles.unsafe_get import STATE_VERBS

CHANNEL_PATTERN = (
    r"[?&](?:transport=(?:polling|longPolling|serverSentEvents)|EIO=\d)"
    r"|/[^/?#]+/[^/?#]+/(?:xhr|xhr_send|xhr_streaming|eventsource|htmlfile|jsonp|jsonp_send)(?:[?#]|$)"
)
"""The addresses of the long-poll transports (engine.io/socket.io, SockJS, SignalR), in a form both
Python and the page's JavaScript (`page_scripts`) read."""
_CHANNEL = re.compile(CHANNEL_PATTERN)

_SUBSCRIBES = frozenset({"join", "leave", "subscribe", "unsubscribe", "watch", "unwatch"})
"""Following a topic over a channel is how it reads (Phoenix's `phx_join`, a subscription)."""
CHANNEL_DESTROYS = (VERBS - _SUBSCRIBES) | frozenset({"reset", "kick", "ban", "clear", "purge", "revoke"})
CHANNEL_WRITES = (STATE_VERBS - _SUBSCRIBES) | frozenset(
    (
        "create add new insert update edit save set put post patch send write rename move upload submit "
        "import change assign invite register publish archive restore"
    ).split()
)
_NAME_KEYS = ("type", "event", "action", "op", "method", "cmd", "command", "name", "kind", "topic")
_ERROR_WORDS = frozenset({"error", "exception", "fail", "failed", "failure", "fault"})
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SIO = re.compile(r"^4([0-6])(?:\d+-)?(?:(/[^,\[{\"]*),)?(\d*)(.*)$", re.S)
MAX_FRAME_CHARS = 200_000
"""A frame longer than this is judged by its first characters only."""


def is_channel(url: str) -> bool:
    """The address is a long-poll channel transport's (not a WebSocket: those have their own route)."""
    return bool(_CHANNEL.search(url))


def name_words(name: str) -> list[str]:
    """`deleteItem` → delete item; `item:remove`, `items_purge` alike."""
    return [w for w in re.split(r"[^a-z0-9]+", _CAMEL.sub(" ", name).lower()) if w]


@dataclass(frozen=True, slots=True)
class Frame:
    """One message: its event name ("" when it names none), whether it is an answer (an ack or a
    reply) and its payload as JSON when it parses."""

    event: str
    answer: bool = False
    payload: Any = None
    error: bool = False
    """The protocol itself says so (socket.io's CONNECT_ERROR)."""
    ack: str = ""
    """The id pairing an event with its answer (socket.io's ack id, a JSON message's `id`/`re`)."""


def split_polling(body: str) -> list[str]:
    """An engine.io long-poll body into its packets: v4 joins them with the record separator, v3 (and
    socket.io 2) prefixes each with its length (`5:42[…]`); anything else is one frame."""
    if "\x1e" in body:
        return body.split("\x1e")
    frames: list[str] = []
    rest = body
    while (m := re.match(r"^(\d+):", rest)) is not None:
        size = int(m.group(1))
        start = m.end()
        frames.append(rest[start : start + size])
        rest = rest[start + size :]
        if not rest:
            return frames
    return [*frames, rest] if rest or not frames else frames


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _named(value: Any) -> str:
    """The event a JSON message names: a name-like key's string, or an array's leading strings."""
    if isinstance(value, dict):
        for key in _NAME_KEYS:
            got = value.get(key)
            if isinstance(got, str) and got:
                return got[:100]
        return ""
    if isinstance(value, list):
        return " ".join(v[:100] for v in value[:5] if isinstance(v, str) and not v.isdigit())
    return ""


def read_frame(text: str) -> Frame:
    """One frame of any of the protocols above."""
    text = text[:MAX_FRAME_CHARS]
    m = _SIO.match(text) if text[:1] == "4" and text[1:2].isdigit() else None
    if m is not None:  # an engine.io message carrying a socket.io packet
        kind, ack, payload_text = m.group(1), m.group(3), m.group(4)
        payload = _json(payload_text) if payload_text else None
        if kind in ("2", "5"):  # EVENT, BINARY_EVENT
            name = payload[0] if isinstance(payload, list) and payload and isinstance(payload[0], str) else ""
            return Frame(name[:100], payload=payload[1:] if isinstance(payload, list) else payload, ack=ack)
        if kind in ("3", "6"):  # ACK, BINARY_ACK
            return Frame("", answer=True, payload=payload, ack=ack)
        if kind == "4":  # CONNECT_ERROR
            return Frame("", answer=True, payload=payload, error=True)
        return Frame("", payload=payload)  # CONNECT, DISCONNECT
    if text[:1] in ("0", "1", "2", "3", "5", "6") and not text[1:2].isdigit():
        return Frame("")  # engine.io's own packets: open, close, ping, pong, upgrade, noop
    payload = _json(text)
    if payload is None:
        return Frame(" ".join(text.split()[:1])[:100])
    named = _named(payload)
    reply = isinstance(payload, dict) and any(
        k in payload for k in ("re", "reply", "ack", "result", "error", "id")
    )
    ack = ""
    if isinstance(payload, dict):
        keys = ("id",) if named else ("re", "reply", "ack", "id")
        ack = next((str(payload[k])[:40] for k in keys if isinstance(payload.get(k), (int, str))), "")
    return Frame(named, answer=reply and not named, payload=payload, ack=ack)


def verb_of(frame: Frame) -> tuple[str, str] | None:
    """("destroys" | "writes", the event) when the frame's event names such a verb."""
    for part in frame.event.split(" "):
        words = name_words(part)
        if names_action(" ".join(words), CHANNEL_DESTROYS):
            return "destroys", part
        if names_action(" ".join(words), CHANNEL_WRITES):
            return "writes", part
    return None


def error_of(frame: Frame) -> tuple[str, int | None] | None:
    """(what the frame says went wrong, the status it names) when an answer or an event reports an
    error: socket.io's CONNECT_ERROR, an event named as one (`error`, `exception`), or a message
    whose `error`/`errors`/`err` is set or whose `status`/`code` is 500 or more."""
    payload = frame.payload
    if isinstance(payload, list) and len(payload) == 1:
        payload = payload[0]
    named_error = bool(_ERROR_WORDS & set(name_words(frame.event)))
    status = None
    said: Any = None
    if isinstance(payload, dict):
        for key in ("status", "code", "statusCode"):
            value = payload.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and 400 <= value < 600:
                status = value
        for key in ("error", "errors", "err"):
            if payload.get(key):
                said = payload[key]
                break
        if said is None and status is not None and status >= 500:
            said = payload.get("message") or payload.get("msg") or f"status {status}"
    if said is None and (named_error or frame.error):
        said = payload if payload is not None else frame.event
    if said is None:
        return None
    text = said if isinstance(said, str) else json.dumps(said)[:300]
    return text[:300], status


def judge_frames(
    frames: list[str], carries: Callable[[str], bool], *, login: bool, writes: bool
) -> tuple[list[str], list[str], bool]:
    """(the frames kept, why each refused one was refused, whether a kept one carries the password):
    the password only while the login is armed (the login's own submit over the channel), an event
    that writes or destroys only while the harness admits writes (`--allow-destructive`'s actions)."""
    kept: list[str] = []
    refused: list[str] = []
    secret = False
    for text in frames:
        if carries(text):
            if not login:
                refused.append("channel frame carrying the password")
                continue
            secret = True
        verb = verb_of(read_frame(text))
        if verb is not None and not writes and not (login and secret):
            refused.append(f"channel event that {verb[0]}: {verb[1][:60]}")
            continue
        kept.append(text)
    return kept, refused, secret


def event_names(frames: list[str]) -> list[str]:
    return [read_frame(f).event[:60] or "frame" for f in frames]


def joined(frames: list[str], body: str) -> str:
    """Frames put back into a long-poll body the way `body` was framed."""
    if "\x1e" in body or not re.match(r"^\d+:", body):
        return "\x1e".join(frames)
    return "".join(f"{len(f)}:{f}" for f in frames)
