"""Controls whose click leads nowhere new, learned from one click and remembered per control shape.

A click teaches the harness (never the model) what kind of control it was:

- `same_state`: a click in place (a dropdown, a collapse, a tab already shown) that showed no link
  the page did not have and left its DOM structure as it was, or changed only attribute values (the
  class that opens a menu or shows a collapsed panel: same elements, same text); and — for the
  control in its place only (`placed_shape`) — a click that showed no word the page did not show. A
  click whose write the browser's gate refused acted: its lesson is kept for the controls of its
  shape that say the same (`control_words.said_shape`), so a row's "Delete" teaches nothing of the vote
  icons of its shape;
- `round_trip`: a GET that answered by redirecting back to the page it was clicked on (a toggle run
  by Post/Redirect/Get without the POST, a preference switch);
- `toggle`: a GET to the same path with another query, rendering the same structure with the control
  flipped to its counterpart and nothing else new (`?like=1` offering `?like=0`); and, for the control
  in its place, a click that navigated back to the page on which the same control was clicked to
  reach this one (A → B → A: a script checkbox flipping a view option through `window.location`);
- `shown_before`: a click in place that showed new links — exactly the ones a control of its shape
  showed on another page (a menu in the page's chrome: its items do not depend on the page); or that
  showed no new link but new controls, whose words are exactly those the control in its place showed
  on another page this session (a language menu of script controls: `menu_words`);
- `unclickable`: a click the browser could not do (the control is hidden, say a close button in a
  collapsed alert, disabled or covered) or whose navigation its gate refused: the control in that
  place (its `placed_shape`: positions kept, so a disabled "Previous" does not stand for "Next") is
  as hidden on every page, once it failed on two (one failure may be one record's: a button hidden
  for that item only);
- `form_field`: a click in place on a form's own control that does not submit it (a toggle, a tab, a
  folded section, a helper dialog's button: `form_toggles`), for its shape and what it says: the same
  form drawn for another record holds the same control, which changes what the form would send and
  nothing on the server;
- `state_change`: a GET whose URL names a state-changing verb (follow, like, subscribe, vote…:
  `bughunt.oracles.unsafe_get.STATE_VERBS`) and that answered with the page it was clicked on, re-
  rendered (its structure at the new address) — one of a shape is enough to see what it does; a
  verb-named page of its own (`/watch?v=…`, `/join`) is a page, not a control.

A click in place that found a new bug teaches nothing: it led somewhere (a GET that changed state
is one bug, `unsafe_get`, for its whole shape). The lesson is stored with the step (`ExplorationGraph.idle_controls`: shape → lesson) and every control of that
shape, on any page, is no longer a way onward: the chooser leaves it out, the policy's view of memory
no longer holds it (`scrub`) and the session does not travel to it. A control's shape is its CSS selector without positions (`:nth-of-type`) and
without generated ids (`#tr-6d1a…` of a table row: an id holding a digit names a record;
`bughunt.dom.selector_shape`) for a click,
or its URL's shape for a GET (`bughunt.oracles.client_errors.url_shape`: numbers, ids, slugs, query
values and the words its page's route carries are placeholders, so `/profile/ann/follow` clicked on
`/profile/ann` teaches `/profile/<v>/follow` for every profile).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from urllib.parse import urlsplit

from bughunt.actions import page_clicks
from bughunt.dom import selector_shape
from bughunt.fingerprint import segment_shape
from bughunt.oracles.client_errors import route_words, url_shape
from bughunt.oracles.unsafe_get import state_change
from bughunt.page import FetchedPage
from bughunt.sim.memory import NoMemory

from .control_words import said_shape, said_shapes
from .current_item import current_item
from .enabled_controls import enabled_by
from .engine import FetchResult
from .facts import PageFacts, way_on_selectors
from .form_toggles import form_toggle
from .graph import CLICK_MARK, ExplorationGraph
from .grid_rows import selects_row
from .store import ExplorerStore
from .view_address import names_view
from .view_families import ViewFamilies
from .view_states import opened_view
from .views import NoLinksView, View

CLICK_FAILED = "click failed"
"""How an engine's `detail` begins for a click it could not do (`unclickable`)."""
REFUSED_CLICKS = (CLICK_FAILED, "gate refused")
"""How it begins for a click that could not be done or whose navigation the browser's gate refused (it
left the origin): the control in that place is refused alike on every page (`unclickable`)."""
CHAIN_BROKEN = "click chain broken"
"""How it begins when a click state's earlier clicks no longer reach the state it was made on: nothing
is learned of the control then (it was never tried)."""


