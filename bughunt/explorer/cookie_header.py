"""The `Cookie` header of a request, made once per jar content and origin: `add_cookie_header`.

httpx's `Cookies.set_cookie_header` asks the standard library's cookie jar, which wraps the request in
a `urllib.request.Request` (a URL parse, a header copy) and walks every cookie through the policy's
checks: ~0.13 ms a request, a tenth of a loopback request's CPU. A session sends the same one or two
session cookies with every request, and with the standard policy the header depends on nothing else
than the cookies, the request's scheme and host (domain, secure flag, port) — and the request's path,
and the clock, only through cookies scoped below `/` or due to expire. So when every cookie of the jar
is scoped to `/` and none has expired, the header is kept under (the cookies, the policy's settings,
the scheme, the user info and the host and port) and set again from there; in every other case the jar
is asked as before.
"""

from __future__ import annotations

import time
from http.cookiejar import Cookie, CookieJar, DefaultCookiePolicy

from bughunt.explorer.httpx_client import httpx

_KEPT: dict[tuple[object, ...], str | None] = {}
_MAX_KEPT = 64
"""Headers kept (a session has one jar and one origin; a re-login adds a set): cleared when full."""


def _cookie_key(c: Cookie) -> tuple[object, ...]:
    # Every attribute the policy's return checks or the header's text read (`_rest`, HttpOnly and
    # SameSite, neither does).
    return (
        c.version, c.name, c.value, c.port, c.port_specified, c.domain, c.domain_specified,
        c.domain_initial_dot, c.path, c.path_specified, c.secure, c.expires, c.rfc2109,
    )  # fmt: skip


def _policy_key(jar: CookieJar) -> tuple[object, ...] | None:
    """The policy's settings, when it is the standard policy that sends no `Cookie2` (else None: the
    jar is asked every time)."""
    policy = getattr(jar, "_policy", None)
    if type(policy) is not DefaultCookiePolicy or policy.rfc2965:
        return None
    return (
        policy.netscape, policy.hide_cookie2, policy.strict_domain,
        policy.strict_rfc2965_unverifiable, policy.strict_ns_unverifiable, policy.strict_ns_domain,
        policy.strict_ns_set_initial_dollar, policy.strict_ns_set_path, tuple(getattr(policy, "secure_protocols", ())),
        policy.blocked_domains(), policy.allowed_domains(),
    )  # fmt: skip


def add_cookie_header(cookies: httpx.Cookies, request: httpx.Request) -> None:
    """What `cookies.set_cookie_header(request)` does, from the kept header when it cannot differ."""
    jar = cookies.jar
    policy = _policy_key(jar)
    table: dict[str, dict[str, dict[str, Cookie]]] | None = getattr(jar, "_cookies", None)
    if policy is None or table is None or "cookie" in request.headers:
        cookies.set_cookie_header(request)
        return
    now = time.time()
    held: list[tuple[object, ...]] = []
    # In the jar's own order (domains, paths, names as they were added), which is the order the jar
    # reads them in for the header: the same key is the same header, not only the same set.
    for by_path in table.values():  # the jar's table (`CookieJar.__iter__` sorts that order away)
        for path, by_name in by_path.items():
            for cookie in by_name.values():
                if path != "/" or (cookie.expires is not None and cookie.expires <= now):
                    # a path below the root makes the header depend on the request's path, and an
                    # expired cookie is dropped by the jar as it is asked: the jar's own way
                    cookies.set_cookie_header(request)
                    return
                held.append(_cookie_key(cookie))
    url = request.url
    key = (policy, tuple(held), url.scheme, url.userinfo, url.netloc)
    if key in _KEPT:
        header = _KEPT[key]
        if header is not None:
            request.headers["Cookie"] = header
        return
    cookies.set_cookie_header(request)
    if len(_KEPT) >= _MAX_KEPT:
        _KEPT.clear()
    _KEPT[key] = request.headers.get("cookie")
