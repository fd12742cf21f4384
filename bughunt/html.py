"""HTML for testers: fetch one page over HTTP, parse it into a small tree, extract same-origin actions.

The HTTP is httpx's (one deadline per whole response); the tree is forgiving (unclosed tags, stray end
tags) because real pages are not valid HTML, so the explorer works on any server-rendered site
without a browser.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import http.cookiejar
import os
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, Literal, TypeVar
from urllib.parse import quote, urldefrag, urlencode, urljoin, urlsplit, urlunsplit

import httpx
from loguru import logger
from selectolax.lexbor import LexborHTMLParser

_T = TypeVar("_T")
USER_AGENT = "bughunt/0.1 (+exploratory testing agent)"
MAX_BODY_BYTES = 2_000_000


MAX_DEPTH = 256
"""Elements nested deeper are kept, as children of their ancestor at this depth: every walk stays short."""
MAX_NODES = 300_000
"""Elements and text pieces kept per page; the rest of a larger document is dropped (and logged)."""
MAX_PARSE_CHARS = 8_000_000
_NO_TEXT = frozenset(("script", "style", "template"))


@dataclass(eq=False, slots=True)
class Node:
    """One element of a parsed page. `children` holds nodes and text strings in document order.

    Every walk here is iterative: a page nested 100,000 deep is a long loop, never a `RecursionError`.
    `line` is the source line for `<script>` elements (evidence), 0 for others.
    """

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
            # inline `elements`, reversed: this loop is most of the time an exploration spends in Python
            stack.extend([c for c in reversed(node.children) if isinstance(c, Node)])

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
        return " ".join(" ".join(self._strings(skip=_NO_TEXT)).split())

    def short_text(self, limit: int) -> str | None:
        """`text()` when it is at most `limit` characters, else None — without reading the rest of a
        big subtree (asking every element of a page for a short label is then linear, not quadratic)."""
        words: list[str] = []
        size = -1
        for string in self._strings(skip=_NO_TEXT):
            for word in string.split():
                size += len(word) + 1
                if size > limit:
                    return None
                words.append(word)
        return " ".join(words)

    def raw_text(self) -> str:
        """Text of this node including script contents (for <script> itself)."""
        return "".join(self._strings(skip=frozenset()))

    def _strings(self, skip: frozenset[str]) -> Iterator[str]:
        stack: list[Node | str] = list(reversed(self.children))
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                yield item
            elif item.tag not in skip:
                stack.extend(reversed(item.children))

    def signature(self) -> str:
        """Tag and sorted classes: what repeated list items have in common."""
        return self.tag + "".join(f".{c}" for c in sorted(self.classes))

    def path(self) -> str:
        """A readable location such as `main > div.comments > p.card-text`."""
        chain = [self, *self.ancestors()]
        return " > ".join(
            n.signature() for n in reversed(chain) if n.tag not in ("#document", "html", "body")
        )


MAX_SOURCE_NESTING = MAX_DEPTH
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)[^<>]*?(/?)>")
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
# Past the cap these are kept all the same: they carry the actions and evidence, and the standard
# closes an open one when the next begins (`<a>` in `<a>`, `<li>` after `<li>`), so they cannot nest deep.
_KEPT_DEEP = frozenset(
    "a form button select option optgroup textarea script style title li dt dd tr td th p h1 h2 h3 h4 h5 h6".split()
)


def _bounded_nesting(text: str) -> str:
    """`text` with start tags dropped where they would open more than `MAX_SOURCE_NESTING` elements
    (those of links, forms and other self-closing elements excepted).

    The standard's tree construction walks the open elements for every end tag, so 30,000 unclosed
    `<span>`s followed by 30,000 stray end tags cost 30,000² steps (12 s), in lexbor as in browsers.
    A linear scan of the tags counts the nesting (roughly: it cannot tell a tag from text in a script),
    and only a page past the cap is rewritten, so every ordinary page is parsed exactly as sent.
    """
    depth, deepest = 0, 0
    for closing, name, selfclosing in _TAG.findall(text):  # tuples built in C: the fast path
        if closing:
            if depth:
                depth -= 1
        elif not selfclosing and name.lower() not in _VOID:
            depth += 1
            if depth > deepest:
                deepest = depth
    if deepest <= MAX_SOURCE_NESTING:
        return text
    logger.info("page nests {} elements deep: start tags past {} dropped", deepest, MAX_SOURCE_NESTING)
    pieces: list[str] = []
    depth, kept = 0, 0
    for match in _TAG.finditer(text):
        closing, name, selfclosing = match.group(1), match.group(2).lower(), match.group(3)
        if closing:
            depth = max(0, depth - 1)
        elif not selfclosing and name not in _VOID:
            if depth >= MAX_SOURCE_NESTING:
                if name in _KEPT_DEEP:
                    continue
                pieces.append(text[kept : match.start()])
                kept = match.end()
                continue
            depth += 1
    pieces.append(text[kept:])
    return "".join(pieces)


def parse_html(text: str) -> Node:
    """Parse HTML text into a tree rooted at a `#document` node. Never raises on malformed HTML.

    The parsing is lexbor's (selectolax): the HTML standard's tree construction in C, linear in the
    input, so the tree is the one a browser builds (implied `<html>`/`<body>`/`<tbody>`, `<p>` closed
    by a block, stray end tags ignored). It is copied into `Node`s without recursion, at most
    `MAX_DEPTH` deep and `MAX_NODES` large.
    """
    root = Node("#document")
    if not text:
        return root
    if len(text) > MAX_PARSE_CHARS:
        logger.info("page of {} characters: only the first {} are parsed", len(text), MAX_PARSE_CHARS)
        text = text[:MAX_PARSE_CHARS]
    lexbor = LexborHTMLParser(_bounded_nesting(text)).root
    if lexbor is None:
        return root
    # Script lines for evidence: each script's text is found after the previous one's (linear).
    cursor, line, count = 0, 1, 0
    stack: list[tuple[Any, Node, int]] = [(lexbor, root, 1)]
    while stack:
        source, parent, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            logger.info("page with more than {} nodes: the rest is not parsed", MAX_NODES)
            break
        tag = source.tag
        if tag == "-text":
            parent.children.append(source.text_content or "")
            continue
        if not tag or tag[0] in "-_!":  # comments, doctype
            continue
        node = Node(tag, {k: v or "" for k, v in source.attributes.items()}, parent=parent)
        parent.children.append(node)
        if tag == "script":
            code = source.text(deep=True)
            at = text.find(code, cursor) if code else -1
            if at >= 0:
                line += text.count("\n", cursor, at)
                cursor = at
            node.line = line
        # Deeper than the cap: the children hang on the deepest allowed ancestor instead.
        holder, below = (node, depth + 1) if depth < MAX_DEPTH else (parent, depth)
        children = []
        child = source.child
        while child is not None:
            children.append(child)
            child = child.next
        stack.extend((c, holder, below) for c in reversed(children))
    return root


@dataclass(frozen=True, slots=True)
class ClientError:
    """One client-side failure seen by the browser engine. `kind` is harness vocabulary; `text` and
    `url` are the page's own words and address (untrusted: quarantined evidence only)."""

    kind: Literal["js_error", "console_error", "failed_request"]
    text: str = ""
    url: str = ""
    status: int | None = None


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
    client_errors: tuple[ClientError, ...] = ()
    """What the browser engine saw go wrong while the page ran (empty for the HTTP engine)."""
    clicked_from: tuple[FetchedPage, str] | None = None
    """For a state the browser engine reached by a click that left the URL as it was: the page the
    click was made on, and the clicked control's label (untrusted page text). A pager of a single-page
    app that has no addresses (`href="javascript:"`) pages its list this way."""

    @cached_property
    def document(self) -> Node:
        return parse_html(self.body if self.is_html else "")

    @cached_property
    def base(self) -> str:
        """The URL the page's relative links resolve against (its `<base href>`, else its own URL)."""
        bases = self.document.find_all("base")
        href = bases[0].get("href") if bases else ""
        return urljoin(self.url, href) if href else self.url

    @cached_property
    def _actions(self) -> tuple[tuple[Action, ...], Counter[str]]:
        # the explorer, its fetcher and the oracles each ask a page for its actions: one walk of it
        actions, counts = _page_actions(self)
        return tuple(actions), counts

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