def control_shape(route: str, page: str, selector: str | None = None) -> str:
    """The shape a lesson is kept under: `click <selector_shape>` for a click state,
    `get <URL shape>` for an address (a hash route's fragment shaped as a path of its own)."""
    if selector is not None:
        return "click " + selector_shape(selector)
    # Only plain words are data to mask: a number is `<n>` however the page's route carries it.
    words = {w for w in route_words(page) if segment_shape(w) == w}
    path, mark, fragment = route.partition("#")
    shaped = url_shape(path, words)
    if mark:
        shaped += "#" + url_shape(fragment, words) if fragment.startswith("/") else "#"
    return "get " + shaped


def numbered_widget(selector: str) -> bool:
    """A control anchored on a numbered id of its own (`#ext-gen44`, `#dijit_form_Button_3`): its shape
    is the bare `#<id>`, which every element a widget toolkit draws shares (its ids count what it
    drew; they name no record). A lesson of one such control is kept with what it says
    (`control_words`): the brand button that does nothing taught "same state" to the whole toolbar,
    and a corpus ExtJS app's walk ended `done` after 5 clicks with ten toolbar buttons unclicked. A
    row's own `#delete-12` "Delete" still teaches every row's, which says the same."""
    return selector_shape(selector) == "#<id>"


def placed_shape(selector: str) -> str:
    """The shape of a click control in its place: its selector with positions, record ids masked — but
    a numbered widget's own id (`numbered_widget`), which is its place: masked, `#<id>` was every
    control the toolkit drew, and the brand button's idle click in its place took the toolbar, the
    filter tree and the details tabs of a torrent client with it (the walk ended `done` with 30
    controls offered and unclicked)."""
    if numbered_widget(selector):
        return "click@ " + selector
    return "click@ " + selector_shape(selector, positions=True)


def lessons(
    store: ExplorerStore, target: str, position: str, result: FetchResult, facts: PageFacts | None,
    click: tuple[str, str] | None, *, found: bool = False, menu_words: dict[str, tuple[frozenset[str], str]] | None = None,
) -> tuple[tuple[str, str], ...]:  # fmt: skip
    """What the step to `target` from `position` taught about its control, as (shape, lesson) pairs:
    none when the control led somewhere (or the step says nothing: an error, a fragment, a failed
    load; a click in place that `found` a new bug led somewhere after all). A GET that changed state
    also teaches its counterparts the page after newly offers
    (`/unfollow` after `/follow`): flipping it back is the same control. `menu_words` (the session's,
    `SessionHints.menu_words`) keeps what each click shape showed in place with no link."""
    if click is not None and result.outcome == "blocked" and result.detail.startswith(REFUSED_CLICKS):
        # Twice, on two pages: one failure may be that page's (a button hidden for one record only).
        placed = placed_shape(click[1])
        again = any(
            s.route != target and s.outcome == "blocked" and s.detail in ("click_failed", "gate_refused")
            and (other := store.link_table.click_of(s.route)) is not None and placed_shape(other[1]) == placed
            for s in store.history.steps()
        )  # fmt: skip
        return ((placed, "unclickable"),) if again else ()
    if result.outcome != "page" or facts is None or facts.fragment:
        return ()
    final = result.final_route or result.route
    if click is not None:
        page, selector = click
        before = store.visits.page(page)
        new = _new_links(facts.links, store.link_table.of(page))
        if not found and final != target and _flipped_back(store, page, selector, final):
            return ((placed_shape(selector), "toggle"),)
        if found or final != target or before is None:
            return ()
        made = result.page.clicked_from if result.page is not None else None
        if made is not None and selector in way_on_selectors(made[0]) and (new or CLICK_MARK in page):
            # The list's next page (the same page reached another way shows the same rows: no menu),
            # or "›" past a list's last page, which says nothing of the other lists'.
            return ()
        if new:
            shape = control_shape(target, page, selector)
            if _shown_before(store, target, page, shape, new):
                return ((shape, "shown_before"),)
            return _form_lesson(store, target, page, selector, result)
        same = before.structure_hash is not None and before.structure_hash == facts.structure_hash
        shape = control_shape(target, page, selector)
        if (result.page is not None and result.page.refused_writes) or numbered_widget(selector):
            # It acted: its page is as it was because exploring refused its write. What it taught
            # holds for the controls of its shape that say the same (`control_words`): a row's
            # "Delete" says nothing of the vote links of a thread's rows, every entry's "Mark as read"
            # does what the first one did. So for a toolkit's numbered widget (`numbered_widget`).
            shape = said_shape(shape, store.link_table.words_of(target))
        if made is not None and result.page is not None:
            if enabled_by(made[0], result.page):
                return ()  # it enabled what the page showed disabled: a selection, no idle click
            if current_item(made[0], selector, made[1]) or selects_row(made[0], selector):
                # A menu's current item (its words head the view shown, a pager's page shown):
                # nothing of the items naming other views or pages (`current_item`); a grid's row, one
                # record selected: nothing of the other records' rows (`grid_rows.selects_row`).
                shape = placed_shape(selector)
            if same_document(made[0], result.page):
                return ((shape, "same_state"),)
            if selector in way_on_selectors(made[0]):
                return ()  # the list's next page: rows of its own in the same markup
            # Nothing to see that the page did not show (a sidebar folded away, a button whose write
            # was refused): learned for the control in its place only — "Follow" beside "Edit" in a
            # profile's toolbar is one shape without positions. Not from other pages' clicks of it:
            # your own profile holds "Edit" where the others hold "Follow".
            words = new_words(made[0], result.page)
            if not words:
                return ((placed_shape(selector), "same_state"),)
            if menu_words is not None and shows_new_controls(made[0], result.page):
                # New controls and no link (a language menu of script controls): a menu of the page's
                # chrome when the control in its place showed the very same words on another page (15
                # of 100 clicks of a Vue admin opened its language menu, on every page); a "more" or a
                # details toggle shows each page's own, and what a refused write shows (an alert, no
                # control) says nothing of the button another page holds in its place.
                placed = placed_shape(selector)
                first, there = menu_words.setdefault(placed, (words, page))
                if there != page and first == words:
                    return ((placed, "shown_before"),)
        # The same markup showing a heading the page did not (a tab's or a record's view drawn in the
        # template of the one before) is a view of its own: its siblings open theirs (`view_states`).
        viewed = result.page is not None and opened_view(result.page)
        if same and not viewed:
            return ((shape, "same_state"),)
        return _form_lesson(store, target, page, selector, result)
    shape = control_shape(target, position)
    why = _link_lesson(store, target, position, final, facts, shape)
    if why is None:
        return ()
    flips = [
        (control_shape(r, position), why)  # shaped as the page it flips: the page clicked on
        for r in _new_links(facts.links, store.link_table.of(final))
        if state_change(r) is not None
    ]
    return ((shape, why), *flips)


