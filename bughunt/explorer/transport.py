"""The HTTP transport under the HTTP engine: one request and its response, with every wait bounded.

One deadline bounds a whole exchange (redirect hops, name lookup, connect, status line, headers, body),
however slowly a server sends them; bodies are capped; redirects stay on the starting origin. The
requests run in the caller's thread on httpx's synchronous transports (shared, kept-alive), whose every
socket operation may wait only for what is left of the deadline (`_DeadlineBackend`). Nothing here knows
robots.txt, delays or login walls: those are the engine's (`bughunt.explorer.http_engine`).
"""

from __future__ import annotations

import ipaddress
import os
import queue
import socket
import ssl
import threading
import time
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

import httpcore

from bughunt.explorer.cookie_header import add_cookie_header
from bughunt.explorer.httpx_client import httpx
from bughunt.page import FetchedPage, is_html
from bughunt.urls import absolute, bounded_route, same_origin

USER_AGENT = "bughunt/0.1 (+exploratory testing agent)"
MAX_BODY_BYTES = 2_000_000


class FetchError(OSError):
    """No usable response: refused, reset, a broken status line, a body cut short, a bad URL."""


FETCH_SLACK_S = 0.5
"""How far past its deadline a fetch may return: the last socket wait ends at the deadline, and
closing the connection it leaves takes a moment. A dripping server is cut off at `timeout + FETCH_SLACK_S`."""

_DEADLINE = threading.local()
"""The `time.monotonic()` by which the exchange in flight on this thread must be over (`deadline`)."""


def _left(timeout: float | None, error: type[Exception]) -> float:
    """How long one socket operation may wait: its own timeout, cut to what is left of the deadline.

    A sync client's own timeouts bound each socket read, so a server dripping a byte a second would
    never time out; bounding every read by the time left bounds the whole exchange."""
    ends: float | None = getattr(_DEADLINE, "at", None)
    if ends is None:
        return timeout if timeout is not None else _NO_DEADLINE_S
    left = ends - time.monotonic()
    if left <= 0:
        raise error("the deadline of the exchange passed")  # never settimeout(0): that is non-blocking
    return left if timeout is None else min(timeout, left)


_NO_DEADLINE_S = 60.0
"""The wait of a socket operation outside `fetch_page` (none happens there; a bound all the same)."""


