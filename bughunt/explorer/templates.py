"""Page templates: which remembered pages are instances of one page type, judged generically.

A *template* is a route shape plus, where the site shows it, the DOM structure. The shape comes from
the URL alone: numeric segments and query values become ``<n>``, long hexadecimal/UUID identifiers and version hashes
``<id>``, hyphenated slugs and other query values ``<slug>`` (``/tag/web-dev?page=2`` →
``/tag/<slug>?page=<n>``). Two routes whose shapes differ in one literal segment at the same position
(``/tag/python``, ``/tag/webdev``) are one template when their pages have the same structure hash
(contract 1: tag/attribute-name structure, text ignored, repeated siblings collapsed). Nothing here
names a route of any one application.

`safe_route` is the harness's guard on every route that enters trusted memory: a canonical,
percent-encoded path+query (plus a single-page app's hash route, `/#/article/x`) of bounded length (the engine's `Engine.route_of` should already give
one; this makes the promise hold whatever a fetcher returns).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import islice
from typing import Any
from urllib.parse import quote, unquote

from bughunt.dom import selector_shape
from bughunt.oracles.destructive_words import destructive_label
from bughunt.planning import route_shape
from bughunt.urls import MAX_ROUTE_CHARS, page_of_its_own

__all__ = [
    "CLICK_MARK",
    "TemplateIndex",
    "Templates",
    "below_item",
    "route_shape",
    "safe_route",
    "saturated_templates",
    "structure_hash",
    "template_function",
    "templates",
    "variant",
]

CLICK_MARK = "#click-"
"""Marks a click state's route (`<page route>#click-<digest>`): harness-made, never fetched as such
(`graph.ExplorationGraph` keeps its click, `facts.read_page` makes it)."""
CONTROL_TEMPLATE = "click "
DESTROYS = " destroys: "
"""How a click state's template goes on when its control says it destroys (`Templates.words_of`)."""
"""How the template of a click state begins: the kind of control clicked (`Templates.control_of`)."""
SATURATED_AFTER = 3
"""Loaded instances of one structure hash that make a template saturated (two can agree by chance)."""
# What may stay unencoded in a remembered route: RFC 3986 unreserved characters, the path and query
# delimiters, and '%' of existing escapes. Commas, spaces, quotes and brackets are encoded, so a route
# can never read as prose or split a comma-separated list in the working context.
_ROUTE_SAFE = "/?&=%-._~:@+!$;"
SAFE_ROUTES_CACHED = 1 << 14
"""`safe_route` answers kept: a page's links are read again on every page that shows them (menus)."""


@lru_cache(maxsize=SAFE_ROUTES_CACHED)
def safe_route(route: str) -> str | None:
    """The canonical form of `route` (percent-encoded, at most `MAX_ROUTE_CHARS`), or None when it
    cannot be one (not a path, or too long)."""
    if not route.startswith("/"):
        return None
    path, _, fragment = route.partition("#")
    # Decode once and re-encode, so "/a%20b" and "/a b" are the same route and escapes stay valid.
    encoded = quote(unquote(path), safe=_ROUTE_SAFE)
    if page_of_its_own(fragment):
        # A single-page app's hash route is a page of its own (`/#/article/x`); a plain anchor is
        # a place on one and is dropped, and so is the root route `#/`, the document's own page.
        encoded += "#" + quote(unquote(fragment), safe=_ROUTE_SAFE + "#")
    return encoded if len(encoded) <= MAX_ROUTE_CHARS else None


def templates(hashes: Mapping[str, str | None]) -> dict[str, str]:
    """Template of every route in `hashes` (route → structure hash, None when unknown).

    Shapes first; then routes of one shape save one literal segment, with the same known structure
    hash, share a template with that segment as ``<slug>``. A route with no known hash keeps its shape.
    """
    return _merge(hashes)[0]


