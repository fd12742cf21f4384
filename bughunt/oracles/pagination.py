"""Duplicate items across the pages of a paginated list.

The page is compared with its previous page only (rel=prev, a "previous" control, or the same URL
with page N-1, from links and HTMX buttons alike; for a state the browser reached by clicking a
pager's "2"/"Next" at the same URL, the page it was clicked on), so a repeated item is reported
once, on the page that repeats it. A number in the path (`/feed/3`) is a page number only when the
list's own pager says so — a rel=prev or "previous" control, or N-1 among the links of a pager:
`/tag/93` linking `/tag/92` from a related-tags box, or `/c/2` linking `/c/1` from a category menu,
is another list. A parameter named as a page (`?page=3`, `?p=3`) says so itself.

A click in place that appends the next batch to the list shown ("More") is judged on the rendered
list after it: an item shown twice there, each shown once before the click, is a repeat.

Lists are runs of same-structure items, found among mixed siblings (previews beside tabs and a
pager) and matched by their position in the page (container path + item signature). When the page
has a pager, only the runs in the pager's nearest enclosing container count: that is the list the
pager pages. Page furniture is skipped: lists inside `nav`/`header`/`footer` (or ARIA
navigation/banner/contentinfo/menu roles), and lists that are the same or nearly the same on both
pages (a menu whose current item is not a link, a tag cloud).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from urllib.parse import urlencode, urlsplit, urlunsplit

from bughunt.actions import form_submission
from bughunt.dom import Node
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
from bughunt.oracles.list_finding import _HEADING_TAGS
from bughunt.oracles.listed_twice import listed_twice
from bughunt.oracles.lists import (
    clicked_previous_page,
    find_lists,
    first_page_number,
    identities,
    is_pager,
    item_facts,
    item_runs,
    item_title,
    other_pages,
    pager_nodes,
    targets,
)
from bughunt.oracles.offset_first import first_page_of_offset
from bughunt.oracles.offset_steps import offset_pagers
from bughunt.oracles.pager_by_shape import previous_by_shape
from bughunt.oracles.reading import (
    KEPT,
    is_cursor,
    is_cursor_key,
    is_offset_key,
    is_page_key,
    page_param,
    page_value,
    resolve,
)
from bughunt.oracles.server_error import error_key
from bughunt.page import FetchedPage, base_url
from bughunt.sim.route_keys import query_pairs
from bughunt.tree_facts import tree_facts
from bughunt.urls import same_origin

_FURNITURE_TAGS = frozenset({"nav", "header", "footer"})
FURNITURE_ROLES = frozenset({"navigation", "banner", "contentinfo", "menu", "menubar", "tablist"})
_PATH_NUMBER = re.compile(r"/(\d{1,4})/?$")
NEARLY_SAME = 0.75
"""Share of a list's items also on the previous page above which the list is furniture."""
_PREV_TEXT = re.compile(
    r"^(?:[«‹←<]{1,2}\s*)?(?:prev|previous)(?:\s*page)?(?:\s*[«‹←<]{1,2})?$|^[«‹←]$", re.I
)
"""A control back: "Previous", "‹ Prev", and drawn with ASCII arrows as older templates do ("<< previous")."""


def furniture(node: Node) -> bool:
    """Inside a menu, header or footer: the same on every page, never the paginated content. A footer
    is also the element a template names so (`<div id="footer">`, `class="footer"`: the layouts
    written before HTML5's `footer`, their credits and render time under every page)."""
    return any(frame_element(n) for n in (node, *node.ancestors()))


def frame_element(n: Node, roles: frozenset[str] = FURNITURE_ROLES) -> bool:
    """Whether `n` itself is a piece of the page's frame (`furniture`'s reading of one element)."""
    return (
        n.tag in _FURNITURE_TAGS
        or n.get("role") in roles
        or n.get("id") == "footer"
        or "footer" in n.get("class").split()
    )


