"""POSTs that name a read: an API reached by POST for every call, whose call is named by its route or by
a dispatch field of its form body, not by a JSON-RPC envelope (`rpc_calls`).

Many application shells read everything by POST: a pixl-server API (`POST /api/app/get_history`, the
session id in a `text/plain` JSON body, a CORS-preflight workaround), Twirp and Connect-RPC services
(`POST /twirp/pkg.Shop/GetOrder`, `POST /pkg.v1.Users/ListUsers`), Dropbox-style v2 APIs (`POST
/2/files/list_folder`); a PHP front controller dispatches on form fields (`POST /backend.php` with
`op=Feeds&method=view`: Tiny-Tiny-RSS-style back ends, Flickr and Last.fm REST endpoints' `method=
flickr.photos.getInfo`). Refusing them refuses every read: the shell draws its frame and "Loading…" or a
network error, and there is nothing to click. So such a call is judged as a JSON-RPC method is — by its
name — but stricter, because no envelope says it is a call: only a name that *reads* is admitted (a read
verb leads it, `get_history`, or ends a two- or three-word name, `sanityCheck`, `artist.getInfo`, or
starts a name glued in lower case, `getfeedtree`), never one with a write or destroying word
(`get_and_delete`), and a name that says nothing of either (`savefilterorder`, `card`) stays refused.

A session's own upkeep is admitted too: a call on the login the harness made (`resume_session`,
`refresh_token`, `auth/renew`: a session or token noun and a keeping verb, no logout) — the page
restoring its session after a reload (pixl-webapp, JWT single-page apps, Strapi/SimpleJWT refresh
routes). It creates no record; refusing it logs the shell out at every load.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from bughunt.oracles.request_action import led_by

from .channel_frames import CHANNEL_DESTROYS, name_words
from .rpc_calls import CALL_WRITES, MAX_CALL_BODY

READ_VERBS = frozenset(
    "get list read fetch query show find search count check is has describe view load lookup browse".split()
)
"""Verbs a call that only reads is named by (`get_history`, `listUsers`, `sanityCheck`)."""
_SESSION_NOUNS = frozenset("session token auth jwt".split())
_SESSION_KEEPS = frozenset("resume refresh renew restore keepalive extend validate verify check".split())
_SESSION_ENDS = frozenset("logout signout logoff end destroy revoke".split())
_DISPATCH_KEYS = ("method",)
"""Form fields a front controller dispatches on (`op=Feeds&method=view`; Flickr's `method=`)."""
_IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_.:/-]{1,79}$")
_NAMESPACE = re.compile(r"[./:]")
_GLUED_WRITES = frozenset(verb for verb in CALL_WRITES | CHANNEL_DESTROYS if len(verb) >= 4)
_SCRIPT = re.compile(r"(?i)\.(php|aspx?|jsp|cgi|pl|py)$")


def _writes(words: list[str]) -> bool:
    return bool(set(words) & (CALL_WRITES | CHANNEL_DESTROYS | _SESSION_ENDS))


def reads_by_name(name: str, least: int = 1) -> bool:
    """A call's name that says it only reads: a read verb leads it or ends a short one, or leads it
    glued in lower case; no word of it writes or destroys. The namespace (`flickr.photos.`, `app/`) is
    not read. A route's segment must be a phrase (`least` 2): one word there (`/search`) is a page's
    name, not a call's."""
    proper = _NAMESPACE.split(name)[-1]
    words = name_words(proper)
    if not words or len(words) > 5 or _writes(words):
        return False
    if len(words) < least:
        return False
    if words[0] in READ_VERBS or (2 <= len(words) <= 3 and words[-1] in READ_VERBS):
        return True
    # a glued name that holds a write verb after its read (`getandremove`) is never a read
    return len(words) == 1 and led_by(words[0], READ_VERBS, _GLUED_WRITES)


def keeps_session(name: str) -> bool:
    """A route's last segment that keeps the login alive (`resume_session`, `refresh-token`,
    `sessionCheck`): a session noun and a keeping verb, nothing that ends the session."""
    words = name_words(name)
    if not 2 <= len(words) <= 4 or set(words) & _SESSION_ENDS:
        return False
    return bool(set(words) & _SESSION_NOUNS) and bool(set(words) & _SESSION_KEEPS)


def _form_call(headers: Mapping[str, str], body: bytes) -> str | None:
    """The call a form body dispatches to (its `method` field), or None."""
    if "x-www-form-urlencoded" not in headers.get("content-type", "").lower():
        return None
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True)
    except UnicodeDecodeError:
        return None
    fields = dict(pairs)
    for key in _DISPATCH_KEYS:
        value = fields.get(key, "")
        if _IDENTIFIER.match(value):
            return value
    return None


def named_read(url: str, headers: Mapping[str, str], body: bytes) -> bool:
    """A POST (to the site's own origin: the caller's check) that names a read: its route's last
    segment reads (`reads_by_name`) or keeps the session, or its form body dispatches to a call that
    reads. `headers` with lower-case names. A body that names a JSON-RPC method is `rpc_calls`' to
    judge, never this rule's."""
    if len(body) > MAX_CALL_BODY or _json_method(body):
        return False
    form = _form_call(headers, body)
    if form is not None:
        return reads_by_name(form)
    segment = unquote(urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1])
    if not _IDENTIFIER.match(segment) or _SCRIPT.search(segment):
        return False  # a script's file name is no call's name: its form fields would be
    return reads_by_name(segment, least=2) or keeps_session(segment)


def _json_method(body: bytes) -> bool:
    try:
        data = json.loads(body) if body.strip()[:1] in (b"{", b"[") else None
    except (ValueError, UnicodeDecodeError):
        return False
    items = data if isinstance(data, list) else [data]
    return any(isinstance(item, dict) and isinstance(item.get("method"), str) for item in items)


def read_request(request: Any, origin: str) -> bool:
    """A Playwright request that is a POST to `origin` naming a read (`named_read`): the engine's first
    look lets it go on to the gate, which judges it the same way."""
    if request.method != "POST":
        return False
    parts = urlsplit(request.url)
    if f"{parts.scheme}://{parts.netloc}".lower() != origin:
        return False
    headers = {k.lower(): v for k, v in request.headers.items()}
    return named_read(request.url, headers, request.post_data_buffer or b"")
