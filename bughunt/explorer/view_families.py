"""Views of one page a click reached by changing only its hash route's parameters' values: a list
sorted by a column header, a tab or a filter chip that writes its state into a hash router's address
(`#/items?sort=-title` from `#/items?sort=-created`).

Such a view is the page it was clicked on, shown another way: its controls are that page's controls,
each in its place. A sorted view's headers and rows clicked again, then those of the view each of them
sorts to, were 40 of 100 clicks of a Svelte dashboard's empty list (nine columns, each sort another
address). So a control already clicked on one view of a page, in the same place (`placed_shape`), is
not clicked on the page's other views: one click per control per page, however many views it has.
Only what a click did counts — a link to another value (another collection, another record) leads to
a page of its own — and never a pager's values (`?page=2`, `?offset=20`, a cursor): a list's later
page shows other rows, whose controls the walk samples as it always did.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple
from urllib.parse import unquote, urlsplit

from bughunt.oracles.reading import is_cursor_key, is_offset_key, is_page_key
from bughunt.sim.route_keys import query_pairs

from .templates import CLICK_MARK


def _hash_state(route: str) -> tuple[str, str, dict[str, str]] | None:
    """(the document's address, the hash route's path, its parameters), None without a hash route."""
    document, _, fragment = route.partition("#")
    if not fragment.startswith(("/", "!/")):
        return None
    inner = urlsplit(fragment)
    pairs = query_pairs(inner.query, decoded=True)
    return unquote(document), unquote(inner.path), {unquote(k): unquote(v) for k, v in pairs}


def other_view(page: str, landed: str) -> bool:
    """Is `landed` the page `page` with only the values of some of its hash route's parameters changed
    (the same document, the same hash route path and parameter names), none of them a pager's? A hash
    route's change never loads a document: it is the app's own state, drawn in place (a change of the
    document's query is a navigation, which `idle_controls` reads as a toggle when it flips back)."""
    before, after = _hash_state(page), _hash_state(landed)
    if before is None or after is None or before[:2] != after[:2] or before[2].keys() != after[2].keys():
        return False
    changed = [k for k in before[2] if before[2][k] != after[2][k]]
    return bool(changed) and not any(is_page_key(k) or is_offset_key(k) or is_cursor_key(k) for k in changed)


def _canonical(route: str) -> str:
    return unquote(route)


class ViewFamilies(NamedTuple):
    """Which remembered pages are views of one page (`root`), and the controls clicked on each family."""

    roots: dict[str, str]
    """A view a click reached (canonical route) → the page it is a view of."""
    tried: dict[tuple[str, str], set[str]]
    """(family's page, control's placed shape) → the views it was clicked on."""

    @classmethod
    def of(
        cls,
        steps: Iterable[tuple[str, str | None, str]],
        click_of: Callable[[str], tuple[str, str] | None],
        placed: Callable[[str], str],
    ) -> ViewFamilies:
        """From the walk's steps (route, final route, outcome) and the click states' (page, selector)."""
        index = ViewIndex()
        index.add(steps, click_of, placed)
        return index.families

    def tried_elsewhere(self, page: str, selector: str, placed: Callable[[str], str]) -> bool:
        """Was the control at `selector` on `page` clicked on another view of the same page?"""
        if not self.roots:
            return False
        here = _canonical(page)
        family = self.roots.get(here, here)
        return any(v != here for v in self.tried.get((family, placed(selector)), ()))


class ViewIndex:
    """`ViewFamilies` kept up to date as steps are written: each step is read once (`add`), so what a
    choice reads does not grow with the walk (issue 28). Families are joined again only when a step
    finds a new view; a click on a known page is added to its family's controls as it comes."""

    def __init__(self) -> None:
        self.read_to = 0
        """The last step number read (`ExplorationGraph.view_families`)."""
        self._parent: dict[str, str] = {}
        self._clicked: list[tuple[str, str]] = []
        self.families = ViewFamilies({}, {})

    def add(
        self,
        steps: Iterable[tuple[str, str | None, str]],
        click_of: Callable[[str], tuple[str, str] | None],
        placed: Callable[[str], str],
    ) -> None:
        """Read more steps (route, final route, outcome) in the order they were written."""
        start, grown = len(self._clicked), False
        for route, final, outcome in steps:
            if CLICK_MARK not in route or (click := click_of(route)) is None:
                continue
            page = _canonical(click[0])
            self._clicked.append((page, click[1]))
            if outcome == "page" and final:
                landed = _canonical(final)
                if landed != page and landed not in self._parent and other_view(page, landed):
                    self._parent[landed] = page
                    grown = True
        if grown:
            self.families = ViewFamilies(self._roots(), {})
            start = 0  # a page clicked earlier may be a view now: every click joins its family anew
        roots, tried = self.families.roots, self.families.tried
        for page, selector in self._clicked[start:]:
            tried.setdefault((roots.get(page, page), placed(selector)), set()).add(page)

    def _roots(self) -> dict[str, str]:
        roots: dict[str, str] = {}
        for view in self._parent:
            root, seen = view, {view}
            while root in self._parent and self._parent[root] not in seen:
                root = self._parent[root]
                seen.add(root)
            roots[view] = root
        return roots