def _scope(page: FetchedPage, runs: list[tuple[Node, str, list[Node]]]) -> list[tuple[Node, str, list[Node]]]:
    """The runs the page's pager pages: those inside the pager's nearest ancestor holding a run. A
    run of items without words (search fields beside the pager, in a table's header row) is the
    list's controls, not a list the pager pages (nor are a form's labelled fields, left out before:
    `_fields_only`)."""
    pagers = pager_nodes(page)
    if not pagers:
        return runs
    pager_ids = {id(p) for p in pagers}
    for ancestor in pagers[0].ancestors():
        inside = [
            r
            for r in runs
            if id(r[0]) not in pager_ids
            and any(i.text() for i in r[2])
            and not any(id(a) in pager_ids for a in r[0].ancestors())
            and (r[0] is ancestor or any(a is ancestor for a in r[0].ancestors()))
        ]
        if inside:
            return inside
    return runs


_FIELD_TAGS = frozenset({"input", "select", "textarea"})
_FIELD_WORDS = frozenset({"label", "option", "optgroup", "button", "legend"})


def _fields_only(item: Node) -> bool:
    """Whether the item is a form field's wrapper: it holds a field (an input that is not hidden, a
    select, a textarea) and no link, and either a `label` or no words but those of its labels,
    options and buttons ("Payer" + "Any payer, Amina, …"; "What?" + an input + its help text). A
    row of records with a checkbox for bulk actions has no label of its own and words (or a link)
    of its own, so it stays a list item."""
    fields = 0
    labelled = False
    for node in item.iter():
        if node.tag == "a" and node.get("href").strip()[:1] not in ("", "#"):
            return False  # a link somewhere ("Everyone"/"No one" on `#` pick the field's boxes)
        if node.tag in _FIELD_TAGS and node.get("type").lower() != "hidden":
            fields += 1
        labelled = labelled or node.tag == "label"
    if not fields:
        return False
    if labelled:
        return True
    words = len("".join(item.text().split()))
    held = sum(
        len("".join(n.text().split())) for n in item.iter() if n.tag in _FIELD_WORDS and not _in_words(n)
    )
    return words <= held


def _in_words(node: Node) -> bool:
    """Inside another label/option/button (its words are counted with that one's)."""
    return any(a.tag in _FIELD_WORDS for a in node.ancestors())


def _content_items(page: FetchedPage) -> dict[str, list[Node]]:
    """Lists by position (container path + item signature), keeping positions that occur once on
    the page, as their items. Kept with the page (read-only): a page is compared as the current one
    and, reused by the session, again as the next one's previous page."""
    return page.derived(_items_by_position)


def _items_by_position(page: FetchedPage) -> dict[str, list[Node]]:
    # A run of form fields (a filter form's "Search", "Payer", "Start date" boxes in the toolbar
    # that holds the pager; an add-record form in a dialog) is a form's layout, never what a pager
    # pages: read as a list it hid the table of records beside it from `_scope`, or repeated its
    # labels on every page.
    frames = _pager_holders(page)
    runs = [
        (c, sig, [i for i in items if id(i) not in frames] if frames else items)
        for c, sig, items in item_runs(page.document)
        if not is_pager(c, items)
        and not furniture(c)
        and not all(_fields_only(i) for i in items)
        and not all(_holds_menu(i) for i in items)
    ]
    by_key: dict[str, list[tuple[Node, list[Node]]]] = {}
    for container, sig, items in _scope(page, runs):
        by_key.setdefault(f"{container.path()} > {sig}", []).append((container, items))
    kept: dict[str, list[Node]] = {}
    for key, lists in by_key.items():
        if len(lists) == 1:
            kept[key] = lists[0][1]
            continue
        # Lists of one shape at one place (an admin page's alias and mailbox tables, both
        # `table.table > tbody > tr`) are told apart by the id the page gives one (`#mailbox_table`):
        # one of its own on the page is the same list on the page before. The others stay unread.
        named: dict[str, list[list[Node]]] = {}
        for container, items in lists:
            if (name := _own_id(container)) is not None:
                named.setdefault(f"{key} #{name}", []).append(items)
        kept.update({k: ls[0] for k, ls in named.items() if len(ls) == 1})
    return kept


