"""The oracles on a loaded page, with what the explorer lends them: a fetch of related pages of the
site (through the engine, failures remembered for the step), the routes memory knows (an edit form's
resource that the form does not link back to) and the pages that link to a route (the profile behind
`/settings`); and the open bugs a finding of the same root cause joins."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import replace
from typing import NamedTuple
from urllib.parse import urlencode

from bughunt.actions import extract_links
from bughunt.fingerprint import IDENTIFIERS, normalise_message, one_template, route_shape, segment_shape
from bughunt.oracles import Finding, Judgement, OracleConfig, judge_page
from bughunt.oracles.base import OpenedAction
from bughunt.oracles.destructive_words import deferred_action
from bughunt.oracles.link_targets import targets
from bughunt.oracles.minted_writes import one_tree
from bughunt.oracles.reading import is_page_key
from bughunt.page import FetchedPage, base_url
from bughunt.sim.route_keys import query_pairs
from bughunt.urls import absolute, route_of

from .engine import Engine
from .graph import ExplorationGraph
from .record_views import same_record
from .referrer import referer
from .store import Bug
from .tenant_routes import first_segment, swapped_tenant, tenant_template, tenant_twin
from .tree_views import queried_view_twins, tree_template


def inspect(
    page: FetchedPage,
    engine: Engine,
    graph: ExplorationGraph,
    *,
    allow_destructive: bool,
    clicked_on: str | None = None,
    opened: MutableMapping[int, OpenedAction] | None = None,
    defer: bool = False,
) -> Judgement:
    """The oracles' judgement of `page`, its findings joined to the open bugs of their root causes.
    `clicked_on`: the page whose click led here (a button that navigates, no link): it leads to
    this page before memory has written so. `opened`: the destructive actions the session opened
    (`OracleConfig.opened_destructive`); a page of a record the session deleted reports nothing —
    what it shows (an error, a 404 handled badly) is the exploration's doing, not the site's. `defer`:
    the session opens destructive controls after its walk (`OracleConfig.defer_opening`)."""

    if opened and deleted_by_session(page.route, opened.values()):
        return Judgement([], complete=False)

    def linked_from(route: str) -> list[str]:
        pages = graph.linking_to(route)
        return sorted({*pages, clicked_on}) if clicked_on and route == page.route else pages

    config = OracleConfig(
        allow_destructive=allow_destructive,
        opened_destructive=opened,
        known_routes=graph.known_pages,
        linked_from=linked_from,
        # read only when an owner page is looked for (a record's own Delete opened)
        links_of=lambda route: graph.links_of(route),
        loaded=graph.is_state,
        defer_opening=defer,
    )
    # With --allow-destructive the oracles open destructive links (writes): every fetch is fresh then.
    version = None if allow_destructive else graph.app_version
    fetch = _oracle_fetch(
        engine, reuse=not allow_destructive, version=version, guarded=not allow_destructive, page=page
    )
    judged = judge_page(page, fetch, config)
    findings = judged.findings
    # Most pages have no finding, and most findings are a bug seen again: memory's bugs are read only
    # for a finding to join, their routes only when one is new.
    if not findings:
        return judged
    bugs = [b for b in graph.live_bugs() if b.status == "open"]
    open_bugs = {b.fingerprint for b in bugs}
    if all(f.fingerprint in open_bugs for f in findings):
        return judged
    kinds = {f.kind for f in findings}
    routes = graph.bug_routes([b.fingerprint for b in bugs if b.kind in kinds], _MAX_ROUTES)

    def links_of(route: str) -> Iterable[str]:
        # this page is not written yet: its own links, else the ones memory wrote for the route
        return _page_links(page) if route == page.route else graph.links_of(route)

    return Judgement(same_root_cause(findings, bugs, routes, links_of), judged.complete)


def _page_links(page: FetchedPage) -> list[str]:
    """The routes of the page's own links on its own origin, as memory would write them."""
    return [route_of(u) for u in extract_links(page)]


class _Known(NamedTuple):
    """An open bug (or a finding of this batch) as a later finding may join it: the routes it was
    seen on and its stored facts (numbers only: page text is quarantined)."""

    fingerprint: str
    kind: str
    message: str
    routes: tuple[str, ...]
    facts: dict[str, object]


