"""Whether a click that changed the page in place opened a *view*: a page of its own that shares the
document's URL.

A single-page app draws a record, a panel beside the ones open (a river of stories), a tab's contents
or a modal editor without changing the address, or changes the address only by script. Such a view is
named by what it shows, not by its URL: a click state already gets a route of its own (`CLICK_MARK`),
but the controls that only the view shows were never offered — from the page's fresh load they are not
there to click —, so a walk ended `done` one click into an app whose every page is such a view. A view
is told from a menu opened, a row's details unfolded or a list's other page by its headings: it shows a
heading (`h1`–`h6`, `role="heading"`; not one of a list's items) that the state it was clicked on did not. Its new controls (none of them on the page's
fresh load nor on the state before) are made *on the view* and replayed after the clicks that reached it
(`Action.after`, at most `graph.MAX_CHAIN` clicks from the load), as a list's next page already was.
"""

from __future__ import annotations

from bughunt.oracles.list_finding import item_runs
from bughunt.oracles.visibility import unseen
from bughunt.page import FetchedPage

_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
MAX_HEADINGS = 200
"""Headings read per page (a page of thousands of headings is read in bounded time)."""


def headings(page: FetchedPage) -> set[str]:
    """The texts of the page's headings outside the items of its lists, whitespace collapsed (at most
    `MAX_HEADINGS`): a list's other page, filtered or sorted, shows other items' headings, not a view."""
    found: set[str] = set()
    items = {id(item) for _, _, run in item_runs(page.document) for item in run}
    for node in page.document.iter():
        if (node.tag in _HEADINGS or node.get("role") == "heading") and not (
            id(node) in items or any(id(a) in items for a in node.ancestors())
        ):
            if text := " ".join(node.text().split()):
                found.add(text)
            if len(found) >= MAX_HEADINGS:
                break
    return found


def opened_view(page: FetchedPage) -> bool:
    """Did the click that made `page` in place (`clicked_from`) open a view: a heading it shows that the
    state it was clicked on did not."""
    if page.clicked_from is None:
        return False
    return bool(headings(page) - headings(page.clicked_from[0])) or swapped_panel(page)


MIN_PANEL_WORDS = 3
"""Words a panel shown must hold to be a view (an empty pane a script fills later is not one yet)."""


def swapped_panel(page: FetchedPage) -> bool:
    """Did the click show a panel of the document in place of another: an element with an id that the
    state before hid (itself: `hidden`, `display: none`, no box) and now shows with words of its own,
    while a sibling the state before showed is hidden now. That is how a shell switches its pages
    without a heading to tell them by — pixl-webapp's `#page_<Name>` divs, Dojo's StackContainer and
    TabContainer panes, Bootstrap's and jQuery UI's tab panes —; a menu, a dropdown or a dialog opened
    hides nothing beside it."""
    if page.clicked_from is None:
        return False
    before = page.clicked_from[0]
    was = {n.get("id"): n for n in before.document.iter() if n.get("id")}
    for node in page.document.iter():
        ident = node.get("id")
        old = was.get(ident) if ident else None
        if old is None or old.parent is None or not unseen(old) or (old.parent and unseen(old.parent)):
            continue
        if unseen(node) or len(node.text().split()) < MIN_PANEL_WORDS:
            continue
        shown_then = {
            s.get("id") for s in old.parent.elements if s.get("id") and s is not old and not unseen(s)
        }
        now = {s.get("id"): s for s in (node.parent.elements if node.parent is not None else ())}
        if any(i in now and unseen(now[i]) for i in shown_then):
            return True
    return False
