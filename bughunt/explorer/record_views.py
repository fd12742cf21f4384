"""Views of one record: the same resource shown, edited or listed at several addresses.

An admin framework draws a record at `/groups/show/3` and `/groups/edit/3`, a blog at `/post/28/`
and `/post/28/update/`, a wiki a page at `/kitchen/_edit/` and `/kitchen/_plugin/section/…`: one
shared part of those pages (a related list with its count, the form's initial data, a partial that
fails on the record's data) breaks on every view of the record, and that is one root cause, not one
per view. Route shapes cannot see it (`/groups/show/<n>` and `/groups/edit/<n>` are two actions,
`fingerprint.one_template`); the record can: the same identifier under the same collection, or the
same page path of a tree before its marked view (`tree_views`).

Only the address decides here; the caller also asks that both findings saw the same thing (the same
error, the same dropped fields, the same count over the same number of items)."""

from __future__ import annotations

import re

from bughunt.fingerprint import IDENTIFIERS, segment_shape
from bughunt.sim.planner import front_controller
from bughunt.sim.route_keys import query_pairs

from .tree_views import page_path

_ID_KEY = re.compile(r"(?:[a-z]+[_-])?id", re.I)
"""A query key naming a record by its identifier: `id`, `project_id`, `task-id`."""


def _plain(segment: str) -> bool:
    return bool(segment) and segment_shape(segment) == segment


def _last_identifier(parts: list[str]) -> int | None:
    """Where the record's identifier is: the last identifier of the path, below the collection."""
    return next((i for i in range(len(parts) - 1, 1, -1) if segment_shape(parts[i]) in IDENTIFIERS), None)


def same_record(a: str, b: str) -> bool:
    """Whether two routes are two views of one record: the same page path of a tree before two
    marked views (`/kitchen/_edit/`, `/kitchen/_plugin/x/`), or the same identifier after the same
    collection with the view either after it (`/post/28/`, `/post/28/update/`) or as the one word
    directly before it (`/groups/show/3`, `/groups/edit/3`; never the collection itself). Queries
    are not looked at; the same path is not two views."""
    path_a, path_b = a.partition("?")[0], b.partition("?")[0]
    if path_a == path_b:
        return False
    if _routed_twin(a, b) or _routed_twin(b, a):
        return True
    tree_a, tree_b = page_path(path_a), page_path(path_b)
    if tree_a is not None or tree_b is not None:
        return tree_a == tree_b
    parts_a, parts_b = path_a.rstrip("/").split("/"), path_b.rstrip("/").split("/")
    at = _last_identifier(parts_a)
    if at is None or at != _last_identifier(parts_b) or parts_b[at] != parts_a[at]:
        return False
    before = [i for i in range(1, at) if parts_a[i] != parts_b[i]]
    if not before:
        return True  # the record's own page and its views after it: `/post/28/`, `/post/28/update/`
    return (
        before == [at - 1]
        and at - 1 >= 2
        and _plain(parts_a[at - 1])
        and _plain(parts_b[at - 1])
        and parts_a[at + 1 :] == parts_b[at + 1 :]
    )


def _routed_twin(pretty: str, routed: str) -> bool:
    """Whether `routed` is the query-routed address of the record `pretty` names: an app that routes
    some pages by path and the rest by query (`/list/10` and `/?controller=…&project_id=10`, one list
    view at two addresses) names the record under one identifier key, with the path's identifier."""
    path, _, query = routed.partition("?")
    if not query or not front_controller(path):
        return False
    parts = pretty.partition("?")[0].rstrip("/").split("/")
    at = _last_identifier(parts)
    if at is None:
        return False
    ids = [v for k, v in query_pairs(query, decoded=True) if _ID_KEY.fullmatch(k)]
    return ids == [parts[at]]
