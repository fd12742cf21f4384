"""What a tester can do on a page: its same-origin actions, found in one walk of its tree.

`page_actions(page)` walks the document once and gives the actions (links, HTMX and `data-href`
targets, `onclick` navigations to a literal address, GET forms with generated values), how many
elements lead to each target and where in the items of a list each link sits. The walk is kept with
the page (`FetchedPage.derived`): the engine, the session and the oracles each ask, and the page is
walked once. What only an engine that clicks uses — each action's CSS selector, the elements a
browser could click — is `page_clicks(page)`, made when that engine first asks.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import islice
from typing import Literal, NamedTuple
from urllib.parse import quote, unquote, urlencode, urlsplit, urlunsplit

from bughunt.disabled_widgets import widget_disabled
from bughunt.disclosures import closed_disclosure, nested_control, tree_leaf
from bughunt.dom import FORM_CONTROLS, Node, Selectors, selected_option
from bughunt.focus_controls import acts_on_click, focus_control
from bughunt.form_owner import script_send_button, submit_buttons
from bughunt.item_places import ItemPlaces
from bughunt.list_words import search_word
from bughunt.log_out import says_log_out
from bughunt.page import FetchedPage, base_url
from bughunt.record_repr import field_repr
from bughunt.tree_facts import tree_facts
from bughunt.urls import absolute, hash_route, same_origin
from memgpt_lite.log import logger

TEXT_INPUTS = frozenset({"", "text", "email", "url", "search", "tel", "number", "date", "datetime-local"})
"""Input types a person types a value into."""


def is_text_box(node: Node) -> bool:
    """A box a person types into: a text area, or an input of a `TEXT_INPUTS` type."""
    return node.tag == "textarea" or (node.tag == "input" and node.get("type").lower() in TEXT_INPUTS)


def scripted_form(form: Node) -> bool:
    """A form a script sends, not the browser: no method and no action (a single-page app posts it
    through its API and prevents the browser's own submit), with a submit button and more than one
    text field (or a plain button sending it: `script_send_button`) — a search box is one field, and
    a GET search names its action. Submitting it as a GET of the page's URL leaves the app."""
    if "method" in form.attrs or "action" in form.attrs or form.get("role") == "search":
        return False
    texts = [
        n for n in form.iter()
        if n.tag == "textarea" or (n.tag == "input" and n.get("type").lower() in TEXT_INPUTS - {"search"})
    ]  # fmt: skip
    return len(texts) > 1 and bool(submit_buttons(form) or script_send_button(form))


@dataclass(repr=False, frozen=True, slots=True, eq=False)
class Action:
    """Something a tester can do on a page: follow a link, trigger an HTMX/`data-href`/`onclick`
    navigation, or submit a GET form with generated values.

    `target` is absolute (for a form, its query already holds the generated values); `label` is the
    page's own text, untrusted (display and the llm's untrusted block only); `selector` locates the
    element for a browser click (set by `page_clicks`; empty in `page_actions`, whose engine loads).
    `after` are the selectors of the clicks made first, in order, on the loaded target: a click on a
    state that clicks reached (the third page of a list paged by a script's "›").
    """

    __repr__ = field_repr

    kind: Literal["link", "hx", "form", "click"]
    target: str
    label: str = ""
    selector: str = ""
    after: tuple[str, ...] = ()


# `location.href = '/x'`, `window.location='/x'`, `location.assign("/x")`, `document.location.replace('/x')`:
# only a plain string literal is a known target; anything computed needs a browser.
_ONCLICK_NAV = re.compile(
    r"""^\s*(?:(?:window|document|top|self)\.)?location(?:\.href)?\s*=\s*(["'])([^"'\\]*)\1\s*;?\s*(?:return\s+false\s*;?\s*)?$"""
    r"""|^\s*(?:(?:window|document|top|self)\.)?location\.(?:assign|replace)\(\s*(["'])([^"'\\]*)\3\s*\)\s*;?\s*(?:return\s+false\s*;?\s*)?$"""
)
SAMPLE_WORD = "test"
"""What a generated text value is: one plain, deterministic word (the same query every time)."""
_SAMPLE_BY_TYPE = {
    "email": "test@example.com",
    "number": "1",
    "range": "1",
    "url": "http://example.com/",
    "tel": "5550100",
    "date": "2024-01-01",
    "month": "2024-01",
    "week": "2024-W01",
    "time": "12:00",
    "datetime-local": "2024-01-01T12:00",
    "color": "#000000",
}
_NO_VALUE_TYPES = frozenset(("submit", "button", "reset", "image", "file", "password"))
MAX_LABEL = 120
_SCRIPT_METHODS = ("data-method", "data-turbo-method")
"""Attributes by which a framework's script sends a link as another request (Rails UJS, Turbo)."""


def followed(node: Node) -> bool:
    """Whether a `<a>`/`<area>` with an `href` is a way to a page: not a download, and not a link a
    script sends as a write (`data-method="delete"`: a GET of its address is not what it does).
    `rel=nofollow` asks search engines not to rank the target; people click such links (a wiki marks
    its Recent Changes, Old revisions and Media Manager so), and so does the explorer."""
    attrs = node.attrs
    if "download" in attrs:
        return False
    for attr in _SCRIPT_METHODS:  # a loop, not `all(...)`: asked of every link of every page
        method = attrs.get(attr)
        if method is not None and method.strip().lower() not in ("", "get"):
            return False
    return True


UNTYPED_INPUTS = frozenset(("hidden", "submit", "button", "image", "reset"))
"""Input types a person types nothing into: hidden values and buttons (the oracles' forms read them too)."""


def button_only(form: Node) -> bool:
    """Whether a GET form has nothing to fill: hidden values and a button (a wiki's "Older revisions"
    button, a framework's `button_to`). Its submission is a fixed address, a link drawn as a button,
    not a probe with made-up values."""
    return all(
        n.tag == "button" or (n.tag == "input" and n.get("type", "text").strip().lower() in UNTYPED_INPUTS)
        for n in form.iter()
        if n.tag in FORM_CONTROLS
    )


MAX_ACTIONS = 5_000
"""Actions (distinct targets) kept per page, in document order: the rest of a page of 100,000 links
is not followed from it, nor placed (links to kept targets are still counted wherever they are)."""
MAX_CLICKABLES = 5_000
"""Clickable elements kept per page for the browser engine (which clicks a few of them)."""


def _label(node: Node) -> str:
    text = node.text() or node.get("aria-label") or node.get("title") or node.get("value")
    return text[:MAX_LABEL]


def form_submission(form: Node, action_url: str, word: str = SAMPLE_WORD) -> str:
    """The URL a GET `form` submits to with generated values: hidden and preset values as they are,
    a sample word for empty text fields, the selected (else first) option of a select, checked boxes.
    A search form with filters beside its search box (dates, amounts, a second box) is sent as a
    person searches: the first empty search box (`_search_box`) gets the sample word and the other
    empty fields that are not required stay empty — every filter filled at once (a date range of one
    day, "test" as a minimum amount) matches nothing, or is refused, and no list of results is seen.
    `word` fills plain text and search boxes (`list_words`: a value the page's list shows)."""
    pairs: list[tuple[str, str]] = []
    radios: set[str] = set()
    box = _search_box(form)
    for field_node in form.iter():
        name = field_node.get("name")
        if not name or "disabled" in field_node.attrs or field_node is form:
            continue
        if field_node.tag == "input":
            kind = field_node.get("type", "text").lower()
            if kind in _NO_VALUE_TYPES:
                continue
            if kind in ("checkbox", "radio"):
                if "checked" in field_node.attrs and name not in radios:
                    pairs.append((name, field_node.get("value", "on")))
                    if kind == "radio":
                        radios.add(name)
                continue
            value = field_node.get("value") if "value" in field_node.attrs else ""
            if not value and box is not None and field_node is not box and "required" not in field_node.attrs:
                pairs.append((name, ""))  # a filter beside the search box, left as it is
                continue
            typed = word if kind in ("", "text", "search") else SAMPLE_WORD
            pairs.append((name, value or _SAMPLE_BY_TYPE.get(kind, "" if kind == "hidden" else typed)))
        elif field_node.tag == "select":
            chosen = selected_option(field_node)
            if chosen is not None:
                pairs.append((name, chosen))
        elif field_node.tag == "textarea":
            pairs.append((name, field_node.text() or SAMPLE_WORD))
    parts = urlsplit(action_url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", urlencode(pairs), ""))


def _search_box(form: Node) -> Node | None:
    """The box a person types a search into, when the form has other fields to leave empty: its first
    enabled plain text or search input — empty, or holding the search the results page shows again
    (`?search=test` redrawn with `value="test"`: the next empty box is a filter, not the search) —
    in a form with at least one more input a person would type into. None for a form of one box
    (sent as before) or with no such box (every field of a filter form of dates and amounts is
    filled, as before)."""
    typed = [
        n
        for n in form.iter()
        if n.tag == "input"
        and n.get("name")
        and "disabled" not in n.attrs
        and n.get("type", "text").lower() in TEXT_INPUTS
    ]
    boxes = [n for n in typed if n.get("type", "text").lower() in ("", "text", "search")]
    return boxes[0] if boxes and len(typed) > 1 else None


class PageActions(NamedTuple):
    """What one walk of a page finds (`page_actions`). Read-only: the page keeps it for every caller."""

    actions: tuple[Action, ...]
    """`extract_actions`: one per target, in document order (no selectors: see `page_clicks`)."""
    elements: tuple[Node, ...]
    """The element each action was found on (`actions[i]` on `elements[i]`)."""
    counts: Mapping[str, int]
    """`action_counts`: how many elements lead to each target."""
    places: Mapping[str, str]
    """`item_places`: target URL → where in the items of a list a link to it sits."""


class PageClicks(NamedTuple):
    """What an engine that clicks needs of a page beyond its actions (`page_clicks`): an engine that
    only loads addresses never asks, so no page pays for it there."""

    actions: tuple[Action, ...]
    """`page_actions(page).actions`, each with the CSS selector of its element."""
    clickables: tuple[Node, ...]
    """Elements a person could click to make the page act (`clickable`), in document order: what a
    browser engine may click where no action already leads."""
    selectors: Selectors
    """The CSS selector of any element of this page (`selectors.of(node)`), each parent's children
    counted once for the whole page."""


def page_actions(page: FetchedPage) -> PageActions:
    """Actions, per-target counts and item places of `page`, from one walk of its tree, made once per
    page."""
    return page.derived(_walk)


def page_clicks(page: FetchedPage) -> PageClicks:
    """The actions of `page` with their selectors and its clickable elements, made once per page."""
    return page.derived(_clicks)


def _clicks(page: FetchedPage) -> PageClicks:
    walked = page_actions(page)
    selectors = Selectors()
    located = tuple(
        replace(action, selector=selectors.of(node))
        for action, node in zip(walked.actions, walked.elements, strict=True)
    )
    if not page.is_html:
        return PageClicks(located, (), selectors)
    # an element without attributes acts only as a button or a closed `<details>`' summary (`clickable`)
    candidates = (
        n
        for n in page.document.iter()
        if (n.attrs or n.tag in ("button", "summary")) and n.tag not in ("script", "style") and clickable(n)
    )
    return PageClicks(located, tuple(islice(candidates, MAX_CLICKABLES)), selectors)


def extract_actions(page: FetchedPage) -> list[Action]:
    """Every same-origin action of `page` a script-free client can see, in document order, one per target.

    Links (`<a>`/`<area>` with `href`, minus downloads and script-sent writes: `followed`), `hx-get` (HTMX, also on
    buttons), `data-href`, `onclick` navigations to a literal address, and GET forms submitted with
    generated values (`form_submission`). POST forms are never actions: submitting one changes data.
    `hx-boost` makes links and forms AJAX requests to the same targets, so they are found as such.
    At most `MAX_ACTIONS`, the first in document order.
    """
    return list(page_actions(page).actions)  # a copy: the caller may change it, the page keeps its own


def action_counts(page: FetchedPage) -> Counter[str]:
    """How many elements of `page` lead to each target of `extract_actions(page)` (a busy author's
    profile is linked from every one of their previews; a tag used by many articles from each)."""
    return Counter(page_actions(page).counts)


def item_places(page: FetchedPage) -> dict[str, str]:
    """Target URL → where on `page` a link to it sits, for links inside an *item* of a list: an element
    repeated beside siblings of its own tag and classes that holds more than the link (a preview with
    a title, an author and a date; not a bare `<li><a>` of a tab bar). Links of one place, one per
    item, lead to instances of one page type (every preview's author link). Links in navigation
    chrome (nav, header, footer, menus, tab lists) have no place. Every `<a href>` counts, followed
    or not (`followed`): the markup, not the link, makes the place."""
    return dict(page_actions(page).places)


def action_targets(page: FetchedPage) -> list[str]:
    """The targets of `extract_actions(page)`: what the explorer may open from this page."""
    return [a.target for a in page_actions(page).actions]


def _walk(page: FetchedPage) -> PageActions:
    counts: Counter[str] = Counter()
    places: dict[str, str] = {}
    if not page.is_html:
        return PageActions((), (), counts, places)
    base = base_url(page)
    actions: list[Action] = []
    elements: list[Node] = []
    items = ItemPlaces()
    # On a hash-routed app (`/#/forms/x/`) a form without method or action is its script's: the
    # browser's own submit would GET the document's URL without its route (`/?date=…`), leaving the app.
    routed = hash_route(urlsplit(page.url).fragment)

    def add(kind: Literal["link", "hx", "form", "click"], href: str | None, node: Node) -> None:
        url = absolute(base, href) if href is not None else None
        if url and same_origin(url, page.url):
            if url in counts:
                counts[url] += 1
            elif len(actions) < MAX_ACTIONS:  # past the cap only the kept targets are counted
                label = _label(node)
                if says_log_out(label):
                    return  # it ends the session whatever its address (`log_out`)
                counts[url] = 1
                actions.append(Action(kind, url, label))
                elements.append(node)

    # Most elements carry no attribute at all: such an element leads nowhere, unless a form (a form
    # without one is rare: then every element is walked, as before).
    facts = tree_facts(page)
    bare_form = any(not form.attrs for form in facts.by_tag.get("form", ()))
    for node in page.document.iter() if bare_form else facts.attributed:
        tag, attrs = node.tag, node.attrs
        if not attrs and tag != "form":
            continue
        if tag in ("a", "area") and "href" in attrs:
            href = node.get("href")
            if tag == "a" and len(actions) < MAX_ACTIONS:
                # The first place found for a target is its place (absolute() is cached: `add` below
                # resolves the same pair again for free).
                url = absolute(base, href)
                if url and url not in places and same_origin(url, page.url):
                    place = items.place(node)
                    if place is not None:
                        places[url] = place
            if not followed(node):
                continue
            add("link", href, node)
        elif tag == "form":
            method = node.get("method", "get").strip().lower() or "get"
            if node.get("hx-get") or (
                method == "get"
                and not any(node.get(f"hx-{verb}") for verb in ("post", "put", "patch", "delete"))
                and not scripted_form(node)
                and not (routed and "action" not in node.attrs and "method" not in node.attrs)
            ):
                target = absolute(base, node.get("hx-get") or node.get("action") or page.url)
                if target:
                    fixed = button_only(node)
                    # the list's word for the form filtering this page's list (its path), not a sidebar's
                    own = not fixed and urlsplit(target).path == urlsplit(page.url).path
                    word = (search_word(page) if own else None) or SAMPLE_WORD
                    add("link" if fixed else "form", form_submission(node, target, word), node)
            continue
        if attrs.get("hx-get"):
            add("hx", _hx_get(node), node)
        if HIDDEN_MARK in attrs:
            continue  # not shown (a closed `<details>`' button, a folded menu's): its click fails in a browser
        if attrs.get("data-href"):
            add("click", attrs["data-href"], node)
        match = _ONCLICK_NAV.match(attrs["onclick"]) if attrs.get("onclick") else None
        if match:
            add("click", match.group(2) if match.group(2) is not None else match.group(4), node)
    if len(actions) >= MAX_ACTIONS:
        logger.info("page {} has more than {} actions: the rest are not followed", page.route, MAX_ACTIONS)
    return PageActions(tuple(actions), tuple(elements), counts, places)


def _hx_get(node: Node) -> str | None:
    """The address an `hx-get` element requests, as htmx builds it: a named field sends its own value
    (`<input name="email" hx-get="/check">` asks `/check?email=…`; without it a validation endpoint
    reads a missing value and may store it), and `hx-vals` (a JSON object) fills the path's `{name}`
    placeholders (the path-params extension) and adds the rest as parameters. None when a
    placeholder stays unfilled: `/link/edit/{id}` is a template, not an address."""
    href = node.get("hx-get")
    pairs: list[tuple[str, str]] = []
    name = node.get("name")
    if node.tag in ("input", "select", "textarea") and name and "disabled" not in node.attrs:
        if node.tag == "select":
            pairs.append((name, selected_option(node) or ""))
        else:
            pairs.append((name, node.raw_text() if node.tag == "textarea" else node.get("value")))
    for key, value in _hx_vals(node.get("hx-vals") or node.get("data-hx-vals")).items():
        if "{" + key + "}" in href:
            href = href.replace("{" + key + "}", quote(value, safe=""))
        else:
            pairs.append((key, value))
    if _PLACEHOLDER.search(href):
        return None
    if not pairs:
        return href
    path, _, fragment = href.partition("#")
    joined = path + ("&" if "?" in path else "?") + urlencode(pairs)
    return joined + ("#" + fragment if fragment else "")


_PLACEHOLDER = re.compile(r"\{[^{}/?&]*\}|%7B[^/?&]*?%7D", re.I)


def _hx_vals(text: str) -> dict[str, str]:
    """`hx-vals` as plain values: a JSON object of strings and numbers; an expression (`js:…`) or
    anything else, nothing."""
    text = text.strip()
    if not text.startswith("{"):
        return {}
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        str(k): str(v)
        for k, v in data.items()
        if isinstance(v, str | int | float) and not isinstance(v, bool)
    }


HIDDEN_MARK = "data-bughunt-hidden"
"""The attribute the browser engine's read gives a control nobody can click when the page is read (no
box, or `visibility: hidden`: a closed modal's buttons, the items of a folded menu;
`bughunt.explorer.page_scripts.READ`)."""


def clickable(node: Node) -> bool:
    """Does clicking `node` make the page act, in a browser: a script handler, an HTMX or router
    attribute, a button role, `href="javascript:"`/`"#"` (a pager or tab, not a link), or a button
    outside any form — unless it is hidden or disabled."""
    if HIDDEN_MARK in node.attrs:
        # Not shown when the page was read: its click fails before it is made (23 of 100 clicks on a
        # Vue admin went to a closed modal's and a folded menu's controls).
        return False
    return not disabled(node) and acts(node)


def disabled(node: Node) -> bool:
    """Is `node` shown disabled: the attribute, `aria-disabled`, or a class on it or on the widget drawn
    around it (`disabled_widgets`; `li.disabled > a`)."""
    attrs = node.attrs
    if "disabled" in attrs or attrs.get("aria-disabled") == "true":
        return True  # nobody can click it (a pager's "Previous" on its first page)
    # Styled as disabled (`a.disabled`, `li.disabled > a`, a toolkit's `x-item-disabled` widget): a link
    # has no `disabled` attribute, so pagers and tab strips mark it with a class; its click does
    # nothing, and learning so (`idle_controls`) would teach that its shape — the same selector as
    # the enabled "Next" beside it — leads nowhere.
    return (
        node.parent is not None and node.parent.tag == "li" and "disabled" in node.parent.classes
    ) or widget_disabled(node)


def acts(node: Node) -> bool:
    """Does clicking `node` make the page act, were it shown and enabled (`clickable`)."""
    attrs = node.attrs
    if node.tag == "a" and "href" in attrs:
        href = attrs["href"].strip()
        if href.lower().startswith("javascript:") or href == "#":
            return True
        # A fragment that names no element of the page is no place to scroll to: a script takes the
        # click (a wiki's `#Some%20Title` opens that page into the story; a tab's `#settings`), as a
        # listener on the link says too. A hash route (`#/…`) is a page, followed as a link.
        fragment = href[1:]
        if href.startswith("#") and not hash_route(fragment):
            return acts_on_click(node) or unquote(fragment) not in anchor_names(_root(node))
        return False
    if any(
        k in attrs
        for k in ("onclick", "hx-get", "ng-click", "v-on:click", "@click", "routerlink", "data-href")
    ):
        return True
    if nested_control(node):
        return True  # a listener of its own inside a link: a group's expander, a card's star (`disclosures`)
    if inside_link(node):
        # `<a href="#/add-users"><button>Add users</button></a>`: the click follows the link around
        # it, which the walk already takes as a link — clicking the button too reached the same page
        # twice (8 of 27 repeat clicks of a React admin at 100 clicks, corpus ho9_jupyterhub).
        return False
    if attrs.get("role") in ("button", "link", "tab", "menuitem"):
        return True  # an item of a script's menu (a row's Edit, Delete) acts like a button
    if closed_disclosure(node) or tree_leaf(node):
        return True  # it opens a folded group (a tree item, a closed `<details>`) or a tree's leaf (`disclosures`)
    if focus_control(node) or acts_on_click(node):
        return True  # made a control by script: focusable, a listener, a pointer cursor (`focus_controls`)
    kind = attrs.get("type", "").lower()
    if node.tag == "button" and kind != "submit":
        # Without a type, a button in a form submits it (POST forms are never actions).
        return kind == "button" or not any(a.tag == "form" for a in node.ancestors())
    return False


def _root(node: Node) -> Node:
    top = node
    while top.parent is not None:
        top = top.parent
    return top


@lru_cache(maxsize=8)
def anchor_names(root: Node) -> frozenset[str]:
    """The ids and anchor names of a parsed page: what an in-page fragment link scrolls to. Cached
    per document (nodes hash by identity), since a page's links ask it one by one."""
    return frozenset(v for n in root.iter() for k in ("id", "name") if (v := n.attrs.get(k)))


def inside_link(node: Node) -> bool:
    """Is `node` inside a link to an address (not `#` nor `javascript:`): a control whose click is that
    link's navigation."""
    for a in node.ancestors():
        if a.tag == "a" and "href" in a.attrs:
            href = a.attrs["href"].strip().lower()
            return bool(href) and href != "#" and not href.startswith("javascript:")
    return False


def extract_links(page: FetchedPage, include_forms: bool = False) -> list[str]:
    """Absolute same-origin URLs of the page's `<a href>` links, in document order, without repeats.

    With `include_forms`, the actions of GET forms are included where they appear. Downloads and
    links a script sends as writes are skipped (`followed`); a non-HTML page has no links.
    """
    if not page.is_html:
        return []
    base = base_url(page)
    seen: set[str] = set()
    links: list[str] = []
    for node in page.document.iter():
        if node.tag == "a" and "href" in node.attrs:
            if not followed(node):
                continue
            url = absolute(base, node.get("href"))
        elif include_forms and node.tag == "form" and node.get("method", "get").lower() == "get":
            url = absolute(base, node.get("action") or page.url)
        else:
            continue
        if url and same_origin(url, page.url) and url not in seen:
            seen.add(url)
            links.append(url)
    return links
