"""Views of pages in a tree of paths: a wiki or CMS names each page by its place in a hierarchy
(`/kitchen/`, `/kitchen/recipes/scones/`) and each view of a page by a marked action segment after
it (`/kitchen/recipes/scones/_history/`, `/_history/` for the root). One view at any depth is one
template, but route shapes only meet at equal depth (`fingerprint.one_template`), so a bug of the
history view found at two depths read as two bugs.

The mark is the sign: a segment led by `_`, `~`, `@`, `+` or `!` is an action the framework keeps
apart from page names (slugs never start with one), so what comes before it is a page path of any
depth and what comes from it on is the view. Plain words after different prefixes
(`/user/<slug>/delete`, `/post/<n>/comment/<n>/delete`) say nothing: those are two templates.

Such a tree often also answers each page by its identifier, the views then plain words after it
(`/42/history/` beside `/kitchen/_history/`): a route led by an identifier alone is a page of the
tree addressed by id, and its view is the marked view of the same word — one template with it, never
with another view, and only beside a marked one (two plain routes compare by shape as ever)."""

from __future__ import annotations

import re

from bughunt.fingerprint import IDENTIFIERS, segment_shape
from bughunt.oracles.reading import is_page_key
from bughunt.sim.route_keys import query_pairs

_MARKS = ("_", "~", "@", "+", "!")


def _marked(segment: str) -> bool:
    return len(segment) > 1 and segment.startswith(_MARKS) and segment[1].isalnum()


def view_of(shape: str) -> tuple[str, str] | None:
    """(the view, the page path before it) of a route shape whose path holds a marked action segment:
    `/recipes/<slug>/_history/` → (`/_history/`, `/recipes/<slug>`); None without one."""
    path, sep, query = shape.partition("?")
    segments = path.split("/")
    at = next((i for i, s in enumerate(segments) if _marked(s)), None)
    if at is None:
        return None
    view = "/" + "/".join(segments[at:]) + (sep + query)
    return view, "/".join(segments[:at])


def _by_id(shape: str) -> str | None:
    """The view of a page addressed by its identifier (`/<n>/history/` → `/history/`): the path's
    first segment is an identifier and a plain word follows it; None otherwise."""
    path, sep, query = shape.partition("?")
    segments = path.split("/")
    if len(segments) < 3 or segments[1] not in IDENTIFIERS or not segments[2].isalnum():
        return None
    return "/" + "/".join(segments[2:]) + (sep + query)


def _unmarked(view: str) -> str:
    return "/" + view[2:] if len(view) > 2 and view[1] in _MARKS else view


def tree_template(a: str, b: str) -> str | None:
    """The view two route shapes are instances of, when both are one marked view of two pages of a
    tree (`/<slug>/_history/`, `/recipes/<slug>/_history/` → `/**/_history/`), or one is that view
    of a page addressed by its identifier (`/<n>/history/`), else None (the same shape, or another
    view)."""
    if a == b:
        return None
    va, vb = view_of(a), view_of(b)
    if va is None and vb is None:
        return None
    if va is not None and vb is not None:
        return "/**" + va[0] if va[0] == vb[0] else None
    marked = (va or vb)[0]  # type: ignore[index]  # one of the two is a marked view
    plain = _by_id(b if va is not None else a)
    return "/**" + marked if plain is not None and plain == _unmarked(marked) else None


def page_path(path: str) -> str | None:
    """The page a route's marked view is of, as the route names it (`/kitchen/scones/_edit/` →
    `/kitchen/scones`, the root's `/_edit/` → ""); None when the path holds no marked segment."""
    view = view_of(path.partition("?")[0])
    return None if view is None else view[1]


def queried_view_twins(a: str, b: str) -> bool:
    """Whether two routes are one view a query names (`?view=info&file=a.zip`) of files at two places
    of one tree of folders (`/files/incoming`, `/files/archive/games`): a file manager or an archive
    browser names the folder by its path, the file in it and what to show of the file by the query,
    so one view handler answers in every folder at any depth — a bug of it found in two folders read
    as two bugs. The paths are folders of one area of the site (the same first segment, every segment
    a plain name: an identifier would make it a record of a handler of its own); the queries hold the
    same keys, one of them the same plain word (the view) and the others two files' names (a name
    and an extension). Two views (`?view=info`, `?view=edit`) are two templates; two records named
    otherwise (`?item=shirt`, `?id=42`: a cart's and a wish list's, `inspection._queried_twins`) are
    no files in folders."""
    (path_a, _, query_a), (path_b, _, query_b) = a.partition("?"), b.partition("?")
    folders_a, folders_b = _folders(path_a), _folders(path_b)
    if folders_a is None or folders_b is None or folders_a == folders_b or folders_a[0] != folders_b[0]:
        return False
    pairs_a = {k: v for k, v in query_pairs(query_a, decoded=True, blank=False) if not is_page_key(k)}
    pairs_b = {k: v for k, v in query_pairs(query_b, decoded=True, blank=False) if not is_page_key(k)}
    if not pairs_a or pairs_a.keys() != pairs_b.keys():
        return False
    views = [k for k, v in pairs_a.items() if v == pairs_b[k] and v.isalpha()]
    files = [k for k, v in pairs_a.items() if v != pairs_b[k]]
    return (
        bool(views)
        and bool(files)
        and all(_FILE_NAME.fullmatch(pairs[k]) for pairs in (pairs_a, pairs_b) for k in files)
    )


_FILE_NAME = re.compile(r"[^/\s]*[A-Za-z][^/\s]*\.[A-Za-z][A-Za-z0-9]{0,4}")
"""A file's name: a name with a letter in it and an extension (`notes.txt`, `game-2.z5`), no folder."""


def _folders(path: str) -> list[str] | None:
    """The path's segments when every one is a plain name (a folder), else None."""
    segments = [s for s in path.split("/") if s]
    if not segments or any(segment_shape(s) in IDENTIFIERS for s in segments):
        return None
    return segments
