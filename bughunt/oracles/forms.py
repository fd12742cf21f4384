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
is compared; on a feed of such records, only the item holding the link to the form (`record_scope`). An
account's own profile form whose name field is empty while the page's user bar shows the name beside
the login the form holds drops it (`account_name`). At most `OracleConfig.max_forms` edit forms are compared per page.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from urllib.parse import parse_qsl, urlsplit

from loguru import logger

from bughunt.actions import TEXT_INPUTS, scripted_form
from bughunt.dom import Node
from bughunt.fingerprint import IDENTIFIERS, segment_shape
from bughunt.oracles.account_name import dropped_account_name
from bughunt.oracles.base import (
    DEFAULT_CONFIG,
    Fetch,
    Finding,
    OracleConfig,
    evidence,
    page_shape,
    quoted,
    short,
)
from bughunt.oracles.destructive import destructive_action
from bughunt.oracles.form_links import dropped_address
from bughunt.oracles.form_positions import blocks, holds, normalised, page_texts, unlabelled_values
from bughunt.oracles.form_records import showing_item
from bughunt.oracles.lists import find_lists, item_runs, list_items, targets
from bughunt.oracles.reading import missing_value, resolve
from bughunt.oracles.server_error import error_key, soft_not_found
from bughunt.page import FetchedPage, base_url
from bughunt.urls import hash_route, route_of, same_origin

LABEL_CHARS = 40
"""A field's label is short: longer text beside a field is no label."""
_NEAR_LINK = re.compile(r"\b(cancel|view|back|show|preview|return|discard|open)\b", re.I)
_RESOURCE_ATTRS = ("data-resource", "data-view", "data-src", "data-source", "data-href")
_NOT_KEY = re.compile(r"[^a-z0-9]")
_CLASS_PARTS = re.compile(r"[-_]")
_WORD = re.compile(r"\w+")
_FURNITURE = frozenset({"nav", "header", "footer", "form", "script", "style", "head"})
_TITLE_KEYS = frozenset({"title", "name", "subject", "heading", "headline"})
"""Keys of a field holding the record's title (a page shows it as its main heading)."""
_ID_KEY = re.compile(r"id|ID|pk|uuid|\w+[_-](?:id|ID)|\w*[a-z]Id")
"""A query key that names a record by its identifier (`id`, `pk`, `post_id`, `postId`)."""
_EDIT_WORDS = frozenset({"edit", "editor", "update", "modify", "change", "amend"})
_CREATE_WORDS = frozenset({"add", "new", "create"})
"""The last segment of a page that makes a record (`/movie/add/`, `/#/items/new`): its form stores
nothing yet, whatever defaults it shows (a rating of 0, today's date)."""
MAX_RESOURCES = 2
MAX_REFERRERS = 3
"""Pages that link to a form without an identifier opened to find the one showing its record."""
MESSAGE = "edit form leaves stored values empty that the resource page shows"


def key(text: str) -> str:
    """`tagList`, `tags`, `tag-list`, `Tags:` → `tag`."""
    k = _NOT_KEY.sub("", text.lower())
    k = k.removesuffix("list") if len(k) > 4 else k
    return k.removesuffix("s") if len(k) > 3 else k


def _fields(form: Node, doc: Node) -> list[tuple[Node, str, str, set[str], bool]]:
    """(element, name, value, keys, visible) of the form's text-like and hidden fields."""
    labels = {lab.get("for"): lab.text() for lab in doc.find_all("label") if lab.get("for")}
    out = []
    for node in form.iter():
        kind = node.get("type").lower()
        visible = True
        if node.tag == "input" and kind == "hidden":
            value, visible = node.get("value"), False
        elif node.tag == "input" and kind in TEXT_INPUTS and not node.get("readonly"):
            value = node.get("value")
        elif node.tag == "textarea":
            value = node.raw_text()
        elif node.tag == "select":
            options = node.find_all("option")
            # Without a `selected` option a browser submits the first one.
            chosen = [o for o in options if "selected" in o.attrs] or options[:1]
            value = chosen[0].get("value", chosen[0].text()) if chosen else ""
        else:
            continue
        label = labels.get(node.get("id"), "")
        # A script-bound input (a single-page app's v-model) often has no name: its label names it.
        name = node.get("name") or (
            (node.get("id") or node.get("aria-label") or label or node.get("placeholder")) if visible else ""
        )
        if not name:
            continue
        if not label and node.parent is not None and node.parent.tag == "label":
            label = node.parent.text()
        keys = {
            key(k)
            for k in (name, node.get("id"), label, node.get("aria-label"), node.get("placeholder"))
            if k and key(k)
        }
        out.append((node, name, value.strip(), keys, visible))
    # A key several fields share names none of them: a split date and time widget labels each of its
    # parts "Date:" and "Time:" (`date_added_0`, `date_accessed_0`), and a page's `field-date_added`
    # cell would read as the value of every date the form has.
    shared = Counter(k for *_, keys, _v in out for k in keys)
    return [
        (node, name, value, {k for k in keys if shared[k] == 1}, vis) for node, name, value, keys, vis in out
    ]


