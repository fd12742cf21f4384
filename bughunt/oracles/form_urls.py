"""What the URL of an edit form or of a record's page names (the form oracle, `forms`).

An edit URL holds an edit segment (`edit`, `_edit`, `~edit`, `update`…) and often the record's
identifier (`/items/7/edit`, `/blog/edit?id=7`); a record's page shares its other segments; a page that
makes a record ends in `add`/`new`/`create`, or a front controller names it in its action key
(`?action=write`, `?action=new_user`). Read in a single-page app's hash route when it has one.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from bughunt.fingerprint import IDENTIFIERS, segment_shape
from bughunt.oracles.request_action import action_key, word_parts
from bughunt.sim.route_keys import query_pairs
from bughunt.urls import hash_route

_ID_KEY = re.compile(r"id|ID|pk|uuid|\w+[_-](?:id|ID)|\w*[a-z]Id")
"""A query key that names a record by its identifier (`id`, `pk`, `post_id`, `postId`)."""
_EDIT_WORDS = frozenset({"edit", "editor", "update", "modify", "change", "amend"})
CREATE_WORDS = frozenset({"add", "new", "create", "write", "compose"})
"""The last segment of a page that makes a record (`/movie/add/`, `/#/items/new`, a blog's `/write`, a
mailer's `/compose`): its form stores nothing yet, whatever defaults it shows (a rating of 0, today's
date)."""


_COPY_WORDS = frozenset({"clone", "cloned", "copy", "copied"})
"""A query key naming the record a new one is copied from (`?cloned_bug_id=45`, `?copy_from=7`,
`?cloneOf=3`): the page makes a record, its form filled from another."""


def _copies_record(query: str) -> bool:
    """Whether a query names a record to copy: a key one of whose words is a copy word, with a value.
    A clone form pre-fills what the new record shares with its source and leaves the rest (its
    assignee, its dates) for the person filing it: empty fields there are the new record's, no value
    dropped. Trackers, shops and CMSs name their "clone"/"copy" links so."""
    return any(
        any(w in _COPY_WORDS for w in word_parts(key))
        for key, _ in query_pairs(query, decoded=True, blank=False)
    )


def _creates_action(query: str) -> bool:
    """Whether a query's action key names a page that makes a record: its value led by a create word, of
    at most three words (`?action=write`, `?action=write_post`, `?do=addUser`, `?action=new_blog_post`) and
    no edit word among them. Front controllers (plain PHP, admin screens) name every page so; their
    create page shows a blank form beside links to other records, none of them the form's."""
    for key, value in query_pairs(query, decoded=True, blank=False):
        words = word_parts(value)
        if (
            action_key(key)
            and 0 < len(words) <= 3
            and words[0] in CREATE_WORDS
            and not any(w in _EDIT_WORDS for w in words)
        ):
            return True
    return False


def _route_path(url: str) -> str:
    """The path that names the page: a single-page app's hash route (`/#/items/7/edit`) or the path."""
    parts = urlsplit(url)
    if hash_route(parts.fragment):
        return parts.fragment.removeprefix("!").split("?")[0]
    return parts.path


def path_segments(url: str) -> list[str]:
    return [s for s in _route_path(url).split("/") if s]


def with_segments(url: str, segments: list[str]) -> str:
    """`url` with its naming path replaced by `segments` (in the hash route when it has one)."""
    parts = urlsplit(url)
    path = "/" + "/".join(segments)
    if hash_route(parts.fragment):
        bang = "!" if parts.fragment.startswith("!") else ""
        return f"{parts.scheme}://{parts.netloc}{parts.path or '/'}#{bang}{path}"
    return f"{parts.scheme}://{parts.netloc}{path}"


_SCRIPT_SUFFIX = re.compile(r"\.(?:html?|php[0-9]?|aspx?|jspx?|cgi|pl|fcgi|do|action|cfm)$")
"""The file suffix of a server page (`Modify.html`, `edit.php`, `Edit.aspx`, `update.cgi`): the page's
name is the word before it, as a route's segment is in a framework that has no suffixes."""


def _action_word(segment: str) -> str:
    """A path segment as an action's word, marks around it aside (`edit`, `_edit`, `~edit`: frameworks
    that keep action names apart from page slugs prefix them) and a server page's file suffix
    (`edit.php`, `Modify.html`)."""
    return _SCRIPT_SUFFIX.sub("", segment.lower()).strip("_-.~!+@$")


