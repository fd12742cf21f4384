"""The shape of a route from its URL alone (`route_shape`: variable parts replaced, `/a/7` is `/a/<n>`), the
planner's page type when no page is read; and which paths route by their query (`front_controller`).

Cut from `planner` (a pure move): the explorer's templates and record views ask it too."""

from __future__ import annotations

import re
from functools import lru_cache

from .route_keys import query_parts

_NUMBER = re.compile(r"^\d+$")


_ID = re.compile(
    r"^(?=[0-9a-fA-F.-]*\d)(?:[0-9a-fA-F]{8,}(?:-[0-9a-fA-F]{4,})*|[0-9a-f]{7,40}(?:\.{2,3}[0-9a-f]{7,40})?)$"
)
"""A record's generated identifier: a long hexadecimal one or a UUID, or a version's hash as version
control abbreviates it (7 lowercase hex digits and more) and a range of two (`2e09a6f..9b6bc80`, a
git-backed wiki's compare page), so one page's revisions are one page type, not one each."""
_SLUG = re.compile(r"^[0-9A-Za-z]+(?:[-_.~][0-9A-Za-z]+)+$")
_ESCAPED = re.compile(r"%[0-9A-Fa-f]{2}")
"""A percent-escape in a path segment: what a framework routes by is a name written in its code
(`/tickets`, `/my-profile`), never one with a space, quote or parenthesis in it. A segment carrying
one holds a value the app wrote into the path — a title (`/wiki/Main%20Page`, a file's name), a tag
of two words, a saved query (`/feeds/Status%20=%20'open'`) — as a slug does with its hyphens."""


def _shape_value(value: str) -> str:
    if _NUMBER.match(value):
        return "<n>"
    if _ID.match(value):
        return "<id>"
    if _SLUG.match(value) and not value.replace(".", "").isalpha():
        return "<slug>"
    if _ESCAPED.search(value):
        return "<slug>"
    return value


_SCRIPT_PATH = re.compile(r"\.(?:php\d?|phtml|cgi|pl|aspx?|jsp|cfm)$", re.I)
"""A path that names a script (`/doku.php`, `/index.php`, `/cgi-bin/wiki.cgi`): a front controller,
which routes by its query what other sites route by their path."""
_QUERY_WORD = re.compile(r"^[a-z]{2,24}$|^[A-Za-z][a-z]+(?:[A-Z][a-z]+){1,5}$")
"""A word a view key's value names a page type with: lowercase (`recent`), or a class-like name of
a few capitalised words (`BoardViewController`, `taskModification`) as query-routed apps name their
controllers; not a record's key (`Start`, `ABC12`)."""
_HANDLER_WORD = re.compile(r"^[a-z]{2,16}(?:_[a-z]{2,16}){1,3}$")
"""An action key's value of a few lowercase words joined by underscores (`manage_users`, `edit_user`),
as plain PHP and Python handlers are named: on a directory's address a page type too (a page key's
`?page=my_notes` may be a record's name, an action's is the handler's)."""
KEY_MARKS = "@$:_"
"""Marks a framework puts before its own query keys so they never clash with a form's fields
(`?@action=unlink`, `?_method=…`, OData's `$filter`): `@action` is the framework's `action`."""
ACTION_KEYS = frozenset({"action", "act", "do", "op", "cmd", "task"})
"""View keys that name what the request does. On a directory's address (`/admin/?action=manage_users`,
served by the directory's index script, a front controller of its own: `front_controller`) their value
names the page type even as a handler's name (`manage_users`), where the other view keys' values must be
words. A path of its own routes by its path (`/list?action=show`, `/wiki/Start?action=edit`: a view of
that page)."""
VIEW_KEYS = frozenset(
    {
        "do",
        "action",
        "act",
        "a",
        "op",
        "cmd",
        "mode",
        "view",
        "module",
        "mod",
        "controller",
        "c",
        "task",
        "page",
        # the kind of record a generic script's page shows: a mail admin's `edit.php?table=mailbox` beside
        # `?table=alias`, an admin bundle's `?entity=product&id=3`, a blog engine's `edit.php?post_type=page`
        "table",
        "entity",
        "post_type",
    }
)
"""Query keys by which front controllers choose the page to show (`?do=recent`, `?action=edit`,
`?controller=board&action=show`, `?page=usermanager`): a lowercase word there is the page type asked
for, as a path word names one elsewhere (`/recent`, `/edit`). Other words (`?id=start`, `?q=test`,
`?srt=mtime`) are values: the record shown, the words searched, a sort."""


