"""Values an edit form dropped that no label names, and values it replaced (the form oracle, `forms`).

A filled field holding a neighbour's value where the page shows one of its own (`replaced_values`), an
empty field's value located by its filled neighbours (`dropped_by_position`, see `form_positions`), and
an empty title field shown only as the page's main heading (`dropped_title`).
"""

from __future__ import annotations

import re

from bughunt.dom import Node
from bughunt.oracles.base import (
    Fetch,
    OracleConfig,
)
from bughunt.oracles.form_fields import filled_text, word_set
from bughunt.oracles.form_pages import sibling_instance
from bughunt.oracles.form_positions import blocks, normalised, page_texts, unlabelled_values
from bughunt.oracles.form_values import banner, headed_row, in_furniture, shown_value, stored
from bughunt.page import FetchedPage, base_url
from bughunt.tree_facts import tree_facts


def replaced_values(
    fields: list[tuple[Node, str, str, set[str], bool]], scope: Node, *, record_item: bool = False
) -> list[tuple[str, str]]:
    """Filled fields holding another field's value where the resource shows a value of their own: the
    form replaced the stored value with its neighbour's (a copy-paste in the code that fills it) —
    the neighbour's own value shown as the resource shows it, so the two are told apart there."""
    filled = filled_text(fields)
    if len(filled) < 2:
        return []
    shown = {name: shown_value(scope, keys, record_item=record_item) for name, _v, keys in filled}
    out = []
    for name, value, _keys in filled:
        mine = shown[name]
        if not stored(mine) or normalised(mine) == normalised(value):
            continue
        donors = [
            other for other, v, _k in filled
            if other != name and normalised(v) == normalised(value) and normalised(shown[other]) == normalised(v)
        ]  # fmt: skip
        if donors:
            out.append((name, mine))
    return out


def dropped_by_position(
    page: FetchedPage,
    fields: list[tuple[Node, str, str, set[str], bool]],
    resource: FetchedPage,
    scope: Node,
    found: set[str],
    fetch: Fetch,
    config: OracleConfig,
    previewed: str | None = None,
) -> list[tuple[str, str]]:
    """Empty visible text fields whose stored value the resource shows unlabelled, located by the
    filled fields around them (`form_positions`); text another instance of the resource's template
    shows too is the template's, not a value. A row of a table with column headings is read by them,
    never by position: a list's columns keep the list's order (ID, Activity, Title), not the form's
    (a layout table's one row, a profile beside its picture, has no headings)."""
    if headed_row(scope):
        return []
    # Only what a person typed locates a field: a select's value is its option's code ("resolved",
    # "3") and a hidden input's a token or the record's number, not what a page shows of the record
    # (a reply form's hidden id and proposed status were matched to a ticket's heading and menu).
    pairs = [(name, value if vis and node.tag != "select" else "") for node, name, value, _k, vis in fields]
    # a record's preview: its link to the record's page (`previewed`) holds the record's own words
    shown = blocks(scope, base_url(resource), previewed or resource.url)
    furniture: set[str] | None = None
    template_texts: set[str] | None = None
    out = []
    for i, (node, name, value, _keys, visible) in enumerate(fields):
        if value or not visible or name in found or node.tag not in ("input", "textarea"):
            continue
        if furniture is None:
            furniture = page_texts(page.document, base_url(page), page.url)
            if previewed:
                furniture |= _sibling_texts(scope, resource, previewed)
        texts = unlabelled_values(pairs, i, shown, furniture, preview=previewed is not None)
        if texts and template_texts is None:
            sibling = sibling_instance(resource, fetch, config)
            template_texts = (
                page_texts(sibling.document, base_url(sibling), sibling.url) if sibling else set()
            )
        text = next((t for t in texts if normalised(t) not in (template_texts or set())), "")
        if text and node.get("type").lower() == "url" and not _ADDRESS.search(text):
            continue  # an address field's value reads as an address: words beside it are another field's
        if text:
            out.append((name, text))
    return out


def _sibling_texts(item: Node, resource: FetchedPage, previewed: str) -> set[str]:
    """What the other items beside a record's preview show too ("Read more...", the author's name): the
    list's template, not this record's value."""
    parent = item.parent
    if parent is None:
        return set()
    base = base_url(resource)
    siblings = [c for c in parent.children if isinstance(c, Node) and c is not item and c.tag == item.tag]
    return {normalised(b.text) for sibling in siblings for b in blocks(sibling, base, previewed)}


