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

Stated on forms, controls and numbers only: applies to every family (account pages, trackers' toggles,
forums' subscriptions, admin screens' approve/retire links).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

from bughunt.actions import page_actions
from bughunt.oracles.reading import resolve
from bughunt.page import FetchedPage, base_url

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
        for i, n in enumerate(page.document.find_all("input"))
        if n.get("type").lower() == "password"
    ]


def _headings(page: FetchedPage) -> set[str]:
    return {t for n in page.document.find_all("h1", "h2", "h3") if (t := " ".join(n.text().split()))}


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


def moved_counts(before: FetchedPage, after: FetchedPage) -> list[tuple[int, int]]:
    """Numbers of the page text that moved by exactly one, when every other number stayed."""
    old = [int(n) for n in _NUMBER.findall(before.document.text())]
    new = [int(n) for n in _NUMBER.findall(after.document.text())]
    if len(old) != len(new) or old == new:
        return []
    moved = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    if len(moved) > MAX_MOVED_COUNTS or any(abs(a - b) != 1 for a, b in moved):
        return []
    return moved


_TOKEN_KEY = re.compile(r"(?i)tok|csrf|xsrf|nonce|sesskey|signature|^sig$|^_?hash$")


def control_identity(url: str) -> str:
    """A control's URL less the values of its token-like query keys (`sectok`, `csrf_token`, `nonce`):
    a page that draws a fresh token on every load still offers the same control."""
    parts = urlsplit(url)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    query = "&".join(f"{k}={'' if _TOKEN_KEY.search(k) else v}" for k, v in pairs)
    return parts._replace(query=query).geturl()


def _controls(page: FetchedPage) -> dict[str, str]:
    """Where the page's controls lead, with their labels: its actions, and its forms' actions whatever
    their method (a "Follow" drawn as a POST form offers the counterpart as much as a link), each by
    its identity: a fresh request token is the same control, not its counterpart."""
    found = {control_identity(a.target): a.label for a in page_actions(page).actions}
    base = base_url(page)
    for form in page.document.find_all("form"):
        target = resolve(base, form.get("action") or page.url)
        if target:
            found.setdefault(control_identity(target), "")
    return found


def _one_step_apart(a: str, b: str) -> bool:
    """Two targets that differ in one query value or one path segment, and nowhere else."""
    pa, pb = urlsplit(a), urlsplit(b)
    if pa.netloc != pb.netloc:
        return False
    qa, qb = parse_qsl(pa.query, keep_blank_values=True), parse_qsl(pb.query, keep_blank_values=True)
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


_NEGATIONS = ("un", "dis", "de", "non", "en")
"""Prefixes that undo a verb (`uninstall`, `deactivate`, `unsubscribe`; `disable` beside `enable`)."""


def _stem(word: str) -> str:
    return next((word[len(p) :] for p in _NEGATIONS if word.startswith(p) and len(word) - len(p) >= 4), word)


def negated(counter: str, url: str) -> bool:
    """Whether `counter` is `url` undone: one step apart (`_one_step_apart`), where the one segment or
    value that differs is the same verb with and without a negating prefix (`uninstall-plugin` /
    `install-plugin`, `?do=deactivate` / `?do=activate`, `disable` / `enable`). Another record's
    control one step apart (`/items/8/delete` after `/items/7/delete`) is no such undoing."""
    if not counter or not _one_step_apart(counter, url):
        return False
    a, b = urlsplit(counter), urlsplit(url)
    pairs = [*zip(a.path.split("/"), b.path.split("/"), strict=False)]
    pairs += [(x, y) for (_, x), (_, y) in zip(parse_qsl(a.query), parse_qsl(b.query), strict=False)]
    x, y = next(((x, y) for x, y in pairs if x != y), ("", ""))
    first = [re.split(r"[^a-z]+", w.lower())[0] for w in (x, y)]
    return (
        first[0] != first[1]
        and _stem(first[0]) == _stem(first[1])
        and x.lower()[len(first[0]) :] == y.lower()[len(first[1]) :]
    )
