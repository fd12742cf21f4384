"""Finding the pages that may show the record an edit form edits (the form oracle, `forms`).

First the pages the form or its URL names (`resource_urls`: a `data-resource` attribute, a link in or
beside the form, the URL without its edit segment, a page carrying the identifier the edit URL names);
else the pages that link to the form (`referrers`); and another page of a resource's template
(`sibling_instance`), whose text is the template's, not a value.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from bughunt.actions import UNTYPED_INPUTS
from bughunt.dom import Node
from bughunt.fingerprint import IDENTIFIERS, segment_shape
from bughunt.oracles.base import (
    DEFAULT_CONFIG,
    Fetch,
    OracleConfig,
    fetch_or_none,
)
from bughunt.oracles.destructive_words import destructive_action
from bughunt.oracles.form_urls import (
    collection_path,
    edit_like,
    edit_segment,
    names_in_query,
    page_link,
    path_segments,
    record_id,
    url_identifier,
    with_segments,
)
from bughunt.oracles.lists import targets
from bughunt.oracles.reading import resolve
from bughunt.oracles.request_action import marked_action
from bughunt.oracles.server_error import soft_not_found
from bughunt.page import FetchedPage, base_url
from bughunt.sim.route_shapes import front_controller, query_record_shape
from bughunt.tree_facts import tree_facts
from bughunt.urls import hash_route, route_of, same_origin

_NEAR_LINK = re.compile(r"\b(cancel|view|back|show|preview|return|discard|open)\b", re.I)
_RESOURCE_ATTRS = ("data-resource", "data-view", "data-src", "data-source", "data-href")
MAX_RESOURCES = 2
MAX_REFERRERS = 3
"""Pages that link to a form without an identifier opened to find the one showing its record."""


def _data_fields(node: Node) -> int:
    """The fields a person fills in under `node` (not a hidden token, not a button)."""
    return sum(
        1
        for n in node.find_all("input", "textarea", "select")
        if not (n.tag == "input" and n.get("type").lower() in UNTYPED_INPUTS)
    )


def _fields_link(link: Node, form: Node) -> bool:
    """Whether a link in a form belongs to one field: it sits in the field's label, or in the block
    inside the form that holds the field and its label and no other field (`<p><label>Body</label>
    <span><a href="?action=help&id=markdown">…</a></span><textarea>`). A "View" or "Cancel" link
    beside the buttons, or anywhere the nearest block with a field holds several, is the form's."""
    for node in link.ancestors():
        if node is form:
            return False
        if node.tag == "label":
            return True
        fields = _data_fields(node)
        if fields:
            return fields == 1 and bool(node.find_all("label"))
    return False


def _viewed_page(page: FetchedPage) -> str | None:
    """The page an edit URL edits when the page says so: the URL without its edit segment
    (`/guides/setup/_edit/` → `/guides/setup/`), when the edit page links to it (its "View" tab or
    breadcrumb) — the address a wiki or CMS gives a page and its editor alike."""
    segments = path_segments(page.url)
    rest = [s for s in segments if not edit_segment(s)]
    # `/edit` alone names no page: the site's root is not what a bare editor edits (a profile's).
    if not rest or len(rest) == len(segments) or hash_route(urlsplit(page.url).fragment):
        return None
    bare = with_segments(page.url, rest).rstrip("/")
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


def by_identifier(page: FetchedPage, config: OracleConfig) -> list[str]:
    """Resource candidates for an edit page with no link back, through the identifier in its URL."""
    ident = url_identifier(page.url)
    if ident is None:
        return []
    rest = [s for s in path_segments(page.url) if not edit_segment(s)]
    base = base_url(page)
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(page.url))
    urls = [resolve(base, href) for _, href in targets(page.document)]
    urls += [resolve(base, f.get("action")) for f in tree_facts(page).tagged("form") if f.get("action")]
    if config.known_routes is not None:
        urls += [origin + r for r in config.known_routes() if r.startswith("/") and ident in r]
    if len(rest) >= 2:
        urls.append(with_segments(page.url, rest))  # `/items/7/edit` → `/items/7`
    found: list[str] = []
    for url in urls:
        # A URL holding the identifier as a segment holds it as text: memory's thousands of routes
        # are passed over without parsing each (an edit page must not cost more as memory grows).
        if not url or ident not in url:
            continue
        if (
            not same_origin(url, page.url)
            or edit_like(url)
            or (destructive_action(url) or marked_action(url))
        ):
            continue
        segs = path_segments(url)
        if ident in segs:
            candidates: tuple[str, ...] = (with_segments(url, segs[: segs.index(ident) + 1]), url)
        elif names_in_query(url, ident):
            candidates = (url,)  # `Modify.html?id=7` → `Display.html?id=7`
        else:
            continue
        for candidate in candidates:
            if candidate != page.url and candidate not in found:
                found.append(candidate)
    # The resource shares the edit URL's other segments (`/article/edit/7` → `/article/7/<slug>`,
    # not `/profile/7`), then the shortest wins.
    names = set(rest)
    return sorted(found, key=lambda u: (-len(names & set(path_segments(u))), len(path_segments(u))))


_UPDATE_METHODS = frozenset({"put", "patch"})
_METHOD_KEYS = frozenset({"_method", "__method", "_http_method", "x-http-method-override"})


