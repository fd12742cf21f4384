"""Which page, and which part of it, shows the record an edit form edits (the form oracle, `forms`).

On a page the form names, the part is the list item holding the link to the form or naming the
record's identifier (`record_scope`), else the whole page; a form swapped into a list edits its own or
the previous item; else the record is the one item showing most of the form's filled values on the
pages memory has — its own page when it posts to it, the page a click opened it on, the pages linking
to it (`form_witness`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import unquote, urlsplit

from bughunt.dom import Node
from bughunt.fingerprint import route_shape
from bughunt.oracles.base import (
    Fetch,
    OracleConfig,
)
from bughunt.oracles.destructive_words import destructive_action
from bughunt.oracles.form_fields import chosen_labels, word_set
from bughunt.oracles.form_opened import page_before
from bughunt.oracles.form_pages import fetched, referrers, resource_urls
from bughunt.oracles.form_positions import blocks, holds, normalised
from bughunt.oracles.form_urls import edit_like, names_in_query, path_segments, record_id, url_identifier
from bughunt.oracles.form_values import FURNITURE
from bughunt.oracles.form_witness import witness
from bughunt.oracles.lists import find_lists, item_runs, list_items, targets
from bughunt.oracles.reading import resolve
from bughunt.page import FetchedPage, base_url
from bughunt.urls import route_of


def shows_record(
    resource: FetchedPage,
    scope: Node,
    fields: list[tuple[Node, str, str, set[str], bool]],
    chosen: tuple[str, ...] = (),
) -> int:
    """How many of the form's filled visible values `scope` (a part of `resource`) shows: the page
    of the stored record shows some (a name, an e-mail), another page that links the form shows none.
    `chosen` are the labels of the form's chosen options (`chosen_labels`), values as much as typed ones."""
    shown = blocks(scope, base_url(resource), resource.url)
    values = [
        value for node, _name, value, _k, visible in fields if value and visible and node.tag != "select"
    ] + list(chosen)
    # A record's own row shows a stored address as a link to it; on a whole page a link names
    # another page (an author), not a value of this one.
    linked = {normalised(a.text()) for a in scope.find_all("a")} if scope is not resource.document else set()
    # A value may stand inside a block with other words ("User: ann" shows the username "ann").
    return sum(
        any(holds(v, b) or word_set(v) <= b.words for b in shown) or normalised(v) in linked for v in values
    )


def record_scope(resource: FetchedPage, form_url: str) -> Node:
    """The part of a page linking to a form that shows the form's record: the list item holding the
    link (a feed of posts, each with its own "Edit"), else the whole page (a profile). A link in the
    page's menu says nothing about where the record is."""
    return next(iter(record_scopes(resource, form_url)), resource.document)


def record_scopes(resource: FetchedPage, form_url: str) -> list[Node]:
    """The list items holding the page's link to the form, innermost first (`record_scope`), or the
    item naming the record's identifier; empty when none does. An item holding the link and nothing
    else is an entry of a menu of the record's actions (Report, Delete, Edit, Quote under a forum
    post), not the record."""
    doc = resource.document
    items = {id(i): i for _, _, run in item_runs(doc) for i in run}
    items.update({id(i): i for _, run in find_lists(doc) for i in run})
    for node in _links_to(resource, form_url):
        if _in_navigation(node):
            continue
        own = " ".join(node.text().split())
        held = [a for a in node.ancestors() if id(a) in items and " ".join(a.text().split()) != own]
        if held:
            return held
    named = _naming_item(doc, items, form_url)
    return [named] if named is not None else []


def _links_to(resource: FetchedPage, form_url: str) -> list[Node]:
    """The elements of `resource` leading to the form at `form_url`, compared as the browser sent
    it: `where[id]=1` in a list's link is `where%5Bid%5D=1` in the form's address."""
    base = base_url(resource)
    wanted = unquote(form_url)
    return [node for node, href in targets(resource.document) if unquote(resolve(base, href) or "") == wanted]


def _in_navigation(node: Node) -> bool:
    return any(a.tag == "nav" or a.get("role") in ("navigation", "menu", "menubar") for a in node.ancestors())


def names_record(doc: Node, form_url: str) -> bool:
    """Whether a whole page names the record an edit URL carries (in an attribute or its text): a
    page of the same list that does not is another page of it, and its records are not this one.
    True when the URL names no record (`/settings`)."""
    named = record_id(form_url)
    if named is None:
        return True
    return bool(named.search(doc.text())) or any(
        named.search(v) for node in doc.iter() for v in node.attrs.values()
    )


def _naming_item(doc: Node, items: dict[int, Node], form_url: str) -> Node | None:
    """The innermost list item that names the record's identifier in an attribute (a row whose
    controls carry the record's id in `hx-vals`, a stats link `?id=<id>`, `id="row-<id>"`): its link to
    the form may be a template a script fills (`/items/{id}/edit`)."""
    named = record_id(form_url)
    if named is None:
        return None
    for node in doc.iter():
        if any(named.search(value) for value in node.attrs.values()):
            if _in_navigation(node):
                continue  # a breadcrumb or menu naming the record's page is navigation, no record's item
            item = next((a for a in (node, *node.ancestors()) if id(a) in items), None)
            if item is not None:
                return item
    return None