class Templates:
    """`template_function`'s answer: call it with a route; `listed` are the templates whose instances
    a page lists side by side (siblings in repeated markup): items of a collection, where the data
    varies most from one instance to the next.

    A click state (a route `control_of` knows: its page and the selector clicked there) is of the
    template of the kind of control clicked — its selector's shape, whatever page it is on: a row's
    menu button, a pager, a form's date picker, the sidebar's toggle are four kinds, each sampled on
    its own. By the page's route alone every state of a list page was one template, so the states of
    its pager sampled it and its rows' menus waited behind every other page type. A control the
    page's chrome repeats on every page type (a user menu) is one kind on all of them. A control that
    says it destroys (`destructive_label` of what it says, `words_of`) is a kind of its own beside its
    shape's others: a record's menu of five items is one shape, and the walk sampled "Duplicate" and
    "Copy" while its "Delete" — whether it asks first is a bug — waited behind every other page type."""

    __slots__ = ("_table", "_merged", "listed", "_memo", "epoch", "changed", "control_of", "words_of")

    def __init__(
        self, table: dict[str, str], merged: dict[tuple[Any, ...], str], listed: frozenset[str]
    ) -> None:
        self._table, self._merged, self.listed = table, merged, listed
        # A template is a pure function of the route while table and merges stand: a planner's choice
        # asks for every remembered page's (`TemplateIndex` drops an answer when its inputs change).
        self._memo: dict[str, str] = {}
        # What a reader that keeps templates of its own (the planner's, the hints') needs to follow a
        # `TemplateIndex`'s changes: `epoch` counts the times any answer may have changed, `changed`
        # names, in this epoch, the routes whose answer did.
        self.epoch = 0
        self.changed: list[str] = []
        self.control_of: Callable[[str], tuple[str, str] | None] | None = None
        """A click state's route → (its page, the selector clicked), None for a route that is no
        click state known (the explorer's link table, `ExplorationGraph.click_of`)."""
        self.words_of: Callable[[str], str] | None = None
        """A click state's route → what its control says (`control_words`: a verb or a digest)."""

    def __call__(self, route: str) -> str:
        memo = self._memo.get(route)
        if memo is None:
            click = self.control_of(route) if self.control_of is not None else None
            if click is not None:
                # a click state's route names its click by a digest: one selector, for good
                memo = CONTROL_TEMPLATE + selector_shape(click[1])
                words = self.words_of(route) if self.words_of is not None else ""
                if words and destructive_label(words):
                    memo += DESTROYS + words
                self._memo[route] = memo
            elif (memo := self._template(route)) and (self.control_of is None or CLICK_MARK not in route):
                # kept, but for a click state not known yet (asked before its page's step was
                # written): its answer changes once it is, so it is asked again
                self._memo[route] = memo
        return memo

    def _template(self, route: str) -> str:
        shaped = route_shape(route)
        known = self._table.get(route, shaped)
        if not self._merged:
            return known
        if known != shaped:  # merged by the DOM of the pages loaded
            return _under_merged(known, self._merged)
        for key in _keys(shaped):
            if key in self._merged:
                return self._merged[key]
        return _under_merged(shaped, self._merged)


def template_function(hashes: Mapping[str, str | None], siblings: Iterable[Sequence[str]] = ()) -> Templates:
    """`templates` as a function of any route, remembered or not: a route memory has not loaded yet
    belongs to a merged template when it differs from it in the merged segment only (`/profile/bob`
    once `/profile/carol` and `/profile/dave` showed one structure), else it keeps its shape.

    `siblings` are groups of routes that one page links from the same place in repeated markup (the
    author link of every preview): routes of a group whose shapes differ in one literal segment
    below a common literal prefix are one template before any of them is loaded (`/profile/alice`,
    `/profile/bob` → `/profile/<slug>`). A route under an instance of a merged template is the
    same sub-page of every instance (`/profile/alice/followers` → `/profile/<slug>/followers`)."""
    table, merged = _merge(hashes)
    listed: set[str] = set()
    for group in siblings:
        for key, template in _sibling_merges(group).items():
            listed.add(merged.setdefault(key, template))
    return Templates(table, merged, frozenset(listed))


def _merged_template(key: tuple[Any, ...]) -> str:
    """The template a merged key (query, segment count, position, before, after) stands for."""
    query, _n, _i, before, after = key
    return "/".join([*before, "<slug>", *after]) + (f"?{query}" if query else "")