def record_address(form: Node) -> str | None:
    """The record's own address, when the form says it sends there to replace the record: a POST
    overridden to PUT or PATCH (a hidden `_method=patch`: Rails, Laravel, Symfony, Express's
    method-override; or an htmx `hx-put`/`hx-patch`) goes to the record's resource, whose GET is the
    page showing it (`PATCH /projects/internal` beside `GET /projects/internal`) — wherever the form
    stands (`/projects/internal/settings`, a tab of settings)."""
    for attr in ("hx-put", "hx-patch"):
        if form.get(attr):
            return form.get(attr)
    action = form.get("action")
    if not action or form.get("method", "get").lower() != "post":
        return None
    for node in form.find_all("input"):
        if (
            node.get("type").lower() == "hidden"
            and node.get("name").lower() in _METHOD_KEYS
            and node.get("value").strip().lower() in _UPDATE_METHODS
        ):
            return action
    return None


def resource_urls(form: Node, page: FetchedPage, config: OracleConfig = DEFAULT_CONFIG) -> list[str]:
    base = base_url(page)
    hrefs = [form.get(a) for a in _RESOURCE_ATTRS if form.get(a)]
    if (address := record_address(form)) is not None:
        hrefs.append(address)
    # A link in a field's label or its block is that field's (a foreign key's "add" and "edit" buttons
    # lead to the related record, a text area's toolbar to help on its syntax), not the record the form
    # edits; a link to a create page names no stored record.
    hrefs += [
        a.get("href") for a in form.find_all("a") if page_link(a.get("href")) and not _fields_link(a, form)
    ]
    if form.parent is not None:
        hrefs += [
            a.get("href")
            for a in form.parent.find_all("a")
            if _NEAR_LINK.search(a.text()) and page_link(a.get("href"))
        ]
    urls: list[str] = []
    for href in hrefs:
        url = resolve(base, href)
        if url and url != page.url and same_origin(url, page.url) and url not in urls:
            urls.append(url)
    if (viewed := _viewed_page(page)) is not None:
        # Links inside an editor's form are its tools (move, delete, preview), not the page it edits.
        urls = [viewed, *(u for u in urls if u != viewed)]
    ident = url_identifier(page.url)
    if not urls or (ident is not None and not any(ident in path_segments(u) for u in urls)):
        # A "Back" link to the list (`/items`) leads away from the record the URL names
        # (`/items/7/edit`): the pages carrying the identifier come first — and the list after them,
        # where the record's row (the item linking to this form) shows what its page may not (`forms`).
        back = urls[:1]
        urls = list(dict.fromkeys([*by_identifier(page, config), *urls]))
        return list(dict.fromkeys([*urls[:MAX_RESOURCES], *back]))
    return urls[:MAX_RESOURCES]


def referrers(page: FetchedPage, config: OracleConfig) -> list[list[str]]:
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
    listing = collection_path(page.url)
    # A form that names no record (`/settings`) is not another record's: pages naming one
    # (`/users/51`, another player's profile) come after the lists and pages that name none.
    unnamed = listing is None and record_id(page.url) is None

    def rank(u: str) -> tuple[bool, bool, int]:
        named = unnamed and any(segment_shape(seg) in IDENTIFIERS for seg in path_segments(u))
        return (path_segments(u) != listing, named, -len(path_segments(u)))

    out: list[list[str]] = []
    for urls in rounds:
        kept = [
            url
            for url in dict.fromkeys(urls)
            if url != page.url and not edit_like(url) and not (destructive_action(url) or marked_action(url))
            and all(url not in done for done in out)
        ]  # fmt: skip
        out.append(sorted(kept, key=rank)[:MAX_REFERRERS])
    return out


def sibling_instance(resource: FetchedPage, fetch: Fetch, config: OracleConfig) -> FetchedPage | None:
    """Another page of the resource's template that memory knows, fetched; None when there is none
    or it does not answer."""
    if config.known_routes is None:
        return None
    segments = path_segments(resource.url)
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(resource.url))
    for route in config.known_routes():
        if route == resource.route or not route.startswith("/"):
            continue
        url = origin + route
        other = path_segments(url)
        # One template: the same collection and depth (`/article/8/<slug>` beside `/article/7/<slug>`),
        # not an edit or destructive page of it, nor another page of this record (`?page=2` of a
        # profile shows its header again: the record's words, not the template's).
        if (
            (urlsplit(url).path == urlsplit(resource.url).path and not query_twins(url, resource.url))
            or len(other) != len(segments)
            or other[:1] != segments[:1]
            or edit_like(url)
            or (destructive_action(url) or marked_action(url))
        ):
            continue
        sibling = fetch_or_none(fetch, url, "form")
        if sibling is None:
            return None
        return sibling if sibling.status < 400 and sibling.is_html and sibling.url != resource.url else None
    return None


def query_twins(a: str, b: str) -> bool:
    """Two records one script shows by its query (`index.php?article2/server-move` and
    `?article5/community-call`, `?p=12` and `?p=13`): the same front controller (`front_controller`),
    queries of one shape (`query_record_shape`) and different text. Their path is the same, yet they are
    two records of one template as `/article/2/…` and `/article/5/…` are; another page of the same
    record differs in shape (`?article2/server-move/page2`, `?p=12&page=2`)."""
    sa, sb = urlsplit(a), urlsplit(b)
    return (
        sa.path == sb.path
        and front_controller(sa.path)
        and bool(sa.query)
        and sa.query != sb.query
        and query_record_shape(sa.query) == query_record_shape(sb.query)
    )


def fetched(fetch: Fetch, url: str) -> FetchedPage | None:
    resource = fetch_or_none(fetch, url, "form")
    if resource is None:
        return None
    # A not-found page answered 200 (the URL without its edit segment names no page) is no record.
    return resource if resource.status < 400 and resource.is_html and not soft_not_found(resource) else None