def resources(
    form: Node,
    page: FetchedPage,
    fields: list[tuple[Node, str, str, set[str], bool]],
    fetch: Fetch,
    config: OracleConfig,
) -> Iterator[tuple[FetchedPage, Node, bool, str | None]]:
    """The pages that may show what the form edits, fetched, each with the part of it to compare
    (`record_scope`), whether it is the form's own page (only values beside labels count there) and,
    for the record's preview on a list, the record's page (its link's text there is the record's):
    those the form or its URL names; else — none answering — the record the form was opened beside,
    or the item showing most of its filled values on its own page, the page a click opened it on
    (`form_opened.page_before`) or the pages linking to it (`form_witness`)."""
    answered: FetchedPage | None = None  # the first page named that answered
    chosen = chosen_labels(form, page.document)
    ident = url_identifier(page.url)
    typed = [word_set(v) for n, _m, v, _k, vis in fields if vis and n.tag != "select" and _WORDS.search(v)]
    for url in resource_urls(form, page, config):
        if (resource := fetched(fetch, url)) is None:
            continue
        if typed and not any(words <= word_set(resource.document.text()) for words in typed):
            # A record's page shows some of its values (a name, a title): a page showing none is not
            # it — the edit URL without its edit segment answered by the list's empty frame (a grid
            # with no action), a page another record's identifier happened to carry.
            continue
        answered = answered or resource
        yield resource, _record_part(resource, page.url, fields, chosen, ident), False, None
    if answered:
        # What the record's page never shows (a post's summary, drawn only in the previews of the
        # lists that link the post) its preview there may: read after the pages named (`previews`).
        for preview, scope in previews(answered, page, fields, chosen, fetch, config):
            yield preview, scope, False, answered.url
        return
    if (inline := _inline_record(form, page, fields)) is not None:
        yield page, inline, False, None
        return
    # Nothing names the record's page: the one item showing most of the form's filled values among
    # the pages memory has — the form's own page (outside the form: a ticket's properties over its
    # "Modify" form), the page a click opened it on (a single-page app's record view), the pages
    # linking to it — is the record (`form_witness`); the earlier page wins a tie.
    # The form's own page is a candidate when the form sends to it (a record's page with its own
    # "Modify" form); a form sending elsewhere (a bulk edit) edits no record this page shows.
    in_hand: list[tuple[FetchedPage, int]] = [(page, MIN_OWN_SHOWN)] if _posts_to_itself(form, page) else []
    if (before := page_before(page, fields)) is not None:
        in_hand.append((before, 1))
    rounds = referrers(page, config) or [[]]
    for n, urls in enumerate(rounds):
        # the form page's own links (the second round) are asked only when no page memory has shows it
        group = [
            *(in_hand if n == 0 else ()),
            *((r, 1) for url in urls if (r := fetched(fetch, url)) is not None),
        ]
        best: tuple[int, FetchedPage, Node] | None = None
        for resource, least in group:
            found = _witnessed(resource, page, fields, chosen, least)
            if found is not None and (best is None or found[0] > best[0]):
                best = (found[0], resource, found[1])
        if best is not None:
            yield best[1], best[2], best[1] is page, None
            return


MAX_PREVIEWS = 2
"""Pages linking a record's page that are searched for the record's preview."""


def previews(
    record: FetchedPage,
    page: FetchedPage,
    fields: list[tuple[Node, str, str, set[str], bool]],
    chosen: tuple[str, ...],
    fetch: Fetch,
    config: OracleConfig,
) -> Iterator[tuple[FetchedPage, Node]]:
    """The record's preview on the lists that link to its page (memory's `linked_from`): the list item
    holding the link to `record`, when it shows one of the form's filled values (the record's title) —
    a feed's card drawing a summary, a table's row drawing a column, that the record's own page leaves
    out. The record and its edit form are a pair; the preview is the record seen one hop before them."""
    if config.linked_from is None:
        return
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(record.url))
    typed = [word_set(v) for n, _m, v, _k, vis in fields if vis and n.tag == "input" and _WORDS.search(v)]
    seen = 0
    for route in config.linked_from(record.route):
        if seen >= MAX_PREVIEWS:
            return
        if not route.startswith("/") or route in (page.route, record.route):
            continue
        url = origin + route
        if edit_like(url) or destructive_action(url):
            continue
        listing = fetched(fetch, url)
        if listing is None:
            continue
        seen += 1
        for scope in record_scopes(listing, record.url):
            # a preview is most often one link to the record's page, its title inside: read as words
            words = word_set(scope.text())
            if shows_record(listing, scope, fields, chosen) >= 1 or any(v and v <= words for v in typed):
                yield listing, scope
                break