def _route_path(url: str) -> str:
    """The path that names the page: a single-page app's hash route (`/#/items/7/edit`) or the path."""
    parts = urlsplit(url)
    if hash_route(parts.fragment):
        return parts.fragment.removeprefix("!").split("?")[0]
    return parts.path


def _segments(url: str) -> list[str]:
    return [s for s in _route_path(url).split("/") if s]


def _with_segments(url: str, segments: list[str]) -> str:
    """`url` with its naming path replaced by `segments` (in the hash route when it has one)."""
    parts = urlsplit(url)
    path = "/" + "/".join(segments)
    if hash_route(parts.fragment):
        bang = "!" if parts.fragment.startswith("!") else ""
        return f"{parts.scheme}://{parts.netloc}{parts.path or '/'}#{bang}{path}"
    return f"{parts.scheme}://{parts.netloc}{path}"


def _action_word(segment: str) -> str:
    """A path segment as an action's word, marks around it aside (`edit`, `_edit`, `~edit`: frameworks
    that keep action names apart from page slugs prefix them)."""
    return segment.lower().strip("_-.~!+@$")


def _edit_segment(segment: str) -> bool:
    """A path segment that names the edit action."""
    return _action_word(segment) in _EDIT_WORDS


def _page_link(href: str) -> bool:
    """Whether a link may lead to the page of a stored record: not a script's control (`href="#"`, an
    in-page anchor: on a single-page app it resolves to the app's root, not to a record), not a page
    that makes a record (`#/movie/add/`, `/items/new`)."""
    if not href:
        return False
    parts = urlsplit(href)
    if href.startswith("#") and not hash_route(parts.fragment):
        return False
    route = parts.fragment if hash_route(parts.fragment) else parts.path
    last = [s for s in route.split("?")[0].split("/") if s][-1:]
    return not any(_action_word(s) in _CREATE_WORDS for s in last)


def _edit_like(url: str) -> bool:
    return any(_edit_segment(s) for s in _segments(url))


def _viewed_page(page: FetchedPage) -> str | None:
    """The page an edit URL edits when the page says so: the URL without its edit segment
    (`/guides/setup/_edit/` → `/guides/setup/`), when the edit page links to it (its "View" tab or
    breadcrumb) — the address a wiki or CMS gives a page and its editor alike."""
    segments = _segments(page.url)
    rest = [s for s in segments if not _edit_segment(s)]
    # `/edit` alone names no page: the site's root is not what a bare editor edits (a profile's).
    if not rest or len(rest) == len(segments) or hash_route(urlsplit(page.url).fragment):
        return None
    bare = _with_segments(page.url, rest).rstrip("/")
    base = base_url(page)
    for _node, href in targets(page.document):
        url = resolve(base, href)
        if (
            url
            and urlsplit(url)._replace(fragment="").geturl().rstrip("/") == bare
            and not urlsplit(url).query
        ):
            return url
    return None


def _identifier(url: str) -> str | None:
    """The resource an edit URL names (`/items/7/edit` → `7`; `/blog/edit?id=7`, the record in a
    query key named as an identifier, → `7`), or None (`/profile/edit`, `/settings`)."""
    segments = _segments(url)
    rest = [s for s in segments if not _edit_segment(s)]
    if len(rest) == len(segments):
        return None  # not an edit URL
    if rest and not (segment_shape(rest[-1]) == rest[-1] and len(rest) < 2):
        return rest[-1]
    # `/profile/edit`: no identifier in the path, only a collection name; the query may name one
    return next(
        (v for k, v in parse_qsl(urlsplit(url).query) if _ID_KEY.fullmatch(k) and segment_shape(v) != v),
        None,
    )


def _carries_identifier(fields: list[tuple[Node, str, str, set[str], bool]], url: str) -> bool:
    """Whether a form on an edit URL carries the record's identifier that URL names in a hidden input
    (`<input type=hidden name=id value=7>` on `/blog/edit?id=7`): it edits that stored record, so
    visible fields that all opened empty dropped every stored value — no new item's blank form."""
    ident = _identifier(url)
    return ident is not None and any(
        not visible and value == ident for _n, _name, value, _k, visible in fields
    )