@lru_cache(maxsize=8192)
def origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower()


def same_origin(a: str, b: str) -> bool:
    return origin(a) == origin(b)


MAX_ROUTE_CHARS = 512
"""Routes are names in trusted memory: a longer one is not followed (`Fetcher.route_of` gives None)."""
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# Raw in a canonical route: unreserved characters and the delimiters that structure a path or query.
# Everything else (spaces, commas, quotes, non-ASCII, controls) is percent-encoded.
_PATH_KEEP = re.compile(r"%([0-9A-Fa-f]{2})|([^A-Za-z0-9\-._~/:@!$&()*+;=])")
_QUERY_KEEP = re.compile(r"%([0-9A-Fa-f]{2})|([^A-Za-z0-9\-._~/:@!$&()*+;=?])")


def _canonical(part: str, pattern: re.Pattern[str]) -> str:
    def fix(match: re.Match[str]) -> str:
        if match.group(1) is not None:
            char = chr(int(match.group(1), 16))
            return char if char in _UNRESERVED else "%" + match.group(1).upper()
        return quote(match.group(2), safe="", errors="surrogatepass")

    return pattern.sub(fix, part)


def route_of(url: str, *, hash_routes: bool = False) -> str:
    """Path plus query of a URL, canonically percent-encoded: how pages are named in memory
    (`/search/2`, `/list?page=3`, `/px/a%20b%2Cc`). Equivalent spellings (`%7e`, `~`) give one route.
    With `hash_routes` (the browser engine), a hash route is kept: `/#/article/x`."""
    parts = urlsplit(url)
    path = _canonical(parts.path or "/", _PATH_KEEP)
    route = path + (f"?{_canonical(parts.query, _QUERY_KEEP)}" if parts.query else "")
    if hash_routes and hash_route(parts.fragment):
        route += "#" + _canonical(parts.fragment, _QUERY_KEEP)
    return route