def _witnessed(
    resource: FetchedPage,
    page: FetchedPage,
    fields: list[tuple[Node, str, str, set[str], bool]],
    chosen: tuple[str, ...],
    least: int,
) -> tuple[int, Node] | None:
    """(values shown, part) of a candidate page for a form's record: the item holding the link to
    the form (a feed's post with its own "Edit") when it shows a value, else the item showing most
    (`form_witness.witness`); a whole page of a list that does not name the record the form's URL
    names is another page of that list."""
    if resource is not page and (scopes := record_scopes(resource, page.url)):
        # the innermost item around the link that shows the record (a forum post's footer of actions
        # post's footer of actions is an item of the post, and shows none of it); none showing it (a
        # topic's one post is no list), the page is searched as any other
        shown = ((shows_record(resource, scope, fields, chosen), scope) for scope in scopes)
        if (found := next(((n, scope) for n, scope in shown if n >= least), None)) is not None:
            return found
    if not names_record(resource.document, page.url):
        return None  # the list's other page, not the one holding this record (a pager's state)
    return witness(resource.document, fields, chosen, least, _links_to(resource, page.url))


def _posts_to_itself(form: Node, page: FetchedPage) -> bool:
    """Whether the form sends to the page it is on (no action, or that page's, a fragment aside)."""
    if not form.get("action"):
        return True
    action = resolve(base_url(page), form.get("action"))
    return action is not None and action.partition("#")[0] == page.url.partition("#")[0]


def _record_part(
    resource: FetchedPage,
    form_url: str,
    fields: list[tuple[Node, str, str, set[str], bool]],
    chosen: tuple[str, ...],
    ident: str | None,
) -> Node:
    """The part of a page the form names (its "Cancel" back to the list it was opened from) to compare:
    the list item holding the record's link to this form when the form's URL names a record
    (`/bills/edit/288`) the page's URL does not, or when that item shows some of the form's filled
    values (the record's row among others'); else the whole page (the record's own page). Read whole,
    a list's other rows (the next bill's description after this one's last field) were taken for the
    values this record's empty fields dropped."""
    scope = record_scope(resource, form_url)
    if scope is resource.document:
        return scope
    if (
        ident is not None
        and ident not in path_segments(resource.url)
        and not names_in_query(resource.url, ident)
    ):
        return scope
    if not shows_record(resource, scope, fields, chosen):
        return resource.document
    # The record's own page (its URL names the record): the item holding the form's link is the
    # record's row only among other records' rows, each linking its own form; alone, it is a box of
    # the record's page (a ticket's "Basics" box linking to its Modify form, beside the title it shows).
    return scope if _links_other_forms(resource, form_url, ident) else resource.document


def _links_other_forms(resource: FetchedPage, form_url: str, ident: str | None) -> bool:
    """Whether `resource` links to the form of another record of the form's template (`/items/8/edit`
    beside `/items/7/edit`): a list of records. True when the form's URL names no record."""
    if ident is None:
        return True
    shape = route_shape(route_of(form_url))
    base = base_url(resource)
    wanted = unquote(form_url)
    return any(
        (url := resolve(base, href)) is not None
        and unquote(url) != wanted
        and route_shape(route_of(url)) == shape
        for _node, href in targets(resource.document)
    )


_WORDS = re.compile(r"[^\W\d_]{3,}")
"""A word of letters: a value a record's page shows in its text (a number may be any count's)."""
MIN_OWN_SHOWN = 2
"""Filled values of a form its own page must show outside it, in one item, for the form to edit the
record the page shows (a comment form's prefilled name is one value at most)."""


def _inline_record(
    form: Node, page: FetchedPage, fields: list[tuple[Node, str, str, set[str], bool]]
) -> Node | None:
    """The record an edit form was opened beside, on its own page: a form swapped into a list —
    into the row after the record's row (an inline "edit" row of a table), or into the record's own
    item — edits that item. The item holding the form (its form skipped: `blocks` reads no form),
    else the one right before it, when it shows some of the form's filled values."""
    item = next(
        (
            a
            for a in form.ancestors()
            if a.tag in ("tr", "li")
            or (a.parent is not None and any(i is a for i in list_items(a.parent) or []))
        ),
        None,
    )
    if item is None or item.parent is None:
        return None
    values = [word_set(v) for node, _n, v, _k, visible in fields if v and visible and node.tag != "select"]
    siblings = item.parent.elements
    at = next(n for n, s in enumerate(siblings) if s is item)
    for scope in (item, *siblings[max(at - 1, 0) : at]):
        shown = _words_outside_forms(scope)
        if any(v and v <= shown for v in values):
            return scope
    return None


def _words_outside_forms(scope: Node) -> set[str]:
    """The words a part of a page shows outside its forms, a link's target included (a row showing
    a bookmark's URL as its link)."""
    words: set[str] = set()
    for node in scope.iter():
        if node.tag in FURNITURE or any(a.tag == "form" for a in node.ancestors()):
            continue
        words |= word_set(node.get("href"))
        words.update(w for c in node.children if isinstance(c, str) for w in word_set(c))
    return words
