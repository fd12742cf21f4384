"""HTML for testers: fetch one page over HTTP, parse it into a small tree, extract same-origin links.

Standard library only, so the explorer works on any server-rendered site without a browser. The
tree is forgiving (unclosed tags, stray end tags) because real pages are not valid HTML.
"""

from __future__ import annotations

import hashlib
import http.client
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from html.parser import HTMLParser
from typing import Literal
from urllib.parse import urldefrag, urlencode, urljoin, urlsplit, urlunsplit

VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
# Opening one of these closes an open <p> (the HTML "implied end tag" rule, simplified).
_CLOSES_P = frozenset(
    "address article aside blockquote div dl fieldset footer form h1 h2 h3 h4 h5 h6 header hr "
    "main nav ol p pre section table ul".split()
)
_SELF_NESTING_CLOSERS = {
    "li": {"li"},
    "dt": {"dt", "dd"},
    "dd": {"dt", "dd"},
    "tr": {"tr"},
    "option": {"option"},
}
USER_AGENT = "bughunt/0.1 (+exploratory testing agent)"
MAX_BODY_BYTES = 2_000_000


@dataclass(eq=False)
class Node:
    """One element of a parsed page. `children` holds nodes and text strings in document order."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)
    parent: Node | None = field(default=None, repr=False)
    line: int = 0

    @property
    def classes(self) -> tuple[str, ...]:
        return tuple(self.attrs.get("class", "").split())

    def get(self, name: str, default: str = "") -> str:
        return self.attrs.get(name, default)

    @property
    def elements(self) -> list[Node]:
        """Element children only (no text)."""
        return [c for c in self.children if isinstance(c, Node)]

    def iter(self) -> Iterator[Node]:
        """This node and every descendant element, in document order."""
        stack: list[Node] = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.elements))

    def find_all(self, *tags: str) -> list[Node]:
        wanted = set(tags)
        return [n for n in self.iter() if n.tag in wanted]

    def ancestors(self) -> Iterator[Node]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def text(self) -> str:
        """Visible text with whitespace collapsed (script and style contents excluded)."""
        parts: list[str] = []
        self._collect(parts)
        return " ".join(" ".join(parts).split())

    def _collect(self, parts: list[str]) -> None:
        for child in self.children:
            if isinstance(child, str):
                parts.append(child)
            elif child.tag not in ("script", "style", "template"):
                child._collect(parts)

    def raw_text(self) -> str:
        """Text of this node including script contents (for <script> itself)."""
        return "".join(c if isinstance(c, str) else c.raw_text() for c in self.children)

    def signature(self) -> str:
        """Tag and sorted classes: what repeated list items have in common."""
        return self.tag + "".join(f".{c}" for c in sorted(self.classes))

    def path(self) -> str:
        """A readable location such as `main > div.comments > p.card-text`."""
        chain = [self, *self.ancestors()]
        return " > ".join(n.signature() for n in reversed(chain) if n.tag != "#document")


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document")
        self.current = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _CLOSES_P and self._open("p"):
            self._close("p")
        if tag in _SELF_NESTING_CLOSERS:
            for other in _SELF_NESTING_CLOSERS[tag]:
                if self.current.tag == other:
                    self._close(other)
        node = Node(tag, {k: v or "" for k, v in attrs}, parent=self.current, line=self.getpos()[0])
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, parent=self.current, line=self.getpos()[0])
        self.current.children.append(node)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if self._open(tag):
            self._close(tag)
        # A stray end tag (no matching open element) is ignored, as browsers do.

    def handle_data(self, data: str) -> None:
        self.current.children.append(data)

    def _open(self, tag: str) -> bool:
        node: Node | None = self.current
        while node is not None and node is not self.root:
            if node.tag == tag:
                return True
            node = node.parent
        return False

    def _close(self, tag: str) -> None:
        node: Node | None = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent


def parse_html(text: str) -> Node:
    """Parse HTML text into a tree rooted at a `#document` node. Never raises on malformed HTML."""
    builder = _TreeBuilder()
    builder.feed(text)
    builder.close()
    return builder.root


@dataclass(frozen=True)
class FetchedPage:
    """One HTTP response as the explorer and the oracles see it.

    `url` is the final URL (after redirects), `route` its path plus query, `body` the decoded text
    (empty for non-HTML responses, which are not read). `redirects` lists the URLs that redirected here.
    """

    url: str
    route: str
    status: int
    headers: dict[str, str]
    content_type: str
    body: str
    elapsed_ms: float
    method: str = "GET"
    redirects: tuple[str, ...] = ()

    @cached_property
    def document(self) -> Node:
        return parse_html(self.body if self.is_html else "")

    @cached_property
    def structure_hash(self) -> str:
        """Hex digest of the DOM's shape (see `structure_hash`): with the route, it names a *state*."""
        return structure_hash(self.document)

    @property
    def is_html(self) -> bool:
        return is_html(self.content_type)

    @property
    def title(self) -> str:
        titles = self.document.find_all("title")
        return titles[0].text() if titles else ""

    def header(self, name: str) -> str:
        lowered = name.lower()
        return next((v for k, v in self.headers.items() if k.lower() == lowered), "")

    def excerpt(self, needle: str = "", width: int = 240) -> str:
        """A short piece of the body around `needle` (or its start), for evidence."""
        body = self.body
        # Look in the document body first: the same words in <title> or <head> say little.
        body_start = max(0, body.find("<body"))
        at = body.find(needle, body_start) if needle else -1
        if needle and at < 0:
            at = body.find(needle)
        start = max(0, at - width // 3) if at >= 0 else 0
        piece = body[start : start + width]
        return ("…" if start else "") + piece + ("…" if start + width < len(body) else "")


def is_html(content_type: str) -> bool:
    """True for HTML media types (`text/html`, `application/xhtml+xml`), whatever the parameters."""
    media = content_type.split(";", 1)[0].strip().lower()
    return media in ("text/html", "application/xhtml+xml")


def origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower()


def same_origin(a: str, b: str) -> bool:
    return origin(a) == origin(b)


def route_of(url: str) -> str:
    """Path plus query of a URL: how pages are named in memory (`/search/2`, `/list?page=3`)."""
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def absolute(base: str, href: str) -> str | None:
    """Resolve `href` against `base`, dropping the fragment; None for non-HTTP schemes."""
    href = href.strip()
    if not href or href.startswith(("javascript:", "mailto:", "tel:", "data:")):
        return None
    url = urldefrag(urljoin(base, href)).url
    return url if urlsplit(url).scheme in ("http", "https") else None


def base_url(page: FetchedPage) -> str:
    bases = page.document.find_all("base")
    href = bases[0].get("href") if bases else ""
    return urljoin(page.url, href) if href else page.url


def extract_links(page: FetchedPage, include_forms: bool = False) -> list[str]:
    """Absolute same-origin URLs of the page's `<a href>` links, in document order, without repeats.

    With `include_forms`, the actions of GET forms are included where they appear. Links with
    `rel=nofollow` and downloads are skipped; a non-HTML page has no links.
    """
    if not page.is_html:
        return []
    base = base_url(page)
    seen: set[str] = set()
    links: list[str] = []
    for node in page.document.iter():
        if node.tag == "a" and "href" in node.attrs:
            if "nofollow" in node.get("rel").lower().split() or "download" in node.attrs:
                continue
            url = absolute(base, node.get("href"))
        elif include_forms and node.tag == "form" and node.get("method", "get").lower() == "get":
            url = absolute(base, node.get("action") or page.url)
        else:
            continue
        if url and same_origin(url, page.url) and url not in seen:
            seen.add(url)
            links.append(url)
    return links


# Attribute values that say what an element *is* (kept in the structure hash); every other value
# (hrefs, ids of items, text) changes with the data and is ignored.
_STRUCTURAL_VALUES = ("id", "class", "role", "type", "name")
_SKIP_STRUCTURE = frozenset(("script", "style", "template", "noscript"))


def structure_hash(root: Node) -> str:
    """A Crawljax-style digest of a tree: tags, attribute names and the values of id/class/role/type/name.

    Text is ignored, and a node's children are deduplicated by their own digests (order kept), so a list
    of 5 items and the same list of 7 hash alike while a new section, form or error box changes it.
    Computed bottom-up without recursion (a 100,000-deep page is only a long loop).
    """
    digests: dict[int, bytes] = {}
    order: list[Node] = []
    stack: list[Node] = [root]
    while stack:  # pre-order; reversed it is a valid post-order (children before parents)
        node = stack.pop()
        order.append(node)
        stack.extend(c for c in node.children if isinstance(c, Node) and c.tag not in _SKIP_STRUCTURE)
    for node in reversed(order):
        attrs = sorted(
            f"{k}={' '.join(sorted(v.split())) if k == 'class' else v}" if k in _STRUCTURAL_VALUES else k
            for k, v in node.attrs.items()
        )
        seen: dict[bytes, None] = {}
        for child in node.children:
            if isinstance(child, Node) and child.tag not in _SKIP_STRUCTURE:
                seen.setdefault(digests.pop(id(child)), None)
        h = hashlib.blake2b(digest_size=16)
        h.update(node.tag.encode() + b"\0" + "\0".join(attrs).encode("utf-8", "replace") + b"\1")
        for d in seen:
            h.update(d)
        digests[id(node)] = h.digest()
    return digests[id(root)].hex()


@dataclass(frozen=True, slots=True)
class Action:
    """Something a tester can do on a page: follow a link, trigger an HTMX/`data-href`/`onclick`
    navigation, or submit a GET form with generated values.

    `target` is absolute (for a form, its query already holds the generated values); `label` is the
    page's own text, untrusted (display and the llm's untrusted block only); `selector` locates the
    element for a browser click.
    """

    kind: Literal["link", "hx", "form", "click"]
    target: str
    label: str = ""
    selector: str = ""


# `location.href = '/x'`, `window.location='/x'`, `location.assign("/x")`, `document.location.replace('/x')`:
# only a plain string literal is a known target; anything computed needs a browser.
_ONCLICK_NAV = re.compile(
    r"""^\s*(?:(?:window|document|top|self)\.)?location(?:\.href)?\s*=\s*(["'])([^"'\\]*)\1\s*;?\s*(?:return\s+false\s*;?\s*)?$"""
    r"""|^\s*(?:(?:window|document|top|self)\.)?location\.(?:assign|replace)\(\s*(["'])([^"'\\]*)\3\s*\)\s*;?\s*(?:return\s+false\s*;?\s*)?$"""
)
SAMPLE_WORD = "test"
"""What a generated text value is: one plain, deterministic word (the same query every time)."""
_SAMPLE_BY_TYPE = {
    "email": "test@example.com",
    "number": "1",
    "range": "1",
    "url": "http://example.com/",
    "tel": "5550100",
    "date": "2024-01-01",
    "month": "2024-01",
    "week": "2024-W01",
    "time": "12:00",
    "datetime-local": "2024-01-01T12:00",
    "color": "#000000",
}
_NO_VALUE_TYPES = frozenset(("submit", "button", "reset", "image", "file", "password"))
MAX_LABEL = 120


def _label(node: Node) -> str:
    text = node.text() or node.get("aria-label") or node.get("title") or node.get("value")
    return text[:MAX_LABEL]


def css_selector(node: Node) -> str:
    """A CSS selector for `node`: `#id` when it has a usable one, else an `:nth-of-type` path from the root."""
    parts: list[str] = []
    current: Node | None = node
    while current is not None and current.tag != "#document":
        ident = current.get("id")
        if ident and re.fullmatch(r"[A-Za-z][\w-]*", ident):
            parts.append(f"#{ident}")
            break
        parent = current.parent
        if parent is None:
            parts.append(current.tag)
            break
        same = [c for c in parent.elements if c.tag == current.tag]
        parts.append(
            current.tag if len(same) == 1 else f"{current.tag}:nth-of-type({same.index(current) + 1})"
        )
        current = parent
    return " > ".join(reversed(parts))


def form_submission(form: Node, action_url: str) -> str:
    """The URL a GET `form` submits to with generated values: hidden and preset values as they are,
    a sample word for empty text fields, the selected (else first) option of a select, checked boxes."""
    pairs: list[tuple[str, str]] = []
    radios: set[str] = set()
    for field_node in form.iter():
        name = field_node.get("name")
        if not name or "disabled" in field_node.attrs or field_node is form:
            continue
        if field_node.tag == "input":
            kind = field_node.get("type", "text").lower()
            if kind in _NO_VALUE_TYPES:
                continue
            if kind in ("checkbox", "radio"):
                if "checked" in field_node.attrs and name not in radios:
                    pairs.append((name, field_node.get("value", "on")))
                    if kind == "radio":
                        radios.add(name)
                continue
            value = field_node.get("value") if "value" in field_node.attrs else ""
            pairs.append((name, value or _SAMPLE_BY_TYPE.get(kind, "" if kind == "hidden" else SAMPLE_WORD)))
        elif field_node.tag == "select":
            options = field_node.find_all("option")
            chosen = next((o for o in options if "selected" in o.attrs), options[0] if options else None)
            if chosen is not None:
                pairs.append((name, chosen.get("value") if "value" in chosen.attrs else chosen.text()))
        elif field_node.tag == "textarea":
            pairs.append((name, field_node.text() or SAMPLE_WORD))
    parts = urlsplit(action_url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", urlencode(pairs), ""))


def extract_actions(page: FetchedPage) -> list[Action]:
    """Every same-origin action of `page` a script-free client can see, in document order, one per target.

    Links (`<a>`/`<area>` with `href`, minus `rel=nofollow` and downloads), `hx-get` (HTMX, also on
    buttons), `data-href`, `onclick` navigations to a literal address, and GET forms submitted with
    generated values (`form_submission`). POST forms are never actions: submitting one changes data.
    `hx-boost` makes links and forms AJAX requests to the same targets, so they are found as such.
    """
    if not page.is_html:
        return []
    base = base_url(page)
    seen: set[str] = set()
    actions: list[Action] = []

    def add(kind: Literal["link", "hx", "form", "click"], href: str | None, node: Node) -> None:
        url = absolute(base, href) if href is not None else None
        if url and same_origin(url, page.url) and url not in seen:
            seen.add(url)
            actions.append(Action(kind, url, _label(node), css_selector(node)))

    for node in page.document.iter():
        if node.tag in ("a", "area") and "href" in node.attrs:
            if "nofollow" in node.get("rel").lower().split() or "download" in node.attrs:
                continue
            add("link", node.get("href"), node)
        elif node.tag == "form":
            method = node.get("method", "get").strip().lower() or "get"
            if node.get("hx-get") or (
                method == "get"
                and not any(node.get(f"hx-{verb}") for verb in ("post", "put", "patch", "delete"))
            ):
                target = absolute(base, node.get("hx-get") or node.get("action") or page.url)
                if target:
                    add("form", form_submission(node, target), node)
            continue
        if node.get("hx-get") and node.tag != "form":
            add("hx", node.get("hx-get"), node)
        if node.get("data-href"):
            add("click", node.get("data-href"), node)
        match = _ONCLICK_NAV.match(node.get("onclick")) if node.get("onclick") else None
        if match:
            add("click", match.group(2) if match.group(2) is not None else match.group(4), node)
    return actions


def action_targets(page: FetchedPage) -> list[str]:
    """The targets of `extract_actions(page)`: what the explorer may open from this page."""
    return [a.target for a in extract_actions(page)]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        return None  # we follow redirects ourselves, to keep them same-origin and recorded


_OPENER = urllib.request.build_opener(_NoRedirect)


def fetch_page(
    url: str,
    *,
    timeout: float = 10.0,
    follow_redirects: bool = True,
    max_redirects: int = 5,
    user_agent: str = USER_AGENT,
) -> FetchedPage:
    """GET `url` and return what came back, error statuses included (a 500 is a finding, not a crash).

    Redirects are followed only within the starting origin; a redirect elsewhere (or one too many)
    is returned as the 3xx response itself, with `Location` in the headers. Non-HTML bodies are
    not read. Network failures raise `OSError` (`urllib.error.URLError`).
    """
    redirects: list[str] = []
    start = time.perf_counter()
    current = url
    while True:
        status, headers, content_type, body = _get_once(current, timeout, user_agent)
        location = next((v for k, v in headers.items() if k.lower() == "location"), "")
        target = absolute(current, location) if location else None
        if (
            follow_redirects
            and status in (301, 302, 303, 307, 308)
            and target
            and same_origin(target, url)
            and len(redirects) < max_redirects
        ):
            redirects.append(current)
            current = target
            continue
        elapsed = (time.perf_counter() - start) * 1000
        return FetchedPage(
            url=current,
            route=route_of(current),
            status=status,
            headers=headers,
            content_type=content_type,
            body=body,
            elapsed_ms=round(elapsed, 2),
            redirects=tuple(redirects),
        )


def read_within(response: object, deadline: float, timeout: float, limit: int = MAX_BODY_BYTES) -> bytes:
    """Up to `limit` bytes, by `deadline` (time.monotonic): the socket timeout alone bounds each read, so
    a server dripping a byte at a time could otherwise hold one fetch (and the session) for ever."""
    read = getattr(response, "read1", None) or response.read  # type: ignore[attr-defined]
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        chunk = read(min(65_536, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if time.monotonic() > deadline:
            raise TimeoutError(f"the page took longer than {timeout:g}s to arrive ({size} bytes so far)")
    return b"".join(chunks)


def _get_once(url: str, timeout: float, user_agent: str) -> tuple[int, dict[str, str], str, str]:
    try:
        return _request(url, timeout, user_agent)
    except http.client.HTTPException as err:
        # A broken response (truncated body, bad status line) is a network failure to the caller.
        raise urllib.error.URLError(f"bad HTTP response from {url}: {err!r}") from err


def _request(url: str, timeout: float, user_agent: str) -> tuple[int, dict[str, str], str, str]:
    deadline = time.monotonic() + timeout
    request = urllib.request.Request(url, headers={"User-Agent": user_agent, "Accept": "text/html,*/*;q=0.5"})
    try:
        response = _OPENER.open(request, timeout=timeout)
    except urllib.error.HTTPError as err:
        response = err  # an HTTPError is a response too: 4xx/5xx bodies are evidence
    with response:
        headers = {k: v for k, v in response.headers.items()}
        content_type = response.headers.get("Content-Type", "")
        status = response.status if hasattr(response, "status") else response.code
        if not is_html(content_type):
            return int(status), headers, content_type, ""
        raw = read_within(response, deadline, timeout)
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and len(raw) < min(int(declared), MAX_BODY_BYTES):
            # Half a page would mislead the oracles (a form cut before its fields, a list cut short).
            raise urllib.error.URLError(f"truncated response from {url}: {len(raw)} of {declared} bytes")
        charset = response.headers.get_content_charset() or "utf-8"
        try:
            text = raw.decode(charset, errors="replace")
        except LookupError:  # a charset Python does not know
            text = raw.decode("utf-8", errors="replace")
        return int(status), headers, content_type, text