def _by_identifier(page: FetchedPage, config: OracleConfig) -> list[str]:
    """Resource candidates for an edit page with no link back, through the identifier in its URL."""
    ident = _identifier(page.url)
    if ident is None:
        return []
    rest = [s for s in _segments(page.url) if not _edit_segment(s)]
    base = base_url(page)
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(page.url))
    urls = [resolve(base, href) for _, href in targets(page.document)]
    urls += [resolve(base, f.get("action")) for f in page.document.find_all("form") if f.get("action")]
    if config.known_routes is not None:
        urls += [origin + r for r in config.known_routes() if r.startswith("/") and ident in r]
    if len(rest) >= 2:
        urls.append(_with_segments(page.url, rest))  # `/items/7/edit` → `/items/7`
    found: list[str] = []
    for url in urls:
        # A URL holding the identifier as a segment holds it as text: memory's thousands of routes
        # are passed over without parsing each (an edit page must not cost more as memory grows).
        if not url or ident not in url:
            continue
        if not same_origin(url, page.url) or _edit_like(url) or destructive_action(url):
            continue
        segs = _segments(url)
        if ident not in segs:
            continue
        trimmed = _with_segments(url, segs[: segs.index(ident) + 1])
        for candidate in (trimmed, url):
            if candidate != page.url and candidate not in found:
                found.append(candidate)
    # The resource shares the edit URL's other segments (`/article/edit/7` → `/article/7/<slug>`,
    # not `/profile/7`), then the shortest wins.
    names = set(rest)
    return sorted(found, key=lambda u: (-len(names & set(_segments(u))), len(_segments(u))))


def resource_urls(form: Node, page: FetchedPage, config: OracleConfig = DEFAULT_CONFIG) -> list[str]:
    base = base_url(page)
    hrefs = [form.get(a) for a in _RESOURCE_ATTRS if form.get(a)]
    # A link in a field's label is that field's (a foreign key's "add" and "edit" buttons lead to the
    # related record, not the one the form edits), and a link to a create page names no stored record.
    hrefs += [
        a.get("href")
        for a in form.find_all("a")
        if _page_link(a.get("href")) and not any(p.tag == "label" for p in a.ancestors())
    ]
    if form.parent is not None:
        hrefs += [
            a.get("href")
            for a in form.parent.find_all("a")
            if _NEAR_LINK.search(a.text()) and _page_link(a.get("href"))
        ]
    urls: list[str] = []
    for href in hrefs:
        url = resolve(base, href)
        if url and url != page.url and same_origin(url, page.url) and url not in urls:
            urls.append(url)
    if (viewed := _viewed_page(page)) is not None:
        # Links inside an editor's form are its tools (move, delete, preview), not the page it edits.
        urls = [viewed, *(u for u in urls if u != viewed)]
    ident = _identifier(page.url)
    if not urls or (ident is not None and not any(ident in _segments(u) for u in urls)):
        # A "Back" link to the list (`/items`) leads away from the record the URL names
        # (`/items/7/edit`): the pages carrying the identifier come first.
        urls = list(dict.fromkeys([*_by_identifier(page, config), *urls]))
    return urls[:MAX_RESOURCES]


def _referrers(page: FetchedPage, config: OracleConfig) -> list[list[str]]:
    """Pages that may show the record of a form whose URL names no resource (`/settings`,
    `/edit-profile`), in two rounds: those memory knows link to it (the profile with its "Edit"
    button); then the form page's own links to pages memory has not loaded yet (a profile in the
    menu of a settings page met first may link back). The list of the record's collection first
    (`/user` for `/user3`: its row shows the record, while every page's menu links "Your details"),
    then deeper routes — a site-wide menu links the form from `/` too — at most `MAX_REFERRERS`
    each, never an edit, destructive or the form's own page."""
    if config.linked_from is None:
        return []
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(page.url))
    rounds = [[origin + r for r in config.linked_from(page.route) if r.startswith("/")]]
    if config.loaded is not None:
        base = base_url(page)
        own = [
            resolve(base, href)
            for node, href in targets(page.document)
            if node.tag == "a" and not any(a.tag == "form" for a in node.ancestors())
        ]
        rounds.append([u for u in own if u and same_origin(u, page.url) and not config.loaded(route_of(u))])
    listing = _collection(page.url)
    # A form that names no record (`/settings`) is not another record's: pages naming one
    # (`/users/51`, another player's profile) come after the lists and pages that name none.
    unnamed = listing is None and _record_id(page.url) is None

    def rank(u: str) -> tuple[bool, bool, int]:
        named = unnamed and any(segment_shape(seg) in IDENTIFIERS for seg in _segments(u))
        return (_segments(u) != listing, named, -len(_segments(u)))

    out: list[list[str]] = []
    for urls in rounds:
        kept = [
            url
            for url in dict.fromkeys(urls)
            if url != page.url and not _edit_like(url) and not destructive_action(url)
            and all(url not in done for done in out)
        ]  # fmt: skip
        out.append(sorted(kept, key=rank)[:MAX_REFERRERS])
    return out


