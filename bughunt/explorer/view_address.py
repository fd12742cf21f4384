"""Whether a link names the view it was clicked on: the same page under a shorter address.

A single-page app's router completes the address of the view it shows (`#/items?kind=book` becomes
`#/items?kind=book&filter=&sort=-created`), and a site's navigation keeps a link to the page shown (the
current item of a sidebar, a tab already open, "All" above a list). Clicking such a link lands on the
page it was clicked on, as a toggle run by Post/Redirect/Get does — but it says nothing of its
*shape*: the sidebar's links to the other views share it (`?kind=<v>`) and each leads to a view of
its own. A link is such a link to here when it has the landing page's path (and hash route's path)
and every parameter it sets is set to the same value there; a toggle's address sets one the page
does not have (`?like=1`), or is another path (`/prefs/dark`).
"""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

from bughunt.sim.route_keys import query_pairs
from bughunt.urls import hash_route


def route_parts(route: str) -> tuple[str, frozenset[tuple[str, str]]]:
    """A route's path (with its hash route's path) and the parameters of its query and hash route."""
    split = urlsplit(route)
    path, pairs = unquote(split.path) or "/", query_pairs(split.query, decoded=True)
    if hash_route(split.fragment):
        inner = urlsplit(split.fragment)
        path += "#" + unquote(inner.path)
        pairs += query_pairs(inner.query, decoded=True)
    return path, frozenset((unquote(k), unquote(v)) for k, v in pairs)


def names_view(target: str, landed: str) -> bool:
    """Does the link `target`, which landed on `landed`, name that view (its path, and only
    parameters the view has with the same values)?"""
    path, pairs = route_parts(target)
    there, shown = route_parts(landed)
    return path == there and pairs <= shown