class TemplateIndex:
    """`template_function` kept up to date step by step instead of rebuilt from all of memory.

    `update` is given the structure hashes (in the store's order) and the sibling groups that changed;
    routes added after the last call are merged in one by one, in that order, which is exactly what
    `_merge` does over the whole table. A route whose hash changed or left (a page whose structure
    changed, an expired memory) starts the index afresh — rare, and the same answer either way.
    `function` is one `Templates` kept current (its answers memoized across steps); `loaded` keeps,
    per template, the structure hashes of its loaded instances (what `saturated_templates` and
    `variant` read)."""

    __slots__ = (
        "function", "_items", "_read", "_rank", "_members", "_values", "_groups_of", "_merged_groups",
        "_hash_merged", "_sibling_merged", "_sibling_sizes", "_sibling_values", "_template_of_loaded",
        "loaded",
    )  # fmt: skip

    def __init__(self) -> None:
        self.function = Templates({}, {}, frozenset())
        self._items: list[tuple[str, str | None]] = []
        self._read: dict[str, int] = {}
        """Route → its place in `_items` (the hashes read so far)."""
        self._rank: dict[tuple[Any, ...], int] = {}
        self._members: dict[tuple[Any, ...], list[str]] = {}
        self._values: dict[tuple[Any, ...], set[str]] = {}
        self._groups_of: dict[str, list[tuple[Any, ...]]] = {}
        self._merged_groups: set[tuple[Any, ...]] = set()
        self._hash_merged: dict[tuple[Any, ...], str] = {}
        self._sibling_merged: dict[tuple[Any, ...], str] = {}
        self._sibling_sizes: dict[tuple[str, str], int] = {}
        self._sibling_values: dict[tuple[str, str], SiblingValues] = {}
        """Each sibling group's `SiblingValues`: the routes read so far and what they hold."""
        self._template_of_loaded: dict[str, tuple[str, str]] = {}
        self.loaded: dict[str, dict[str, int]] = {}
        """Template → structure hash → loaded instances with it (routes with a known hash)."""

    def update(
        self, hashes: Mapping[str, str | None], siblings: Mapping[tuple[str, str], Sequence[str]],
        changed: Iterable[tuple[str, str]], touched: Sequence[str] | None = None,
        control_of: Callable[[str], tuple[str, str] | None] | None = None,
        words_of: Callable[[str], str] | None = None,
    ) -> Templates:  # fmt: skip
        """The templates of `hashes` and `siblings` (as `template_function(hashes, siblings.values())`),
        `changed` naming the sibling groups that grew since the last call. `touched`, when given, names
        every route whose entry in `hashes` was added, changed or taken out since the last call (the
        store's `Visits.hash_log`): the hashes read before are then checked by those routes alone,
        not compared whole at every step. `control_of` names each click state's control
        (`Templates.control_of`), and `words_of` what it says (`Templates.words_of`), the same at every
        call: loaded states are counted by its templates."""
        new = self._gained(hashes, touched)
        if new is None:
            sizes, epoch = dict.fromkeys(siblings, 0), self.function.epoch
            self.__init__()  # type: ignore[misc]
            self._sibling_sizes, self.function.epoch = sizes, epoch + 1
            changed, new = siblings, list(hashes.items())
        self.function.control_of = control_of
        self.function.words_of = words_of
        items, read = self._items, self._read
        for route, digest in new:
            read[route] = len(items)
            items.append((route, digest))
        fn = self.function
        merged_before = len(fn._merged)
        for route, digest in new:
            self._add(route, digest)
        for key in changed:
            group = siblings.get(key, ())
            if self._sibling_sizes.get(key) != len(group):
                self._sibling_sizes[key] = len(group)
                values = self._sibling_values.get(key)
                if values is None or values.read > len(group):
                    values = self._sibling_values[key] = SiblingValues()
                for merged_key, template in values.merges(group).items():
                    self._sibling_merged[merged_key] = template
                    fn._merged.setdefault(merged_key, template)
        if len(fn._merged) != merged_before:
            # A new merge can change the template of any route, remembered or not.
            fn._memo.clear()
            fn.epoch += 1
            fn.changed = []
            fn.listed = frozenset(self._sibling_merged.values())
            self._retemplate_loaded()
        return fn

    def _gained(
        self, hashes: Mapping[str, str | None], touched: Sequence[str] | None
    ) -> list[tuple[str, str | None]] | None:
        """The entries of `hashes` after those read so far, or None when one of those changed (its
        structure hash, or its place: a route taken out or put before it)."""
        items, old = self._items, len(self._items)
        if len(hashes) < old:
            return None
        if touched is None:
            every = list(hashes.items())
            return every[old:] if every[:old] == items else None
        new = list(islice(hashes.items(), old, None))
        gained = {route for route, _ in new}
        for route in touched:
            at = self._read.get(route)
            if at is None:
                if route in hashes and route not in gained:
                    return None  # put before the entries read: they moved
            elif route not in hashes or hashes[route] != items[at][1]:
                return None
        return new

    def _add(self, route: str, digest: str | None) -> None:
        fn = self.function
        shaped = route_shape(route)
        if not digest:
            return
        groups = self._groups_of.setdefault(route, [])
        for key in _keys(shaped):
            group = (digest, *key)
            groups.append(group)
            if group not in self._rank:
                self._rank[group] = len(self._rank)
                self._members[group], self._values[group] = [], set()
            self._members[group].append(route)
            values = self._values[group]
            values.add(shaped.split("?")[0].split("/")[key[2]])
            if group not in self._merged_groups and len(values) >= 2:
                self._merged_groups.add(group)
                template = _merged_template(key)
                self._hash_merged[key] = template
                fn._merged.setdefault(key, template)
                for member in self._members[group]:
                    if member != route:
                        self._retable(member)
        self._retable(route)
        self._count_loaded(route, digest)

    def _retable(self, route: str) -> None:
        """The route's entry in the table: its last-made merged group's template (as `_merge` leaves
        it), or none (its shape)."""
        fn = self.function
        merged = [g for g in self._groups_of.get(route, ()) if g in self._merged_groups]
        if merged:
            template = _merged_template(max(merged, key=self._rank.__getitem__)[1:])
            if fn._table.get(route) != template:
                fn._table[route] = template
                fn._memo.pop(route, None)
                fn.changed.append(route)
                self._recount(route)
        elif route in fn._table:
            del fn._table[route]
            fn._memo.pop(route, None)
            fn.changed.append(route)
            self._recount(route)

    def _count_loaded(self, route: str, digest: str) -> None:
        template = self.function(route)
        self._template_of_loaded[route] = (template, digest)
        counts = self.loaded.setdefault(template, {})
        counts[digest] = counts.get(digest, 0) + 1

    def _uncount_loaded(self, route: str) -> str | None:
        was = self._template_of_loaded.pop(route, None)
        if was is None:
            return None
        template, digest = was
        counts = self.loaded[template]
        counts[digest] -= 1
        if not counts[digest]:
            del counts[digest]
            if not counts:
                del self.loaded[template]
        return digest

    def _recount(self, route: str) -> None:
        digest = self._uncount_loaded(route)
        if digest is not None:
            self._count_loaded(route, digest)

    def _retemplate_loaded(self) -> None:
        loaded = list(self._template_of_loaded.items())
        self._template_of_loaded.clear()
        self.loaded.clear()
        for route, (_template, digest) in loaded:
            self._count_loaded(route, digest)

    def saturated(self) -> frozenset[str]:
        """`saturated_templates` of the hashes last given."""
        return frozenset(
            t
            for t, counts in self.loaded.items()
            if len(counts) == 1 and sum(counts.values()) >= SATURATED_AFTER
        )

    def variant(self, route: str, own: str | None) -> bool:
        """`variant` of the loaded page at `route` whose structure hash is `own`."""
        if not own:
            return False
        counts = dict(self.loaded.get(self.function(route), {}))
        mine = self._template_of_loaded.get(route)
        if mine is not None:
            counts[mine[1]] -= 1  # the page itself is not one of the others
        others = {d: n for d, n in counts.items() if n}
        return sum(others.values()) >= 2 and len(others) == 1 and own not in others