def _collection(url: str) -> list[str] | None:
    """The path of the list a record's page belongs to: its segments before the record's identifier
    (`/items/7/edit` → `/items`; a record named by its class and number in one word, `/user3` →
    `/user`), or None when the path names no record (`/settings`). A record's list shows its values
    in the record's row; the site's other pages link its form from their menus ("Your details")."""
    segments = _segments(url)
    for at, segment in enumerate(segments):
        shape = segment_shape(segment)
        if shape in IDENTIFIERS and at:
            return segments[:at]
        if shape.endswith("<n>") and shape != "<n>":
            return [*segments[:at], shape.removesuffix("<n>")]
    return None


def _shows_record(
    resource: FetchedPage,
    scope: Node,
    fields: list[tuple[Node, str, str, set[str], bool]],
    chosen: tuple[str, ...] = (),
) -> int:
    """How many of the form's filled visible values `scope` (a part of `resource`) shows: the page
    of the stored record shows some (a name, an e-mail), another page that links the form shows none.
    `chosen` are the labels of the form's chosen options (`_chosen_labels`), values as much as typed ones."""
    shown = blocks(scope, base_url(resource), resource.url)
    values = [
        value for node, _name, value, _k, visible in fields if value and visible and node.tag != "select"
    ] + list(chosen)
    # A record's own row shows a stored address as a link to it; on a whole page a link names
    # another page (an author), not a value of this one.
    linked = {normalised(a.text()) for a in scope.find_all("a")} if scope is not resource.document else set()
    # A value may stand inside a block with other words ("User: ann" shows the username "ann").
    return sum(
        any(holds(v, b) or _words(v) <= b.words for b in shown) or normalised(v) in linked for v in values
    )


def _chosen_labels(form: Node, doc: Node) -> tuple[str, ...]:
    """The labels of a form's chosen options: a checked radio button's label and a select's option
    marked `selected` (not the first one a browser would submit by default). A record's row shows the
    option it holds by that label ("Teo Okafor" for the radio button of child 2), not by its value."""
    labels = {lab.get("for"): lab.text() for lab in doc.find_all("label") if lab.get("for")}
    out = []
    for node in form.iter():
        if node.tag == "input" and node.get("type").lower() == "radio" and "checked" in node.attrs:
            text = labels.get(node.get("id"), "") or (node.parent.text() if node.parent is not None else "")
        elif node.tag == "option" and "selected" in node.attrs:
            text = node.text()
        else:
            continue
        if re.search(r"\w{3,}", text):
            out.append(text)
    return tuple(out)


def record_scope(resource: FetchedPage, form_url: str) -> Node:
    """The part of a page linking to a form that shows the form's record: the list item holding the
    link (a feed of posts, each with its own "Edit"), else the whole page (a profile). A link in the
    page's menu says nothing about where the record is."""
    base = base_url(resource)
    doc = resource.document
    items = {id(i): i for _, _, run in item_runs(doc) for i in run}
    items.update({id(i): i for _, run in find_lists(doc) for i in run})
    for node, href in targets(doc):
        if resolve(base, href) != form_url or any(
            a.tag == "nav" or a.get("role") in ("navigation", "menu", "menubar") for a in node.ancestors()
        ):
            continue
        item = next((a for a in node.ancestors() if id(a) in items), None)
        if item is not None:
            return item
    return _naming_item(doc, items, form_url) or doc


def _record_id(form_url: str) -> re.Pattern[str] | None:
    """The record identifier an edit URL names, as a whole token (`7` in `tr-7`, not in `17`), when it
    is one a record has (a number or an id-like word), else None."""
    ident = _identifier(form_url)
    if ident is None or segment_shape(ident) == ident:
        return None
    return re.compile(rf"(?<![0-9A-Za-z]){re.escape(ident)}(?![0-9A-Za-z])")


def _names_record(doc: Node, form_url: str) -> bool:
    """Whether a whole page names the record an edit URL carries (in an attribute or its text): a
    page of the same list that does not is another page of it, and its records are not this one.
    True when the URL names no record (`/settings`)."""
    named = _record_id(form_url)
    if named is None:
        return True
    return bool(named.search(doc.text())) or any(
        named.search(v) for node in doc.iter() for v in node.attrs.values()
    )


