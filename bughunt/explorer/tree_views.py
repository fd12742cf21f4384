"""Views of pages in a tree of paths: a wiki or CMS names each page by its place in a hierarchy
(`/kitchen/`, `/kitchen/recipes/scones/`) and each view of a page by a marked action segment after
it (`/kitchen/recipes/scones/_history/`, `/_history/` for the root). One view at any depth is one
template, but route shapes only meet at equal depth (`fingerprint.one_template`), so a bug of the
history view found at two depths read as two bugs.

The mark is the sign: a segment led by `_`, `~`, `@`, `+` or `!` is an action the framework keeps
apart from page names (slugs never start with one), so what comes before it is a page path of any
depth and what comes from it on is the view. Plain words after different prefixes
(`/user/<slug>/delete`, `/post/<n>/comment/<n>/delete`) say nothing: those are two templates."""

from __future__ import annotations

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


def tree_template(a: str, b: str) -> str | None:
    """The view two route shapes are instances of, when both are one marked view of two pages of a
    tree (`/<slug>/_history/`, `/recipes/<slug>/_history/` → `/**/_history/`), else None (the same
    shape, or another view)."""
    if a == b:
        return None
    va, vb = view_of(a), view_of(b)
    if va is None or vb is None or va[0] != vb[0]:
        return None
    return "/**" + va[0]
