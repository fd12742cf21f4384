"""Edit forms that drop a stored value: a field left empty while the resource shows a value.

An edit form is a form that writes (method POST or an htmx post/put/patch, or a script-sent form
with no method and no action, a submit and several text fields; a GET search form edits nothing)
with at least one pre-filled *visible* text field (a new-item form is all empty; a CSRF token or a
select's default option alone makes no form an edit form). Every empty field is checked, hidden
inputs too (a script-built tags widget keeps its value in one); a value the form itself shows (tags
as chips beside an empty input) is not dropped. The resource page is found from the form itself:
a `data-resource`/`data-view`/`data-src` attribute, a link inside the form, or a nearby link
labelled cancel/view/back/show. When the edit page has none, the identifier in the edit URL
(`/editor/<slug>`, `/items/7/edit`) leads to it: a link, form action or known route (from
`OracleConfig.known_routes`) that contains the identifier and is not itself an edit or destructive
URL; candidates sharing the edit URL's other segments come first (`/article/edit/7` →
`/article/7/<slug>`, not `/profile/7`). On that page, the value is found by `data-field`/`itemprop`/
`name`/`id`/class words or a `dt`/`th`/`label` term matching the field's name, id or label (singular
and plural, `tagList`/`tags`/`tag-list` alike); when nothing names an empty visible text field, by
its position between its filled neighbours (`form_positions`: a summary in a bare `<p>` between the
title and the body), checked against another instance of the resource's template when memory knows
one. When the URL names no resource (`/settings`) or no named resource answers, the pages memory knows
that link to the form (`OracleConfig.linked_from`) are tried — then the form page's own links to
pages not loaded yet (`OracleConfig.loaded`) — and the one showing most of the form's filled values
is compared; on a feed of such records, only the item holding the link to the form (`record_scope`).
After the pages the form names, the record's preview on the lists memory knows link the record's page is
read too (`form_scope.previews`): a summary a feed's card draws and the record's page leaves out.
Which part of those pages — and of the form's own page, when the form posts to it, and of the page a
click opened the form on in place — shows the record is one search (`form_witness`): the item (a list's
row or card, a definition list, a table, a section) showing the most of the form's filled values.
An account's own profile form whose name field is empty while the page's user bar shows the name beside
the login the form holds drops it (`account_name`). A named page that shows none of the form's typed
values is not the record's (a grid's `/items/1` answering the list's empty frame); a form with nothing
to type in is a record's read-only view, read like any labelled values; a select's options not chosen
and a text area's text are no values the form shows beside its fields; a title field's value may be the
heading right over the record's body (a forum post's subject). At most `OracleConfig.max_forms` edit
forms are compared per page.

This module is the oracle's entry; its parts, each named for what it does: `form_fields` (a form's
fields and their keys), `form_urls` (what an edit or record URL names), `form_pages` (the pages that may
show the record), `form_scope` (which page, and which part of it, shows the record), `form_values` (a
field's value as a page shows it), `form_compare` (values dropped unlabelled, values replaced), and
`form_positions`, `form_witness`, `form_opened`, `form_links`, `account_name`; a heading renamed in place
(`heading_rename`); a search form's results page
that draws its box empty is `search_echo`'s.
"""

from __future__ import annotations

import re

from bughunt.dom import Node
from bughunt.oracles.account_name import dropped_account_name
from bughunt.oracles.base import (
    DEFAULT_CONFIG,
    Fetch,
    Finding,
    OracleConfig,
    evidence,
    fetch_or_none,
    page_shape,
    quoted,
    short,
)
from bughunt.oracles.form_compare import dropped_by_position, dropped_title, replaced_values
from bughunt.oracles.form_fields import (
    blank_nested,
    carries_identifier,
    read_fields,
    shared_values,
    shown_words,
    word_set,
    writes,
)
from bughunt.oracles.form_links import dropped_address
from bughunt.oracles.form_positions import normalised
from bughunt.oracles.form_scope import resources
from bughunt.oracles.form_tabs import form_identity, tab_address
from bughunt.oracles.form_urls import creates, path_segments, url_identifier
from bughunt.oracles.form_values import main_heading, shown_value, stored
from bughunt.oracles.heading_rename import check_heading_rename
from bughunt.oracles.search_echo import check_search_echo
from bughunt.oracles.server_error import error_key
from bughunt.oracles.view_widgets import widget_key
from bughunt.page import FetchedPage, base_url
from bughunt.tree_facts import tree_facts

