"""One response as the explorer and the oracles see it: `FetchedPage`, what went wrong in the page
while it ran (`ClientError`), and what is read off a response as a whole (HTML or not, a fragment).

The HTTP and browser engines make these (`bughunt.explorer`); the oracles and the action extraction
read them. The tree is `bughunt.dom`'s, parsed on first use.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Literal, TypeVar, cast
from urllib.parse import urljoin

from bughunt.dom import Node, parse_html, structure_hash
from bughunt.record_repr import field_repr

_T = TypeVar("_T")
_BASE_TAG = re.compile(r"(?i)<base[\s/>]")


@dataclass(repr=False, frozen=True, slots=True, eq=False)
class ClientError:
    """One client-side failure seen by the browser engine. `kind` is harness vocabulary; `text` and
    `url` are the page's own words and address (untrusted: quarantined evidence only)."""

    __repr__ = field_repr

    kind: Literal["js_error", "console_error", "failed_request", "channel_error"]
    text: str = ""
    url: str = ""
    status: int | None = None


@dataclass(repr=False, frozen=True, eq=False)
class FetchedPage:
    """One HTTP response as the explorer and the oracles see it.

    `url` is the final URL (after redirects), `route` its path plus query, `body` the decoded text
    (empty for non-HTML responses, which are not read). `redirects` lists the URLs that redirected here.
    """

    __repr__ = field_repr

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
    refused_writes: tuple[str, ...] = ()
    """For a click state (`clicked_from`): the writes ("DELETE /api/items/7") the click made the page
    send, which the browser engine refused — exploring never writes."""
    served_fragment: bool = False
    """The browser engine's page whose server sent a piece of a page (`fragment_text`): its `body` is
    the document Chromium built around it, where a script may have added a title."""

    @cached_property
    def document(self) -> Node:
        return self._tree.document

    @cached_property
    def base(self) -> str:
        """The URL the page's relative links resolve against (its `<base href>`, else its own URL)."""
        if _BASE_TAG.search(self.body) is None:
            # no element is in the tree whose tag is not in the text: most pages have no <base>, and
            # finding none walks the whole tree
            return self.url
        bases = self.document.find_all("base")
        href = bases[0].get("href") if bases else ""
        return urljoin(self.url, href) if href else self.url

    @cached_property
    def visible_text(self) -> str:
        """The document's visible text, read once: a step's memory and its quarantine both keep it."""
        return self._tree.visible_text

    @cached_property
    def structure_hash(self) -> str:
        """Hex digest of the DOM's shape (see `structure_hash`): with the route, it names a *state*."""
        return self._tree.structure_hash

    @cached_property
    def _tree(self) -> TreeReadings:
        """What is read off the tree alone: this page's own, or an earlier page's of the same body
        (`KeptTrees.share`)."""
        return TreeReadings(self.body if self.is_html else "")

    def tree_derived(self, compute: Callable[[Node], _T]) -> _T:
        """`compute(self.document)`, computed once for this page and every page that shares its tree
        readings (`KeptTrees`): for readings of the tree alone, which neither the URL nor anything
        else of the response changes."""
        return self._tree.derived(compute)

    @property
    def is_html(self) -> bool:
        return is_html(self.content_type)

    @property
    def title(self) -> str:
        titles = self.document.find_all("title")
        return titles[0].text() if titles else ""

    def derived(self, compute: Callable[[FetchedPage], _T]) -> _T:
        """`compute(self)`, computed once for this page. Modules above this one read things off a page
        that several callers ask for (its actions: the engine, the session and the oracles each do);
        the page keeps them without knowing them, so no module below them has to import them. A
        reading declared to read the tree alone (`tree_reading`) is kept with the tree readings, for
        every page that shares them (`KeptTrees`)."""
        kept = self._tree.of_pages if compute in _TREE_ONLY else self._derived
        if compute not in kept:
            kept[compute] = compute(self)
        return cast("_T", kept[compute])

    @cached_property
    def _derived(self) -> dict[Callable[[FetchedPage], object], object]:
        return {}

    def share_readings(self, earlier: FetchedPage) -> bool:
        """Take what was read off `earlier` — its parsed tree and every reading kept with it (`derived`,
        the base URL, visible text, structure hash) — when it is the same response read the same way:
        the same URL, media type and body (and no click or served fragment behind either). Each reading
        is a function of those alone, so it would come out the same; a page loaded again unchanged (a
        step to a page an oracle fetched, a list's page walked again) is not parsed and read anew.
        Returns whether it did."""
        if not (
            self.url == earlier.url
            and self.content_type == earlier.content_type
            and self.body == earlier.body
            and self.clicked_from is None
            and earlier.clicked_from is None
            and self.served_fragment == earlier.served_fragment
        ):
            return False
        mine, theirs = self.__dict__, earlier.__dict__
        if "_tree" in mine and mine["_tree"] is not theirs.get("_tree"):
            # this page reads another `TreeReadings` of the body (`KeptTrees`): what was read off the
            # earlier page's tree (its nodes) must not meet readings of this one's
            return False
        for name in _READINGS:
            if name in theirs and name not in mine:
                mine[name] = theirs[name]  # as `cached_property` keeps it
        return True

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