def _naming_item(doc: Node, items: dict[int, Node], form_url: str) -> Node | None:
    """The innermost list item that names the record's identifier in an attribute (a row whose
    controls carry the record's id in `hx-vals`, a stats link `?id=<id>`, `id="row-<id>"`): its link to
    the form may be a template a script fills (`/items/{id}/edit`)."""
    named = _record_id(form_url)
    if named is None:
        return None
    for node in doc.iter():
        if any(named.search(value) for value in node.attrs.values()):
            item = next((a for a in (node, *node.ancestors()) if id(a) in items), None)
            if item is not None:
                return item
    return None


def _in_furniture(node: Node, scope: Node | None = None) -> bool:
    """Inside a menu, header, footer or form — below `scope`: a record's item of a list held in a form
    for bulk actions (a checkbox a row) is inside that form, and its values are the record's."""
    for a in node.ancestors():
        if a is scope:
            return False
        if a.tag in _FURNITURE:
            return True
    return False


_CONTROLS = frozenset({"form", "input", "select", "textarea"})


def _holds_controls(node: Node) -> bool:
    """Whether an element holds a form's controls (a `filter-box` around a search form and its menu of
    preset filters, a `comment-form` wrapper): its words are the controls' labels and menus, not a
    value the page shows for the field it is named after."""
    return any(d.tag in _CONTROLS for d in node.iter() if d is not node)


def shown_value(doc: Node, keys: set[str], *, record_item: bool = False, labelled_only: bool = False) -> str:
    """The value a resource page shows for a field with these keys, or "". In a record's item of a
    list (`record_item`) an element named for the field shows its own words, not its links' (a row's
    secondary line "by ann (view links)" names the owner, not a description) — a word of three
    letters at least. A table row shows its values under its table's column headings. An element
    named for the field that shows the field's name ("Keywords:" in `th#h_keywords`) is its label:
    the value is beside it. `labelled_only`: only values shown beside a label naming the field (a
    table of properties), none found by an element's name or class."""
    if record_item and (column := _column_value(doc, keys)) is not None:
        return column
    for node in doc.iter():
        # The page's main heading is its own wherever a theme draws it (a title in the menu bar of
        # tabs over a wiki page), not furniture shared with other pages.
        if node.tag != "h1" and (node.tag in _FURNITURE or _in_furniture(node, doc)):
            continue
        names = [node.get(a) for a in ("data-field", "itemprop", "name") if node.get(a)]
        # an id is read like the class list: `article-title` names the title
        names += [w for c in (*node.classes, node.get("id")) if c for w in (c, *_CLASS_PARTS.split(c))]
        if (
            not labelled_only
            and any(key(n) in keys for n in names if key(n))
            and key(node.short_text(LABEL_CHARS) or "") not in keys
            and not _holds_controls(node)
        ):
            if node.tag == "meta":
                value = node.get("content")
            elif record_item:
                value = _text_outside_links(node)
                value = value if re.search(r"\w{3,}", value) else ""
            else:
                value = node.text()
            if value:
                return value
        if (
            (node.tag in ("dt", "th", "label") or _key_cell(node))
            and key(node.text()) in keys
            and node.parent is not None
        ):
            siblings = node.parent.elements
            after = siblings[siblings.index(node) + 1 :]
            if after and after[0].text():
                return after[0].text()
        if labelled := _labelled_text(node, keys):
            return labelled
    return ""


def _main_heading(doc: Node) -> str:
    """The text of a record page's one `h1` outside its forms, or "". A form leads with its record's
    title and the record's page shows that title as its main heading, named or not (a bare `<h1>`):
    the heading is the value of a title-like field that leads its form, when nothing names it."""
    headings = [h for h in doc.find_all("h1") if not any(a.tag == "form" for a in h.ancestors())]
    return headings[0].text() if len(headings) == 1 else ""


def _column_value(row: Node, keys: set[str]) -> str | None:
    """The text of a table row's cell under the column heading that names the field (a list of
    records: "Start Date" over "2022-01-20"), or None when the row's table has no such heading."""
    if row.tag != "tr":
        return None
    table = next((a for a in row.ancestors() if a.tag == "table"), None)
    if table is None:
        return None
    header = next(
        (r for r in table.iter() if r.tag == "tr" and r.elements and all(c.tag == "th" for c in r.elements)),
        None,
    )
    if header is None or header is row:
        return None
    cells = [c for c in row.elements if c.tag in ("td", "th")]
    headings = [c for c in header.elements if c.tag in ("td", "th")]
    if len(cells) != len(headings):
        return None  # cells spanning columns: which is under which is not known
    for heading, cell in zip(headings, cells, strict=True):
        if key(heading.text()) in keys:
            return _text_outside_links(cell) or cell.text()
    return None


