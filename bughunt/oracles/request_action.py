"""What a GET's request says it does, read on its query: an action marked by a key and a verb.

Frameworks that route every action through one address name the action in the query, the value of an
action-like key (`?@action=unlink&msg=7`, `?controller=X&action=remove&id=3`, `?op=retire&id=4`): the
*value* is the verb. Which verbs lose data or change state cannot be listed (`unlink`, `detach`,
`retire`, `archive`…), so a value is taken as an action unless it reads as a view of the record — a view
word (show, edit, list, search, export…), a noun by its ending (`integrations`, `activity`) or the
record kind its own address names (`?controller=Project&action=project&project_id=1`) — and only when
the link acts on a record it names by number: a view chosen by name (`?do=media&ns=wiki`) names none. Such a GET is a *candidate* action: the walk
never clicks it (`may_open`, `HttpEngine.followable`); with `--allow-destructive` the destructive oracle
opens it after the walk and its **effect** decides whether it was anything and what (`action_effect`):
the verb word lists stay only a hint of what to defer, never the verdict.

Applies to every family with a front controller or an action parameter: Roundup's `@action`, Kanboard's
`controller`/`action`, DokuWiki's `do`, Drupal's `op`, PHP admin screens' `?action=`/`?task=`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from bughunt.oracles.destroying_verbs import VERBS
from bughunt.oracles.reading import is_page_key
from bughunt.sim import route_shapes
from bughunt.sim.pager_links import is_offset_key
from bughunt.sim.route_keys import query_pairs
from bughunt.sim.route_shapes import unmarked

ACTION_KEYS = route_shapes.ACTION_KEYS | {"method"}
"""Query keys whose value names what the request does (a hint where to look, not a verdict): the keys
by which front controllers name their pages (`route_shapes.ACTION_KEYS`) and a form's method override
(`_method=delete`), which names what a request does and never a page."""
VIEW_WORDS = frozenset(
    (
        "show view display read get list index search find browse filter sort page detail details edit "
        "new create add compose preview print export download raw source history diff revisions recent "
        "changes home login signin register signup help about rss atom feed json csv xml render"
        " logout logoff signout"
    ).split()
)
"""Words of a request that shows something (a page, a form, a file): an action named with one is a
view, whatever the rest of its name (`showList`, `export_csv`, `edit`). Leaving the session is no action
on a record either: the walk's avoid list keeps it out, and opening it would end the session the
oracles judge with."""
_WORD_VALUE = re.compile(r"[A-Za-z][A-Za-z_-]{2,31}")
_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_IDENTIFIER = re.compile(r"\d{1,12}")
_SIZE_KEY = re.compile(r"(?i)size|limit|per|count|max|min|len")
"""Keys of a list's shape (`@pagesize=50`, `limit=20`): their numbers are no record."""
_DATE_KEY = re.compile(r"(?i)[@$:_]*(year|month|day|week|date)")
"""Keys of a date (`?action=archive&year=2026&month=09`, a blog's monthly archive, a calendar's day):
their numbers choose a period to list, no record to act on."""


def action_key(key: str) -> bool:
    """Whether a query key names an action (`action`, `@action`, `_method`, `op`)."""
    return unmarked(key) in ACTION_KEYS


_NOUN_ENDINGS = re.compile(r"(tion|sion|ment|ity|ness|ance|ence|ship|ings|[^s]s)$")
"""How an English noun ends where a verb does not (`integrations`, `activity`, `settings`, `comments`):
a page named by what it shows. An imperative verb (`unlink`, `retire`, `approve`, `detach`) ends
otherwise; `access`, `process` keep their double s."""


def word_parts(text: str) -> list[str]:
    """The lowercase words of an identifier however it joins them (`addUser`, `write_post`, `NEW-item`)."""
    return [p.lower() for p in _PARTS.findall(text)]


def _words_of(text: str) -> list[str]:
    return [p for p in word_parts(text) if len(p) >= 3]


def _is_view(value: str, address: set[str]) -> bool:
    """A value that reads as a view: a view word, a noun's ending, or a noun of its own address — the
    record kind a key or the path names (`?controller=Project&action=project&project_id=1`)."""
    parts = _words_of(value)
    if any(p in VIEW_WORDS for p in parts) or _NOUN_ENDINGS.search(value.lower()) or _glued_view(value):
        return True
    return any(p.startswith(a) or a.startswith(p) for p in parts for a in address)


GLUED_REST = 3
"""Letters a glued name holds past its leading word (`getfeedtree`: `feedtree`)."""


def led_by(word: str, leads: Iterable[str], banned: Iterable[str]) -> bool:
    """A one-word name glued in lower case that one of `leads` starts, with at least `GLUED_REST` letters
    after it, and none of `banned` anywhere in it (`getandremove`): the reading of names no camel case
    or separator splits, for a view's value here and a read call's name (`explorer.named_calls`)."""
    if any(b in word for b in banned):
        return False
    return any(word.startswith(lead) and len(word) - len(lead) >= GLUED_REST for lead in leads)


_VIEW_LEADS = tuple(view for view in VIEW_WORDS if len(view) >= GLUED_REST)


def _glued_view(value: str) -> bool:
    """A name glued in lower case that a view word leads (`getfeedtree`, `showtopic`, `viewthread`: a
    PHP front controller's method or mode, which no camel case splits), with nothing destroying in the
    rest (`getandremove`)."""
    word = value.strip()
    return word.isalpha() and word.islower() and led_by(word, _VIEW_LEADS, VERBS)


def _record_number(key: str, value: str) -> bool:
    """Whether a query pair names a record by number: not a page, an offset, a list's size or a date; not 0
    (keys of stored records start at 1: a 0 is a root, a flag or none, `?ns=0`); not a bracketed
    field of a form's array (`fn[edit][bob]=1` is a button's flag)."""
    value = value.strip()
    return (
        _IDENTIFIER.fullmatch(value) is not None
        and int(value) > 0
        and "[" not in key
        and not (
            action_key(key)
            or is_page_key(key)
            or is_offset_key(key)
            or _SIZE_KEY.search(key)
            or _DATE_KEY.fullmatch(key)
        )
    )


def marked_action(url: str) -> str | None:
    """The verb a GET's query marks as an action on a record (`?@action=unlink&msg=7` → `unlink`), or
    None: an action-like key whose value is a word that is no view word, beside another key naming a
    record by number (not a page, an offset or a list's size)."""
    pairs = query_pairs(urlsplit(url).query, decoded=True)
    record = any(_record_number(k, v) for k, v in pairs)
    if not record:
        return None
    parts = urlsplit(url)
    address = set(_words_of(parts.path))
    for key, value in pairs:
        address.update(_words_of(key))
        if not action_key(key):
            address.update(_words_of(value))
    for key, value in pairs:
        value = value.strip()
        if action_key(key) and _WORD_VALUE.fullmatch(value) and not _is_view(value, address):
            return value.lower()
    return None
