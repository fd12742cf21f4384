"""Calls to a JSON-RPC endpoint, read the way the gate reads requests: a POST whose JSON body names a
`method` is a call, and what it does is what its method's name says — not its HTTP method.

Widget-toolkit single-page apps (ExtJS, Dojo, Knockout front ends of torrent clients, media centres,
NAS and router panels, Odoo's web client) read everything through one POST route: `{"method":
"core.get_status", "params": [...], "id": 3}` (JSON-RPC 1.0/2.0, also as a batch: a JSON array of such
calls). Refusing every POST there refuses every read, and the page never draws. So a call is judged like a
realtime channel's frame (`channel_frames`): by its name's verb. The name proper is the method's last
segment (`core.remove_torrents` → remove torrents; what stands before the dot or slash is the
namespace), read as `destructive_words.names_action` reads a path segment. Two objects make a write verb
no write: the client's own interface (`update_ui`, `update_display`: the caller asks for what to draw,
nothing on the server changes) and an event listener (`register_event_listener`: a subscription to
events, which a channel's `subscribe`/`watch` frames are too).

A body is a call only when it has JSON-RPC's shape (`method` a string beside `params`, `id` or
`jsonrpc`) or a dialect's envelope: `method` beside `arguments`/`args` and a `tag` echoed back
(Transmission's RPC, Tixati's and qBittorrent-style bridges), or `method` alone naming a compound verb
phrase (`session-get`, `core.get_config`): a read with no parameters sends nothing else. A JSON form
whose field is named `method` (a payment method) is no call: it sends its other fields beside it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from bughunt.oracles.destructive_words import OPERATIONS, names_action

from .channel_frames import CHANNEL_DESTROYS, CHANNEL_WRITES, Frame, error_of, name_words

MAX_CALL_BODY = 200_000
"""A body longer than this is not read as a call (a call names a method and a few parameters)."""
MAX_ANSWER_BYTES = 2_000_000
"""An answer longer than this is read no further (it no longer parses: not judged)."""
_CALL_KEYS = frozenset({"params", "id", "jsonrpc"})
_ENVELOPE_KEYS = frozenset({"method", "arguments", "args", "tag"})
"""The keys of a dialect's call envelope: what stands beside `method` is the call's arguments and a tag
the answer carries back, nothing of a form's."""
CALL_WRITES = (
    CHANNEL_WRITES
    | OPERATIONS
    | frozenset(
        "pause resume start run queue enable force apply reorder recheck connect disconnect login logout "
        "execute exec install upgrade verify reannounce close quit exit".split()
    )
)
"""A call runs what a person would click: besides writing a record it starts, pauses, queues or
connects what the server runs — a verb a GET's path could not be read by (`/queue/3` is a page), but
a method's name is always a verb phrase."""
_CLIENT_SIDE = frozenset({"ui", "gui", "display", "screen"})
_LISTENERS = frozenset({"listener", "listeners", "observer", "observers", "watcher", "watchers"})
_NAMESPACE = re.compile(r"[./:]")


def rpc_methods(headers: Mapping[str, str], body: bytes) -> list[str] | None:
    """The method names a JSON-RPC call (or batch) in this POST body names, or None when it is none
    (`headers` with lower-case names)."""
    if "json" not in headers.get("content-type", "").lower() or len(body) > MAX_CALL_BODY:
        return None
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    calls = data if isinstance(data, list) else [data]
    if not calls or not all(isinstance(c, dict) and _is_call(c) for c in calls):
        return None
    return [c["method"] for c in calls]


def _is_call(body: dict[str, Any]) -> bool:
    method = body.get("method")
    if not isinstance(method, str):
        return False
    if _CALL_KEYS & body.keys():
        return True
    if not body.keys() <= _ENVELOPE_KEYS:
        return False
    # A lone `method` must read as a verb phrase of two words at least, as every RPC names its
    # methods; one word (`card`) is a form's value.
    return len(body) > 1 or len(name_words(_NAMESPACE.sub(" ", method))) >= 2