class _DeadlineStream(httpcore.NetworkStream):
    """httpcore's socket stream with every wait cut to the deadline's time left (`_left`)."""

    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _left(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        # sendall with a timeout is bounded as a whole (Python >= 3.5), however slowly the peer reads
        self._inner.write(buffer, _left(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        # the handshake's timeout bounds the whole handshake (CPython's ssl keeps one deadline for it)
        inner = self._inner.start_tls(ssl_context, server_hostname, _left(timeout, httpcore.ConnectTimeout))
        return _DeadlineStream(inner)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's sync backend with the deadline on connecting too: the name lookup (which no socket
    timeout bounds) runs in a daemon thread waited on for the time left, then each address is tried."""

    def __init__(self) -> None:
        self._inner = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        errors: list[Exception] = []
        for address in _resolve(host, port, _left(timeout, httpcore.ConnectTimeout)):
            try:
                stream = self._inner.connect_tcp(
                    address, port, _left(timeout, httpcore.ConnectTimeout), local_address, socket_options
                )
            except httpcore.ConnectError as err:  # the next address may answer (as create_connection does)
                errors.append(err)
                continue
            return _DeadlineStream(stream)
        raise errors[0] if errors else httpcore.ConnectError(f"no address for {host!r}")

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        raise httpcore.ConnectError("unix sockets are not a site's origin")


def _resolve(host: str, port: int, wait: float) -> list[str]:
    """The addresses of `host`, within `wait` seconds: an IP literal as it is, a name looked up in a
    daemon thread (a resolver that hangs is left behind; it holds no socket of ours)."""
    try:
        return [str(ipaddress.ip_address(host.strip("[]")))]
    except ValueError:
        pass
    answer: queue.SimpleQueue[list[str] | OSError] = queue.SimpleQueue()

    def lookup() -> None:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
            answer.put(list(dict.fromkeys(str(info[4][0]) for info in infos)))
        except OSError as err:
            answer.put(err)

    threading.Thread(target=lookup, name="bughunt-dns", daemon=True).start()
    try:
        got = answer.get(timeout=wait)
    except queue.Empty:
        raise httpcore.ConnectTimeout(f"no address for {host!r} in time") from None
    if isinstance(got, OSError):
        raise httpcore.ConnectError(f"no address for {host!r}: {got}") from got
    return got


class _Transport(httpx.HTTPTransport):
    """httpx's transport over `_DeadlineBackend`. httpx takes no network backend, so the connection
    pool it built is replaced by the same pool over that backend."""

    def __init__(self, verify: ssl.SSLContext | bool = True) -> None:
        context = httpx.create_ssl_context(verify=verify)
        super().__init__(verify=context)
        self._pool = httpcore.ConnectionPool(ssl_context=context, network_backend=_DeadlineBackend())


class _TlsOnFirstUse(httpx.BaseTransport):
    """The verifying transport (certificates checked against certifi's CA bundle, as httpx's default),
    built when the first request reaches it — an https one, since `http://` has a transport of its own."""

    def __init__(self) -> None:
        self._inner: _Transport | None = None
        self._lock = threading.Lock()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        with self._lock:
            if self._inner is None:
                self._inner = _Transport()
        return self._inner.handle_request(request)

    def close(self) -> None:
        if self._inner is not None:
            self._inner.close()


_TRUSTS_NO_ONE = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
"""The plain-http transport's TLS context, which it never uses: it verifies (the default of
PROTOCOL_TLS_CLIENT) against no CA at all, so were an https URL ever routed to it, it would fail
rather than go unchecked. Built without reading a CA bundle."""


class _Shared:
    """The transports of this process, made on the first request (and again in a forked worker, which
    must not share the parent's sockets): requests go to them directly, not through an `httpx.Client`,
    whose cookie jar and merging of defaults cost ~0.4 ms a request that a caller bringing its own jar
    and headers does not need."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid = 0
        self.plain: _Transport | None = None
        self.tls: _TlsOnFirstUse | None = None

    def transport(self, url: httpx.URL) -> httpx.BaseTransport:
        with self._lock:
            if self.plain is None or self.tls is None or self._pid != os.getpid():
                # No environment proxies: the explorer talks to the site it was given and nothing else.
                # The TLS transport is built on the first https request: a plain-http site never
                # pays for reading the CA bundle (~16 ms CPU at every start).
                self.plain, self.tls = _Transport(verify=_TRUSTS_NO_ONE), _TlsOnFirstUse()
                self._pid = os.getpid()
            return self.plain if url.scheme == "http" else self.tls


_CLIENT = _Shared()
_DEFAULT_HEADERS = {
    "Accept-Encoding": "gzip, deflate",  # what httpx decodes without optional packages
    "Connection": "keep-alive",
}


_HEADER_SETS: dict[tuple[str, tuple[tuple[str, str], ...]], httpx.Headers] = {}
_MAX_HEADER_SETS = 16


def _request_headers(user_agent: str, headers: Mapping[str, str]) -> httpx.Headers:
    """The headers a request sends, merged as a client merges its defaults (a given header replaces a
    default of its name, whatever the case), once per distinct set: a session sends the same set with
    every request, and each `httpx.Request` takes a copy of its own."""
    key = (user_agent, tuple(headers.items()))
    merged = _HEADER_SETS.get(key)
    if merged is None:
        merged = httpx.Headers(_DEFAULT_HEADERS)
        merged.update({"User-Agent": user_agent, "Accept": "text/html,*/*;q=0.5", **headers})
        if len(_HEADER_SETS) >= _MAX_HEADER_SETS:
            _HEADER_SETS.clear()
        _HEADER_SETS[key] = merged
    return merged


class _Response(NamedTuple):
    status: int
    headers: dict[str, str]
    content_type: str
    body: str


def fetch_page(
    url: str,
    *,
    timeout: float = 10.0,
    follow_redirects: bool = True,
    max_redirects: int = 5,
    user_agent: str = USER_AGENT,
    headers: Mapping[str, str] | None = None,
    cookies: httpx.Cookies | None = None,
    method: str = "GET",
    data: Mapping[str, str] | None = None,
    multipart: bool = False,
    read_any: bool = False,
    max_bytes: int = MAX_BODY_BYTES,
) -> FetchedPage:
    """Request `url` and return what came back, error statuses included (a 500 is a finding, not a crash).

    One deadline, `timeout` seconds, bounds the whole exchange — every redirect hop, connect, status
    line, headers and body — however slowly the server sends them (`TimeoutError` past it, within
    `FETCH_SLACK_S`). Redirects are followed only within the starting origin (a POST becomes a GET after
    301/302/303, as browsers do); a redirect elsewhere, or one too many, is returned as the 3xx response
    itself, with `Location` in the headers. Bodies are read up to `max_bytes` (decoded), and only for
    HTML unless `read_any`. `cookies`, when given, sends the jar's cookies and keeps what the site sets.
    `data` is sent URL-encoded, or as `multipart/form-data` when `multipart` (the form's `enctype`).
    Network failures raise `FetchError` (an `OSError`).
    """
    send_headers = _request_headers(user_agent, headers or {})
    _DEADLINE.at = time.monotonic() + timeout
    redirects: list[str] = []
    start = time.perf_counter()
    current, verb, form = url, method.upper(), data
    try:
        while True:
            got = _request_once(
                current, verb, form, send_headers, cookies,
                multipart=multipart, read_any=read_any, limit=max_bytes,
            )  # fmt: skip
            location = got.headers.get("location", "")
            target = absolute(current, location) if location else None
            if (
                follow_redirects
                and got.status in (301, 302, 303, 307, 308)
                and target
                and same_origin(target, url)
                and len(redirects) < max_redirects
            ):
                redirects.append(current)
                current = target
                if got.status in (301, 302, 303):
                    verb, form = "GET", None
                continue
            return FetchedPage(
                url=current,
                route=bounded_route(current),
                status=got.status,
                headers=got.headers,
                content_type=got.content_type,
                body=got.body,
                elapsed_ms=round((time.perf_counter() - start) * 1000, 2),
                method=verb,
                redirects=tuple(redirects),
            )
    except httpx.TimeoutException:
        raise TimeoutError(f"the page took longer than {timeout:g}s to arrive") from None
    except (httpx.HTTPError, httpx.InvalidURL) as err:
        raise FetchError(f"bad or no HTTP response from {url}: {type(err).__name__}: {err}") from err
    finally:
        _DEADLINE.at = None


def _request_once(
    url: str,
    method: str,
    data: Mapping[str, str] | None,
    headers: httpx.Headers,
    cookies: httpx.Cookies | None,
    *,
    multipart: bool = False,
    read_any: bool,
    limit: int,
) -> _Response:
    if multipart and data:
        # text fields as httpx sends a file-less part: no filename, no type, the name escaped as
        # browsers escape it
        fields = [(name, (None, value)) for name, value in data.items()]
        request = httpx.Request(method, url, headers=headers, files=fields)  # a copy of `headers`
    else:
        request = httpx.Request(method, url, headers=headers, data=data)  # a copy of `headers`
    if cookies is not None and cookies.jar:
        # an empty jar adds no header, and asking it costs ~0.1 ms a request (a site with no cookies);
        # a jar whose header cannot have changed is not asked again (`cookie_header`)
        add_cookie_header(cookies, request)
    response = _CLIENT.transport(request.url).handle_request(request)
    response.request = request  # what a client sets: the cookie jar reads the request of a response
    try:
        if cookies is not None and "set-cookie" in response.headers:
            # without the header there is nothing to keep, and asking the jar costs ~0.3 ms a response
            cookies.extract_cookies(response)
        # Lower-case names, one value each (the last, as a dict of the raw headers would keep).
        got_headers = {k.lower(): v for k, v in response.headers.items()}
        content_type = response.headers.get("content-type", "")
        if not (read_any or is_html(content_type)):
            return _Response(response.status_code, got_headers, content_type, "")
        chunks: list[bytes] = []
        size = 0
        for chunk in response.iter_bytes():  # decoded: a gzip bomb stops at `limit` too
            chunks.append(chunk[: limit - size])
            size += len(chunks[-1])
            if size >= limit:
                break
        raw = b"".join(chunks)
        charset = _charset(response.headers.get("content-type")) or "utf-8"
        try:
            text = raw.decode(charset, errors="replace")
        except LookupError:  # a charset Python does not know
            text = raw.decode("utf-8", errors="replace")
        return _Response(response.status_code, got_headers, content_type, text)
    finally:
        response.close()


_CHARSETS: dict[str, str | None] = {}
_MAX_CHARSETS = 64


def _charset(content_type: str | None) -> str | None:
    """`Response.charset_encoding` of a response with this `Content-Type`, read once per distinct value:
    httpx parses the header with the standard library's e-mail message (~0.1 ms a response), and a
    site sends a handful of distinct values."""
    if content_type is None:
        return None
    if content_type not in _CHARSETS:
        if len(_CHARSETS) >= _MAX_CHARSETS:
            _CHARSETS.clear()
        _CHARSETS[content_type] = httpx.Response(200, headers={"content-type": content_type}).charset_encoding
    return _CHARSETS[content_type]
