"""The browser engine's realtime channels: a same-origin WebSocket or long-poll channel the page's own
script opens goes through, each frame the page sends judged as the gate judges a request
(`channel_frames.judge_frames`), and a page waits for its channel to go quiet before it is read.

Realtime dashboards, chat, collaborative editors and monitoring panels (socket.io, SockJS, SignalR,
Phoenix, a plain WebSocket) draw their views — often their login form — only from what comes over the
channel. Refusing every WebSocket and every long-poll POST (the gate's rule for writes) left such a page
at "connecting…" for good. Now:

- a WebSocket to the site's own origin is connected by Playwright's route (`route_web_socket`) and the
  gate lets exactly that one through (`Gate.arm_socket`); every frame the page sends passes through
  `on_socket`'s handler first: an event that writes or destroys is dropped unless writes are admitted
  (the harness's destructive actions), the password only while the login is armed, and what is dropped
  is the click's refused write (`FetchedPage.refused_writes`) as a refused POST is; a WebSocket to
  another origin is closed unconnected, as before;
- a long-poll POST to a channel address (`channel_frames.is_channel`) is no form's write: `guard` lets
  it through with its refused frames taken out (the gate judges the body again on the wire);
- an answer frame that reports an error (an ack carrying `error`, socket.io's CONNECT_ERROR, an event
  named `error`) is a `channel_error` of the step that received it, so a click whose event the server
  failed is tied to that click, as a failed XHR is (`client_errors`);
- a long-poll GET held open is no request in flight (the engine's quiet, the page's record): the page
  is read once its channel was quiet for `QUIET_S` — no frame either way, no event sent and not yet
  answered for `ANSWER_S` — capped by `SETTLE_S` and the step's deadline, so a channel that floods or
  never answers costs at most that.

`--no-realtime` keeps the old rule: every channel refused (its paths named in the login's error).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from memgpt_lite.log import logger

from .channel_frames import error_of, event_names, is_channel, joined, judge_frames, read_frame, split_polling
from .gate import GATE_HEADER, Gate, Refusal

MAX_SOCKETS_KEPT = 50
"""WebSockets a page opened kept per step (their paths say why a login form never came)."""
ANSWER_S = 0.5
"""How long an event the page sent (or a channel it opened) waits for an answer before the page is
read anyway."""
CHANNEL_QUIET_S = 0.3
"""How long a channel that spoke must stay silent before its page is read: a page answers a frame
with its next event within a task, but the events reach the engine later on a loaded machine."""
MAX_ACKS = 200
MAX_READ_BYTES = 200_000
"""A long-poll answer read for error frames up to this size."""


def _origin(url: str) -> str:
    parts = urlsplit(url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    return f"{scheme}://{parts.netloc}".lower()


@dataclass
class Channels:
    """One browser's channels. `origin` is the site's; `gate` its network gate; `on` the `--realtime`
    switch; `record(kind, text, url, status)` the engine's client-error record; `writing()` whether
    the login is armed, `acting()` whether writes are admitted; `refused` the step's refused writes."""

    origin: str
    gate: Gate
    record: Callable[[str, str, str, int | None], None]
    writing: Callable[[], bool]
    acting: Callable[[], bool]
    refused: Callable[[], list[str]]
    on: bool = True
    closed: list[str] = field(default_factory=list)
    """Paths of the WebSockets closed unconnected this step (for the login's error)."""
    _last: float = 0.0
    _asked: float | None = None
    _active: bool = False
    _answered: bool = False
    """A channel answered this step: until then a long-poll GET starting is the channel opening (its
    handshake), which is waited for as an event sent."""
    _polls: set[Any] = field(default_factory=set, repr=False)
    _events: dict[str, str] = field(default_factory=dict, repr=False)
    """The event each ack id was sent with (what an answer answers), the latest `MAX_ACKS`."""

    def reset(self) -> None:
        """A load or a click begins."""
        self.closed = []
        self._active = self._answered = False
        self._asked = None
        self._last = time.monotonic()

    def _heard(self) -> None:
        self._active = self._answered = True
        self._last = time.monotonic()
        self._asked = None

    def _sent(self) -> None:
        self._active = True
        self._last = time.monotonic()
        self._asked = self._asked or self._last

    # -- WebSocket -------------------------------------------------------------------------------
    def on_socket(self, socket: Any) -> None:
        """`route_web_socket`'s handler: a same-origin WebSocket connected with its frames judged,
        any other closed unconnected."""
        if not self.on or _origin(socket.url) != self.origin.rstrip("/").lower():
            if len(self.closed) < MAX_SOCKETS_KEPT:
                self.closed.append(urlsplit(socket.url).path[:300])
            socket.close()
            return
        parts = urlsplit(socket.url)
        self.gate.arm_socket((parts.path or "/") + (f"?{parts.query}" if parts.query else ""))
        server = socket.connect_to_server()
        socket.on_message(lambda message: self._outbound(socket.url, server, message))
        server.on_message(lambda message: self._inbound(socket.url, socket, message))
        socket.on_close(lambda code, reason: _closed(server, code, reason))
        server.on_close(lambda code, reason: _closed(socket, code, reason))
        self._sent()

    def _outbound(self, url: str, server: Any, message: str | bytes) -> None:
        text = message if isinstance(message, str) else message.decode("latin-1")
        kept, refused, secret = judge_frames(
            [text],
            self.gate.carries_secret,  # one reading of "carries the password": the gate's
            login=self.writing() and self.gate.channel_login(),
            writes=self.acting(),
        )
        if refused:
            self._refuse(url, [text], refused)
            return
        if secret:
            self.gate.spend_write()
        self.asked(kept)
        server.send(message)

    def _inbound(self, url: str, socket: Any, message: str | bytes) -> None:
        self._heard()
        if isinstance(message, str):
            self._judge_answer(url, message)
        socket.send(message)

    # -- long-poll -------------------------------------------------------------------------------
    def guard(self, route: Any) -> bool:
        """The engine's per-request look at a long-poll channel's POST: let through without the frames
        that may not go (True: handled), or False when it is no channel's write."""
        request = route.request
        if not self.on or request.method != "POST" or not is_channel(request.url):
            return False
        if _origin(request.url) != self.origin.rstrip("/").lower():
            return False
        body = request.post_data or ""
        frames = split_polling(body)
        kept, refused, _secret = judge_frames(
            frames,
            self.gate.carries_secret,
            login=self.writing() and self.gate.channel_login(),
            writes=self.acting(),
        )
        self.asked(kept)
        if not refused:
            route.continue_()
            return True
        self._refuse(request.url, [f for f in frames if f not in kept], refused)
        if kept:
            route.continue_(post_data=joined(kept, body))
        else:
            # the channel's own acknowledgement of a POST, so the page's transport stays up
            route.fulfill(
                status=200, body="ok", headers={GATE_HEADER: "refused", "content-type": "text/plain"}
            )
        return True

    def unless_channel(self, handler: Callable[[Any], None], *, ended: bool = False) -> Callable[[Any], None]:
        """`handler` for the engine's request events, called for every request but a channel's."""
        saw = self.saw_end if ended else self.saw_request

        def handle(request: Any) -> None:
            if not saw(request):
                handler(request)

        return handle

    def saw_request(self, request: Any) -> bool:
        """A request started: True when it is a channel's (kept out of the engine's in-flight set: a
        long-poll GET held open is the channel waiting, not the page loading)."""
        if not self.on or not is_channel(request.url):
            return False
        if request.method != "POST":
            self._polls.add(request)
        if request.method == "POST" or not self._answered:
            self._sent()
        else:
            self._active, self._last = True, time.monotonic()
        return True

    def saw_end(self, request: Any) -> bool:
        """A request ended: True when it is a channel's; a long-poll GET's answer is read for errors."""
        if not self.on or not is_channel(request.url):
            return False
        if request in self._polls:
            self._polls.discard(request)
            self._heard()
            self._read_poll(request)
        return True

    def _read_poll(self, request: Any) -> None:
        from playwright.sync_api import Error as PlaywrightError

        try:
            response = request.response()
            body = response.body()[:MAX_READ_BYTES] if response is not None and response.ok else b""
        except PlaywrightError:
            return  # the page went away under it
        for frame in split_polling(body.decode("utf-8", "replace")):
            self._judge_answer(request.url, frame)

    # -- both ------------------------------------------------------------------------------------
    def asked(self, frames: list[str]) -> None:
        """Frames the page sent: an event with an ack id is remembered, to name what its answer answers."""
        self._sent()
        for text in frames:
            frame = read_frame(text)
            if frame.event and frame.ack:
                self._events[frame.ack] = frame.event
                while len(self._events) > MAX_ACKS:
                    del self._events[next(iter(self._events))]

    def _judge_answer(self, url: str, text: str) -> None:
        frame = read_frame(text)
        error = error_of(frame)
        if error is None:
            return
        said, status = error
        event = frame.event or self._events.get(frame.ack, "") or "answer"
        parts = urlsplit(url)
        where = f"{parts.path}?event={event}"
        self.record("channel_error", f"EMIT {event}: {said}", where, status)

    def _refuse(self, url: str, frames: list[str], reasons: list[str]) -> None:
        path = urlsplit(url).path or "/"
        for event, reason in zip(event_names(frames), reasons, strict=False):
            self.refused().append(f"EMIT {path}#{event}"[:300])
            self.gate.refuse_frame(_origin(url) + path, reason)
        logger.debug("channel frames refused on {}: {}", path, reasons)

    def quiet(self, page: Any, deadline: float, settle_s: float, poll_ms: int) -> None:
        """Wait (when a channel spoke this step) until no frame went either way for `CHANNEL_QUIET_S` and no
        event sent waits for its answer (for up to `ANSWER_S`), capped by `settle_s` and `deadline`."""
        now = time.monotonic()
        stop = min(deadline, now + settle_s)
        while self._active and now < stop:
            asked = self._asked is not None and now - self._asked < ANSWER_S
            if not asked and now - self._last >= CHANNEL_QUIET_S:
                return
            page.wait_for_timeout(min(poll_ms / 1000, stop - now) * 1000)
            now = time.monotonic()

    def refusals(self) -> list[Refusal]:
        """The WebSockets closed this step, as the login's error names them."""
        return [Refusal("GET", path, "WebSocket closed") for path in self.closed]


def _closed(other: Any, code: int | None, reason: str | None) -> None:
    from playwright.sync_api import Error as PlaywrightError

    try:
        other.close(code=code, reason=reason)
    except PlaywrightError:
        pass