def _key_cell(node: Node) -> bool:
    """The first cell of a two-cell row: a table of properties (`<td>Released</td><td>2001-02-03</td>`,
    an admin's details view under a "Column | Value" header) labels its values with plain cells."""
    if node.tag != "td" or node.parent is None or node.parent.tag != "tr":
        return False
    cells = [c for c in node.parent.elements if c.tag in ("td", "th")]
    return len(cells) == 2 and cells[0] is node


def _text_outside_links(node: Node) -> str:
    parts: list[str] = []
    stack: list[Node | str] = list(reversed(node.children))
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
        elif item.tag not in ("a", "script", "style", "button"):
            stack.extend(reversed(item.children))
    return " ".join(" ".join(parts).split())


_LABELLED = re.compile(r"^(?P<label>[^:]{1,40}):\s*(?P<value>\S.*)$")
_INLINE = frozenset("a abbr b code em i small span strong time".split())


def _labelled_text(node: Node, keys: set[str]) -> str | None:
    """The value of a line that labels itself (`<div>Phone: 555-0100</div>`, `<p><b>Email:</b>
    ann@x</p>`) when the label is the field's, else None. Only a line of inline text: a block that
    holds several such lines is not one value."""
    if node.tag in _INLINE or any(c.tag not in _INLINE for c in node.elements):
        return None
    match = _LABELLED.match(node.short_text(200) or "")
    if match is None or key(match.group("label")) not in keys:
        return None
    return match.group("value").strip()


def stored(value: str) -> bool:
    """Whether a value a resource page shows is a stored one, not the print of a missing one."""
    return not missing_value(value)


def _filled_text(fields: list[tuple[Node, str, str, set[str], bool]]) -> list[tuple[str, str, set[str]]]:
    """(name, value, keys) of the filled visible text fields."""
    return [
        (name, value, keys)
        for node, name, value, keys, visible in fields
        if value and visible and node.tag in ("input", "textarea")
    ]


def _shared_values(fields: list[tuple[Node, str, str, set[str], bool]]) -> bool:
    """Whether two filled visible text fields hold one value: only then can one have replaced the other's."""
    values = [normalised(v) for _name, v, _k in _filled_text(fields)]
    return len(set(values)) < len(values)


def replaced_values(
    fields: list[tuple[Node, str, str, set[str], bool]], scope: Node, *, record_item: bool = False
) -> list[tuple[str, str]]:
    """Filled fields holding another field's value where the resource shows a value of their own: the
    form replaced the stored value with its neighbour's (a copy-paste in the code that fills it) —
    the neighbour's own value shown as the resource shows it, so the two are told apart there."""
    filled = _filled_text(fields)
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


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _writes(form: Node) -> bool:
    """A form that stores something: method POST, or an htmx post/put/patch, or a form a script
    sends (`actions.scripted_form`: a single-page app posts it through its API)."""
    if form.get("method", "get").lower() == "post" or any(
        form.get(a) for a in ("hx-post", "hx-put", "hx-patch")
    ):
        return True
    return scripted_form(form)


def _dropped_by_position(
    page: FetchedPage,
    fields: list[tuple[Node, str, str, set[str], bool]],
    resource: FetchedPage,
    scope: Node,
    found: set[str],
    fetch: Fetch,
    config: OracleConfig,
) -> list[tuple[str, str]]:
    """Empty visible text fields whose stored value the resource shows unlabelled, located by the
    filled fields around them (`form_positions`); text another instance of the resource's template
    shows too is the template's, not a value."""
    pairs = [(name, value) for _n, name, value, _k, _vis in fields]
    shown = blocks(scope, base_url(resource), resource.url)
    furniture: set[str] | None = None
    template_texts: set[str] | None = None
    out = []
    for i, (node, name, value, _keys, visible) in enumerate(fields):
        if value or not visible or name in found or node.tag not in ("input", "textarea"):
            continue
        if furniture is None:
            furniture = page_texts(page.document, base_url(page), page.url)
        texts = unlabelled_values(pairs, i, shown, furniture)
        if texts and template_texts is None:
            sibling = _sibling_instance(resource, fetch, config)
            template_texts = (
                page_texts(sibling.document, base_url(sibling), sibling.url) if sibling else set()
            )
        text = next((t for t in texts if normalised(t) not in (template_texts or set())), "")
        if text and node.get("type").lower() == "url" and not _ADDRESS.search(text):
            continue  # an address field's value reads as an address: words beside it are another field's
        if text:
            out.append((name, text))
    return out