def _own_id(container: Node) -> str | None:
    """The id of the list's container or its nearest ancestor with one, up to its table or its block
    (a `tbody`'s `table#mailbox_table`); None without one."""
    for node in (container, *container.ancestors())[:3]:
        if node.get("id"):
            return node.get("id")
    return None


_MENU_ROLES = frozenset({"menu", "menubar", "listbox"})


def _holds_menu(item: Node) -> bool:
    """An item holding a menu (an element of role menu, menubar or listbox): a run of them is a widget
    toolkit's popup layer, the wrappers it parks at the document's end for its menus and selects
    (Dijit's `dijitPopup`, ExtJS's floating menus, MUI and Bootstrap popovers). Their items are
    commands, the same on every state, never the records a pager pages; each new menu opened adds a
    wrapper, so the run differs from state to state and read as a list it "repeated" its first menu.
    Only a wrapper whose words are all its menus': a record's row with its own "⋮" menu inside
    (Bootstrap's per-row dropdown) has its name outside the menu."""
    menus = [n for n in item.iter() if n.get("role") in _MENU_ROLES]
    outer = {id(m) for m in menus}
    tops = [m for m in menus if not any(id(a) in outer for a in m.ancestors())]
    return bool(tops) and item.text().split() == [w for m in tops for w in m.text().split()]


def _pager_holders(page: FetchedPage) -> set[int]:
    """Ids of the elements holding two or more links to the list's other pages. An item holding the
    pager is the page's frame around the list (a layout's content row beside its links and footer
    rows, `div.row` each, the pager loose links in the content's column), not an item the pager pages:
    its identity would be the pager's last link, the same on every page but the last, and the rows
    beside it, the same on every page, would read as repeated items there."""
    # an offset pager's own links too (`offset_steps`: `?limit=10` named as a size, stepping by rows)
    others = set(other_pages(page)) | {url for p in offset_pagers(page) for url in p.pages}
    if not others:
        return set()
    base = base_url(page)
    held: dict[int, int] = {}
    for node, href in targets(page.document):
        url = resolve(base, href) if node.tag == "a" else None
        if url is not None and (url in others or url.split("#", 1)[0] in others):
            for ancestor in node.ancestors():
                held[id(ancestor)] = held.get(id(ancestor), 0) + 1
    return {key for key, n in held.items() if n >= 2}


def _content_lists(page: FetchedPage) -> dict[str, list[set[str]]]:
    """`_content_items` as item identities (kept with the page, like its items)."""
    return page.derived(_identities_by_position)


def content_items(page: FetchedPage) -> dict[str, list[Node]]:
    """The page's content lists by position, as their items (`_content_items`)."""
    return _content_items(page)


def content_lists(page: FetchedPage) -> dict[str, list[set[str]]]:
    """The page's content lists by position, as their items' identities (`_content_lists`)."""
    return _content_lists(page)


def _identities_by_position(page: FetchedPage) -> dict[str, list[set[str]]]:
    base, memo = base_url(page), item_facts(page)
    return {key: identities(items, base, memo) for key, items in _content_items(page).items()}


def _titles(page: FetchedPage) -> dict[frozenset[str], str]:
    base, memo = base_url(page), item_facts(page)
    lists = [items for _, _, items in item_runs(page.document)]
    lists += [items for _, items in find_lists(page.document)]
    return {
        frozenset(keys): item_title(i, memo, base)
        for items in lists
        for i, keys in zip(items, identities(items, base, memo), strict=True)
    }