_TITLE_KEYS = frozenset({"title", "name", "subject", "heading", "headline"})
"""Keys of a field holding the record's title (a page shows it as its main heading)."""
MESSAGE = "edit form leaves stored values empty that the resource page shows"


def _filled_before_click(page: FetchedPage) -> set[str]:
    """For a state a click in place made: the fields the page's writing forms held filled before the
    click. A click may empty a field itself (a select widget's clear button, "Remove all items"): that
    value was the server's and the explorer took it away — no value the form dropped."""
    if page.clicked_from is None:
        return set()
    before = page.clicked_from[0].document
    return {
        f[1] for form in before.find_all("form") if writes(form) for f in read_fields(form, before) if f[2]
    }


def check_form_drops_value(
    page: FetchedPage, fetch: Fetch | None = None, config: OracleConfig = DEFAULT_CONFIG
) -> list[Finding]:
    """One finding per edit form that drops values: the message is a template; the field names and
    the values the resource shows are evidence. A form in a hidden tab panel whose tab has its own
    address is judged on that address's page, and reported there (`form_tabs`)."""
    echo = check_search_echo(page) + check_heading_rename(page)
    if fetch is None or not page.is_html or page.status >= 400:
        return echo
    if creates(page.url):
        return echo
    tabs: dict[str, set[tuple[str, str]]] = {}
    findings = echo + _check(page, fetch, config, tabs)
    for url, forms in list(tabs.items())[:MAX_TABS]:
        shown = fetch_or_none(fetch, url, "form")
        if shown is not None and shown.is_html and shown.status < 400 and not creates(shown.url):
            findings += _check(shown, fetch, config, None, forms)
    return findings


MAX_TABS = 2
"""Tab pages a page's hidden edit forms are fetched on."""


def _check(
    page: FetchedPage,
    fetch: Fetch,
    config: OracleConfig,
    tabs: dict[str, set[tuple[str, str]]] | None,
    only: set[tuple[str, str]] | None = None,
) -> list[Finding]:
    """The page's edit forms compared; a form in a hidden tab panel is left to its tab's address
    (`tabs` collects them; None: skipped), `only` the forms to compare (those hidden on the page that
    led to this tab)."""
    findings = []
    doc = page.document
    compared = 0
    cleared = _filled_before_click(page)
    for form in tree_facts(page).tagged("form"):
        if not writes(form):
            continue  # a search or filter form (GET) edits nothing
        if only is not None and form_identity(form) not in only:
            continue
        if (tab := tab_address(form, page)) is not None:
            # shown at its tab's address, not here: judged and reported there
            if tabs is not None:
                tabs.setdefault(tab, set()).add(form_identity(form))
            continue
        fields = read_fields(form, doc)
        # A blank sub-form creating another record beside the edited one (an issue's "Log time") holds
        # none of the edited record's values: its fields are left out of every comparison.
        nested = blank_nested(fields)
        fields = [f for f in fields if f[1] not in nested]
        empty = [f for f in fields if not f[2] and f[1] not in cleared and not _says_unchanged(f[0])]
        if not (empty or shared_values(fields)) or not (
            any(f[2] and f[4] and f[0].tag in ("input", "textarea") for f in fields)
            or carries_identifier(fields, page.url)
        ):
            # Nothing empty, or a blank new-item form: a filled hidden token or a select's default
            # option is no sign of a stored value (the record's identifier from the URL is).
            continue
        if compared >= config.max_forms:
            break
        compared += 1
        if named := dropped_account_name(form, doc, fields):
            findings.append(_dropping(page, page, fields, named))
            continue  # the user bar named the account's stored name: no other page is needed
        ident = url_identifier(page.url)
        lead = next((f[0] for f in fields if f[4] and f[0].tag in ("input", "textarea")), None)
        for n, (resource, scope, own_page, previewed) in enumerate(
            resources(form, page, fields, fetch, config)
        ):
            if n and (
                scope is resource.document or (ident is not None and ident in path_segments(resource.url))
            ):
                # After the record's page, only the record's row in a list the form returns to (the
                # item linking to this form, on a page not of this record) is asked: a feed's site
                # shown in its row only.
                continue
            shown_in_form = shown_words(form)
            nodes = {name: node for node, name, *_ in fields}
            if own_page:
                # The record's item on the form's own page: only values beside labels naming their
                # fields are compared (its comments, a sidebar, the form's neighbours are no values).
                dropped = [
                    (name, value)
                    for node, name, _v, keys, visible in empty
                    if visible
                    and stored(value := shown_value(scope, keys, labelled_only=True))
                    and not _shown_beside(node, value, shown_in_form)
                ]
                if dropped:
                    findings.append(_dropping(page, resource, fields, dropped))
                break
            record_item = scope is not resource.document
            dropped = [
                (name, value)
                for node, name, _v, keys, _vis in empty
                if stored(
                    value := shown_value(scope, keys, record_item=record_item)
                    or (
                        main_heading(scope) if node is lead and keys & _TITLE_KEYS and not record_item else ""
                    )
                )
                # A tags widget may keep its input empty and show the stored values as chips
                # beside it: a value the form itself shows is not dropped.
                and not _shown_beside(node, value, shown_in_form)
                and not _holds_other_values(value, fields)
            ]
            dropped += replaced_values(fields, scope, record_item=record_item)
            # (a body that mentions its own title is no chip beside the title's input: not filtered)
            dropped += dropped_title(page, fields, scope, {n for n, _ in dropped})
            dropped += [
                (name, text)
                for name, text in dropped_by_position(
                    page,
                    fields,
                    resource,
                    scope,
                    {n for n, _ in dropped},
                    fetch,
                    config,
                    previewed=previewed,
                )
                if stored(text) and not _shown_beside(nodes[name], text, shown_in_form)
            ]
            if record_item:
                dropped += dropped_address(fields, scope, base_url(resource), {n for n, _ in dropped})
            if dropped:
                findings.append(_dropping(page, resource, fields, dropped))
                break  # the first resource page showing a dropped value is the one the form edits
    return findings