def front_controller(path: str) -> bool:
    """Whether a path routes by its query (`front_controller`'s view keys name the page type): a
    script (`/doku.php`), the site's root (`/?controller=Board&action=show&id=3`, an app routed
    by its query string alone, whose every page is at `/`) or a folder's index (`/i/?c=feed&a=edit`,
    the script `index.php` of a folder served at the folder's address: an app mounted below the
    root, routed by its query as at the root)."""
    return path in ("", "/") or path.endswith("/") or bool(_SCRIPT_PATH.search(path))


def action_page(path: str, key: str, value: str) -> bool:
    """Whether an action key's value names the page type at `path` (`route_shape`): on a directory's
    address (the root, `/admin/`), whose index script is named by nothing but the action, a word or a
    handler's name (`?action=manage_users`); on a named script (`/search.php`), whose name is the page's
    family, a word as for its other view keys (`?action=show_new` is one view of the searches)."""
    if not action_word_key(key):
        return False
    if path.endswith("/") or not path:
        return bool(_QUERY_WORD.match(value) or _HANDLER_WORD.match(value))
    return front_controller(path) and bool(_QUERY_WORD.match(value))


def unmarked(key: str) -> str:
    """A query key as its framework means it: lowercase, without the marks before it (`KEY_MARKS`)."""
    return key.lower().lstrip(KEY_MARKS)


def action_word_key(key: str) -> bool:
    """An action key (`ACTION_KEYS`), however a framework marks its own keys (`@action`, `_do`)."""
    return unmarked(key) in ACTION_KEYS


ROUTE_SHAPES_CACHED = 1 << 16
"""Distinct routes whose shapes `route_shape` keeps: more than a 5,000-click exploration of a 15,000-page
site knows, at a few hundred bytes each."""


@lru_cache(maxsize=ROUTE_SHAPES_CACHED)
def route_shape(route: str) -> str:
    """The route with its variable parts replaced, from the URL alone (no page needed). A pure function
    of the string, kept for the routes seen: the explorer's templates ask it for every known route at
    every step (14 million calls, 28% of a 1,000-click planner run on 14,678 pages, before this cache)."""
    base, mark, state = route.rpartition("#")
    if mark and base and state and not state.startswith("/"):
        # `page#state`, a state of the page reached by a click with no URL of its own
        # (`/a/b#click-3f2e`), is shaped as a sub-page, so the states of one page type are one type,
        # not one each. A hash router's fragment is its path (`/#/tag/x`) and is shaped as one.
        path, sep, query = route_shape(base).partition("?")
        return f"{path.rstrip('/')}/#{_shape_value(state)}" + (f"?{query}" if sep else "")
    path, _, query = route.partition("?")
    segments = [_shape_value(s) if s else s for s in path.split("/")]
    shaped = "/".join(segments) or "/"
    if not query:
        return shaped
    params = []
    # A front controller's page type stays, as a path's words do: with every value a `<slug>`,
    # `/doku.php?do=recent` and `?do=index`, `?do=media` were one page type, sampled twice.
    front = front_controller(path)
    for pair in query_parts(query):
        key, eq, value = pair.partition("=")
        if not eq:
            params.append(key)
        elif _NUMBER.match(value):
            params.append(f"{key}=<n>")
        elif (front and key.lower() in VIEW_KEYS and _QUERY_WORD.match(value)) or action_page(
            path, key, value
        ):
            params.append(f"{key}={value}")
        else:
            params.append(f"{key}=<slug>")
    # The same parameters in another order are one page type (`?size=25&page=2`, `?page=1&size=25`:
    # a pager that appends its key to the query it was given).
    return f"{shaped}?{'&'.join(sorted(params))}"


_DESIGNATOR = re.compile(r"^([A-Za-z]{2,})\d+$")


def query_record_shape(query: str) -> str:
    """A front controller's query as the address of one record of a kind (`article2/server-move` →
    `article<n>/<slug>`, `p=12` → `p=<n>`): a bare part is a path written into the query, read segment
    by segment, a word followed by a number (`article2`) being its kind and `<n>`; a value is shaped.
    Two queries of one shape and different text name two records of one template."""
    out = []
    for pair in query_parts(query):
        key, eq, value = pair.partition("=")
        if eq:
            out.append(f"{key}={_shape_value(value)}")
            continue
        segments = []
        for s in key.split("/"):
            kind = _DESIGNATOR.match(s)
            segments.append(f"{kind.group(1)}<n>" if kind else _shape_value(s))
        out.append("/".join(segments))
    return "&".join(sorted(out))