@lru_cache(maxsize=KEPT)
def page_number(url: str) -> tuple[str, int, bool] | None:
    """(pattern, page number, named) when the URL carries a page number: a parameter named as a page
    (`?page=3`: named, the site says so) or the path's last segment (`/feed/3`: not named — a page
    number only if the pager agrees, see `previous_page_url`)."""
    parts = urlsplit(url)
    named = page_param(parts.query)
    if named is not None:
        key, number = named
        rest = re.sub(rf"(?<![^&?]){re.escape(key)}=[^&]*", f"{key}=#", parts.query)
        return f"{parts.path}?{rest}", number, True
    if (worded := _worded_page(parts.path, parts.query)) is not None:
        where, text, worded_at = worded
        pattern = text[: worded_at.start("n")] + "#"
        return (f"{parts.path}?{pattern}" if where == "query" else pattern), int(worded_at.group("n")), True
    match = _PATH_NUMBER.search(parts.path)
    if match:
        return parts.path[: match.start()] + "/#", int(match.group(1)), False
    return None


_WORDED_PAGE = re.compile(r"(?:^|/)page(?P<n>\d{1,4})/?$")
"""A last segment naming its page in one word (`page3`): as `?page=3` does, the word says it."""


def _worded_page(path: str, query: str) -> tuple[str, str, re.Match[str]] | None:
    """Where a URL names its page as a segment `page<N>`: the last segment of a query written as a path
    (a front controller's `index.php?page3`, `?author001/alice/page6`: no key, no `=`), or of the path
    itself (a static site's `/page2/`, `/blog/page3/`). ("query" or "path", that text, the match.) The
    list's first page is its address without that segment. Families: PHP flat-file blogs routing by a
    query path (PluXml), static site generators' default pager paths (Jekyll's `/page2/`, Octopress)."""
    if query and "=" not in query and (match := _WORDED_PAGE.search(query)):
        return "query", query, match
    if not query and (match := _WORDED_PAGE.search(path)):
        return "path", path, match
    return None


def _in_sequence(current: str, previous: str, first: int = 1) -> bool:
    """Whether `previous` can be the page before `current` in one list: the same URL with page N-1,
    or the bare list URL before the second page (`/news` → `/news?p=2`, `/` → `/feed/2`; `?page=1`
    when the pager counts from `first` 0). A "previous post" link between two articles is not:
    their lists (comments, sidebars) are not one sequence."""
    here, there = page_number(current), page_number(previous)
    if here is None:
        return False
    if there is not None:
        return there[0] == here[0] and there[1] == here[1] - 1
    return here[1] == first + 1


def _in_pager(page: FetchedPage, controls: list[tuple[Node, str | None]]) -> list[tuple[Node, str | None]]:
    """The controls inside the page's pagers (lists `is_pager` recognises)."""
    pagers = {id(p) for p in pager_nodes(page)}
    return [(n, url) for n, url in controls if pagers and any(id(a) in pagers for a in n.ancestors())]


def previous_page_url(page: FetchedPage) -> str | None:
    """The previous page of a paginated list, as its pager gives it: a rel=prev link or a "previous"
    control in sequence with this URL (links and `hx-get`/`data-href` buttons alike), else the URL
    with N-1 — among all the page's controls when N is a named page parameter, among the pager's own
    links only when N is a path segment. (Looking everywhere for a path's N-1 read numeric
    identifiers as page numbers: `/tag/92` from the related tags of `/tag/93` was compared as its
    previous page and reported as a duplicate, and every `/c/2` fetched `/c/1` from its menu.) A
    named page parameter with no control back to N-1 (a "Load more" page) gives the URL with N-1.

    Kept with the page: the pagination oracle and the empty-page check of the count oracle
    (`pager_empty`) both ask it of every page of a list, and it reads each of the page's links."""
    return page.derived(_previous_page_url)