_MAX_ROUTES = 32
"""Routes of one bug a finding is compared with: its own and its first occurrences."""
_ANY_ROUTE = ("source_key", "control_key", "form_key", "boundary_key", "toggle_key", "widget_key")
"""Facts that are one root cause on any two routes: one stored payload (a feed and its author's
page), one control drawn by one template (a list's Delete button on every model's list), one form
(the same fields) dropping the same values (an editor and a section editor rendering one form), one
pager carrying the same number of items over each page boundary under one page key (lists of several
templates sliced by one helper), one toggle's two directions on one handler (subscribe/unsubscribe on a
GET, whichever record each names: `action_effect.toggle_key`), one widget component of a single-page
document dropping its value in two views (`view_widgets.widget_key`)."""
_SEEN = ("error_key", "fields_key", "shown", "listed")
"""Facts that say what a finding saw: two views of one record join only when they saw the same."""
_ONE_COLLECTION = ("list_key",)
"""Facts that are one root cause on two views of one collection (`/marks?page=2`, `/marks/shared?page=3`:
routes under one first path segment): one list template (its place on the page and its items' look)
paged wrong under each view — the views share the code that slices the list."""
_ONE_FAMILY = ("label_key",)
"""Facts that are one root cause on two routes of one family — one collection (`_one_collection`) or
one place of two tenants (`tenant_routes`) — whatever view each is: one template's count label (its
place and wording, `count_identity`) wrong on a commit, a diff and a path-filtered diff of one project.
Two views' own labels differ in place or words and stay two bugs, and so do two unrelated sections'."""
_ONE_TREE = ("minted_key",)
"""Facts that are one root cause on two places of one tree of paths (`minted_writes.one_tree`): one
handler's failed write of a record whose key the page minted, at any depth of its folders."""


def same_root_cause(
    findings: Sequence[Finding],
    bugs: Sequence[Bug],
    routes: Mapping[str, Sequence[str]] | None = None,
    links_of: Callable[[str], Iterable[str]] | None = None,
) -> list[Finding]:
    """Findings that join an open bug of one root cause: the same kind, normalised message and error
    (`error_key`, where both have one) on a sibling route of one template (`one_template`), whatever
    page led to each — `/user/john` reached from one post and `/user/susan` from another; or the same
    stored payload (`source_key`) or the same drawn control (`control_key`) or form dropping the same values (`form_key`) on any two routes; or one
    marked view of two pages of a tree of paths at any depth, or of a page addressed by its identifier
    (`tree_views`: `/a/_history/`, `/a/b/_history/`, `/42/history/`); or two views of one record that
    saw the same (`record_views`: `/groups/show/3`, `/groups/edit/3`); or one template's pages of two
    tenants, projects or workspaces named by the first segment (`tenant_routes`, with `links_of`:
    memory's links of a route; `/demo/?search=a`, `/flatmates/?search=b`). A bug is compared on every
    route it was seen on (`routes`: its occurrences by fingerprint), and a finding with the findings
    before it in the batch. The finding keeps its route (an occurrence) and takes the bug's
    fingerprint."""
    routes = routes or {}
    known = [
        _Known(b.fingerprint, b.kind, b.message, _bug_routes(b, routes), _stored_facts(b))
        for b in bugs
        if b.status == "open"
    ]
    own = {k.fingerprint for k in known}
    out: list[Finding] = []
    for f in findings:
        # A finding that is an open bug already stays that bug (a store from before the merge).
        joined = None if f.fingerprint in own else _join(f, known, links_of)
        if joined is not None:
            f = replace(f, shape=joined[1], fingerprint=joined[0].fingerprint)
        out.append(f)
        own.add(f.fingerprint)
        known.append(_Known(f.fingerprint, f.kind, f.message, (f.route,), _facts(f.evidence)))
    return out


def _bug_routes(bug: Bug, routes: Mapping[str, Sequence[str]]) -> tuple[str, ...]:
    return tuple(dict.fromkeys([bug.route, *routes.get(bug.fingerprint, ())]))[:_MAX_ROUTES]


def _stored_facts(bug: Bug) -> dict[str, object]:
    try:
        stored = json.loads(bug.evidence or "{}")
    except ValueError:
        stored = {}
    return _facts(stored) if isinstance(stored, dict) else {}