def names_in_query(url: str, ident: str) -> bool:
    """Whether `url`'s query names the record `ident` under an identifier key (`?id=7`, `;id=7`): how a
    server page of one script per view (`Display.html?id=7`, `show.php?id=7`) names its record."""
    query = urlsplit(url).query
    return ident in query and any(
        _ID_KEY.fullmatch(k) and v == ident for k, v in query_pairs(query, decoded=True, blank=False)
    )


def edit_segment(segment: str) -> bool:
    """A path segment that names the edit action: an edit word, or a compound of two words it leads
    (`edit-content`, `edit_user`: a CMS's admin route naming what it edits — as `creates` reads
    `new-content`); a record's slug runs longer (`edit-your-profile-in-five-steps`)."""
    word = _action_word(segment)
    if word in _EDIT_WORDS:
        return True
    parts = _LEAD_WORD.split(word)
    return len(parts) == 2 and parts[0] in _EDIT_WORDS and parts[1].isalpha()


def page_link(href: str) -> bool:
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
    query = route.split("?", 1)[1] if "?" in route else parts.query
    return not (
        any(_action_word(s) in CREATE_WORDS for s in last) or _creates_action(query) or _copies_record(query)
    )


def creates(url: str) -> bool:
    """Whether a URL names a page that makes a record: a create word as a segment (`/items/new`) or
    leading a two-word one (`/admin/new-content`, `/users/add_user`), followed by names alone (`/tools/new/tool`,
    a grid's "new" of its `tool` table) — no record's identifier, no edit word after it (`/new-york/edit`
    edits the page named so); or a query whose action key names a create page (`_creates_action`), or
    that names a record to copy (`_copies_record`)."""
    split = urlsplit(url)
    query = split.fragment.split("?", 1)[1] if "?" in split.fragment else split.query
    if _creates_action(query) or _copies_record(query):
        return True
    segments = path_segments(url)
    for at, segment in enumerate(segments):
        word = _action_word(segment)
        after = segments[at + 1 :]
        parts = _LEAD_WORD.split(word)
        # a compound of two words only: a record's slug runs longer ("new-features-in-2026")
        if (word in CREATE_WORDS or (len(parts) == 2 and parts[0] in CREATE_WORDS)) and all(
            segment_shape(s) == s and not edit_segment(s) for s in after
        ):
            return True
    return False


_LEAD_WORD = re.compile(r"[-_]")


def edit_like(url: str) -> bool:
    return any(edit_segment(s) for s in path_segments(url))


def url_identifier(url: str) -> str | None:
    """The resource an edit URL names (`/items/7/edit` → `7`; `/blog/edit?id=7`, the record in a
    query key named as an identifier, → `7`), or None (`/profile/edit`, `/settings`)."""
    segments = path_segments(url)
    rest = [s for s in segments if not edit_segment(s)]
    if len(rest) == len(segments):
        return None  # not an edit URL
    if rest and not (segment_shape(rest[-1]) == rest[-1] and len(rest) < 2):
        return rest[-1]
    # `/profile/edit`: no identifier in the path, only a collection name; the query may name one
    return next(
        (
            v
            for k, v in query_pairs(urlsplit(url).query, decoded=True, blank=False)
            if _ID_KEY.fullmatch(k) and segment_shape(v) != v
        ),
        None,
    )


def collection_path(url: str) -> list[str] | None:
    """The path of the list a record's page belongs to: its segments before the record's identifier
    (`/items/7/edit` → `/items`; a record named by its class and number in one word, `/user3` →
    `/user`), or None when the path names no record (`/settings`). A record's list shows its values
    in the record's row; the site's other pages link its form from their menus ("Your details")."""
    segments = path_segments(url)
    for at, segment in enumerate(segments):
        shape = segment_shape(segment)
        if shape in IDENTIFIERS and at:
            return segments[:at]
        if shape.endswith("<n>") and shape != "<n>":
            return [*segments[:at], shape.removesuffix("<n>")]
    return None


def record_id(form_url: str) -> re.Pattern[str] | None:
    """The record identifier an edit URL names, as a whole token (`7` in `tr-7`, not in `17`), when it
    is one a record has (a number or an id-like word), else None."""
    ident = url_identifier(form_url)
    if ident is None or segment_shape(ident) == ident:
        return None
    return re.compile(rf"(?<![0-9A-Za-z]){re.escape(ident)}(?![0-9A-Za-z])")