def _previous_page_url(page: FetchedPage) -> str | None:
    here = page_number(page.url)
    if here is None:
        # no page number to be in sequence with (`_in_sequence`): most pages, no control read — but
        # an offset pager's page (`?first=20`) names the rows it starts at, and a cursor pager's
        # (`?before=58`) the record it starts past
        if _offset(page.url) is not None:
            return _previous_by_offset(page)
        if _cursor(page.url) is not None:
            return _previous_by_cursor(page)
        # a key no reading names as an offset that the page's own links step by a page's rows
        # (`?limit=10` beside `?limit=0`, `?limit=20`: `offset_steps`)
        stepped = next((p.previous for p in offset_pagers(page) if p.here and p.previous), None)
        if stepped is not None:
            return stepped
        # a key no reading names (`?pg=3`, a framework's own): the page's links say it pages
        return previous_by_shape(page)
    base = base_url(page)
    controls = [(n, resolve(base, href)) for n, href in targets(page.document)]
    candidates = [
        url
        for n, url in controls
        if n.tag in ("a", "link")
        and n.get("rel")
        and {"prev", "previous"} & set(n.get("rel").lower().split())
    ]
    candidates += [url for n, url in controls if n.tag != "link" and _PREV_TEXT.match(n.text())]
    first = first_page_number(page)
    for url in candidates:
        if url and _in_sequence(page.url, url, first):
            return url
    if here[1] <= first:
        return None
    for _, url in controls if here[2] else _in_pager(page, controls):
        there = page_number(url) if url else None
        if there and there[0] == here[0] and there[1] == here[1] - 1:
            return url
    # A page reached by a "Load more" control has no way back (htmx loads `?page=2` into the page
    # the button was on): a parameter named as a page says where page N-1 is all the same.
    return _with_page(page.url, here[1] - 1) if here[2] else None


_NEWER_TEXT = re.compile(r"^(?:[«‹←<]+\s*)?(?:newer|more recent)\b[\w\s]{0,20}$", re.I)
"""The control back to the page before in a list newest first ("<< more recent", "← Newer posts")."""


def _offset(url: str) -> tuple[str, int] | None:
    """The offset parameter of `url` and its value, or None."""
    for k, v in query_pairs(urlsplit(url).query, decoded=True):
        if is_offset_key(k) and re.fullmatch(r"-?\d{1,7}", v.strip()):
            return k, int(v)
    return None


def _cursor(url: str) -> tuple[str, str] | None:
    """The cursor parameter of `url` and its value (`reading.is_cursor`), or None."""
    for k, v in query_pairs(urlsplit(url).query, decoded=True):
        if is_cursor(k, v):
            return k, v
    return None


def _without(
    url: str, keys: frozenset[str] | Callable[[str], bool]
) -> tuple[str, frozenset[tuple[str, str]]]:
    """The URL's path and its query pairs but those of `keys` (lower case, or the keys it says yes to)."""
    parts = urlsplit(url)
    drop = keys if callable(keys) else keys.__contains__
    return parts.path, frozenset(
        (k, v) for k, v in query_pairs(parts.query, decoded=True) if not drop(k.lower())
    )


def _previous_by_offset(page: FetchedPage) -> str | None:
    """The page before an offset pager's page: a control back (`_back_controls`) to the same URL
    with a smaller offset, or none."""
    key, here = _offset(page.url) or ("", 0)
    same = _without(page.url, frozenset({key.lower()}))
    back = _back_controls(page)
    for url in back:
        if _without(url, frozenset({key.lower()})) == same and (_offset(url) or (key, -1))[1] < here:
            return url
    return None if back or here <= 0 else first_page_of_offset(page.url)


def _previous_by_cursor(page: FetchedPage) -> str | None:
    """The page before a cursor pager's page: a control back (`_back_controls`) to the same URL with
    another cursor or none (the list's first page); with no control back at all (a pager that only
    goes on: "Next page" with `?_next=20`), the list's first page, the URL without its cursor. A
    "Newer" that opens the first page from every page is taken all the same: only the page right
    after the first can repeat it, and a list that pages right shares no item of its first page with
    any later one."""
    same = _without(page.url, is_cursor_key)
    back = _back_controls(page)
    found = next((u for u in back if u != page.url and _without(u, is_cursor_key) == same), None)
    if found is not None or back:
        return found
    parts = urlsplit(page.url)
    kept = [(k, v) for k, v in query_pairs(parts.query, decoded=True) if not is_cursor(k, v)]
    return urlunsplit(parts._replace(query=urlencode(kept)))