_ADDRESS = re.compile(r"^\S+://\S+$|^[\w-]+(?:\.[\w-]+)+(?:/\S*)?$")
"""Text that reads as an address (`https://…`, `example.org/page`)."""
_TITLE_KEY = re.compile(r"(?<!sub)title$|^(?:subject|heading|headline)$")
"""A field's key (`key`: `pageTitle`, `post_title`, "Enter the page title") that names a record's title."""


def _dropped_title(
    page: FetchedPage, fields: list[tuple[Node, str, str, set[str], bool]], scope: Node, found: set[str]
) -> list[tuple[str, str]]:
    """An empty visible title field whose value the resource shows as its main heading, unnamed (a
    wiki page's `<h1>` over its text): the resource's first `h1` outside furniture, when the edit page
    itself names it too — in its `<title>` or its own headings ("Edit page Hiring") — so the edit page
    knew the title its field leaves out. An optional title left empty beside a heading the edit page
    does not name ("Bookmark details") stays silent."""
    empty = [
        name
        for node, name, value, keys, visible in fields
        if not value and visible and name not in found and node.tag == "input"
        and any(_TITLE_KEY.search(k) for k in keys)
    ]  # fmt: skip
    if not empty:
        return []
    heading = next((h for h in scope.find_all("h1") if h.text() and not _in_furniture(h)), None)
    if heading is None or not stored(text := heading.text().strip()):
        return []
    named = _words(page.title or "")
    for h in page.document.find_all("h1", "h2", "h3"):
        if not any(a.tag == "form" for a in h.ancestors()):
            named |= _words(h.text())
    return [(empty[0], text)] if _words(text) and _words(text) <= named else []


def _sibling_instance(resource: FetchedPage, fetch: Fetch, config: OracleConfig) -> FetchedPage | None:
    """Another page of the resource's template that memory knows, fetched; None when there is none
    or it does not answer."""
    if config.known_routes is None:
        return None
    segments = _segments(resource.url)
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(resource.url))
    for route in config.known_routes():
        if route == resource.route or not route.startswith("/"):
            continue
        url = origin + route
        other = _segments(url)
        # One template: the same collection and depth (`/article/8/<slug>` beside `/article/7/<slug>`),
        # not an edit or destructive page of it, nor another page of this record (`?page=2` of a
        # profile shows its header again: the record's words, not the template's).
        if (
            urlsplit(url).path == urlsplit(resource.url).path
            or len(other) != len(segments)
            or other[:1] != segments[:1]
            or _edit_like(url)
            or destructive_action(url)
        ):
            continue
        try:
            sibling = fetch(url)
        except OSError as err:
            logger.debug("form oracle could not fetch {}: {}", route, err)
            return None
        return sibling if sibling.status < 400 and sibling.is_html and sibling.url != resource.url else None
    return None


def _resources(
    form: Node,
    page: FetchedPage,
    fields: list[tuple[Node, str, str, set[str], bool]],
    fetch: Fetch,
    config: OracleConfig,
) -> Iterator[tuple[FetchedPage, Node]]:
    """The pages that may show what the form edits, fetched, each with the part of it to compare
    (`record_scope`): those the form or its URL names (the whole page), else — none answering — the
    one of the pages linking to it that shows most of its filled values."""
    answered = False
    chosen = _chosen_labels(form, page.document)
    ident = _identifier(page.url)
    for url in resource_urls(form, page, config):
        if (resource := _fetched(fetch, url)) is not None:
            answered = True
            yield resource, _record_part(resource, page.url, fields, chosen, ident)
    if answered:
        return
    if (inline := _inline_record(form, page, fields)) is not None:
        yield page, inline
        return
    if _posts_to_itself(form, page) and _shows_record(page, page.document, fields, chosen) >= MIN_OWN_SHOWN:
        yield page, page.document
        return
    for urls in _referrers(page, config):
        best: tuple[int, FetchedPage, Node] | None = None
        for url in urls:
            if (resource := _fetched(fetch, url)) is None:
                continue
            scope = record_scope(resource, page.url)
            if scope is resource.document and not _names_record(resource.document, page.url):
                continue  # the list's other page, not the one holding this record (a pager's state)
            if scope is resource.document and _record_id(page.url) is None:
                # no item links to a form that names no record: the item showing its values is it
                scope = (
                    showing_item(
                        resource.document, lambda item: _shows_record(resource, item, fields, chosen)
                    )
                    or scope
                )
            if (n := _shows_record(resource, scope, fields, chosen)) and (best is None or n > best[0]):
                best = (n, resource, scope)
        if best is not None:
            yield best[1], best[2]
            return


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
    if ident is not None and ident not in _segments(resource.url):
        return scope
    return scope if _shows_record(resource, scope, fields, chosen) else resource.document