_READINGS = ("document", "base", "visible_text", "structure_hash", "_derived", "_tree")
"""`FetchedPage`'s cached readings: functions of its URL, media type and body (`share_readings`)."""


class TreeReadings:
    """What is read off a body's tree alone — the tree itself, its visible text, its structure hash,
    and readings of the tree (`derived`), each made when first asked. The tree is a function of the
    body's text and a parsed tree is never changed, so two responses with one body (a list's `?page=1`
    and its first page, a page an oracle fetched and a step loads again) may share one parse and one of
    each reading, whatever their URLs (`KeptTrees`)."""

    __slots__ = ("text", "_document", "_visible_text", "_structure_hash", "_derived", "of_pages")

    def __init__(self, text: str) -> None:
        self.text = text
        self._document: Node | None = None
        self._visible_text: str | None = None
        self._structure_hash: str | None = None
        self._derived: dict[Callable[[Node], object], object] = {}
        self.of_pages: dict[Callable[[FetchedPage], object], object] = {}
        """The page readings declared to read the tree alone (`tree_reading`), as the first page
        asked computed them."""

    @property
    def document(self) -> Node:
        doc = self._document
        if doc is None:
            doc = self._document = parse_html(self.text)
        return doc

    @property
    def visible_text(self) -> str:
        text = self._visible_text
        if text is None:
            text = self._visible_text = self.document.text()
        return text

    @property
    def structure_hash(self) -> str:
        digest = self._structure_hash
        if digest is None:
            digest = self._structure_hash = structure_hash(self.document)
        return digest

    def derived(self, compute: Callable[[Node], _T]) -> _T:
        kept = self._derived
        if compute not in kept:
            kept[compute] = compute(self.document)
        return cast("_T", kept[compute])


_TREE_ONLY: set[Callable[[FetchedPage], object]] = set()


def tree_reading(compute: Callable[[FetchedPage], _T]) -> Callable[[FetchedPage], _T]:
    """Declare `compute` (a reading `FetchedPage.derived` keeps) a reading of the page's tree alone —
    its document, tree facts and title, never its URL, status, headers or the engine — so that pages
    sharing their tree readings (`KeptTrees`) share it too. Returns `compute` itself."""
    _TREE_ONLY.add(compute)
    return compute


class KeptTrees:
    """The tree readings of the last bodies a session loaded (`share`), bounded in count and size: a
    page whose body one of them had takes its readings instead of parsing and reading its own."""

    __slots__ = ("_trees", "_chars", "pages", "chars", "shared")

    def __init__(self, pages: int = 32, chars: int = 4_000_000) -> None:
        self._trees: OrderedDict[str, TreeReadings] = OrderedDict()
        self._chars = 0
        self.pages, self.chars = pages, chars
        self.shared = 0
        """Pages that took an earlier page's tree readings."""

    def share(self, page: FetchedPage) -> None:
        """Give `page` the tree readings of an earlier page of the same body, or keep its own for the
        pages after it. A page that holds tree readings already (lent with everything else by the
        last page of its URL, `share_readings`, or read already) keeps them: one page, one tree."""
        own: TreeReadings | None = page.__dict__.get("_tree")
        text = own.text if own is not None else page.body if page.is_html else ""
        trees = self._trees
        kept = trees.get(text)
        if kept is not None:
            trees.move_to_end(text)
            if own is None:
                page.__dict__["_tree"] = kept  # as `cached_property` keeps it
                self.shared += 1
            return
        if len(text) > self.chars // 4:
            return  # a body this large is read for its own page only
        trees[text] = own if own is not None else page._tree
        self._chars += len(text)
        while len(trees) > self.pages or self._chars > self.chars:
            dropped, _ = trees.popitem(last=False)
            self._chars -= len(dropped)


def is_html(content_type: str) -> bool:
    """True for HTML media types (`text/html`, `application/xhtml+xml`), whatever the parameters."""
    media = content_type.split(";", 1)[0].strip().lower()
    return media in ("text/html", "application/xhtml+xml")


def base_url(page: FetchedPage) -> str:
    return page.base


_DOCUMENT_TAG = re.compile(r"(?i)<(?:!doctype|html|head|body)[\s>/]")


def is_fragment(page: FetchedPage) -> bool:
    """An HTML answer that is a piece of a page (an HTMX partial: no doctype, html, head or body tag),
    swapped into the page that asked for it rather than a page of its own. In the browser engine the
    body is Chromium's document (always with `<html>`): what the server sent says (`served_fragment`)."""
    return page.served_fragment or (page.is_html and fragment_text(page.body))


def fragment_text(body: str) -> bool:
    """HTML text that is a piece of a page: no doctype, html, head or body tag."""
    return bool(body.strip()) and _DOCUMENT_TAG.search(body) is None
