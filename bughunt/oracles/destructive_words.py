"""What reads as destructive: the verbs in a URL's path or action-like query, and in a control's short
label (delete, remove, close account…). The destructive oracle (`destructive`), the engines (which
defer such GETs) and the state-change oracle (`unsafe_get`) all ask here; none names any site's
routes.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

from bughunt.oracles.destroying_verbs import VERBS as VERBS
from bughunt.oracles.destroying_verbs import unabbreviated
from bughunt.oracles.request_action import action_key, marked_action
from bughunt.sim.route_keys import query_pairs
from bughunt.urls import route_of

OPERATIONS = frozenset(
    "stop restart kill shutdown reboot halt suspend flush revoke ban abort disable".split()
)
"""Verbs that stop, restart or cut off what a server runs or grants (a process, a queue, a user's access):
an admin screen's GET runs them at once (supervisord's `?processname=web&action=stop`, `?action=stopall`).
Read only where a word is a verb by its place — the value of an action key — never in a path (`/stop/42`
is a bus stop)."""
CLEARS = frozenset("clear reset empty".split())
CLEARED = frozenset("all log logs cache history queue data everything".split())
"""What a clearing verb loses when it names it (`?action=clearlog`, `?op=clear_cache`): alone, "clear" or
"reset" is a search form's (`?action=clear` empties the filter, a view)."""
ACCOUNT_VERBS = frozenset({"close", "cancel"})
ACCOUNT_NOUNS = frozenset({"account", "subscription", "profile", "membership", "user"})
_NON_WORD = re.compile(r"[^a-z0-9]+")


def words_of(text: str) -> list[str]:
    return [w for w in _NON_WORD.split(text.lower()) if w]


def reads_destructive(words: list[str]) -> bool:
    found = set(words)
    return bool(VERBS & found or (ACCOUNT_VERBS & found and ACCOUNT_NOUNS & found))


def names_action(segment: str, verbs: frozenset[str]) -> bool:
    """A path segment that is an action (`delete`, `delete-account`, `items_remove`), not a title
    that mentions one (`how-to-delete-a-git-branch`): the verb leads a short segment, or stands in a
    two-word one."""
    words = words_of(segment)
    if not words or len(words) > 4:
        return False
    return words[0] in verbs or (len(words) <= 2 and bool(verbs & set(words)))


def names_operation(value: str) -> bool:
    """An action key's value that runs an operation (`OPERATIONS`) or clears what it names (`CLEARS` with
    `CLEARED`), its words apart (`clear_log`, `stopAll` read as one word) or glued (`stopall`, `clearlog`)."""
    words = words_of(value)
    if not words or len(words) > 3:
        return False
    if len(words) > 1:
        return words[0] in OPERATIONS or (words[0] in CLEARS and words[1] in CLEARED)
    word = words[0]
    return word in OPERATIONS or any(
        word.startswith(verb) and word[len(verb) :] in CLEARED for verb in OPERATIONS | CLEARS
    )


def operation_action(url: str) -> str | None:
    """The operation an action key of a GET's query runs (`?processname=web&action=stop` → `stop`), or
    None (`names_operation`). Such a GET acts at once — a process manager shows no page asking first —
    so the walk never sends one, with or without --allow-destructive (`HttpEngine._defers`)."""
    pairs = query_pairs(urlsplit(url).query, decoded=True, blank=False)
    return next((v.lower() for k, v in pairs if action_key(k) and names_operation(v)), None)


def hash_route(url: str) -> str:
    """The single-page-app route after `#/` (`/#/article/x/delete` → `/article/x/delete`), or ""."""
    fragment = urlsplit(url).fragment
    return fragment if fragment.startswith("/") else ""


def action_route(url: str) -> str:
    """The route a finding names: path and query, plus the hash route if there is one."""
    hashed = hash_route(url)
    return route_of(url) + (f"#{hashed}" if hashed else "")