def _shown_beside(field: Node, value: str, shown_in_form: set[str]) -> bool:
    """Whether the form shows `value` itself, as a tags widget shows its chips beside an empty input.
    Not for a `required` field: a browser refuses to send the form while it is empty, so no widget
    keeps a stored value outside it — the words the form shows are elsewhere (a preview tile of the
    record drawn inside the form, its title and all) and the field dropped the record's."""
    return "required" not in field.attrs and word_set(value) <= shown_in_form


def _says_unchanged(node: Node) -> bool:
    """A select sending no value under an option the page marked chosen and labelled in words ("open
    (Unchanged)", "alice (Unchanged)"): a form that changes only what is picked keeps the stored value
    by sending nothing — no value dropped, whatever the record's page shows."""
    if node.tag != "select":
        return False
    return any(
        "selected" in o.attrs and not o.get("value").strip() and re.search(r"[^\W\d_]{3,}", o.text())
        for o in node.find_all("option")
    )


def _holds_other_values(value: str, fields: list[tuple[Node, str, str, set[str], bool]]) -> bool:
    """Whether an element named for a field shows another filled field's whole value (a title of two
    words or more) among its text: a container of the record (`main-content` around the title and the
    body), not that one field's value."""
    shown = normalised(value)
    return any(
        len(own.split()) >= 2 and f" {own} " in f" {shown} "
        for node, _name, v, _keys, visible in fields
        if visible and node.tag == "input" and (own := normalised(v))
    )


def _dropping(
    page: FetchedPage,
    resource: FetchedPage,
    fields: list[tuple[Node, str, str, set[str], bool]],
    dropped: list[tuple[str, str]],
) -> Finding:
    return Finding(
        "form_drops_value",
        page.route,
        MESSAGE,
        evidence(
            page,
            f'name="{dropped[0][0]}"',
            field=dropped[0][0],
            fields=quoted(n for n, _ in dropped),
            fields_key=error_key(" ".join(sorted(n for n, _ in dropped))),
            # one form class that two views render (an editor and a section editor): its whole
            # field list and what it drops, on any route
            form_key=error_key(
                " ".join(sorted({f[1] for f in fields})) + " | " + " ".join(sorted(n for n, _ in dropped))
            ),
            resource_url=resource.url,
            shown=short(dropped[0][1]),
            # one widget component dropping its value in views of one single-page document
            widget_key=widget_key(page.url, (f[0] for f in fields if f[1] in {n for n, _ in dropped})),
        ),
        shape=page_shape(page),
    )