def _back_controls(page: FetchedPage) -> list[str]:
    """Where the page's controls back lead: rel=prev or "previous"/"newer" controls — links, or GET
    forms that are only a button (`<form><input type=hidden name=first value=0><button>`)."""
    base = base_url(page)
    controls = [(n, resolve(base, href)) for n, href in targets(page.document)]
    for form in tree_facts(page).tagged("form"):
        fields = [f for f in form.iter() if f.tag in ("input", "select", "textarea")]
        if form.get("method", "get").strip().lower() in ("", "get") and all(
            f.get("type").lower() in ("hidden", "submit") for f in fields
        ):
            controls.append((form, form_submission(form, resolve(base, form.get("action")) or page.url)))
    return [
        url
        for node, url in controls
        if url
        and (
            {"prev", "previous"} & set(node.get("rel").lower().split())
            or _PREV_TEXT.match(node.text().strip())
            or _NEWER_TEXT.match(node.text().strip())
        )
    ]


def _with_page(url: str, number: int) -> str:
    """`url` with its named page parameter set to `number` (the first such parameter only)."""
    parts = urlsplit(url)
    if (worded := _worded_page(parts.path, parts.query)) is not None:
        where, text, match = worded
        lead, tail = match.group()[: match.group().index("page")], "/" if text.endswith("/") else ""
        # page 1 is the list's own address: the segment left out (`?author001/alice`, `/blog/`)
        text = text[: match.start()] + (f"{lead}page{number}{tail}" if number > 1 else tail)
        text = text or ("" if where == "query" else "/")
        changed = parts._replace(query=text) if where == "query" else parts._replace(path=text)
        return urlunsplit(changed._replace(fragment=""))
    pairs = query_pairs(parts.query, decoded=True)
    at = next(i for i, (k, v) in enumerate(pairs) if is_page_key(k) and page_value(v) is not None)
    pairs[at] = (pairs[at][0], str(number))
    return urlunsplit(parts._replace(query=urlencode(pairs), fragment=""))


def _previous_page(page: FetchedPage, fetch: Fetch | None) -> FetchedPage | None:
    """The page before this one in its list: the one a pager click was made on, else the previous
    page's URL fetched (same origin only)."""
    clicked = clicked_previous_page(page)
    if clicked is not None or fetch is None:
        return clicked
    prev_url = previous_page_url(page)
    if not prev_url or prev_url == page.url or not same_origin(prev_url, page.url):
        return None
    previous = fetch_or_none(fetch, prev_url, "pagination")
    if previous is None:
        return None
    if _offset(page.url) is not None and not _back_controls(page) and not _links_to(previous, page.url):
        # An offset page with no control back (`offset_first`) follows the list's first page only
        # when that page links on to it: a list reached another way starts where its own link said.
        return None
    if _cursor(page.url) is not None and _cursor(prev_url) is None and not _links_to(previous, page.url):
        # The first page of a cursor pager stands for the page before only when it pages on to this
        # one: a cursor carried into another list's link (a filter added on page 3 of the unfiltered
        # list, `?_next=40&branch=2`) starts that list past rows its own first page may show.
        return None
    return previous


def _links_to(page: FetchedPage, url: str) -> bool:
    """Whether `page` links to `url` (the same path and query pairs, however encoded)."""
    want = _without(url, frozenset())
    base = base_url(page)
    return any(
        (u := resolve(base, href)) and _without(u, frozenset()) == want for _n, href in targets(page.document)
    )


