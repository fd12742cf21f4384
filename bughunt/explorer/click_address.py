"""Where a finding made on a click state was: the view the click opened, not the page it was made on.

The oracles name a finding by the page's route (`FetchedPage.route`, its URL's path and query and a
hash route `#/…`). A click state that changed the address to a new route (a `pushState` URL, a hash
route) is already named so. A click that set a fragment that names no element of the page — a script's
view address: a wiki's `#Intranet%20banner` that opens that tiddler, a Knockout/Sammy route `#Inbox/3`,
a Backbone router's `#items/3`; not a place to scroll to (`#comments`, an element's id) — was not: its
findings carried the page's route (`/`), so a user reading the report could not find where the bug was,
nor could a planted bug be matched. Now the route with that fragment names them.

A click that left the URL as it was keeps the page's route: the state's harness-made route
(`<page>#click-<digest>`) names nothing a user can open (the report's click path says how to reach it),
and a bug matched by its page's route (`/orders`, `/#/items/`) would no longer be.

Only the finding's route changes: its fingerprint is the oracle's, one bug on every state that shows it
(a finding's route names where it was seen, `bug_table` keeps each occurrence's route). A finding of
another route (an API request's `server_error`, a destructive link's target) keeps its own.
"""

from __future__ import annotations

from dataclasses import replace
from urllib.parse import unquote, urlsplit

from bughunt.actions import anchor_names
from bughunt.oracles import Finding
from bughunt.page import FetchedPage
from bughunt.urls import MAX_ROUTE_CHARS, canonical_fragment, hash_route

from .templates import CLICK_MARK


def script_fragment(page: FetchedPage) -> str | None:
    """The fragment of `page`'s URL when it is a script's view address (canonical): not empty, no hash
    route (those are in the route already), and naming no element of the page."""
    fragment = urlsplit(page.url).fragment
    if not fragment or hash_route(fragment) or unquote(fragment) in anchor_names(page.document):
        return None
    return canonical_fragment(fragment)


def state_address(page: FetchedPage, target: str) -> str:
    """The route a finding on `page`, loaded as the click state `target`, is named by: the page's route
    (the new one when the click changed it), with the script's fragment the click set if any."""
    made_on = target.split(CLICK_MARK)[0]
    if page.route != made_on.split("#")[0] and page.route != made_on:
        return page.route  # a new address (pushState, a hash route): the view's own
    fragment = script_fragment(page)
    if fragment is not None and len(page.route) + 1 + len(fragment) <= MAX_ROUTE_CHARS:
        return f"{page.route}#{fragment}"
    return page.route


def named_by_state(findings: list[Finding], page: FetchedPage, target: str | None) -> list[Finding]:
    """`findings` of `page`, each named by the view its click state opened (`state_address`) where the
    oracle named it by the page's route. Unchanged when `target` is no click state."""
    if target is None or CLICK_MARK not in target or page.clicked_from is None:
        return findings
    address = state_address(page, target)
    if address == page.route:
        return findings
    return [replace(f, route=address) if f.route == page.route else f for f in findings]
