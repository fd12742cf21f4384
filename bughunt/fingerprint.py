"""Bug fingerprints: (route shape, error type, message template), so one root cause is one bug.

Comparing titles fails ("save failed" vs "clicking save does nothing"); comparing the triple after
volatile parts are replaced by placeholders does not. `fingerprint(route, ...)` keeps small numbers
(`/feed/2` and `/feed/3` are different routes) but loses ids: uuids, long hex strings, long numbers.
Oracle findings are fingerprinted on the route's *shape* (`route_shape`): `/tag/python?page=2` and
`/tag/webdev?page=2` are one template, `/tag/<slug>?page=<n>`, so one bug with two occurrences.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import NamedTuple
from urllib.parse import quote, urlsplit

from bughunt.sim.route_keys import query_pairs

_UUID = re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
_TIMESTAMP = re.compile(
    r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b"
    r"|\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\b"
)
_HEX = re.compile(r"\b(?:0x)?[0-9a-fA-F]*\d[0-9a-fA-F]*[a-fA-F][0-9a-fA-F]*\b|\b0x[0-9a-fA-F]+\b")
_NUMBER = re.compile(r"(?<![A-Za-z])[-+]?\d+(?:[.,]\d+)*")
_SPACE = re.compile(r"\s+")
_ROUTE_ID = re.compile(r"(?<=[/=])(?:\d{4,}|[0-9a-fA-F]{12,})(?=[/?&#;]|$)")


def normalise_message(message: str) -> str:
    """Lower-case message with uuids, timestamps, hex ids and numbers replaced by placeholders.

    Words stay (a field or tag name is part of the error type); only volatile values go.
    """
    text = _UUID.sub("<uuid>", message)
    text = _TIMESTAMP.sub("<time>", text)
    text = _HEX.sub(lambda m: m.group(0) if len(m.group(0)) < 6 else "<hex>", text)
    text = _NUMBER.sub("<n>", text)
    return _SPACE.sub(" ", text).strip().lower()


def normalise_route(route: str) -> str:
    """Route with uuids and long ids (path segments or query values) replaced by placeholders."""
    route = _UUID.sub("<uuid>", route)
    return _ROUTE_ID.sub("<id>", route) or "/"


class Fingerprint(NamedTuple):
    route: str
    kind: str
    message: str

    @property
    def key(self) -> str:
        """The readable triple joined by `|`."""
        return f"{self.route}|{self.kind}|{self.message}"

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.key.encode("utf-8")).hexdigest()[:16]


def fingerprint_parts(route: str, kind: str, message: str) -> Fingerprint:
    """The normalised triple behind a fingerprint (what a person reads)."""
    return Fingerprint(normalise_route(route), kind, normalise_message(message))


def fingerprint(route: str, kind: str, message: str) -> str:
    """A stable 16-hex-digit fingerprint of (route, kind, normalised message)."""
    return fingerprint_parts(route, kind, message).digest


_DIGITS = re.compile(r"^\d+$")
_UUID_ONLY = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_HEX_ID = re.compile(r"^(?=[0-9a-fA-F]*\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{8,}$")
_MIXED = re.compile(r"^(?=.*\d)(?=.*[a-zA-Z])[a-zA-Z0-9]+$")
_DESIGNATOR = re.compile(r"^([a-zA-Z]{2,})(\d+)$")
_WORD_BREAK = re.compile(r"[-_.]")
MIN_SIBLINGS = 2
"""Other routes, differing in one segment only, that make that segment a variable (`<slug>`)."""


IDENTIFIERS: frozenset[str] = frozenset({"<n>", "<uuid>", "<id>"})
"""The placeholders `segment_shape` gives a segment that names one record (not a slug or a word)."""


def segment_shape(segment: str) -> str:
    """One path segment or query value as a template part: numbers, ids and slugs become placeholders.

    A slug is hyphenated with three or more words, or with a word mixing letters and digits
    (`how-to-test-k2p9`); `delete-account` and `change-password` stay words. A word of letters
    followed by a number (`issue17`) is its word and `<n>` (`issue<n>`): one record of a class."""
    if _DIGITS.match(segment):
        return "<n>"
    if _UUID_ONLY.match(segment):
        return "<uuid>"
    if _HEX_ID.match(segment):
        return "<id>"
    if designator := _DESIGNATOR.match(segment):
        # A record named by its class and number in one word (`/issue17`, `/msg42`, `/file3`): the
        # word is the collection, the number the record, as in `/issue/17`.
        return f"{designator.group(1)}<n>"
    words = [w for w in _WORD_BREAK.split(segment) if w]
    if len(words) >= 2 and (len(words) >= 3 or any(_MIXED.match(w) for w in words)):
        return "<slug>"
    return segment


def route_shape(route: str, siblings: Iterable[str] = ()) -> str:
    """The template a route is an instance of: `/tag/python?page=2` → `/tag/<slug>?page=<n>`.

    Lexically, numbers, ids and slugs become placeholders (`segment_shape`). `siblings` (routes the
    page links to, or routes memory knows) turn a plain word into `<slug>` when at least
    `MIN_SIBLINGS` other routes with the same shape before it hold other plain words there, whatever
    follows (`variable_words`: `/tag/python` beside `/tag/webdev` and `/tag/rust`; `/profile/ines/
    starred` beside `/profile/tomas` and `/profile/wren`). The first segment always stays (it names
    the collection: `/about` and `/pricing` are not one template), and so do query keys; a query value is `<v>` when the page links to the
    same path with at least `MIN_SIBLINGS` other values for that key (`/?tag=python&page=2` beside
    `/?tag=webdev` and `/?tag=go`). A hash route (`/#/article/how-to-k2p9`, a single-page app's
    state) is shaped the same way after the `#`. The result is bounded and percent-encoded."""
    base, hashed, fragment = route.partition("#")
    if hashed and fragment.startswith("/"):
        inner = [r.partition("#")[2] for r in siblings if r.partition("#")[2].startswith("/")]
        return (route_shape(base or "/", ()) + "#" + route_shape(fragment, inner))[:300]
    parts = urlsplit(base)
    segments = parts.path.split("/")
    shaped = [segment_shape(s) if s else s for s in segments]
    for i in variable_words(segments, [urlsplit(r).path.split("/") for r in siblings]):
        shaped[i] = "<slug>"
    path = "/".join(quote(s, safe="<>%@:+!$'()*,;=~-._") for s in shaped) or "/"
    pairs = query_pairs(parts.query, decoded=True)
    sibling_values: dict[str, set[str]] = {}
    for other in siblings:
        o = urlsplit(other)
        if o.path == parts.path:
            for k, v in query_pairs(o.query, decoded=True):
                sibling_values.setdefault(k, set()).add(v)
    query = "&".join(
        f"{quote(k, safe='')}="
        + ("<v>" if v and len(sibling_values.get(k, set()) - {v}) >= MIN_SIBLINGS else _value_shape(v))
        for k, v in pairs
    )
    return (path + ("?" + query if query else ""))[:300]


def variable_words(segments: list[str], siblings: Iterable[list[str]]) -> list[int]:
    """Positions of `segments` (a path split on "/") whose plain word is a variable, judged by
    `siblings` (other paths, split the same way): at least `MIN_SIBLINGS` of them share everything
    before that position (by shape) and hold other plain words there — `/profile/ines/starred` beside
    `/profile/tomas` and `/profile/wren` — whatever follows. Never the first segment (it names the
    collection), and never a word directly followed by a number or an id: `/comments/edit/<n>` and
    `/comments/delete/<n>` are two actions, not one action with two values."""
    shaped = [segment_shape(s) if s else s for s in segments]
    paths = [p for p in siblings if p != segments]
    out: list[int] = []
    for i in range(2, len(segments)):
        if not segments[i] or shaped[i] != segments[i]:
            continue
        if i + 1 < len(segments) and shaped[i + 1].startswith("<"):
            continue
        others = {
            other[i]
            for other in paths
            if len(other) > i
            and other[i]
            and other[i] != segments[i]
            and segment_shape(other[i]) == other[i]
            and all(j in out or segment_shape(other[j]) == shaped[j] for j in range(1, i))
        }
        if len(others) >= MIN_SIBLINGS:
            out.append(i)
    return out


def _value_shape(value: str) -> str:
    shaped = segment_shape(value) if value else ""
    return shaped if shaped.startswith("<") else quote(shaped, safe="")


def one_template(a: str, b: str) -> str | None:
    """The template two route shapes are instances of, when they differ in one plain word below the
    collection (`/user/john/posts`, `/user/susan/posts` → `/user/<slug>/posts`; a word beside a
    `<slug>` too) or in their query
    only (`/export`, `/export?pin=x` → `/export?<v>`), or None. Never the first segment
    (`/followers/x` and `/following/x` are two pages), nor a word directly followed by an identifier
    (`/comments/edit/<n>`, `/comments/delete/<n>` are two actions), nor a word and a query at once. Used for findings of one root cause on routes memory met from different parent pages,
    where no one page lists enough siblings for `route_shape` to see the template."""
    path_a, _, query_a = a.partition("?")
    path_b, _, query_b = b.partition("?")
    if path_a == path_b:
        # One page's handler with other parameters (`/export`, `/export?pin=x`).
        return f"{path_a}?<v>" if query_a != query_b else None
    parts_a, parts_b = path_a.split("/"), path_b.split("/")
    if query_a != query_b or len(parts_a) != len(parts_b):
        return None
    differ = [i for i, (x, y) in enumerate(zip(parts_a, parts_b, strict=True)) if x != y]
    if len(differ) != 1 or differ[0] < 2:
        return None
    i = differ[0]
    # A plain word, or a name read as a slug (`/hub/spawn/alice`, `/hub/spawn/lena-jansen1`: one
    # user's name is a word, another's mixes in a digit): two values of one variable either way. A
    # number or an id beside a word is not (`/posts/new`, `/posts/<n>`: a form and a record).
    words = [w for w in (parts_a[i], parts_b[i]) if w != "<slug>"]
    if not words or any(not w or w.startswith("<") or segment_shape(w) != w for w in words):
        return None
    if i + 1 < len(parts_a) and parts_a[i + 1].startswith("<"):
        return None
    parts_a[i] = "<slug>"
    return "/".join(parts_a) + (f"?{query_a}" if query_a else "")
