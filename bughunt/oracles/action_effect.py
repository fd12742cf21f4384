"""What opening an action did, read on the pages around it: a login wall, a state flip, counts moved.

- A **login wall** is an answer with a *new* password field — one the page the action was clicked from
  did not have — that shows none of that page's record (its headings): the session is gone and nothing
  can be judged. A page with a password field is not one by itself: an account's settings page answers
  a token's deletion with its change-password form beside the remaining tokens.
- A **state flip** is the clicked control still offered with another label ("Pin" → "Unpin"), or given
  way to its counterpart (a control that was not there before whose target differs from the action's
  in one query value or one path segment: `?op=pin&id=3` → `?op=unpin&id=3`), or a count on the page
  moved by one while the control stayed and every other number stayed. A state change on a GET is an
  unsafe GET (RFC 9110 §9.2.1), not a deletion.

- A **toggle** is an action whose control gave way to one that differs from it only in its verb, one
  verb holding the other (`?action=unsubscribe&fid=2` → `?action=subscribe&fid=2`, `/unfollow` →
  `/follow`, `deactivate` → `activate`): its undo is offered in its place, so nothing was lost — even
  for a verb that reads as destroying (unsubscribe, deactivate), this is a state change on a GET, not
  a deletion. Both directions of one toggle on one handler are one root cause (`toggle_key`): the
  handler takes the verb from the request, whichever record it names (a topic's, a forum's).

Stated on forms, controls and numbers only: applies to every family (account pages, trackers' toggles,
forums' subscriptions, admin screens' approve/retire links).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from bughunt.actions import page_actions
from bughunt.oracles.reading import resolve
from bughunt.oracles.server_error import error_key
from bughunt.page import FetchedPage, base_url
from bughunt.sim.route_keys import TOKEN_KEY, query_pairs
from bughunt.tree_facts import tree_facts

STATE_CHANGE_MESSAGE = (
    "a GET request changed server state (unsafe use of a safe method, RFC 9110 9.2.1; CWE-650)"
)
_NUMBER = re.compile(r"\d+")
MAX_MOVED_COUNTS = 2
"""A toggle moves one count (and perhaps its twin in a header): more moving numbers is a page that
changes anyway."""


def password_fields(page: FetchedPage) -> list[str]:
    """The page's password inputs, each by its name (or id, or place)."""
    return [
        n.get("name") or n.get("id") or str(i)
        for i, n in enumerate(tree_facts(page).tagged("input"))
        if n.get("type").lower() == "password"
    ]


def _headings(page: FetchedPage) -> set[str]:
    return {t for n in tree_facts(page).tagged("h1", "h2", "h3") if (t := " ".join(n.text().split()))}


def login_wall(answer: FetchedPage, before: FetchedPage | None) -> bool:
    """Whether `answer` is a login wall rather than a page of the site (see the module). With no page
    before to compare with, a wall asks for one password: a change-password or sign-up form asks twice."""
    fields = password_fields(answer)
    if not fields:
        return False
    if before is None:
        return len(fields) == 1
    if set(fields) <= set(password_fields(before)):
        return False  # the same password form the page before had: that page again, not a login
    return not (_headings(before) & _headings(answer))


_CLOCK = re.compile(
    r"(?<![\d.])\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}(?![\d.])"
    r"|(?<!\d)\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?!\d)"
    r"|\b\d+\s*(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|secs?|mins?|hrs?)\b"
    r"|\b\d+[hms]\b",
    re.I,
)
"""A date, a time of day, an age or a duration (`2026-12-05`, `05/12/2026`, `10:04`, `10:04:59`,
`3 minutes ago`, a running job's `8 minutes`, `8m`): a clock on the page (the last visit, a post's
age, a task's runtime, the server's time) ticks by one between two loads with no action at all.
Joined into an ISO 8601 stamp (`2026-12-05T17:21:23Z`, a record's dump in YAML or JSON beside its
fields) it is a clock as much: read as counts, the seconds of a job's `time:` (and an active job's
runtime, in minutes) moved by one whenever the reload fell in the next second (minute), and a filter
link beside them was reported as an unsafe GET in some runs and not in others (corpus ho12_minion)."""


def page_numbers(page: FetchedPage) -> list[int]:
    """The numbers of the page's text, less its dates, times and durations (`_CLOCK`), in order."""
    return [int(n) for n in _NUMBER.findall(_CLOCK.sub(" ", page.document.text()))]


def moved_counts(before: FetchedPage, after: FetchedPage) -> list[tuple[int, int]]:
    """Numbers of the page text that moved by exactly one, when every other number stayed; the
    numbers of dates and times of day are no counts (`_CLOCK`)."""
    old, new = page_numbers(before), page_numbers(after)
    if len(old) != len(new) or old == new:
        return []
    moved = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    if len(moved) > MAX_MOVED_COUNTS or any(abs(a - b) != 1 for a, b in moved):
        return []
    return moved


def control_identity(url: str) -> str:
    """A control's URL less the values of its token-like query keys (`sectok`, `csrf_token`, `nonce`):
    a page that draws a fresh token on every load still offers the same control."""
    parts = urlsplit(url)
    pairs = query_pairs(parts.query, decoded=True)
    query = "&".join(f"{k}={'' if TOKEN_KEY.search(k) else v}" for k, v in pairs)
    return parts._replace(query=query).geturl()


