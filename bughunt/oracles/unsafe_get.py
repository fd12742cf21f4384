"""State changes on a safe method: a GET that follows, likes, subscribes or votes (RFC 9110 §9.2.1
says GET must not change what the server holds; CWE-650, trusting the HTTP method to keep a request
harmless). Crawlers, link prefetchers and a mail client's preview all send GETs: on such a site they
follow users and cast votes nobody asked for.

Reported only where the effect is seen, never on a URL's words alone: the page the GET was clicked on
(`FetchedPage.clicked_from`, which the explorer sets when a GET redirects back to the page it was
clicked on, or answers at an address naming a state verb on the same path: `?like=1`) is compared with the page after, and

- the control that made the request changed its state (its label changed — "Follow" became
  "Following" — or it gave way to its counterpart, a control whose target differs only in the verb:
  `/follow` → `/unfollow`, or in the verb's value: `?like=1` → `?like=0`), or
- a count on the page moved by one (a follower count, a vote tally) while the page's other numbers
  stayed, so a clock or a random feed on the page is no effect.

With a fetch (the explorer always lends one), the effect must also be seen twice (`seen_twice`): kept on
a reload of the page, and seen again when the link (or its undo) is followed a second time.

A request that names a destructive action (delete, remove…) is `unconfirmed_destructive`'s, not this
oracle's. The message is a harness template; labels and numbers are evidence (quarantined).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from bughunt.actions import page_actions
from bughunt.oracles.action_effect import STATE_CHANGE_MESSAGE, moved_counts
from bughunt.oracles.base import DEFAULT_CONFIG, Fetch, Finding, OracleConfig, evidence
from bughunt.oracles.destructive import requested_url
from bughunt.oracles.destructive_words import action_route, destructive_action, names_action
from bughunt.oracles.reading import resolve
from bughunt.oracles.request_action import action_key
from bughunt.oracles.seen_twice import seen_twice
from bughunt.page import FetchedPage, base_url
from bughunt.sim.route_keys import query_pairs
from bughunt.tree_facts import tree_facts

STATE_VERBS = frozenset(
    (
        "follow unfollow like unlike favorite unfavorite favourite unfavourite fav unfav subscribe "
        "vote upvote downvote unvote star unstar bookmark unbookmark pin unpin watch unwatch mute "
        "unmute block unblock toggle join leave flag heart unheart react clap save unsave"
    ).split()
)
"""Verbs of a request that changes what the server keeps for the user: general web verbs, like the
destructive verbs, never one application's words."""
MESSAGE = STATE_CHANGE_MESSAGE


def state_change(url: str) -> str | None:
    """The state-changing verb a GET's URL names (`/articles/7/like`, `?action=follow`, `?like=1`), or
    None. A path segment led by the verb (or a two-word one holding it: `toggle-like`), the value of an
    action-like query key or a query key that is the verb counts; a title mentioning one
    (`how-to-like-testing`) and a search for it (`?q=follow`) do not."""
    parts = urlsplit(url)
    query = query_pairs(parts.query, decoded=True)
    segments = [s for s in parts.path.split("/") if s]
    segments += [v for k, v in query if action_key(k)]
    for segment in segments:
        if names_action(segment, STATE_VERBS):
            return segment.lower()
    return next((k.lower() for k, _ in query if k.lower() in STATE_VERBS), None)


def _control(page: FetchedPage, url: str) -> tuple[str, str] | None:
    """(target, label) of the control on `page` that leads to `url`."""
    for action in page_actions(page).actions:
        if action.target == url:
            return action.target, action.label
    return None


def _counterpart(page: FetchedPage, url: str) -> str | None:
    """A control of `page` whose target is `url` with another state verb in the verb's place
    (`/p/7/follow` → `/p/7/unfollow`)."""
    verb = state_change(url)
    if verb is None:
        return None
    asked = urlsplit(url)
    keys = dict(query_pairs(asked.query, decoded=True))
    if verb in (k.lower() for k in keys):
        # `?like=1` → `?like=0`: the same address with the verb's value flipped.
        for action in page_actions(page).actions:
            other = urlsplit(action.target)
            theirs = dict(query_pairs(other.query, decoded=True))
            if other.path == asked.path and theirs.keys() == keys.keys() and theirs != keys:
                if all(theirs[k] == v for k, v in keys.items() if k.lower() != verb):
                    return action.target
        return None
    head, _, tail = url.partition(verb)
    for target in _control_targets(page):
        if target != url and target.startswith(head) and target.endswith(tail):
            middle = target[len(head) : len(target) - len(tail)] if tail else target[len(head) :]
            if middle.lower() in STATE_VERBS:
                return target
    return None


def _control_targets(page: FetchedPage) -> list[str]:
    """Where the page's controls lead: its actions, and its forms' actions whatever their method —
    a "Follow" drawn as a POST form (with its CSRF token) offers the counterpart as much as a link."""
    base = base_url(page)
    forms = [resolve(base, f.get("action") or page.url) for f in tree_facts(page).tagged("form")]
    return [a.target for a in page_actions(page).actions] + [u for u in forms if u]


def _effect(before: FetchedPage, after: FetchedPage, asked: str) -> dict[str, str]:
    """What the GET of `asked`, a control of `before`, shows on `after` (the same page after it): the
    control relabelled or given way to its counterpart, counts moved by one; empty when nothing."""
    control = _control(before, asked)
    if control is None:
        return {}
    after_control = _control(after, asked)
    effect: dict[str, str] = {}
    if after_control is not None and after_control[1] != control[1]:
        effect = {"label_before": control[1], "label_after": after_control[1]}
    elif after_control is None and (counter := _counterpart(after, asked)) is not None:
        effect = {"control_after": counter}
    moved = moved_counts(before, after)
    if moved:
        effect["counts"] = "; ".join(f"{a} -> {b}" for a, b in moved)
    return effect


def check_unsafe_get(
    page: FetchedPage, fetch: Fetch | None = None, config: OracleConfig = DEFAULT_CONFIG
) -> list[Finding]:
    """One finding when the GET that produced `page` visibly changed the page it was clicked on, and
    (with a `fetch`) that change is seen twice (`seen_twice`: kept on a reload, seen again on a second
    opening). Without a fetch (a page judged on its own) the one comparison stands."""
    if page.clicked_from is None or page.status >= 400:
        return []
    before, _label = page.clicked_from
    asked = requested_url(page)
    if asked == before.url or destructive_action(asked) is not None:
        return []  # a click in place (no request of its own to judge), or a destructive action
    effect = _effect(before, page, asked)
    if not effect or (fetch is not None and not seen_twice(before, page, effect, asked, _effect, fetch)):
        return []
    route = action_route(asked)
    return [
        Finding(
            "unsafe_get",
            route,
            MESSAGE,
            evidence(page, request=f"GET {route}", clicked_on=before.route, **effect),
        )
    ]
