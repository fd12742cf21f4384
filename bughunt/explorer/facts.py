"""What one loaded page says, computed once: `PageFacts`.

The engine gives a page and its actions; the facts turn them into what memory and the policies use —
the page's own route, its actions as canonical routes (`safe_route`: the link table is trusted memory,
so a target that reads as prose is percent-encoded and an over-long one is dropped; a link to the page
itself is no way onward), each action's kind and label (untrusted page text, for the llm prompt only),
the places of repeated markup the links sit in (items of a list), how many elements lead to each route,
the click states the page offers, its text, whether it is a fragment, and its structure hash. One
immutable value per page, read by the loop, the planner's hints and the graph write.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from bughunt.actions import Action, page_actions, page_clicks
from bughunt.oracles.destructive_words import destructive_label
from bughunt.oracles.lists import item_runs, pager_ways_on, reads_way_on
from bughunt.oracles.offset_steps import offset_pagers
from bughunt.oracles.pager_reading import reads_later
from bughunt.oracles.reading import names_later_page
from bughunt.page import FetchedPage, is_fragment
from bughunt.record_repr import field_repr
from bughunt.sim.pager_links import numbered_from_first
from bughunt.sim.planner import next_page

from .control_words import control_words
from .enabled_controls import enabled_here
from .engine import Engine
from .form_toggles import form_controls
from .graph import CLICK_MARK, MAX_CHAIN
from .language import switches_language
from .markup_links import marked_targets
from .missing_values import missing_value_targets
from .more_controls import more_controls
from .state_controls import control_key, listed_controls, opened_group, shows_new_content
from .templates import safe_route, structure_hash
from .view_states import opened_view

MAX_SELECTOR_CHARS = 300


@dataclass(repr=False, frozen=True, slots=True, eq=False)
class PageFacts:
    __repr__ = field_repr

    own: str | None
    """The page's own canonical route (None when it has no address of this site)."""
    links: tuple[str, ...] = ()
    """Its actions as routes, in page order, each once (click states included)."""
    actions: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Route → (kind, label) of each link; labels are untrusted page text."""
    places: dict[str, str] = field(default_factory=dict)
    """Route → the place of repeated markup (an item of a list) its link sits in."""
    weight: dict[str, int] = field(default_factory=dict)
    """Route → how many elements of the page lead to it."""
    probes: frozenset[str] = frozenset()
    """Routes reached by a GET form submitted with generated values."""
    clicks: tuple[tuple[str, str, str], ...] = ()
    """(click state's route, page route, selector) of every control that acts without an address."""
    click_words: dict[str, str] = field(default_factory=dict)
    """Click state's route → what its control says (`control_words`: a verb or a digest, no page text)."""
    next_pages: frozenset[str] = frozenset()
    """Click states of the controls that lead to the next page of the page's list (a pager's "Next"
    or its one enabled icon, `lists.pager_ways_on`): a list paged without addresses; and links that
    say they are the way on ("next >>") to an address naming a later page (`?start=50`) that the
    URLs alone do not show as this page's next (`planner.next_page`: `/` → `/issue?@startwith=49`)."""
    text: str = ""
    fragment: bool = False
    structure_hash: str | None = None
    marked: frozenset[str] = frozenset()
    """Links whose text shows markup written as text (`markup_links`): a record whose stored text
    holds an element or a handler, its page where an unescaped print would run it."""
    odd_rows: dict[str, str] = field(default_factory=dict)
    """The own links of one table row of each kind of missing value (`missing_values`) → its kind:
    the record where code assuming the value breaks."""


def page_text(page: FetchedPage | None) -> str:
    """Visible text of a fetched page (what the quarantine keeps and the llm policy sees as data)."""
    return page.visible_text if page is not None else ""


def way_on_selectors(page: FetchedPage) -> set[str]:
    """The selectors of the page's clicks to the next page of its list (`lists.pager_ways_on`), or to
    more of it in place ("Load more": `more_controls`)."""
    selectors = page_clicks(page).selectors
    return {selectors.of(n) for n in [*pager_ways_on(page), *more_controls(page)]}


def turned_page(page: FetchedPage) -> bool:
    """Whether a click in place showed items in the page's lists that none of the states before it
    showed (another page of a list), not a control that added a link beside itself, changed nothing,
    or went back to a page the clicks had shown."""
    if page.clicked_from is None:
        return False

    def items(p: FetchedPage) -> set[str]:
        return {" ".join(i.text().split()) for _, _, run in item_runs(p.document) for i in run}

    shown: set[str] = set()
    before: FetchedPage | None = page.clicked_from[0]
    while before is not None:
        shown |= items(before)
        before = before.clicked_from[0] if before.clicked_from is not None else None
    return bool(items(page) - shown)


def _revealed_destructive(action: Action, state: tuple[str, str] | None, depth: int) -> bool:
    """Whether a control only this click state shows (an opened menu's "Delete item") is made on the
    state, replayed after the clicks that reached it: its click shows whether it asks first
    (`destructive._judge_clicked`), and from the page's fresh load it is not there to click. Not on
    the state its own click made (the menu still open after it): that click was judged."""
    return (
        state is not None
        and depth < MAX_CHAIN
        and state[1] != action.selector
        and destructive_label(action.label)
    )


def _clicked_again(page: FetchedPage, action: Action, state: tuple[str, str]) -> bool:
    """Is `action` the control whose click made this state, in its place and saying what it said: a
    grid row just selected, which its click did not redraw. Made on the state, its click selects what
    is selected, and the state that click made offers it again, down to `MAX_CHAIN` clicks."""
    return (
        state[1] == action.selector
        and page.clicked_from is not None
        and control_key(page.clicked_from[1]) == control_key(action.label)
    )


def _view_controls(page: FetchedPage, engine: Engine, state: tuple[str, str] | None, depth: int) -> set[str]:
    """The selectors of the clicks a view opened in place shows and the state it was clicked on did not
    (`view_states`), or a state that shows new content besides controls (a template swapped in place:
    `state_controls.shows_new_content`): made on this state, replayed after the clicks that reached it.
    None at `MAX_CHAIN` clicks from the load, nor when the click opened no view (a menu)."""
    if state is None or depth >= MAX_CHAIN or page.clicked_from is None:
        return set()
    actions = engine.actions(page)
    # A list's other page shows new items, not a view: its controls are the page's (a way on's own
    # "›" is made on the state already; its "‹" leads back).
    turned = state[1] in way_on_selectors(page.clicked_from[0])
    view = opened_view(page)
    if not (view or opened_group(page, state[1]) or (not turned and shows_new_content(page, actions))):
        return set()
    before = {a.selector for a in engine.actions(page.clicked_from[0]) if a.kind == "click"}
    # A group opened or a list redrawn that shows a form's fields shows the form's (`form_toggles`):
    # they are clicked where the form is, not made on this state. A view opened offers its form's too.
    fields = frozenset() if view else form_controls(page)
    return {
        a.selector
        for a in actions
        if a.kind == "click" and a.selector not in before and a.selector not in fields
    }


def read_page(
    page: FetchedPage,
    engine: Engine,
    state: tuple[str, str] | None = None,
    judged: Callable[[FetchedPage, Action], bool] | None = None,
) -> PageFacts:
    """The facts of a page loaded as a page (outcome "page"); `state` is (the click state's route it was
    loaded as, the selector of its last click), when it is one (`<page>#click-…`). `judged` tells a
    destroying control whose click a sibling's already judged (`judged_controls`): not made again."""
    here = engine.route_of(page.url)
    own = safe_route(here) if here is not None else None
    # The page a click is made on, named as the walk names the page it stands on (its visit, its
    # position): `route_of`'s encoding, which keeps a reserved character's escape (`sort=-%40rowid`, a
    # router's completed address) where `safe_route` decodes it. Named apart, a click on such a page
    # found no visit of its page: nothing it did was learned (`idle_controls`) and it was clicked again
    # on every view (a Svelte dashboard's collections, each `sort=-%40rowid`).
    clicked_on = (
        here
        if here is not None and own is not None and CLICK_MARK not in own
        else (own or "").split(CLICK_MARK)[0]
    )
    walked = page_actions(page)  # made once per page, shared with the engine and the oracles
    counts = walked.counts if own is not None else None
    in_items = walked.places if own is not None else {}
    routes: list[str] = []
    actions: dict[str, tuple[str, str]] = {}
    places: dict[str, str] = {}
    weight: dict[str, int] = {}
    probes: set[str] = set()
    clicks: list[tuple[str, str, str]] = []
    click_words: dict[str, str] = {}
    next_pages: set[str] = set()
    marked: set[str] = set()
    ways_on: set[str] | None = None  # the selectors of the pager's ways on, read at the first click
    view_controls: set[str] | None = None  # the controls only the view this state opened shows
    listed: frozenset[str] | None = None  # the controls in the items of its lists (`listed_controls`)
    # A click state's clicks are made again on the page it was clicked on (the URL is that page's):
    # a control that is no click there (a pager's "‹", disabled on the first page, enabled on the
    # second) would do nothing, and teach that its shape — "›" too — leads nowhere.
    loaded, depth = page, 0
    while loaded.clicked_from is not None:  # the page as loaded, before the clicks that made this state
        loaded, depth = loaded.clicked_from[0], depth + 1
    origin = loaded if depth and engine.can_click and engine.route_of(loaded.url) == here else None
    # What each control there says (`state_controls.control_key`): another control in the same place (the
    # Archive's first mail where the Inbox's was) is no click there — in the items of a list, where a
    # script redraws other records (`listed_controls`); elsewhere it is the same control showing another
    # value (a form's field, a code block's text), clicked from the load as before.
    there = (
        {a.selector: control_key(a.label) for a in engine.actions(origin) if a.kind == "click"}
        if origin is not None
        else None
    )
    # ... except the way to the list's next page on a state its way on made, that turned the list's
    # page: "›" on page 2 is not "›" on page 1. It is made on this state, replayed after the clicks
    # that reached it (`MAX_CHAIN` at most), or page 3 of a list a script pages would be the state
    # page 2 already is.
    chained = (
        state[0]
        if origin is not None
        and state is not None
        and depth < MAX_CHAIN
        and page.clicked_from is not None
        and state[1] in way_on_selectors(page.clicked_from[0])
        and turned_page(page)
        else None
    )
    # The second page of a list its own links page by offsets under a key of another name
    # (`?limit=10` beside `?limit=20`, `?limit=30`: `offset_steps`), taken from its first page only, as
    # a numbered pager's (the later pages wait like any: `planner._ranks`).
    stepped = (
        {p.following for p in offset_pagers(page) if p.here == 0 and p.following}
        if own is not None and page.clicked_from is None
        else set()
    )
    for action in engine.actions(page):
        if action.kind == "click" and engine.can_click:
            # No address of its own: a harness-made route names the state the click leaves. An engine
            # that cannot click follows the control's literal target (`data-href`, an `onclick`
            # navigation) instead: "clicking" it there would only reload the page it sits on.
            if own is None or not action.selector or len(action.selector) > MAX_SELECTOR_CHARS:
                continue
            if judged is not None and destructive_label(action.label) and judged(page, action):
                continue  # its sibling's click judged it (`judged_controls`)
            if ways_on is None:
                ways_on = way_on_selectors(page)
            on = chained if chained is not None and action.selector in ways_on else None
            if on is None and there is not None and there.get(action.selector) != control_key(action.label):
                if view_controls is None:
                    view_controls = _view_controls(page, engine, state, depth)
                if listed is None:
                    listed = listed_controls(page)
                elsewhere = (
                    action.selector in there
                    and action.selector in listed
                    and state is not None
                    and depth < MAX_CHAIN
                    and not _clicked_again(page, action, state)
                )
                if (
                    elsewhere
                    or action.selector in view_controls
                    or _revealed_destructive(action, state, depth)
                    # disabled on the load, enabled by the clicks that made this state (`enabled_controls`)
                    or (state is not None and depth < MAX_CHAIN and enabled_here(action.selector, origin))
                ):
                    on = state[0] if state is not None else None
                elif action.selector not in there:
                    continue
                # else the load's control showing another value (a form's field): clicked from the load
            digest = hashlib.sha256(f"{on or own} {action.selector}".encode()).hexdigest()[:12]
            made = f"{own}{CLICK_MARK}{digest}"
            route: str | None = made
            clicks.append((made, on or clicked_on, action.selector))
            click_words[made] = control_words(action.label)
            if action.selector in ways_on:
                next_pages.add(made)
        else:
            route = engine.route_of(action.target)
            route = safe_route(route) if route is not None else None
            if (
                route is not None
                and reads_way_on(action.label)
                and names_later_page(action.target)
                and not next_page(own, route)
            ):
                # A "next >>" to the list's next batch on another address than the page's own (a
                # tracker's front page listing the index whose later batches are
                # `/issue?@startwith=49`): the URLs alone do not say this page's list goes on there.
                next_pages.add(route)
            elif (
                route is not None
                and reads_later(action.label)
                and numbered_from_first(own, route)
                and not next_page(own, route)
            ):
                # "↓ Older..." from a list's first page to the same page with numbers added under
                # keys no reading names (`?x=25&n=25`): its second page, said in words. From the
                # first page only: the later pages wait like any (`planner._ranks`).
                next_pages.add(route)
            elif route is not None and stepped and action.target.split("#", 1)[0] in stepped:
                next_pages.add(route)
        if route is None or route == own or route in actions or not engine.followable(route):
            continue
        if switches_language(route):
            continue  # the same state in other words (`language`): no way onward
        routes.append(route)
        place = in_items.get(action.target) if own is not None else None
        if place is not None:
            places[route] = place
        if counts is not None:
            weight[route] = weight.get(route, 0) + (
                1 if CLICK_MARK in route else counts.get(action.target, 1)
            )
        actions[route] = (action.kind, action.label)
        if action.kind == "form":
            probes.add(route)
    # (every link's text, not each target's first label: a row links its issue by number, then by subject)
    for url in marked_targets(page) if own is not None else ():
        if (route := engine.route_of(url)) is not None and (route := safe_route(route)) is not None:
            marked.add(route)
    odd_rows: dict[str, str] = {}
    for url, kind in missing_value_targets(page).items() if own is not None else ():
        if (route := engine.route_of(url)) is not None and (route := safe_route(route)) is not None:
            odd_rows.setdefault(route, kind)
    return PageFacts(
        own=own,
        links=tuple(routes),
        actions=actions,
        places=places,
        weight=weight,
        probes=frozenset(probes),
        clicks=tuple(clicks),
        click_words=click_words,
        next_pages=frozenset(next_pages),
        text=page_text(page),
        fragment=is_fragment(page),
        structure_hash=structure_hash(page),
        marked=frozenset(marked.intersection(routes)),
        odd_rows={r: k for r, k in odd_rows.items() if r in actions},
    )


def site_texts(page: FetchedPage, actions: dict[str, tuple[str, str]]) -> list[str]:
    """What a response said outside its page text: header values and action labels (all untrusted)."""
    return [*(str(v) for v in page.headers.values()), *(label for _, label in actions.values() if label)]