def _sibling_merges(group: Sequence[str]) -> dict[tuple[Any, ...], str]:
    """Merged keys (as `_merge` makes them) from routes linked from one place of repeated markup."""
    return SiblingValues().merges(group)


class SiblingValues:
    """`_sibling_merges` of a group that only grows (a place's links, appended as pages are read):
    the routes read so far (`read`) and, per key, the literal segments seen there, so that a grown
    group reads only its new routes — the same merges, in the same order, as reading it whole."""

    __slots__ = ("read", "values")

    def __init__(self) -> None:
        self.read = 0
        self.values: dict[tuple[Any, ...], set[str]] = {}

    def merges(self, group: Sequence[str]) -> dict[tuple[Any, ...], str]:
        values = self.values
        # a route read before adds nothing again (each of its segments is in its key's set already)
        for route in group[self.read :]:
            shaped = route_shape(route)
            for key in _keys(shaped):
                query, n, i, before, after = key
                # Below a literal prefix only: the links of a navigation bar (`/settings`, `/editor`)
                # sit in one repeated place too, and they are different page types.
                if any(seg and not seg.startswith("<") for seg in before):
                    values.setdefault(key, set()).add(shaped.split("?")[0].split("/")[i])
        self.read = len(group)
        return {
            key: "/".join([*key[3], "<slug>", *key[4]]) + (f"?{key[0]}" if key[0] else "")
            for key, seen in values.items()
            if len(seen) >= 2
        }