def destructive_action(url: str) -> str | None:
    """The action named by a URL (`delete account`), or None if it names none.

    Path segments count (see `names_action`), and of the query only an action-like key
    (`?action=delete`) or a key that is itself the verb, given what to act on (`?delete=docs:card.txt`,
    `?remove=7`: a front controller's delete link): a search for "delete" (`?q=delete`) names no
    action. Close/cancel count with an account-like noun anywhere in the path (`/account/close`,
    `/billing/cancel-subscription`). An action key's value that stops, restarts or clears what a server
    runs counts too (`names_operation`)."""
    hashed = hash_route(url)
    if hashed:
        return destructive_action(urljoin(url, hashed))
    parts = urlsplit(url)
    segments = [s for s in parts.path.split("/") if s]
    # a query key or an action key's value is a verb by its place: there a short form (`?del=a.txt`,
    # `?cmd=rm`) names the verb it stands for
    pairs = [
        (unabbreviated(k), unabbreviated(v) if action_key(k) else v)
        for k, v in query_pairs(parts.query, decoded=True, blank=False)
    ]
    segments += [v for k, v in pairs if action_key(k)]
    segments += [k for k, v in pairs if v and names_action(k, VERBS)]
    words = words_of(" ".join(segments))
    acts = any(names_action(s, VERBS) for s in segments) or any(
        names_operation(v) for k, v in pairs if action_key(k)
    )
    closes = any(names_action(s, ACCOUNT_VERBS) for s in segments) and bool(ACCOUNT_NOUNS & set(words))
    if acts or closes:
        return " ".join(w for w in words if not w.isdigit())
    return None


_DIGIT = re.compile(r"[0-9]")


def account_page(url: str) -> bool:
    """A destructive-looking GET on the session's own account at a fixed address (`/settings/delete-account`,
    `/account/close`): no query and no digit anywhere in its path, so it names no record, and an account
    word among its action's words. Sites put a page that asks first there (a form to confirm, often with
    the password); a record's action (`/files/3/unlink`, `?action=delete&file=x`) is a row's link that
    acts at once. The walk follows the first kind without --allow-destructive (the built-in site's page
    21), never the second (`HttpEngine._defers`). `url` may be a route (`/settings/delete-account`)."""
    action = destructive_action(url)
    return action is not None and names_account(url, action)


def names_account(url: str, action: str) -> bool:
    """`account_page` for a `url` whose `destructive_action` is `action` (already read)."""
    parts = urlsplit(url)
    if parts.query or _DIGIT.search(parts.path) or hash_route(url):
        return False
    return bool(ACCOUNT_NOUNS & set(action.split()))


def deferred_action(url: str) -> str | None:
    """The action a GET would run, so that no walk step sends it and, without --allow-destructive, no
    oracle does (`may_open`): one its words name as destroying (`destructive_action`) or one its query
    marks on a record (`marked_action`: `?@action=unlink&msg=7`), whatever the verb."""
    return destructive_action(url) or marked_action(url)


def read_as_destroying(url: str) -> bool:
    """Whether a GET is kept from the walk by its words alone (`destructive_action`): not one its query
    marks as an action on a record (`marked_action`) nor one running an operation (`operation_action`),
    which no walk sends whatever their opening showed."""
    return (
        destructive_action(url) is not None and marked_action(url) is None and operation_action(url) is None
    )


def destructive_label(label: str) -> bool:
    """A short control label that starts with a destructive verb ("Delete", "🗑 Remove item",
    "Close account"); a sentence that merely mentions one ("How to delete your data") is not."""
    head = label.split(maxsplit=1)
    if head and _CODE_WORD.search(head[0]):
        return False
    words = words_of(label)
    return 0 < len(words) <= 4 and (
        words[0] in VERBS or (words[0] in ACCOUNT_VERBS and reads_destructive(words))
    )


_CODE_WORD = re.compile(r"^_|\(|\w(?:\.|::)\w")
"""A first word that names code — a call, a private or special name, a qualified name (`purge()`,
`__delete__`, `os.remove`, `Repo::destroy`): a documentation index's entry, not a verb said to the
person who clicks. An icon font's ligature (`delete_forever`) is still the verb it draws."""


# A cheap first look, so a page with 30,000 links costs one regex each, not a URL parse each.
MAY_DESTROY = re.compile("|".join(sorted(VERBS | ACCOUNT_VERBS)), re.I)
MAY_DESTROY_LOWER = re.compile("|".join(sorted(VERBS | ACCOUNT_VERBS)))


def may_destroy(text: str) -> bool:
    """`MAY_DESTROY.search(text)`, asked of every link of every page. Without IGNORECASE the regex
    engine skips ahead to the words' first letters instead of trying each word at each character
    (~10x fewer instructions), so ASCII text (nearly all) is searched in lower case (the same
    answer: an ASCII letter folds to ASCII letters only); other text as it is, by Unicode's case
    folding (`ſ` is an `s` there)."""
    if text.isascii():
        return MAY_DESTROY_LOWER.search(text.lower()) is not None
    return MAY_DESTROY.search(text) is not None