def _controls(page: FetchedPage) -> dict[str, str]:
    """Where the page's controls lead, with their labels: its actions, and its forms' actions whatever
    their method (a "Follow" drawn as a POST form offers the counterpart as much as a link), each by
    its identity: a fresh request token is the same control, not its counterpart."""
    found = {control_identity(a.target): a.label for a in page_actions(page).actions}
    base = base_url(page)
    for form in tree_facts(page).tagged("form"):
        target = resolve(base, form.get("action") or page.url)
        if target:
            found.setdefault(control_identity(target), "")
    return found


def _one_step_apart(a: str, b: str) -> bool:
    """Two targets that differ in one query value or one path segment, and nowhere else."""
    pa, pb = urlsplit(a), urlsplit(b)
    if pa.netloc != pb.netloc:
        return False
    qa, qb = query_pairs(pa.query, decoded=True), query_pairs(pb.query, decoded=True)
    sa, sb = pa.path.split("/"), pb.path.split("/")
    if pa.path == pb.path and [k for k, _ in qa] == [k for k, _ in qb]:
        return sum(x != y for x, y in zip(qa, qb, strict=True)) == 1
    if qa == qb and len(sa) == len(sb):
        return sum(x != y for x, y in zip(sa, sb, strict=True)) == 1
    return False


def state_flip(before: FetchedPage, after: FetchedPage, url: str) -> dict[str, str]:
    """The flip `url`'s control shows between the page it was offered on and that page reloaded after
    it was opened (see the module), as evidence; empty when there is none."""
    old, new = _controls(before), _controls(after)
    url = control_identity(url)
    if url not in old:
        return {}
    if url in new:
        if new[url] != old[url] and new[url] and old[url]:
            return {"label_before": old[url], "label_after": new[url]}
        moved = moved_counts(before, after)
        return {"counts": "; ".join(f"{a} -> {b}" for a, b in moved)} if moved else {}
    counter = next((t for t in new if t not in old and _one_step_apart(t, url)), None)
    return {"control_after": counter} if counter else {}


_VERB = re.compile(r"[a-z]{3,}")
_NEGATIONS = ("un", "dis", "de", "non", "en")
"""Prefixes that undo a verb (`uninstall`, `deactivate`, `unsubscribe`; `disable` beside `enable`)."""


def _stem(word: str) -> str:
    return next((word[len(p) :] for p in _NEGATIONS if word.startswith(p) and len(word) - len(p) >= 4), word)


def _undoes(x: str, y: str) -> bool:
    """Whether verbs `x` and `y` are one action and its undoing: one holds the other (`unsubscribe`,
    `subscribe`) or both are one stem under negating prefixes (`disable`, `enable`)."""
    return x != y and (x in y or y in x or _stem(x) == _stem(y))


def _swapped_words(a: str, b: str) -> tuple[str, str] | None:
    """The verbs where targets `a` and `b` differ, when that is one query value or path segment whose
    first words are an action and its undoing and the rest alike (`unsubscribe`/`subscribe`,
    `uninstall-plugin`/`install-plugin`), else None."""
    if not _one_step_apart(a, b):
        return None
    pa, pb = urlsplit(a), urlsplit(b)
    if pa.path == pb.path:
        qa, qb = query_pairs(pa.query, decoded=True), query_pairs(pb.query, decoded=True)
        x, y = next((u, v) for (_, u), (_, v) in zip(qa, qb, strict=True) if u != v)
    else:
        x, y = next((u, v) for u, v in zip(pa.path.split("/"), pb.path.split("/"), strict=True) if u != v)
    (x, rest_x), (y, rest_y) = (_first_word(w.lower()) for w in (x, y))
    if rest_x != rest_y or not (_VERB.fullmatch(x) and _VERB.fullmatch(y)) or not _undoes(x, y):
        return None
    return x, y


def _first_word(value: str) -> tuple[str, str]:
    word = re.split(r"[^a-z]+", value, maxsplit=1)[0]
    return word, value[len(word) :]


def toggled(before: FetchedPage, after: FetchedPage, url: str) -> str | None:
    """The control `url`'s control gave way to on the page it was offered on, when that one differs
    from it only in its verb (a toggle, see the module), else None."""
    old, new = _controls(before), _controls(after)
    url = control_identity(url)
    if url not in old or url in new:
        return None
    return next((t for t in new if t not in old and _swapped_words(url, t)), None)


def toggle_effect(before: FetchedPage, after: FetchedPage, url: str) -> dict[str, str]:
    """`toggled` as evidence (a `seen_twice.Judge`): the counterpart that took the control's place."""
    counter = toggled(before, after, url)
    return {"control_after": counter} if counter else {}


def toggle_key(url: str, counterpart: str) -> int | None:
    """One number for both directions of a toggle (`url` and the `counterpart` that replaced it, or
    that it replaced): the handler's path, the key carrying the verb (or the verb's place in the path)
    and the shorter verb — never the record either names. None when the two are no toggle."""
    words = _swapped_words(control_identity(url), control_identity(counterpart))
    if words is None:
        return None
    stem = _stem(min(words, key=len))
    parts = urlsplit(url)
    query = query_pairs(parts.query, decoded=True)
    where = next((k for k, v in query if _first_word(v.lower())[0] in words), "")
    segments = parts.path.split("/")
    if not where:
        # the verb's segment and what follows it (the record it acts on: `uninstall-plugin/pluginAPI`,
        # `/users/5/follow` keeps `/users/5` — its record goes with the digits below) leave the key
        verb = next(i for i, s in enumerate(segments) if _first_word(s.lower())[0] in words)
        where, segments = _first_word(segments[verb].lower())[1], segments[:verb]
    path = "/".join("<n>" if s.isdigit() else s for s in segments)
    return error_key(f"toggle {path} {where} {stem}")