def _facts(evidence: Mapping[str, object]) -> dict[str, object]:
    return {
        k: v
        for k, v in evidence.items()
        if k in (*_ANY_ROUTE, *_SEEN, *_ONE_COLLECTION, *_ONE_FAMILY, *_ONE_TREE) and not isinstance(v, str)
    }


def _join(
    f: Finding, known: Sequence[_Known], links_of: Callable[[str], Iterable[str]] | None = None
) -> tuple[_Known, str] | None:
    """The first known bug `f` is one root cause with, and the template they share."""
    message = normalise_message(f.message)
    mine = _facts(f.evidence)
    for k in known:
        if k.kind != f.kind or k.fingerprint == f.fingerprint or normalise_message(k.message) != message:
            continue
        if any(mine.get(key) is not None and mine.get(key) == k.facts.get(key) for key in _ANY_ROUTE):
            return k, f.shape
        if any(
            mine.get(key) is not None and mine.get(key) == k.facts.get(key) for key in _ONE_COLLECTION
        ) and any(_one_collection(route, f.route) for route in k.routes):
            return k, f.shape
        if any(mine.get(key) is not None and mine.get(key) == k.facts.get(key) for key in _ONE_TREE) and any(
            one_tree(route, f.route) for route in k.routes
        ):
            return k, f.shape
        error, theirs = mine.get("error_key"), k.facts.get("error_key")
        same_error = error is None or theirs is None or error == theirs
        saw_the_same = any(key in mine for key in _SEEN) and all(
            mine.get(key) == k.facts.get(key) for key in _SEEN
        )
        if any(
            mine.get(key) is not None and mine.get(key) == k.facts.get(key) for key in _ONE_FAMILY
        ) and any(
            _one_family(route, f.route, links_of) and (saw_the_same or not same_record(route, f.route))
            for route in k.routes
        ):
            # (one record's two views that saw other values compute them apart: two causes)
            return k, f.shape
        for route in k.routes:
            template = _one_template(f, route) if same_error else None
            if template is not None:
                return k, template
            if saw_the_same and same_record(route, f.route):
                return k, f.shape
            if same_error and links_of is not None and (mine_there := tenant_twin(route, f.route, links_of)):
                # the finding read as if on the known bug's tenant: one template there is one for all
                there = replace(f, route=mine_there, shape=swapped_tenant(f.shape, first_segment(route)))
                if (template := _one_template(there, route)) is not None:
                    return k, tenant_template(template)
    return None


def _one_collection(a: str, b: str) -> bool:
    """Whether two routes are views of one collection: the same first path segment (`/marks`,
    `/marks/shared`, `/marks/archived`)."""
    first_a = a.partition("?")[0].strip("/").split("/")[0]
    return bool(first_a) and first_a == b.partition("?")[0].strip("/").split("/")[0]


def _one_family(a: str, b: str, links_of: Callable[[str], Iterable[str]] | None) -> bool:
    """Whether two routes are of one family: views of one collection, or one tenant's and another's
    pages of one site (`tenant_twin`, read through memory's links when the caller lends them) — but
    not two views a query word selects (`_selected_views`)."""
    if _selected_views(a, b):
        return False
    return _one_collection(a, b) or (links_of is not None and tenant_twin(a, b, links_of) is not None)


def _selected_views(a: str, b: str) -> bool:
    """Whether two routes name two views of a page by one query key holding two plain words
    (`?tab=likes`, `?tab=followers`: each tab lists something else). A key holding identifiers names
    records (`?id=<hex>`), a page number a place in one list: neither picks another view."""
    values_a = dict(query_pairs(a.partition("?")[2], decoded=True, blank=False))
    values_b = dict(query_pairs(b.partition("?")[2], decoded=True, blank=False))
    return any(
        key in values_b
        and value != values_b[key]
        and not is_page_key(key)
        and segment_shape(value) not in IDENTIFIERS
        and segment_shape(values_b[key]) not in IDENTIFIERS
        for key, value in values_a.items()
    )