MIN_OWN_SHOWN = 2
"""Filled values of a form that posts to its own page the page must show outside it for the form to
edit the record the page shows (a comment form's prefilled name is one value at most)."""


def _posts_to_itself(form: Node, page: FetchedPage) -> bool:
    """Whether the form sends to the page it is on (its action that page, a fragment aside): a record's
    page with its own "Modify" form under the record's properties."""
    action = resolve(base_url(page), form.get("action")) if form.get("action") else None
    return action is not None and action.partition("#")[0] == page.url.partition("#")[0]


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
    values = [_words(v) for node, _n, v, _k, visible in fields if v and visible and node.tag != "select"]
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
        if node.tag in _FURNITURE or any(a.tag == "form" for a in node.ancestors()):
            continue
        words |= _words(node.get("href"))
        words.update(w for c in node.children if isinstance(c, str) for w in _words(c))
    return words


def _fetched(fetch: Fetch, url: str) -> FetchedPage | None:
    try:
        resource = fetch(url)
    except OSError as err:
        logger.debug("form oracle could not fetch {}: {}", url, err)
        return None
    # A not-found page answered 200 (the URL without its edit segment names no page) is no record.
    return resource if resource.status < 400 and resource.is_html and not soft_not_found(resource) else None


def check_form_drops_value(
    page: FetchedPage, fetch: Fetch | None = None, config: OracleConfig = DEFAULT_CONFIG
) -> list[Finding]:
    """One finding per edit form that drops values: the message is a template; the field names and
    the values the resource shows are evidence."""
    if fetch is None or not page.is_html or page.status >= 400:
        return []
    if any(seg.lower().strip("_-.~!+@$") in _CREATE_WORDS for seg in _segments(page.url)[-1:]):
        return []
    findings = []
    doc = page.document
    compared = 0
    for form in doc.find_all("form"):
        if not _writes(form):
            continue  # a search or filter form (GET) edits nothing
        fields = _fields(form, doc)
        empty = [f for f in fields if not f[2]]
        if not (empty or _shared_values(fields)) or not (
            any(f[2] and f[4] and f[0].tag in ("input", "textarea") for f in fields)
            or _carries_identifier(fields, page.url)
        ):
            # Nothing empty, or a blank new-item form: a filled hidden token or a select's default
            # option is no sign of a stored value (the record's identifier from the URL is).
            continue
        if compared >= config.max_forms:
            break
        compared += 1
        if own := dropped_account_name(form, doc, fields):
            findings.append(_dropping(page, page, fields, own))
            continue  # the user bar named the account's stored name: no other page is needed
        lead = next((f[0] for f in fields if f[4] and f[0].tag in ("input", "textarea")), None)
        for resource, scope in _resources(form, page, fields, fetch, config):
            shown_in_form = _words(form.text())
            if resource is page and scope is page.document:
                # The record's own page: only values beside labels naming their fields are compared
                # (its comments, a sidebar, the form's neighbours are no values of its fields).
                dropped = [
                    (name, value)
                    for _node, name, _v, keys, visible in empty
                    if visible
                    and stored(value := shown_value(scope, keys, labelled_only=True))
                    and not _words(value) <= shown_in_form
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
                        _main_heading(scope)
                        if node is lead and keys & _TITLE_KEYS and not record_item
                        else ""
                    )
                )
                # A tags widget may keep its input empty and show the stored values as chips
                # beside it: a value the form itself shows is not dropped.
                and not _words(value) <= shown_in_form
            ]
            dropped += replaced_values(fields, scope, record_item=record_item)
            # (a body that mentions its own title is no chip beside the title's input: not filtered)
            dropped += _dropped_title(page, fields, scope, {n for n, _ in dropped})
            dropped += [
                (name, text)
                for name, text in _dropped_by_position(
                    page, fields, resource, scope, {n for n, _ in dropped}, fetch, config
                )
                if stored(text) and not _words(text) <= shown_in_form
            ]
            if record_item:
                dropped += dropped_address(fields, scope, base_url(resource), {n for n, _ in dropped})
            if dropped:
                findings.append(_dropping(page, resource, fields, dropped))
            break  # the first resource page that answered is the one the form edits
    return findings


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
        ),
        shape=page_shape(page),
    )