def hash_route(fragment: str) -> bool:
    """True for the fragment of a hash-routed single-page app (`#/article/x`, `#!/tag/y`): a page, not
    a place on one."""
    return fragment.startswith(("/", "!/"))


@lru_cache(maxsize=8192)  # pure; a site repeats the same links on every page (urljoin is most of it)
def absolute(base: str, href: str) -> str | None:
    """Resolve `href` against `base`, dropping the fragment unless it is a hash route (`#/…`); None for
    non-HTTP schemes."""
    href = href.strip()
    if not href or href.lower().startswith(("javascript:", "mailto:", "tel:", "data:")):
        return None
    url, fragment = urldefrag(urljoin(base, href))
    if urlsplit(url).scheme not in ("http", "https"):
        return None
    return f"{url}#{fragment}" if hash_route(fragment) else url


def base_url(page: FetchedPage) -> str:
    return page.base


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
            chosen = selected_option(field_node)
            if chosen is not None:
                pairs.append((name, chosen))
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
    return list(page._actions[0])  # a copy: the caller may change it, the page keeps its own


def action_counts(page: FetchedPage) -> Counter[str]:
    """How many elements of `page` lead to each target of `extract_actions(page)` (a busy author's
    profile is linked from every one of their previews; a tag used by many articles from each)."""
    return Counter(page._actions[1])


def _page_actions(page: FetchedPage) -> tuple[list[Action], Counter[str]]:
    """`extract_actions` and `action_counts` in one pass over the page."""
    counts: Counter[str] = Counter()
    if not page.is_html:
        return [], counts
    base = base_url(page)
    actions: list[Action] = []

    def add(kind: Literal["link", "hx", "form", "click"], href: str | None, node: Node) -> None:
        url = absolute(base, href) if href is not None else None
        if url and same_origin(url, page.url):
            counts[url] += 1
            if counts[url] == 1:
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
    return actions, counts


_CHROME_TAGS = frozenset(("nav", "header", "footer", "menu"))
_CHROME_ROLES = frozenset(("navigation", "menu", "menubar", "tablist", "tab"))


def item_places(page: FetchedPage) -> dict[str, str]:
    """Target URL → where on `page` a link to it sits, for links inside an *item* of a list: an element
    repeated beside siblings of its own tag and classes that holds more than the link (a preview with
    a title, an author and a date; not a bare `<li><a>` of a tab bar). Links of one place, one per
    item, lead to instances of one page type (every preview's author link). Links in navigation
    chrome (nav, header, footer, menus, tab lists) have no place."""
    places: dict[str, str] = {}
    if not page.is_html:
        return places
    base = base_url(page)
    for node in page.document.iter():
        if node.tag != "a" or "href" not in node.attrs:
            continue
        url = absolute(base, node.get("href"))
        if not url or url in places or not same_origin(url, page.url):
            continue
        place = _item_place(node)
        if place is not None:
            places[url] = place
    return places


def _item_place(link: Node) -> str | None:
    if any(up.tag in _CHROME_TAGS or up.get("role") in _CHROME_ROLES for up in link.ancestors()):
        return None
    chain = [link]
    for up in link.ancestors():
        parent = up.parent
        if parent is not None and up.tag not in ("#document", "html", "body"):
            signature = up.signature()
            repeated = sum(1 for c in parent.elements if c.signature() == signature) >= 2
            if repeated and (len(up.find_all("a")) >= 2 or len(up.text()) > len(link.text()) + 3):
                inner = " > ".join(n.signature() for n in reversed(chain))
                return f"{up.path()} >> {inner}"
        chain.append(up)
    return None


_DOCUMENT_TAG = re.compile(r"(?i)<(?:!doctype|html|head|body)[\s>/]")


def is_fragment(page: FetchedPage) -> bool:
    """An HTML answer that is a piece of a page (an HTMX partial: no doctype, html, head or body tag),
    swapped into the page that asked for it rather than a page of its own."""
    return page.is_html and bool(page.body.strip()) and _DOCUMENT_TAG.search(page.body) is None


def action_targets(page: FetchedPage) -> list[str]:
    """The targets of `extract_actions(page)`: what the explorer may open from this page."""
    return [a.target for a in extract_actions(page)]


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
                self._client = httpx.AsyncClient(
                    follow_redirects=False,
                    trust_env=False,
                    timeout=None,
                    cookies=http.cookiejar.CookieJar(http.cookiejar.DefaultCookiePolicy(allowed_domains=[])),
                )
                self._loop, self._pid = loop, os.getpid()
            return self._loop


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
                    route=route_of(current),
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


def selected_option(select: Node) -> str | None:
    """The value a browser submits for a <select>: the selected option, else the first; its text when it
    has no value attribute. None for a select without options."""
    options = select.find_all("option")
    chosen = next((o for o in options if "selected" in o.attrs), options[0] if options else None)
    if chosen is None:
        return None
    return chosen.get("value") if "value" in chosen.attrs else chosen.text()