def _one_template(f: Finding, route: str) -> str | None:
    """The template `f`'s route shares with `route`, or None. The page's shape may read a query value
    as data (`?page=<v>` beside links to other pages) where the bug's bare route reads it as a number
    (`?page=<n>`): either reading may match. And page 2 of a list is its template's page as much as
    page 1 (`/user/a`, `/user/b?page=2`); so are sibling lists with filters of their own (`_filtered_twins`). A
    view of pages in a tree is one template at any depth, marked in the path or named by the query
    (`tree_views`)."""
    if route == f.route:
        return f.shape
    theirs, bare = route_shape(route), route_shape(f.route)
    return (
        one_template(theirs, f.shape)
        or one_template(theirs, bare)
        or tree_template(theirs, bare)
        or (
            f.shape
            if _paged_twins(route, f.route)
            or _filtered_twins(route, f.route)
            or _queried_twins(route, f.route)
            or _flagged_twins(route, f.route)
            or queried_view_twins(route, f.route)
            else None
        )
    )


def _paged_twins(a: str, b: str) -> bool:
    """Whether two routes are pages of one template once their page numbers (`?page=2`) are dropped:
    the same route, or sibling routes of one template."""
    bare_a, bare_b = route_shape(_unpaged(a)), route_shape(_unpaged(b))
    return (bare_a == bare_b or one_template(bare_a, bare_b) is not None) and (
        a != _unpaged(a) or b != _unpaged(b)
    )


def _filtered_twins(a: str, b: str) -> bool:
    """Whether two routes are views of sibling lists of one template, each with its own filters
    (`/admin/author/list?country=x`, `/admin/book/list?genre=y&page=2`): the paths are one template
    and the queries share no key but a page number. One key with two values (`?tab=likes`,
    `?tab=followers`) is two views of a page, not one."""
    (path_a, _, query_a), (path_b, _, query_b) = a.partition("?"), b.partition("?")
    if not query_a or not query_b or one_template(route_shape(path_a), route_shape(path_b)) is None:
        return False
    keys_a = {k for k, _ in query_pairs(query_a, decoded=True) if not is_page_key(k)}
    keys_b = {k for k, _ in query_pairs(query_b, decoded=True) if not is_page_key(k)}
    return not keys_a & keys_b


def _queried_twins(a: str, b: str) -> bool:
    """Whether two routes are one handler's pages of two records named by their query: the paths are
    one template (`/admin/post/edit/`, `/admin/user/edit/`: a generic admin's edit view of each model)
    and both name their record by one key holding an identifier (`?id=42`, `?id=<uuid>`). The rest of
    each query is how the page was reached (a return address, `url=/admin/post/?page=2`; a display
    flag) and differs from visit to visit: it kept one edit view's dropped values two bugs (issue 25,
    a Flask-Admin; any CRUD framework addressing records as `?id=`)."""
    (path_a, _, query_a), (path_b, _, query_b) = a.partition("?"), b.partition("?")
    shape_a, shape_b = route_shape(path_a), route_shape(path_b)
    if not query_a or not query_b or (shape_a != shape_b and one_template(shape_a, shape_b) is None):
        return False
    if path_a.rstrip("/").rpartition("/")[2] != path_b.rstrip("/").rpartition("/")[2]:
        return False  # two views of one collection (`edit/`, `details/`), not one view of two
    named_a = {
        k for k, v in query_pairs(query_a, decoded=True, blank=False) if segment_shape(v) in IDENTIFIERS
    }
    named_b = {
        k for k, v in query_pairs(query_b, decoded=True, blank=False) if segment_shape(v) in IDENTIFIERS
    }
    return bool(named_a & named_b)


def _flagged_twins(a: str, b: str) -> bool:
    """Whether two routes are one page of two records, read with and without a display flag: the
    paths are one template, an identifier read alike whether its digits happen to hold a letter (a
    hash prefix, `/forumpost/abdf492684` beside `/forumpost/8719365514`), and the queries hold the
    same values; only keys without one differ (`&unf`, `&raw`, `&full`: how the page is drawn, not
    what it shows). Families: a wiki's or forum's thread modes (Fossil, Discourse's `?print`), a
    tracker's issue page with `&expand`, a repository browser's `&ignorews`."""
    (path_a, _, query_a), (path_b, _, query_b) = a.partition("?"), b.partition("?")
    if query_a == query_b:
        return False
    shape_a, shape_b = _one_id(route_shape(path_a)), _one_id(route_shape(path_b))
    if shape_a != shape_b and one_template(shape_a, shape_b) is None:
        return False
    valued_a = sorted(query_pairs(query_a, decoded=True, blank=False))
    return bool(valued_a) and valued_a == sorted(query_pairs(query_b, decoded=True, blank=False))


def _one_id(shape: str) -> str:
    """A route shape with its identifiers read as one kind (`<n>` and `<id>` alike)."""
    return shape.replace("<n>", "<id>")


