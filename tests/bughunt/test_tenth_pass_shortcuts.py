"""Shortcuts of the tenth pass over the step's path (issue 28): each answers what the plain definition
it replaces answers, tested on random input against that definition."""

from __future__ import annotations

import random
import time
from http.cookiejar import Cookie, DefaultCookiePolicy

import httpx
import pytest

from bughunt import dom
from bughunt.dom import Node
from bughunt.explorer import cookie_header
from bughunt.explorer.cookie_header import add_cookie_header

_DOMAINS = ("127.0.0.1", "example.com", ".example.com", "a.example.com", "other.org", "localhost.local")
_HOSTS = ("127.0.0.1", "example.com", "a.example.com", "b.a.example.com", "other.org", "localhost")
_PATHS = ("/", "/", "/", "/a", "/a/b")


def _cookie(rnd: random.Random, now: float) -> Cookie:
    domain = rnd.choice(_DOMAINS)
    path = rnd.choice(_PATHS)
    expires = rnd.choice((None, None, int(now) - 5, int(now) + 3600))
    port = rnd.choice((None, None, "80", "8080,8081"))
    return Cookie(
        version=rnd.choice((0, 0, 0, 1)), name=rnd.choice(("sid", "csrf", "theme", "$weird")),
        value=rnd.choice(("v1", "a b", 'q"uote', "")), port=port, port_specified=port is not None,
        domain=domain, domain_specified=rnd.random() < 0.5, domain_initial_dot=domain.startswith("."),
        path=path, path_specified=rnd.random() < 0.8, secure=rnd.random() < 0.3, expires=expires,
        discard=expires is None, comment=None, comment_url=None, rest={"HttpOnly": ""},
        rfc2109=rnd.random() < 0.1,
    )  # fmt: skip


def _jar(cookies: list[Cookie], policy: DefaultCookiePolicy | None) -> httpx.Cookies:
    jar = httpx.Cookies()
    if policy is not None:
        jar.jar.set_policy(policy)
    for c in cookies:
        jar.jar.set_cookie(c)
    return jar


def _url(rnd: random.Random) -> str:
    scheme = rnd.choice(("http", "https"))
    port = rnd.choice(("", ":80", ":8080", ":8443"))
    path = rnd.choice(("/", "/a", "/a/b/c", "/ab", "/x?y=1"))
    return f"{scheme}://{rnd.choice(_HOSTS)}{port}{path}"


def _given(rnd: random.Random) -> dict[str, str]:
    return {"Cookie": "given=1"} if rnd.random() < 0.05 else {}


@pytest.mark.parametrize("seed", range(6))
def test_a_kept_cookie_header_is_the_one_the_jar_makes(seed: int) -> None:
    rnd = random.Random(seed)
    cookie_header._KEPT.clear()
    now = time.time()
    for _ in range(300):
        spec = [_cookie(rnd, now) for _ in range(rnd.randint(0, 4))]
        policies = (
            None,
            None,
            None,
            DefaultCookiePolicy(rfc2965=True),
            DefaultCookiePolicy(blocked_domains=["other.org"]),
        )
        policy = rnd.choice(policies)
        kept, plain = _jar(spec, policy), _jar(spec, policy)
        for _ in range(rnd.randint(1, 4)):  # asked again: the kept header, when there is one
            url, given = _url(rnd), _given(rnd)
            mine = httpx.Request("GET", url, headers=given)
            theirs = httpx.Request("GET", url, headers=given)
            add_cookie_header(kept, mine)
            plain.set_cookie_header(theirs)
            assert mine.headers.get_list("cookie") == theirs.headers.get_list("cookie"), (spec, url)
            assert mine.headers.get("cookie2") == theirs.headers.get("cookie2")
            # what the jar holds afterwards (an expired cookie dropped as it was asked) too
            assert sorted((c.domain, c.path, c.name) for c in kept.jar) == sorted(
                (c.domain, c.path, c.name) for c in plain.jar
            )


def test_a_cookie_set_after_the_header_was_kept_is_sent() -> None:
    cookie_header._KEPT.clear()
    jar = httpx.Cookies()
    jar.set("sid", "one", domain="127.0.0.1")
    first = httpx.Request("GET", "http://127.0.0.1:8000/")
    add_cookie_header(jar, first)
    jar.set("sid", "two", domain="127.0.0.1")  # a re-login's new session
    jar.set("csrf", "x", domain="127.0.0.1")
    second = httpx.Request("GET", "http://127.0.0.1:8000/b")
    add_cookie_header(jar, second)
    assert first.headers["cookie"] == "sid=one"
    assert second.headers["cookie"] == "sid=two; csrf=x"


_TAGS = ("div", "span", "a", "li", "ul", "p", "table", "tr", "td", "form", "select", "option", "script", "b")


def _random_markup(rnd: random.Random) -> str:
    parts = []
    for _ in range(rnd.randint(0, 80)):
        tag = rnd.choice(_TAGS)
        r = rnd.random()
        if r < 0.45:
            parts.append(f'<{tag} class="c{rnd.randint(0, 3)}">')
        elif r < 0.75:
            parts.append(f"</{tag}>")
        elif r < 0.85:
            parts.append(rnd.choice(("text", " ", "<!-- c -->", "<br>", "<!doctype html>", "&amp;")))
        else:
            parts.append(f"<{tag}>x</{tag}>")
    return "".join(parts)


def _walked(root: Node) -> list[Node]:
    """The root's elements in document order as `Node._walk` finds them, nothing kept."""
    return list(root._walk())


@pytest.mark.parametrize("seed", range(4))
def test_the_order_a_parse_keeps_is_the_walk_of_its_tree(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(seed)
    for i in range(300):
        if i % 3 == 0:  # the caps too: children hung on an ancestor past the depth, a page cut short
            monkeypatch.setattr(dom, "MAX_DEPTH", rnd.randint(2, 6))
            monkeypatch.setattr(dom, "MAX_NODES", rnd.randint(5, 60))
        else:
            monkeypatch.undo()
        markup = _random_markup(rnd) * rnd.randint(1, 3)
        root = dom.parse_html(markup)
        assert (root._order is not None) == bool(markup)  # kept by every parse of a text
        walked = _walked(root)
        assert all(a is b for a, b in zip(root.iter(), walked, strict=True))
