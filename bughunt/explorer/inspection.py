"""The oracles on a loaded page, with what the explorer lends them: a fetch of related pages of the
site (through the engine, failures remembered for the step), the routes memory knows (an edit form's
resource that the form does not link back to) and the pages that link to a route (the profile behind
`/settings`); and the open bugs a finding of the same root cause joins."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from urllib.parse import parse_qsl, urlencode

from bughunt.fingerprint import normalise_message, one_template, route_shape
from bughunt.oracles import Finding, OracleConfig, inspect_page
from bughunt.oracles.destructive import destructive_action
from bughunt.oracles.reading import is_page_key
from bughunt.page import FetchedPage

from .engine import Engine
from .graph import ExplorationGraph
from .store import Bug
from .tree_views import tree_template


def inspect(
    page: FetchedPage,
    engine: Engine,
    graph: ExplorationGraph,
    *,
    allow_destructive: bool,
    clicked_on: str | None = None,
) -> list[Finding]:
    """`clicked_on`: the page whose click led here (a button that navigates, no link): it leads to
    this page before memory has written so."""

    def linked_from(route: str) -> list[str]:
        pages = graph.linking_to(route)
        return sorted({*pages, clicked_on}) if clicked_on and route == page.route else pages

    config = OracleConfig(
        allow_destructive=allow_destructive,
        known_routes=graph.known_pages,
        linked_from=linked_from,
        loaded=graph.is_state,
    )
    # With --allow-destructive the oracles open destructive links (writes): every fetch is fresh then.
    version = None if allow_destructive else graph.app_version
    fetch = _oracle_fetch(engine, reuse=not allow_destructive, version=version, guarded=not allow_destructive)
    findings = inspect_page(page, fetch, config)
    # Most pages have no finding: memory's bugs are read only for one to join.
    return same_root_cause(findings, graph.live_bugs()) if findings else []


def same_root_cause(findings: Sequence[Finding], bugs: Sequence[Bug]) -> list[Finding]:
    """Findings that join an open bug of one root cause: the same kind, normalised message and error
    (`error_key`, where both have one) on a sibling route of one template (`one_template`), whatever
    page led to each — `/user/john` reached from one post and `/user/susan` from another; or the same
    stored payload (`source_key`) on any two routes (a feed and its author's page); or one marked view
    of two pages of a tree of paths at any depth (`tree_views`: `/a/_history/`, `/a/b/_history/`). The
    finding keeps its route (an occurrence) and takes the bug's fingerprint."""
    out: list[Finding] = []
    own = {b.fingerprint for b in bugs if b.status == "open"}
    for f in findings:
        # A finding that is an open bug already stays that bug (a store from before the merge).
        twin = (
            None
            if f.fingerprint in own
            else next((b for b in bugs if b.status == "open" and _same_cause(f, b)), None)
        )
        if twin is None:
            out.append(f)
            continue
        template = (
            one_template(route_shape(twin.route), f.shape)
            or one_template(route_shape(twin.route), route_shape(f.route))
            or tree_template(route_shape(twin.route), route_shape(f.route))
            or f.shape
        )
        out.append(replace(f, shape=template, fingerprint=twin.fingerprint))
    return out


def _same_cause(f: Finding, bug: Bug) -> bool:
    if bug.kind != f.kind or bug.route == f.route or bug.fingerprint == f.fingerprint:
        return False
    if normalise_message(bug.message) != normalise_message(f.message):
        return False
    try:
        stored = json.loads(bug.evidence or "{}")
    except ValueError:
        stored = {}
    stored = stored if isinstance(stored, dict) else {}
    source = f.evidence.get("source_key")
    if source is not None and source == stored.get("source_key"):
        return True  # one stored payload shown on two pages of any templates (a feed, a profile)
    # The page's shape may read a query value as data (`?page=<v>` beside links to other pages)
    # where the bug's bare route reads it as a number (`?page=<n>`): either reading may match. And
    # page 2 of a list is its template's page as much as page 1 (`/user/a`, `/user/b?page=2`).
    # A view of pages in a tree is one template at any depth (`tree_views`).
    mine_shapes = (f.shape, route_shape(f.route))
    theirs_shape = route_shape(bug.route)
    if (
        all(one_template(theirs_shape, s) is None for s in mine_shapes)
        and not _paged_twins(bug.route, f.route)
        and not _filtered_twins(bug.route, f.route)
        and tree_template(theirs_shape, route_shape(f.route)) is None
    ):
        return False
    mine, theirs = f.evidence.get("error_key"), stored.get("error_key")
    return mine is None or theirs is None or mine == theirs


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
    keys_a = {k for k, _ in parse_qsl(query_a, keep_blank_values=True) if not is_page_key(k)}
    keys_b = {k for k, _ in parse_qsl(query_b, keep_blank_values=True) if not is_page_key(k)}
    return not keys_a & keys_b


def _unpaged(route: str) -> str:
    path, _, query = route.partition("?")
    kept = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if not is_page_key(k)]
    return path + (f"?{urlencode(kept)}" if kept else "")


def may_open(engine: Engine, url: str) -> bool:
    """Whether a page may be opened without `--allow-destructive`: a route of this origin the walk may
    click (`Engine.followable`) whose URL names no destructive action (`destructive_action`)."""
    route = engine.route_of(url)
    return route is not None and engine.followable(route) and destructive_action(url) is None


def _oracle_fetch(
    engine: Engine, *, reuse: bool, version: str | None, guarded: bool
) -> Callable[[str], FetchedPage]:
    # The oracles may look at related pages (the previous page of a list, the article behind a
    # form). Their `OracleFetch` keeps the pages of one step; only failures are kept here, so a
    # fetch the oracles ask for *again* (a page after a destructive action) is a fresh request.
    # With `reuse`, a page the session already loaded is taken from the engine instead of asked for
    # again (`Engine.reuse_page`): the walk wrote nothing, so the site would answer the same.
    # `guarded` (no --allow-destructive): an oracle opens no page the walk would refuse to click —
    # an avoided or robots-disallowed route, or one whose URL names a destructive action — since a GET
    # there may delete what it names (a form's "resource" guessed among known routes, a row's link).
    failed: dict[str, OSError] = {}

    def fetch(url: str) -> FetchedPage:
        if url in failed:
            raise failed[url]
        if guarded and not may_open(engine, url):
            raise PermissionError(f"oracles do not open what the walk would not: {url}")
        if reuse:
            page = engine.reuse_page(url, version)
            if page is not None:
                return page
        try:
            return engine.fetch_page(url)
        except OSError as exc:
            failed[url] = exc
            raise

    return fetch