def _unpaged(route: str) -> str:
    path, _, query = route.partition("?")
    kept = [(k, v) for k, v in query_pairs(query, decoded=True) if not is_page_key(k)]
    return path + (f"?{urlencode(kept)}" if kept else "")


def deleted_by_session(route: str, opened: Iterable[OpenedAction]) -> bool:
    """Whether `route` is a view of a record whose destructive action the session opened and saw act
    (`/contacts/31/edit` after `/contacts/31/delete`; `/groups/show/3` after `/groups/delete/3`)."""
    path = route.partition("?")[0]
    for action in opened:
        if not action.acted:
            continue
        if same_record(path, route_of(action.url).partition("?")[0]):
            return True
    return False


def may_open(engine: Engine, url: str) -> bool:
    """Whether a page may be opened without `--allow-destructive`: a route of this origin the walk may
    click (`Engine.followable`) whose URL names no destructive action and marks no action on a record
    (`deferred_action`)."""
    route = engine.route_of(url)
    return route is not None and engine.followable(route) and deferred_action(url) is None


def _oracle_fetch(
    engine: Engine, *, reuse: bool, version: str | None, guarded: bool, page: FetchedPage | None = None
) -> _SessionFetch:
    """`page`: the page the oracles judge (its links opened send it as `Referer`)."""
    return _SessionFetch(engine, page, reuse=reuse, version=version, guarded=guarded)


class _SessionFetch:
    """The oracles' fetch through the session's engine (see `_oracle_fetch`'s callers): a call may be
    answered by a page the session already loaded (`reuse`); `fresh` always asks the site — what
    `OracleFetch.again` sends after an action, and the reload that confirms an effect (`seen_twice`)."""

    # The oracles may look at related pages (the previous page of a list, the article behind a
    # form). Their `OracleFetch` keeps the pages of one step; only failures are kept here, so a
    # fetch the oracles ask for *again* (a page after a destructive action) is a fresh request.
    # With `reuse`, a page the session already loaded is taken from the engine instead of asked for
    # again (`Engine.reuse_page`): the walk wrote nothing, so the site would answer the same.
    # `guarded` (no --allow-destructive): an oracle opens no page the walk would refuse to click —
    # an avoided or robots-disallowed route, or one whose URL names a destructive action — since a GET
    # there may delete what it names (a form's "resource" guessed among known routes, a row's link).

    # A link of the judged page, opened (a Delete link, the list's next page), is a click on that
    # page: it sends the page as `Referer`, as the walk's own clicks do; any other look is typed in.

    def __init__(
        self, engine: Engine, page: FetchedPage | None, *, reuse: bool, version: str | None, guarded: bool
    ) -> None:
        self._engine, self._page = engine, page
        self._reuse, self._version, self._guarded = reuse, version, guarded
        self._failed: dict[str, OSError] = {}
        self._links: frozenset[str] | None = None

    def __call__(self, url: str) -> FetchedPage:
        return self._get(url, self._reuse)

    def fresh(self, url: str) -> FetchedPage:
        return self._get(url, False)

    def _get(self, url: str, reuse: bool) -> FetchedPage:
        engine = self._engine
        if url in self._failed:
            raise self._failed[url]
        if self._guarded and not may_open(engine, url):
            raise PermissionError(f"oracles do not open what the walk would not: {url}")
        if reuse:
            page = engine.reuse_page(url, self._version)
            if page is not None:
                return page
        try:
            # Unguarded (--allow-destructive), a URL that names a destructive action is opened as one:
            # in the browser its page's own writes go out (a client route that deletes once mounted).
            sent = self._referer(url)
            if not self._guarded and deferred_action(url) is not None:
                return engine.open_action(url, sent)
            return engine.fetch_page(url, sent)
        except OSError as exc:
            self._failed[url] = exc
            raise

    def _referer(self, url: str) -> str | None:
        page = self._page
        if page is None:
            return None
        if self._links is None:
            base = base_url(page)
            # Compared without fragments: a hash route is a place on the document the request fetches.
            resolved = (absolute(base, href) for _, href in targets(page.document)) if page.is_html else ()
            self._links = frozenset(link.partition("#")[0] for link in resolved if link is not None)
        return referer(page, page.url) if url.partition("#")[0] in self._links else None