def _appended(page: FetchedPage) -> list[Finding]:
    """A click in place that grew a list ("More", "Load more": the next batch appended to the items
    shown) and appended an item the list already showed: the same text as an item shown before the
    click (texts unique there), and, where that item had a link or label of its own, none to tell
    them apart — an item's identity is unique in its list (`identities`), so set beside the items
    shown before, it and that item lose their identities together (a second post by one author
    keeps its own text; two posts alike in words keep their own permalinks). Only a list that still
    starts with the items shown before grew: a sort header's click that redrew a longer page of the
    list in another order is no batch appended (corpus ho13_aiohttp_admin's clean build)."""
    if page.clicked_from is None or page.redirects:
        # A GET redirected back to the page it was clicked on (a toggle's Post/Redirect/Get without
        # the POST) loaded that page anew: its list is the state after the action, no batch appended.
        return []
    origin = page.clicked_from[0]
    base = base_url(page)
    before_lists = _content_items(origin)
    for key, items in _content_items(page).items():
        before = before_lists.get(key, [])
        if not before or len(items) <= len(before):
            continue
        texts = [" ".join(i.text().split()) for i in before]
        if len(set(texts)) < len(texts):
            continue  # texts that repeat before the click identify nothing
        if [" ".join(i.text().split()) for i in items[: len(before)]] != texts:
            # A batch appended leaves the items shown before where they were: a list whose head
            # changed was replaced (sorted anew, another page, filtered), and an item it shares
            # with the list before is the same record in its new place, not one shown twice.
            continue
        known = identities(before, base_url(origin))
        repeated: list[Node] = []
        for new in items[len(before) :]:
            text = " ".join(new.text().split())
            if not text or text not in texts:
                continue
            at = texts.index(text)
            if not known[at]:
                repeated.append(new)  # nothing but its text tells it apart, and the text is the same
                continue
            together = identities([*before, new], base)
            if not together[at] and not together[-1]:
                repeated.append(new)
        if not repeated:
            continue
        return [_repeats(page, [short(item_title(i), 80) for i in repeated], origin.url, key)]
    return []


_NUMBER = re.compile(r"\d+")


def _gist(item: Node) -> str:
    """An item's words, numbers aside: a repeated item shows them again (its rank, `11.` on one page
    and `10.` on the other, may move). Entries of a log that name one resource (two revisions of an
    article, each linking to it) share an identity but not their words: other entries, no repeat."""
    return _NUMBER.sub("#", " ".join(item.text().split()))


def _same_words(here: list[Node], before: list[Node]) -> bool:
    """Whether two lists read the same, item by item (their whole text): a strip of tabs and menus
    ("List (85)", "Create", "Add filter", a page-size menu) whose links carry each page's own address
    (`?url=/list?page=1`, `?page=1&page_size=10`) is the same list on both pages though no identity
    matches — the page's furniture. Records of two pages never all read alike (a list that ignores
    its page number is left alone already: `items == before`)."""
    return len(here) == len(before) and all(
        " ".join(a.text().split()) == " ".join(b.text().split()) for a, b in zip(here, before, strict=True)
    )


def check_duplicate_pagination(
    page: FetchedPage, fetch: Fetch | None = None, config: OracleConfig = DEFAULT_CONFIG
) -> list[Finding]:
    if not page.is_html or page.status >= 400:
        return []
    # a repeat across pages (or a batch appended) is the one to name; else a record the page lists twice
    return _across_pages(page, fetch) or listed_twice(page, lambda: _content_items(page))


def _across_pages(page: FetchedPage, fetch: Fetch | None) -> list[Finding]:
    previous = _previous_page(page, fetch)
    if previous is None or previous.status >= 400 or not previous.is_html:
        return _appended(page)
    here, there = _content_lists(page), _content_lists(previous)
    for key, items in here.items():
        if key not in there or not items:
            continue
        before = there[key]
        if items == before or _same_words(_content_items(page)[key], _content_items(previous)[key]):
            continue  # the same list on both pages: furniture, not the paginated content
        shown_before: dict[str, set[str]] = {}
        for keys, node in zip(before, _content_items(previous)[key], strict=True):
            for k in keys:
                shown_before.setdefault(k, set()).add(_gist(node))
        # An item leading both pages (a profile's header drawn like the posts under it, a pinned
        # post) is the page's own, not one the pager carried over from the end of the page before;
        # so is a bare line (no link, no heading) standing at the same place in lists of one length
        # (a footer's copyright line closing both pages beside a line that changes, "time to display:
        # 0.4 s"): a record carries its link or its heading wherever the pager puts it.
        placed = {k: at for at, keys in enumerate(before) for k in keys} if len(items) == len(before) else {}
        # ... and so are the items leading both pages alike, in order: the page's fixed sections above
        # the one whose rows change (an admin overview's domain and alias-domain panels, a summary card)
        lead = next((i for i, (a, b) in enumerate(zip(items, before, strict=False)) if a != b), len(items))
        at_ = [
            at
            for at, (keys, node) in enumerate(zip(items, _content_items(page)[key], strict=True))
            if keys
            and any(_gist(node) in shown_before.get(k, ()) for k in keys)
            and not (at < lead and before[at] == keys)
            and not (any(placed.get(k) == at for k in keys) and _bare_line(node))
        ]
        repeated = [items[at] for at in at_]
        if not repeated or (len(items) >= 3 and len(repeated) >= NEARLY_SAME * len(items)):
            continue
        titles = _titles(page)  # only for a finding: it reads every list of the page
        names = [short(titles.get(frozenset(k), "") or sorted(k)[0], 80) for k in repeated]
        carried = len(at_) if at_ == list(range(len(at_))) and before[-len(at_) :] == repeated else None
        return [_repeats(page, names, previous.url, key, carried, _record_form(repeated[0], page.url, key))]
    return []