def _form_lesson(
    store: ExplorerStore, target: str, page: str, selector: str, result: FetchResult
) -> tuple[tuple[str, str], ...]:
    """A click in place that showed something on a form's own control that does not submit it
    (`form_toggles`): what it shows is walked from where it was clicked; the same control of the same
    form on another page (another record's editor) is learned, by its shape and what it says."""
    made = result.page.clicked_from if result.page is not None else None
    if made is None or result.page is None or result.page.refused_writes:
        return ()  # a refused write: it acted on the server
    words = store.link_table.words_of(target)
    if not words or not form_toggle(made[0], selector):
        return ()
    return ((said_shape(control_shape(target, page, selector), words), "form_field"),)


def _flipped_back(store: ExplorerStore, page: str, selector: str, final: str) -> bool:
    """Did the click of `selector` on `page` navigate to `final`, the very page on which the control in
    the same place was clicked to reach `page` (A → B → A): a script control that flips a view option
    between two states (a "group by" checkbox that sets `window.location` to the page's own URL with
    one query value flipped). Every page of every list then offers it again, each click leading to a
    view of that list reached already or reached by the next click back (36 of 100 clicks of an
    admin's lists). Stated on the two clicks only: a script pager's "›" on page 2 leads on to page 3,
    and "‹" stands at another place than "›" did."""
    placed = placed_shape(selector)
    made = {
        route
        for route, there, other in store.link_table.clicks()
        if there == final and placed_shape(other) == placed
    }
    return bool(made) and any(
        s.route in made and s.outcome == "page" and s.final_route == page for s in store.history.steps()
    )


def _shown_before(store: ExplorerStore, target: str, page: str, shape: str, new: list[str]) -> bool:
    """Did a click of the same shape on another page show exactly the links `new` (a menu whose
    items are the same wherever it is opened; a list's "more" shows each page's own items). A page
    does not link to itself, so the two pages are left out of both sides."""
    for route, there, selector in store.link_table.clicks():
        if route == target or there == page or control_shape(route, there, selector) != shape:
            continue
        after = store.link_table.of(route)
        shown = set(_new_links(after, store.link_table.of(there))) - {page, there}
        if shown and shown == set(new) - {page, there}:
            return True
    return False


def _link_lesson(
    store: ExplorerStore, target: str, position: str, final: str, facts: PageFacts, shape: str
) -> str | None:
    if final == position != target:
        # A link to the view shown (the current item of a sidebar, a route the app completes) is
        # no toggle: its shape is the other views' links too (`view_address`).
        return None if names_view(target, final) else "round_trip"
    here = store.visits.structure_hash_of(position)
    there = urlsplit(target)
    # The page after is the page clicked on, re-rendered: its structure, at another address.
    again = here is not None and here == facts.structure_hash
    if again and there.query and there.path == urlsplit(position).path and target not in facts.links:
        new = _new_links(facts.links, store.link_table.of(position))
        if new and all(control_shape(r, position) == shape for r in new):
            return "toggle"
    if again and state_change(target) is not None:
        return "state_change"
    return None


