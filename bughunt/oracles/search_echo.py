"""A search form whose results page draws its box empty: the words searched for are dropped.

A GET form that sends a person's words (a search box, a filter box) answers with a page at its own
address whose query carries those words; when that page draws the same form again, its box shows
what was searched for, so the person can read and refine it — the template writes the box's `value`
from the request. A results page that writes a `value` into the box, and writes it empty while the
address it answers asks for words under the box's name, dropped the query: the template reads the
value from something the handler no longer sets (a renamed template variable, a form bound to the
wrong arguments).

The page must be that form's answer: every key of its query is one of the form's fields, and the form
sends to the page's own path. The box must be a text box (`TEXT_INPUTS`, a `textarea`) whose markup
holds a `value` attribute: a box written without one never echoes (a header's quick-search box that
clears by design), and is left alone. No other text box of the page may hold the words (a results
page with a second, larger box). Words are what a person types: letters, not a number alone (a page
size, an identifier in a hidden field's place).

Stated on forms, fields and URLs only: every family whose search pages are rendered from the request
(server templates of any language, hgweb's and trac's search boxes, admin lists' filters), and
single-page apps that draw their box from the address on a fresh load. A page that says in words it
needs scripts (`needs_scripts`) is left alone: its box is a script's to fill.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from bughunt.actions import is_text_box
from bughunt.dom import Node
from bughunt.oracles.base import Finding, evidence, page_shape
from bughunt.oracles.filter_rows import box_value, dropped_filter, sends_here
from bughunt.page import FetchedPage
from bughunt.sim.route_keys import query_pairs
from bughunt.tree_facts import tree_facts

MESSAGE = "a search form's results page draws its box without the words searched for"
_WORDS = re.compile(r"[^\W\d_]", re.UNICODE)
"""A letter: the value is words a person typed, not a number alone."""


def _boxes(form: Node) -> dict[str, Node]:
    """The form's text boxes by name."""
    out: dict[str, Node] = {}
    for node in form.iter():
        name = node.get("name")
        if not name or "disabled" in node.attrs:
            continue
        if is_text_box(node):
            out.setdefault(name, node)
    return out


def _names(form: Node) -> set[str]:
    return {
        n.get("name")
        for n in form.iter()
        if n.get("name") and n.tag in ("input", "select", "textarea", "button")
    }


def needs_scripts(page: FetchedPage) -> bool:
    """The page says in words that it needs scripts (a `<noscript>` with text: "Please activate
    JavaScript to enable the search"): its results — and the box's words — are a script's to draw
    (Sphinx's search page sets the box's value from the address), so the markup's empty `value` says
    nothing. A `<noscript>` holding only a tracking pixel or frame says nothing of the page."""
    return any(n.text().strip() for n in tree_facts(page).tagged("noscript"))


def check_search_echo(page: FetchedPage) -> list[Finding]:
    """One finding when the page answers a search form's words and draws that form's box empty (see the
    module), or draws an applied filter's row without its value (`filter_rows`); the box's name is
    evidence, the words are not repeated."""
    if not page.is_html or page.status >= 400 or page.method != "GET" or needs_scripts(page):
        return []
    return _echo(page) or _filter_row(page)


def _echo(page: FetchedPage) -> list[Finding]:
    asked = query_pairs(urlsplit(page.url).query, decoded=True)
    words = {k: v for k, v in asked if v.strip() and _WORDS.search(v)}
    if not words:
        return []
    forms = [f for f in tree_facts(page).tagged("form") if sends_here(f, page)]
    shown = {
        (box_value(box) or "").strip()
        for form in tree_facts(page).tagged("form")
        for box in _boxes(form).values()
    }
    for form in forms:
        if not {k for k, _ in asked} <= _names(form):
            continue  # the page is not this form's answer
        boxes = _boxes(form)
        dropped = sorted(
            name
            for name, value in words.items()
            if name in boxes and box_value(boxes[name]) == "" and value.strip() not in shown
        )
        if dropped:
            return [
                Finding(
                    "form_drops_value",
                    page.route,
                    MESSAGE,
                    evidence(page, f'name="{dropped[0]}"', field=dropped[0]),
                    shape=page_shape(page),
                )
            ]
    return []


FILTER_MESSAGE = "a filter row draws its value box empty though the page is filtered by its column"


def _filter_row(page: FetchedPage) -> list[Finding]:
    """The page's filter form drawing an applied filter's row without its value (`filter_rows`)."""
    found = dropped_filter(page)
    if found is None:
        return []
    box, column = found
    name = box.get("name")
    return [
        Finding(
            "form_drops_value",
            page.route,
            FILTER_MESSAGE,
            evidence(page, f'name="{name}"' if name else column, field=name or column, column=column),
            shape=page_shape(page),
        )
    ]
