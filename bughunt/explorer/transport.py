"""The HTTP transport under the HTTP engine: one request and its response, with every wait bounded.

One deadline bounds a whole exchange (redirect hops, connect, status line, headers, body), however
slowly a server sends them; bodies are capped; redirects stay on the starting origin. The requests run
on one event loop in a daemon thread (`_Loop`). Nothing here knows robots.txt, delays or login walls:
those are the engine's (`bughunt.explorer.http_engine`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import http.cookiejar
import os
import ssl
import threading
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from bughunt.explorer.httpx_client import httpx
from bughunt.page import FetchedPage, is_html
from bughunt.urls import absolute, bounded_route, same_origin

_T = TypeVar("_T")
USER_AGENT = "bughunt/0.1 (+exploratory testing agent)"
MAX_BODY_BYTES = 2_000_000


class FetchError(OSError):
    """No usable response: refused, reset, a broken status line, a body cut short, a bad URL."""


FETCH_SLACK_S = 0.5
"""How far past its deadline a fetch may return: the deadline cancels the request, and the cancelled
request needs a moment to close its socket. A dripping server is cut off at `timeout + FETCH_SLACK_S`."""


class _Loop:
    """One event loop in a daemon thread, shared by every fetch of this process.

    The deadline of a whole response (connect, status line, headers, body) is a cancellation, which the
    async client honours at any byte; the sync client's timeouts bound each socket read only, so a server
    dripping a byte a second would never time out. Running the loop in its own thread keeps `fetch_page`
    usable from code that already runs a loop (Playwright's sync API does).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid = 0
        self._client: httpx.AsyncClient | None = None

    def run(self, make: Callable[[httpx.AsyncClient], Coroutine[Any, Any, _T]], timeout: float) -> _T:
        future = asyncio.run_coroutine_threadsafe(self._with_client(make), self._get())
        try:
            return future.result(timeout + 2 * FETCH_SLACK_S)
        except concurrent.futures.TimeoutError:
            raise TimeoutError(f"the page took longer than {timeout:g}s to arrive") from None
        finally:
            future.cancel()  # Ctrl-C while waiting: the request must not outlive the caller

    async def _with_client(self, make: Callable[[httpx.AsyncClient], Coroutine[Any, Any, _T]]) -> _T:
        assert self._client is not None
        return await make(self._client)

    def _get(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._pid != os.getpid():  # a forked worker has no loop thread
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="bughunt-http", daemon=True).start()
                # No environment proxies: the explorer talks to the site it was given and nothing else.
                # The shared client keeps no cookies (a jar whose policy refuses every domain): each
                # caller brings its own jar, so one site's session never rides along to another's.
                # The TLS transport is built on the first https request: a plain-http site never
                # pays for reading the CA bundle (~16 ms CPU at every start).
                self._client = httpx.AsyncClient(
                    follow_redirects=False,
                    trust_env=False,
                    timeout=None,
                    cookies=http.cookiejar.CookieJar(http.cookiejar.DefaultCookiePolicy(allowed_domains=[])),
                    transport=_TlsOnFirstUse(),
                    mounts={"http://": httpx.AsyncHTTPTransport(verify=_TRUSTS_NO_ONE)},
                )
                self._loop, self._pid = loop, os.getpid()
            return self._loop


_TRUSTS_NO_ONE = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
"""The plain-http transport's TLS context, which it never uses: it verifies (the default of
PROTOCOL_TLS_CLIENT) against no CA at all, so were an https URL ever routed to it, it would fail
rather than go unchecked. Built without reading a CA bundle."""


class _TlsOnFirstUse(httpx.AsyncBaseTransport):
    """httpx's default transport (certificates checked against certifi's CA bundle), built when the
    first request reaches it — an https one, since `http://` has a transport of its own."""

    def __init__(self) -> None:
        self._inner: httpx.AsyncHTTPTransport | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self._inner is None:  # one event loop thread, no await before the assignment: no race
            self._inner = httpx.AsyncHTTPTransport()
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        if self._inner is not None:
            await self._inner.aclose()


_LOOP = _Loop()


@dataclass(frozen=True, slots=True)
class _Response:
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
    Network failures raise `FetchError` (an `OSError`).
    """
    send_headers = {"User-Agent": user_agent, "Accept": "text/html,*/*;q=0.5", **(headers or {})}
    deadline = time.monotonic() + timeout  # the event loop's clock is time.monotonic too

    async def exchange(client: httpx.AsyncClient) -> FetchedPage:
        redirects: list[str] = []
        start = time.perf_counter()
        current, verb, form = url, method.upper(), data
        async with asyncio.timeout_at(deadline):
            while True:
                got = await _request_once(
                    client, current, verb, form, send_headers, cookies, read_any=read_any, limit=max_bytes
                )
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

    try:
        return _LOOP.run(exchange, timeout)
    except TimeoutError:
        raise TimeoutError(f"the page took longer than {timeout:g}s to arrive") from None
    except httpx.TimeoutException as err:  # not raised with timeout=None; kept for a client that sets one
        raise TimeoutError(f"the page took longer than {timeout:g}s to arrive ({err!r})") from None
    except (httpx.HTTPError, httpx.InvalidURL) as err:
        raise FetchError(f"bad or no HTTP response from {url}: {type(err).__name__}: {err}") from err


async def _request_once(
    client: httpx.AsyncClient,
    url: str,
    method: str,
    data: Mapping[str, str] | None,
    headers: Mapping[str, str],
    cookies: httpx.Cookies | None,
    *,
    read_any: bool,
    limit: int,
) -> _Response:
    request = client.build_request(method, url, headers=headers, data=data)
    if cookies is not None:
        cookies.set_cookie_header(request)
    response = await client.send(request, stream=True)
    try:
        if cookies is not None:
            cookies.extract_cookies(response)
        # Lower-case names, one value each (the last, as a dict of the raw headers would keep).
        got_headers = {k.lower(): v for k, v in response.headers.items()}
        content_type = response.headers.get("content-type", "")
        if not (read_any or is_html(content_type)):
            return _Response(response.status_code, got_headers, content_type, "")
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():  # decoded: a gzip bomb stops at `limit` too
            chunks.append(chunk[: limit - size])
            size += len(chunks[-1])
            if size >= limit:
                break
        raw = b"".join(chunks)
        charset = response.charset_encoding or "utf-8"
        try:
            text = raw.decode(charset, errors="replace")
        except LookupError:  # a charset Python does not know
            text = raw.decode("utf-8", errors="replace")
        return _Response(response.status_code, got_headers, content_type, text)
    finally:
        await response.aclose()