def same_document(before: FetchedPage, after: FetchedPage) -> bool:
    """The same elements in the same order with the same text: what a click changed, if anything, is
    attribute values (a class that opens a menu or shows a collapsed panel, `aria-expanded`)."""
    if before.document.text() != after.document.text():
        return False
    return [n.tag for n in before.document.iter()] == [n.tag for n in after.document.iter()]


def shows_new_controls(before: FetchedPage, after: FetchedPage) -> bool:
    """Whether `after` holds a control to click (`actions.page_clicks`) at a place `before` had none."""
    had = page_clicks(before)
    places = {had.selectors.of(n) for n in had.clickables}
    now = page_clicks(after)
    return any(now.selectors.of(n) not in places for n in now.clickables)


def new_words(before: FetchedPage, after: FetchedPage) -> frozenset[str]:
    """The words `after` shows that `before` did not."""
    return frozenset(after.visible_text.split()) - frozenset(before.visible_text.split())


def _new_links(links: Iterable[str], before: Iterable[str]) -> list[str]:
    had = set(before)
    return [r for r in links if r not in had and CLICK_MARK not in r]


def view_families(graph: ExplorationGraph) -> ViewFamilies:
    """The views of each page the walk's clicks reached (`view_families`), from the steps written
    since the graph last looked (`ViewIndex`)."""
    index, store = graph.view_index, graph.store
    if store.history.step_count() > index.read_to:
        moves = store.history.moves_after(index.read_to)
        index.add(
            ((route, final, outcome) for _, route, final, outcome in moves),
            store.link_table.click_of,
            placed_shape,
        )
        index.read_to = moves[-1][0] if moves else index.read_to
    return index.families


ANCHORS_LEARNED = 2
"""Sections whose control of one tail taught `same_state` before every section's is taken as idle."""


def _tail(shape: str) -> str | None:
    """A click shape's path below its anchor id (`click #key-functions > div > div > span` →
    `div > div > span`), or None for a shape with no anchor or nothing below it."""
    if not shape.startswith("click #"):
        return None
    anchor, sep, tail = shape[len("click ") :].partition(" > ")
    return tail if sep and " " not in anchor else None


def anchored_tails(table: Mapping[str, str]) -> dict[str, set[str]]:
    """Tail → the anchors under which a control of that tail was learned `same_state`. A selector is
    anchored on its nearest ancestor with an id, and a documentation page's sections each carry one
    (`#key-functions`, `#sorting-basics`): the copy button a template draws on every code block is a
    shape of its own in every section, and each taught its lesson alone — 24 of 60 browser clicks on a
    Sphinx site. Learned under `ANCHORS_LEARNED` anchors, a tail's lesson holds under every anchor."""
    tails: dict[str, set[str]] = {}
    for shape, why in table.items():
        if why != "same_state":
            continue
        tail = _tail(shape)
        if tail is not None:
            tails.setdefault(tail, set()).add(shape.partition(" > ")[0])
    return tails


def idle_test(
    table: Mapping[str, str],
    click_of: Callable[[str], tuple[str, str] | None],
    words_of: Callable[[str], str] = lambda route: "",
    families: ViewFamilies | None = None,
) -> Callable[[str, str], bool]:
    """`is_idle(route, page)`: does the control leading to `route` from `page` have a learned shape
    (for a refused write's lesson, its shape and what it says: `words_of` a click state's route), or
    was it clicked in its place on another view of its page (`view_families`)."""
    said = said_shapes(list(table))
    anchored = anchored_tails(table)

    def is_idle(route: str, page: str) -> bool:
        click = click_of(route) if CLICK_MARK in route else None
        if click is not None and families is not None and families.tried_elsewhere(*click, placed_shape):
            return True
        if not table:
            return False
        if click is None:
            return control_shape(route, page) in table
        shape = control_shape(route, *click)
        if shape in table or placed_shape(click[1]) in table:
            return True
        if anchored and len(anchored.get(_tail(shape) or "", ())) >= ANCHORS_LEARNED:
            return True
        return shape in said and said_shape(shape, words_of(route)) in table

    return is_idle


def scrub(view: View, is_idle: Callable[[str, str], bool]) -> None:
    """Take controls learned to lead nowhere new out of the policy's view, so no policy plans a trip
    to one. Links are replaced in place (`Memory.replace`), not written: a write would count as a use
    for eviction."""
    mem = view.inner if isinstance(view, NoLinksView) else view
    if isinstance(mem, NoMemory):
        return
    for node, links in list(mem.items()):
        kept = tuple(r for r in links if not is_idle(r, node))
        if len(kept) != len(links):
            mem.replace(node, kept)
