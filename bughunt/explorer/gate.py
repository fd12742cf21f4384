"""The browser engine's network gate: a forward proxy on 127.0.0.1 that every byte Chromium sends goes
through, so containment does not depend on which requests Playwright's routing happens to see.

Per-request routing misses redirect hops, workers, speculative loads, beacons, WebSockets and the TCP
connections Chromium opens ahead of a request; a proxy sees them all (Chromium is started with
`--proxy-server` and `--proxy-bypass-list=<-loopback>`, so loopback goes through it too). The gate:

- admits only the site's origin (scheme, host and port) and the `--allow-origin`s; every redirect hop is
  a request of its own, so a hop to another origin is refused like any other request;
- refuses upgrades (WebSocket), pings and beacons, and speculative loads (`Purpose: prefetch`) — but
  with `realtime` on, a same-origin WebSocket the engine's route handler connects (`arm_socket`: the
  handler sees and judges every frame the page sends), and a long-poll channel's POST judged frame by
  frame (`channel_frames`: no event that writes or destroys unless writes are admitted, the password
  only in the armed login);
- admits a write (POST/PUT/PATCH/DELETE) only when the harness armed one (`arm_write`): the login form's
  own submit, the single write that carries the password; or, while the harness opens a destructive
  action it chose to open (`arm_action`, `--allow-destructive`), the writes that action's page sends
  on the origins (a single-page app's delete route deletes through its API): they are the action;
- admits a same-origin POST that names a read (`named_calls`: its route's last segment or its form's
  `method` is a call named by a read verb, or it keeps the login alive) and carries no password;
- refuses a GET whose path reads destructive (`avoid`, `deferred_action`) unless it is the harness's
  own load (`arm_load`): a button's script deleting through a GET is not the explorer's choice;
- refuses any request other than that submit carrying the password (in the URL or the body, or in an
  `Authorization: Basic` header — save a read of the site's own origin: HTTP authentication's own channel);
- sends cookies and the `--header` values only to the exact origin (Chromium's cookies ignore ports).

An `https` site is tunnelled (CONNECT) only to its own and the allowed origins; inside a tunnel the
gate sees no requests, so the per-request rules there are the engine's routing. A refusal is answered
`403` with `GATE_HEADER`, so the engine can tell the gate's refusal from the site's answer.
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
import threading
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import quote, quote_plus, urlsplit

from bughunt.oracles.destructive_words import deferred_action
from memgpt_lite.log import logger

from .channel_frames import is_channel, judge_frames, split_polling
from .named_calls import named_read
from .rpc_calls import refused_call
from .static_reads import static_file

GATE_HEADER = "x-bughunt-gate"
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
READS = frozenset({"GET", "HEAD", "OPTIONS", "PROPFIND", "REPORT", "SEARCH"})
"""Methods that only read: HTTP's safe ones (RFC 9110 §9.2.1) and WebDAV's, which their RFCs define as
safe and idempotent — PROPFIND (RFC 4918 §9.1), REPORT (RFC 3253 §3.6), SEARCH (RFC 5323 §2). A WebDAV,
CalDAV or CardDAV web client (a calendar or file server's own interface) reads every collection, its
login included, with PROPFIND or REPORT: refused as unknown methods, its sign-in never went away."""
MAX_HEAD_BYTES = 64_000
MAX_WRITE_BODY = 1_000_000
"""A write larger than this is refused unread (the login submit is a few hundred bytes)."""
MAX_REFUSALS = 200
POLL_S = 60.0
"""How long a long-poll channel's GET may wait for its answer (engine.io holds one up to its ping
interval, 25 s by default): longer than the gate's timeout, still bounded."""
_HOP_BY_HOP = frozenset(
    {"connection", "proxy-connection", "keep-alive", "proxy-authorization", "te", "trailer", "upgrade"}
)
_PURPOSE = re.compile(r"(?i)prefetch|prerender")
_ABBREVIATED = re.compile(r"(?i)/(del|rm)(/|$)")
"""Abbreviated delete segments (`/items/7/del`): too short for `destructive_action`'s word list, but
a script's GET to one is no read."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """One request the gate refused: its method, where it went (the route when on the origin, else
    "another origin") and why, in harness words only."""

    method: str
    where: str
    reason: str


WRITE_REFUSED = "write not made by the harness"
REFUSED_HINT = (
    "a page that must open a realtime channel (a WebSocket, a long-poll POST) before it shows its login "
    "form cannot be logged into while that channel is refused: --no-realtime refuses every channel, and "
    "--realtime lets through only a same-origin one, frame by frame"
)
"""Why refusals matter when a login form never became usable (the login error's last words)."""


def refusal_summary(refusals: list[Refusal], limit: int = 3) -> str:
    """The refusals most made, in harness words: "12 × write not made by the harness (POST
    /socket.io/)", at most `limit` kinds, the most frequent first; "" for none."""
    counted = Counter(refusals).most_common(limit)
    return ", ".join(f"{n} × {r.reason} ({r.method} {r.where})" for r, n in counted)


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return f"{parts.scheme}://{(parts.hostname or '').lower()}:{port}"


def _basic_credentials(headers: Mapping[str, str]) -> bytes:
    """The `user:password` of an `Authorization: Basic` header, decoded: a single-page app's login
    often sends the password there (a token endpoint), not in the body."""
    value = headers.get("authorization", "")
    if value[:6].lower() != "basic ":
        return b""
    try:
        return base64.b64decode(value[6:].strip(), validate=True)
    except ValueError:  # binascii.Error is a ValueError
        return b""


@dataclass
class Gate:
    """The proxy for one browser. `origin` is the site's; `allow_origins` the other origins its pages'
    own requests may reach; `headers` the `--header` values (added for the exact origin only); `secret`
    the password, which only the armed login submit may carry; `avoid` the destructive-path pattern."""

    origin: str
    allow_origins: frozenset[str] = frozenset()
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    secret: str | None = field(default=None, repr=False)
    avoid: re.Pattern[str] | None = None
    timeout: float = 10.0
    realtime: bool = True
    """Same-origin channels pass, judged by frame (`channel_frames`); off, every one is refused."""
    refusals: list[Refusal] = field(default_factory=list)
    _lock: threading.RLock = field(default_factory=threading.RLock, init=False, repr=False)
    _write_armed: bool = field(default=False, init=False)
    _write_to: str | None = field(default=None, init=False)
    _load_armed: str | None = field(default=None, init=False)
    _action_armed: bool = field(default=False, init=False)
    _socket_armed: str | None = field(default=None, init=False)
    _loop: asyncio.AbstractEventLoop | None = field(default=None, init=False, repr=False)
    _server: asyncio.Server | None = field(default=None, init=False, repr=False)
    port: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        self._home = origin_of(self.origin)
        self._others = frozenset(origin_of(o) for o in self.allow_origins)

    # -- the harness's side ------------------------------------------------------------------------
    def start(self) -> str:
        """Start serving on a free loopback port; returns `host:port` for `--proxy-server`."""
        if self._loop is not None:
            return f"127.0.0.1:{self.port}"
        loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(loop)
            self._server = loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
            self.port = self._server.sockets[0].getsockname()[1]
            ready.set()
            loop.run_forever()
            loop.close()

        threading.Thread(target=run, name="bughunt-gate", daemon=True).start()
        if not ready.wait(10):
            raise RuntimeError("the browser's network gate did not start")
        self._loop = loop
        return f"127.0.0.1:{self.port}"

    def close(self) -> None:
        loop, server = self._loop, self._server
        if loop is None:
            return

        async def stop() -> None:
            if server is not None:
                server.close()
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()

        try:
            asyncio.run_coroutine_threadsafe(stop(), loop).result(5)
        except Exception as exc:  # noqa: BLE001 — closing must not hide the real outcome
            logger.debug("closing the gate: {!r}", exc)
        loop.call_soon_threadsafe(loop.stop)
        self._loop = self._server = None

    def arm_write(self, on: bool, to: str | None = None) -> None:
        """Admit the next write that carries the secret (one only; to exactly `to` when given: a form's
        action) — or, when `to` is given, the next write to exactly `to` (a page that hashes the password
        before posting it) —, or stop admitting it."""
        with self._lock:
            self._write_armed, self._write_to = on, to

    def arm_load(self, url: str | None) -> None:
        """The harness's own load of `url` may pass the destructive-path rule (it chose to open it)."""
        with self._lock:
            self._load_armed = url

    def arm_action(self, on: bool) -> None:
        """Admit the writes of the page being loaded (none carrying the secret), or stop admitting them:
        the harness opens a destructive action with `--allow-destructive`, and what its page sends is
        the action being judged."""
        with self._lock:
            self._action_armed = on

    def arm_socket(self, path: str | None) -> None:
        """Admit the next WebSocket opened to exactly `path` on the origin (the engine's route handler
        connects it and judges its frames), or none."""
        with self._lock:
            self._socket_armed = path

    def login_armed(self) -> bool:
        """The armed login write has not gone yet (no request carried the password, or went to the
        filled form's action, since `arm_write`)."""
        with self._lock:
            return self._write_armed

    def channel_login(self) -> bool:
        """The armed login may go over a channel: the form names no action (its script posts it
        wherever it does); a form that names one is submitted there and nowhere else."""
        with self._lock:
            return self._write_armed and self._write_to is None

    def spend_write(self) -> None:
        """The armed login went over a WebSocket (the route handler let its frame through): no other."""
        with self._lock:
            self._write_armed = False

    def carries_secret(self, frame: str) -> bool:
        """A channel frame carries the password (in any of the forms a request would)."""
        return self._carries_secret(frame.encode("utf-8", "replace"))

    def refuse_frame(self, url: str, reason: str) -> None:
        """A channel frame the engine kept back (`realtime`), listed with the gate's refusals."""
        self._refuse("EMIT", url, reason)

    def take_refusals(self) -> list[Refusal]:
        with self._lock:
            taken, self.refusals = self.refusals, []
        return taken

    # -- the rules ---------------------------------------------------------------------------------
    def _refuse(self, method: str, url: str, reason: str) -> str:
        try:
            where = (urlsplit(url).path or "/") if origin_of(url) == self._home else "another origin"
        except ValueError:
            where = "another origin"
        with self._lock:
            if len(self.refusals) < MAX_REFUSALS:
                self.refusals.append(Refusal(method, where, reason))
        logger.debug("gate refused {} {}: {}", method, where, reason)
        return reason

    def judge(self, method: str, url: str, headers: Mapping[str, str], body: bytes) -> str | None:
        """Why the request is refused, or None to admit it (`headers` with lower-case names)."""
        try:
            where = origin_of(url)
        except ValueError:
            return self._refuse(method, "", "not a URL")
        if urlsplit(url).scheme not in ("http", "https") or (
            where != self._home and where not in self._others
        ):
            return self._refuse(method, url, "another origin")
        if "upgrade" in headers or "upgrade" in headers.get("connection", "").lower():
            return self._refuse(method, url, "upgrade (WebSocket)")
        if "ping-from" in headers or "ping-to" in headers or "text/ping" in headers.get("content-type", ""):
            return self._refuse(method, url, "ping")
        if _PURPOSE.search(headers.get("purpose", "") + headers.get("sec-purpose", "")):
            return self._refuse(method, url, "speculative load")
        if method in WRITES and self.realtime and where == self._home and is_channel(url):
            return self._channel_write(method, url, body)
        in_request = self._carries_secret(url.encode() + b"\n" + body)
        basic = _basic_credentials(headers)
        in_header = bool(basic) and self._carries_secret(basic)
        carries = in_request or in_header
        with self._lock:
            if method in WRITES:
                if self._action_armed and not carries:
                    return None
                # a JSON-RPC call to the site is judged by what its method names (`rpc_calls`)
                call = refused_call(headers, body) if method == "POST" and where == self._home else None
                if call is not None and not carries:
                    return self._refuse(method, url, call) if call else None
                # a POST whose route or form dispatch names a read (`named_calls`)
                if (
                    method == "POST"
                    and where == self._home
                    and not carries
                    and named_read(url, headers, body)
                ):
                    return None
                # The login submit carries the password — or, sent by a page that hashes it first (a
                # challenge computed from a server nonce, the plain field left unnamed), goes to exactly
                # the action of the form the harness filled: only there, never where a script chooses.
                submit = carries and self._write_to in (None, url)
                hashed = not carries and self._write_to is not None and url == self._write_to
                if not (self._write_armed and (submit or hashed)):
                    return self._refuse(method, url, WRITE_REFUSED)
                self._write_armed = False  # the login submit, once
                return None
            if method not in READS:
                return self._refuse(method, url, "unknown method")
            # HTTP authentication sends the credentials with every request of its protection space
            # (RFC 9110 §11.6.2): an app that logs in by `Authorization: Basic` reads its API so, each
            # read carrying the password in that header. The site's own origin asked for it; a URL or
            # body never carries it, nor does a read of any other origin.
            if in_request or (in_header and where != self._home):
                return self._refuse(method, url, "carries the password")
            if url != self._load_armed and self._destructive(url) and not static_file(url, headers):
                return self._refuse(method, url, "destructive-looking path")
        return None

    def _channel_write(self, method: str, url: str, body: bytes) -> str | None:
        """A long-poll channel's POST: admitted when every frame it carries is (`judge_frames`)."""
        if self._carries_secret(url.encode()):
            return self._refuse(method, url, "carries the password")
        with self._lock:
            login = self.channel_login()
            frames = split_polling(body.decode("utf-8", "replace"))
            _kept, refused, secret = judge_frames(
                frames, lambda f: self._carries_secret(f.encode()), login=login, writes=self._action_armed
            )
            if refused:
                return self._refuse(method, url, refused[0])
            if secret:
                self._write_armed = False  # the login over the channel, once
        return None

    def _destructive(self, url: str) -> bool:
        parts = urlsplit(url)
        route = parts.path + ("?" + parts.query if parts.query else "")
        return bool(
            (self.avoid is not None and self.avoid.search(route))
            or _ABBREVIATED.search(parts.path)
            or deferred_action(url) is not None
        )

    def _carries_secret(self, data: bytes) -> bool:
        if not self.secret:
            return False
        forms = {
            self.secret,
            quote(self.secret, safe=""),
            quote_plus(self.secret),
            json.dumps(self.secret)[1:-1],
        }
        return any(f.encode() in data for f in forms if f)

    # -- the proxy ---------------------------------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(self.timeout):
                head = await reader.readuntil(b"\r\n\r\n")
            await self._one(head, reader, writer)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, OSError, ValueError):
            pass
        except asyncio.CancelledError:
            pass
        finally:
            writer.close()

    async def _one(self, head: bytes, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if len(head) > MAX_HEAD_BYTES:
            return
        lines = head.decode("latin-1").split("\r\n")
        method, target, _version = (lines[0].split(" ") + ["", "", ""])[:3]
        method = method.upper()
        names: list[tuple[str, str]] = []
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if sep:
                names.append((name.strip(), value.strip()))
        lower = {n.lower(): v for n, v in names}
        if method == "CONNECT":
            await self._tunnel(target, reader, writer)
            return
        body = b""
        if method in WRITES or "content-length" in lower or "transfer-encoding" in lower:
            if "transfer-encoding" in lower:
                self._refuse(method, target, "streamed body")
                await self._answer_refused(writer, "streamed body")
                return
            size = int(lower.get("content-length", "0") or 0)
            if size > MAX_WRITE_BODY:
                self._refuse(method, target, "body too large")
                await self._answer_refused(writer, "body too large")
                return
            async with asyncio.timeout(self.timeout):
                body = await reader.readexactly(size)
        why = self.judge(method, target, lower, body)
        if why is not None:
            await self._answer_refused(writer, why)
            return
        await self._forward(method, target, names, body, writer)

    async def _tunnel(self, target: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        host, _, port = target.rpartition(":")
        if self.realtime and f"http://{host.strip('[]').lower()}:{port}" == self._home:
            # Chromium sends a `ws://` WebSocket through a proxy as a tunnel of its own
            await self._socket(host.strip("[]"), int(port), reader, writer)
            return
        where = f"https://{host.strip('[]').lower()}:{port}"
        if where != self._home and where not in self._others:
            self._refuse("CONNECT", "", "another origin")
            await self._answer_refused(writer, "another origin")
            return
        async with asyncio.timeout(self.timeout):
            up_reader, up_writer = await asyncio.open_connection(host.strip("[]"), int(port))
        writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        await writer.drain()
        try:
            await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
        finally:
            up_writer.close()

    async def _socket(
        self, host: str, port: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        """A tunnel to the plain-HTTP origin: only the WebSocket the engine armed goes through it."""
        writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        await writer.drain()
        async with asyncio.timeout(self.timeout):
            head = await reader.readuntil(b"\r\n\r\n")
        first, _, rest = head.decode("latin-1").partition("\r\n")
        method, path = (first.split(" ") + ["", ""])[:2]
        upgrade = "upgrade: websocket" in rest.lower()
        with self._lock:
            armed, self._socket_armed = self._socket_armed, None
        if method != "GET" or not upgrade or armed is None or path != armed or self._carries_secret(head):
            self._refuse(
                method or "CONNECT", f"{self._home}{path}", "upgrade (WebSocket) not opened by the page"
            )
            await self._answer_refused(writer, "upgrade (WebSocket)")
            return
        async with asyncio.timeout(self.timeout):
            up_reader, up_writer = await asyncio.open_connection(host, port)
        up_writer.write(head)
        await up_writer.drain()
        try:
            await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
        finally:
            up_writer.close()

    async def _forward(
        self, method: str, url: str, headers: list[tuple[str, str]], body: bytes, writer: asyncio.StreamWriter
    ) -> None:
        parts = urlsplit(url)
        exact = origin_of(url) == self._home
        injected = {n.lower() for n in self.headers}
        sent: list[tuple[str, str]] = []
        for name, value in headers:
            low = name.lower()
            if low in _HOP_BY_HOP or low in injected:
                continue
            if low == "cookie" and not exact:
                continue  # the site's cookies go to the site's origin only, whatever the port
            sent.append((name, value))
        if exact:
            sent.extend(self.headers.items())
        sent.append(("Connection", "close"))
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        request = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{n}: {v}\r\n" for n, v in sent) + "\r\n"
        port = parts.port or 80
        async with asyncio.timeout(self.timeout):
            up_reader, up_writer = await asyncio.open_connection(parts.hostname, port)
        wait = POLL_S if self.realtime and exact and is_channel(url) else self.timeout
        try:
            up_writer.write(request.encode("latin-1") + body)
            await up_writer.drain()
            async with asyncio.timeout(wait):
                head = await up_reader.readuntil(b"\r\n\r\n")
            kept = [
                line
                for line in head.decode("latin-1").split("\r\n")[:-2]
                if line.partition(":")[0].strip().lower() not in ("connection", "keep-alive")
            ]
            writer.write(("\r\n".join([*kept, "Connection: close"]) + "\r\n\r\n").encode("latin-1"))
            await _pipe(up_reader, writer, idle=self.timeout)
        finally:
            up_writer.close()

    async def _answer_refused(self, writer: asyncio.StreamWriter, why: str) -> None:
        body = f"<!doctype html><title>refused</title><p>bughunt's gate refused this request: {why}</p>"
        data = body.encode()
        writer.write(
            b"HTTP/1.1 403 Forbidden\r\n"
            + f"{GATE_HEADER}: refused\r\nContent-Type: text/html; charset=utf-8\r\n".encode()
            + f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode()
            + data
        )
        await writer.drain()


async def _pipe(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, idle: float | None = None
) -> None:
    """Copy until end of stream (or `idle` seconds without a byte)."""
    try:
        while True:
            async with asyncio.timeout(idle):
                chunk = await reader.read(65536)
            if not chunk:
                break
            writer.write(chunk)
            await writer.drain()
    except (OSError, TimeoutError):
        pass
    finally:
        try:
            writer.write_eof()
        except (OSError, RuntimeError):
            pass
