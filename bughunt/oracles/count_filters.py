"""A filter whose label counts its records ("Paused (12)"), clicked, and the list it redrew holds more.

A single-page app's filter panel — a torrent client's states, a mail reader's folders, a tracker's
saved queries, a tag cloud drawn by script — labels each filter with how many records it selects and,
clicked, redraws the page's list in place with those records. The state the click made
(`FetchedPage.clicked_from`: the page before it and the clicked control's label) shows the list the
filter selected: a list that stands where a list stood before the click (the same place in the page,
`_placed`), redrawn (another number of items), every element of its container an item of it (a
grid's body: its rows, striped or not). More items than the label counts is a filter that let
records through, or a count that missed them: the two views of one set disagree. Fewer is not read —
the list may be paged, or drawn a screenful at a time.

Stated on what the page means: a count in a clicked control's words, a list redrawn under it, not paged
(`has_pagination`). Applies to ExtJS, Dojo, Knockout, AngularJS and jQuery apps with a filter tree or
folder list, and to a server-drawn page a script swaps in place.
"""

from __future__ import annotations

from bughunt.actions import page_clicks
from bughunt.dom import Node
from bughunt.oracles.base import DEFAULT_CONFIG, Fetch, Finding, OracleConfig, evidence, page_shape, quoted
from bughunt.oracles.count_labels import parse_count
from bughunt.oracles.list_finding import item_runs
from bughunt.oracles.lists import has_pagination
from bughunt.page import FetchedPage

MESSAGE = "a filter's count disagrees with the number of records the list shows once it is applied"
MIN_ITEMS = 2


def _lists(page: FetchedPage) -> dict[str, int]:
    """Place (selector, positions of a first child aside) → items of each list whose container's every
    element is an item (one run or several: a striped grid's two row classes)."""
    containers: dict[int, tuple[Node, int]] = {}
    for container, _sig, items in item_runs(page.document):
        held = containers.get(id(container), (container, 0))[1]
        containers[id(container)] = (container, held + len(items))
    places = page_clicks(page).selectors
    found: dict[str, int] = {}
    for container, count in containers.values():
        if count >= MIN_ITEMS and count == len(container.elements):
            found[_placed(places.of(container))] = count
    return found


def _placed(selector: str) -> str:
    return selector.replace(":nth-of-type(1)", "")


def check_filter_count(
    page: FetchedPage, fetch: Fetch | None = None, config: OracleConfig = DEFAULT_CONFIG
) -> list[Finding]:
    """One finding per click state at most (see the module)."""
    if page.clicked_from is None or not page.is_html or page.status >= 400:
        return []
    before, label = page.clicked_from
    parsed = parse_count(label)
    if parsed is None or parsed[1] < 1 or has_pagination(page):
        return []
    shown = parsed[1]
    earlier = _lists(before)
    for place, listed in _lists(page).items():
        if place in earlier and earlier[place] != listed and listed > shown:
            return [
                Finding(
                    "count_mismatch",
                    page.route,
                    MESSAGE,
                    evidence(page, label, label=quoted([label]), shown=shown, listed=listed, mismatches=1),
                    shape=page_shape(page),
                )
            ]
    return []