def _under_merged(shaped: str, merged: Mapping[tuple[Any, ...], str]) -> str:
    """`shaped` with each literal segment that names an instance of a merged template (the prefix up
    to it is one: `/profile/alice` of `/profile/<slug>`) replaced by ``<slug>``."""
    path, sep, query = shaped.partition("?")
    parts = path.split("/")
    changed = False
    # The last segment too when a query follows it: `/tag/webdev?page=<n>` is a view of the instance
    # `/tag/webdev` of `/tag/<slug>`, as `/tag/webdev/feed` is its sub-page.
    for i in range(1, len(parts) - (0 if sep else 1)):
        seg = parts[i]
        if not seg or seg.startswith("<"):
            continue
        before = tuple(parts[:i])
        if ("", i + 1, i, before, ()) in merged or ("", i + 2, i, before, ("",)) in merged:
            parts[i] = "<slug>"
            changed = True
    return "/".join(parts) + sep + query if changed else shaped


def _keys(shaped: str) -> list[tuple[Any, ...]]:
    """(query, segment count, position, segments before, segments after) for each literal segment."""
    path, _, query = shaped.partition("?")
    parts = path.split("/")
    return [
        (query, len(parts), i, tuple(parts[:i]), tuple(parts[i + 1 :]))
        for i, seg in enumerate(parts)
        if seg and not seg.startswith("<")
    ]


def _merge(hashes: Mapping[str, str | None]) -> tuple[dict[str, str], dict[tuple[Any, ...], str]]:
    shape = {r: route_shape(r) for r in hashes}
    out = dict(shape)
    groups: dict[tuple[Any, ...], list[str]] = {}
    for r, s in shape.items():
        h = hashes[r]
        if not h:
            continue
        for key in _keys(s):
            groups.setdefault((h, *key), []).append(r)
    merged: dict[tuple[Any, ...], str] = {}
    for (_h, query, n, i, before, after), routes in groups.items():
        if len({shape[r].split("?")[0].split("/")[i] for r in routes}) < 2:
            continue
        template = "/".join([*before, "<slug>", *after]) + (f"?{query}" if query else "")
        merged[(query, n, i, before, after)] = template
        for r in routes:
            out[r] = template
    return out, merged


def below_item(template: str, item: str) -> bool:
    """Is `template` a page under the item template `item` — its sub-page or a view of it
    (``/people/<slug>/likes``, ``/people/<slug>?tab=likes`` under ``/people/<slug>``)?"""
    stem = item.rstrip("/")
    return (
        "<" in stem
        and len(template) > len(item)
        and template.startswith(stem)
        and template[len(stem)] in "/?"
    )


def saturated_templates(
    hashes: Mapping[str, str | None], template_of: Callable[[str], str]
) -> frozenset[str]:
    """Templates with at least `SATURATED_AFTER` loaded instances that all have one structure hash:
    the data does not change the page's structure, so one more instance is most likely the same
    state again."""
    seen: dict[str, set[str]] = {}
    counts: dict[str, int] = {}
    for route, digest in hashes.items():
        if digest:
            t = template_of(route)
            seen.setdefault(t, set()).add(digest)
            counts[t] = counts.get(t, 0) + 1
    return frozenset(t for t, digests in seen.items() if counts[t] >= SATURATED_AFTER and len(digests) == 1)


def variant(route: str, hashes: Mapping[str, str | None], template_of: Callable[[str], str]) -> bool:
    """Does the loaded page at `route` break the structure its template's other loaded instances
    share — at least two of them, all with one structure hash, and `route`'s another? (Your own
    profile, with a settings link where the others have a follow button; an article you wrote.)"""
    own = hashes.get(route)
    if not own:
        return False
    template = template_of(route)
    others = [d for r, d in hashes.items() if r != route and d and template_of(r) == template]
    return len(others) >= 2 and len(set(others)) == 1 and own != others[0]


def structure_hash(page: Any) -> str | None:
    """The fetched page's DOM structure hash (contract 1, the engine's `FetchedPage.structure_hash`),
    or None for a response that has none."""
    given = getattr(page, "structure_hash", None)
    return given if isinstance(given, str) and given else None