def call_verb(method: str) -> tuple[str, str] | None:
    """("destroys" | "writes", the method) when the method's name says it does; None for a read."""
    words = name_words(_NAMESPACE.split(method)[-1])
    if not words or _CLIENT_SIDE & set(words[1:]) or _LISTENERS & set(words[1:]):
        return None
    name = " ".join(words)
    if names_action(name, CHANNEL_DESTROYS) or _object_first(words, CHANNEL_DESTROYS):
        return "destroys", method
    if names_action(name, CALL_WRITES) or _object_first(words, CALL_WRITES):
        return "writes", method
    return None


_READS = frozenset("get list read fetch query show find search count check is has describe".split())


def _object_first(words: list[str], verbs: frozenset[str]) -> bool:
    """A method named object first puts its verb second (`torrent-set-location`, `queue-move-top`,
    `item_add_tag`): a name a path segment would not be read by, but a method's name is a verb
    phrase. One led by a read (`get_upload_limit`) reads whatever it names."""
    return 3 <= len(words) <= 4 and words[0] not in _READS and words[1] in verbs


def refused_call(headers: Mapping[str, str], body: bytes) -> str | None:
    """Why this POST, a JSON-RPC call, is refused (one of its methods writes or destroys); "" when it
    is a call that only reads; None when it is no call (the gate's write rule stands)."""
    methods = rpc_methods(headers, body)
    if methods is None:
        return None
    for method in methods:
        verb = call_verb(method)
        if verb is not None:
            return f"RPC call that {verb[0]}: {verb[1][:60]}"
    return ""


def read_call(request: Any) -> bool:
    """A Playwright request that is a POST of JSON-RPC calls that only read: the engine's first look
    lets it go on to the gate, which judges it the same way (`refused_call`)."""
    if request.method != "POST":
        return False
    headers = {k.lower(): v for k, v in request.headers.items()}
    return refused_call(headers, request.post_data_buffer or b"") == ""


def answer_error(response: Any) -> tuple[str, str, int | None] | None:
    """(the record's text, where, status) of an XHR/fetch answer to JSON-RPC calls that reports an
    error, or None. A JSON-RPC endpoint answers a failed call 200 with the answer's `error` member set
    (1.0: null on success; 2.0: absent): the HTTP status says nothing, so the browser engine records
    such an answer as a realtime channel's error answer is (`channel_error`, one per method: the
    method plays the event's part), tied to the click that made the call."""
    request = response.request
    if request.method != "POST" or request.resource_type not in ("xhr", "fetch") or response.status >= 400:
        return None
    methods = rpc_methods({k.lower(): v for k, v in request.headers.items()}, request.post_data_buffer or b"")
    if not methods or "json" not in response.headers.get("content-type", "").lower():
        return None
    try:
        data = json.loads(response.body()[:MAX_ANSWER_BYTES])
    except Exception:  # noqa: BLE001 - an answer cut short, gone with its page, or no JSON: nothing read
        return None
    answers = data if isinstance(data, list) else [data]
    for method, answer in zip(methods, answers, strict=False):
        error = (
            error_of(Frame(event=method, answer=True, payload=answer)) if isinstance(answer, dict) else None
        )
        if error is not None:
            said, status = error
            where = f"{urlsplit(response.url).path}?event={method[:80]}"
            return f"EMIT {method[:80]}: {said}", where, status
    return None


def failed_answer(response: Any) -> tuple[str, str, str, int | None] | None:
    """The browser engine's record (kind, text, url, status) of an XHR/fetch answer that failed: a 4xx/5xx
    status (`failed_request`), or a JSON-RPC error answer (`answer_error`), or None."""
    request = response.request
    if request.resource_type in ("xhr", "fetch") and response.status >= 400:
        return "failed_request", f"{request.method} {response.status}", response.url, response.status
    said = answer_error(response)
    return None if said is None else ("channel_error", *said)