def _bare_line(item: Node) -> bool:
    """An item of text alone: no link and no heading in it."""
    return not any(n.tag == "a" or n.tag in _HEADING_TAGS for n in item.iter())


def _pager_key(url: str) -> str:
    """The query key that names the page of `url` in its list (`page`, `offset`, `_next`), or the path
    when a path segment does (`/posts/2`)."""
    for k, v in query_pairs(urlsplit(url).query, decoded=True):
        if is_page_key(k) or is_offset_key(k) or is_cursor(k, v):
            return k.lower()
    return "/"


def _record_form(identity: set[str], url: str, key: str) -> str:
    """What kind of record a list item is, by its identity's form: a permalink's depth and query keys
    (values and words aside: `/post/3` and `/post/hello` are one kind, a repository's `/atlas/` and a
    commit's `/atlas/commit/?id=` two), marked when it leaves the page's site. An item named by its
    title or text tells no kind but by the list drawing it (`key`, its place and its items' look): a
    queue's rows of jobs and a key browser's rows of raw values, both text, are two kinds."""
    first = min(identity)
    kind, _, value = first.partition(":")
    if kind != "href":
        return f"{kind} in {key}"
    link, here = urlsplit(value), urlsplit(url)
    depth = "/" * len([s for s in link.path.split("/") if s])
    keys = "&".join(sorted({k for k, _ in query_pairs(link.query, decoded=True)}))
    return ("away " if link.netloc != here.netloc else "") + f"{depth}?{keys}"


def _repeats(
    page: FetchedPage,
    names: list[str],
    previous_url: str,
    key: str,
    carried: int | None = None,
    records: str = "",
) -> Finding:
    # One finding per page: the template names no page text (titles and list are evidence).
    # `list_key`: where the list sits and what its items look like, as a number (no page text in
    # memory): one list template paged wrong under two views of one collection is one root cause.
    # `boundary_key`: the last `carried` items of the page before open this one, under one pager key —
    # the off-by-one of a site's one slicing helper, whichever list it pages (a blog's front page, its
    # tag, category, author and admin lists, each drawn by a template of its own): one root cause on
    # any route (`inspection._ANY_ROUTE`) — as long as the lists page one kind of record (`records`,
    # `_record_form`): two loops of one site sharing a key name (a code host's repository index and a
    # project's commit log, both `?ofs=`) are two pagers, each its own bug.
    facts: dict[str, object] = {"list_key": error_key(key)}
    if carried is not None:
        # (`error_key` reads numbers out of what it digests: the count is added to it, not digested)
        facts["boundary_key"] = error_key(f"{_pager_key(page.url)} | {records}") * 1000 + min(carried, 999)
    return Finding(
        "duplicate_pagination",
        page.route,
        "paginated list repeats items from its previous page",
        evidence(page, names[0], previous_url=previous_url, repeated=quoted(names), list=key, **facts),
        shape=page_shape(page),
    )