_ADDRESS = re.compile(r"^\S+://\S+$|^[\w-]+(?:\.[\w-]+)+(?:/\S*)?$")
"""Text that reads as an address (`https://…`, `example.org/page`)."""
_TITLE_KEY = re.compile(r"(?<!sub)title$|^(?:subject|heading|headline)$")
"""A field's key (`key`: `pageTitle`, `post_title`, "Enter the page title") that names a record's title."""


_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_WORDS = re.compile(r"[^\W\d_]{3,}")
"""A word of letters: a post's numbered, dated heading ("#1 2026-03-09 09:33") names no title."""


def dropped_title(
    page: FetchedPage, fields: list[tuple[Node, str, str, set[str], bool]], scope: Node, found: set[str]
) -> list[tuple[str, str]]:
    """An empty visible title field leading the form (its first text field) whose value the resource
    shows as its main heading, unnamed (a wiki page's `<h1>` over its text): the resource's first `h1` outside furniture — in a record's
    item of a page (a forum's post among the topic's posts), the item's first heading that has words —
    when the edit page itself names it too — in its `<title>`, its own headings ("Edit page Hiring") or
    a link outside its forms (the breadcrumb "Index » General » Fixing a table" back to the record) —
    so the edit page knew the title its field leaves out. An optional title left empty beside a
    heading the edit page does not name ("Bookmark details") stays silent."""
    # The record's title leads its form: a title field further down names another page (a version's
    # "Wiki page" title after its name), not the record the page heads.
    lead = next((f for f in fields if f[4] and f[0].tag in ("input", "textarea")), None)
    empty = [
        name
        for node, name, value, keys, visible in ([lead] if lead is not None else [])
        if not value and visible and name not in found and node.tag == "input"
        and any(_TITLE_KEY.search(k) for k in keys)
    ]  # fmt: skip
    if not empty or lead is None:
        return []
    lead_node = lead[0]
    over_body = _heading_over_body(scope, fields)
    item = over_body is not None or scope.tag != "#document"
    levels = _HEADINGS if item else ("h1",)
    heading = over_body or next(
        (
            h
            for h in scope.find_all(*levels)
            if _WORDS.search(h.text()) and not in_furniture(h, scope) and not banner(h)
        ),
        None,
    )
    if heading is None or not stored(text := heading.text().strip()):
        return []
    if over_body is not None and "required" in lead_node.attrs:
        # A required title: the record was stored through a form that refused it empty, so an empty
        # one drops what the record had — the heading over its body says what, named here or not.
        return [(empty[0], text)]
    named = word_set(page.title or "")
    for h in tree_facts(page).tagged("h1", "h2", "h3", *(("a",) if item else ())):
        if not any(a.tag == "form" for a in h.ancestors()):
            named |= word_set(h.text())
    return [(empty[0], text)] if word_set(text) and word_set(text) <= named else []


_MARKUP = re.compile(r"</?[A-Za-z][^<>]*>")
BODY_PREFIX = 60
"""Characters of a body's text that find where the page shows it (a long text is shown whole)."""


def _heading_over_body(scope: Node, fields: list[tuple[Node, str, str, set[str], bool]]) -> Node | None:
    """The heading right over the element showing the record's body (a filled text area's value), in
    the nearest element around it that holds one: a forum post's or an article's title drawn over its
    text with no label naming it, the page's banner heading far above."""
    # A body kept as markup (a CMS editor's HTML source, `<p>…</p>`) is shown as the text it renders.
    bodies = [
        normalised(_MARKUP.sub(" ", v))[:BODY_PREFIX]
        for n, _m, v, _k, vis in fields
        if n.tag == "textarea" and vis and v
    ]
    bodies = [b for b in bodies if len(b.split()) >= 3]
    if not bodies:
        return None
    order = {id(n): at for at, n in enumerate(scope.iter())}
    for body in bodies:
        shown = next(
            (n for n in scope.iter() if normalised(n.text()).startswith(body) and not in_furniture(n, scope)),
            None,
        )
        if shown is None:
            continue
        while (
            inner := next((c for c in shown.elements if normalised(c.text()).startswith(body)), None)
        ) is not None:
            shown = inner
        for around in shown.ancestors():
            over = [
                h
                for h in around.find_all(*_HEADINGS)
                if order.get(id(h), len(order)) < order[id(shown)] and _WORDS.search(h.text())
            ]
            if over:
                return over[-1]
            if around is scope:
                break
    return None
