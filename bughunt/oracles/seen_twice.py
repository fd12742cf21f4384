"""A state change on a GET is reported only when its effect is seen twice, as a tester files it: one
who suspects a link changed state reloads the page it changed, and follows the link again.

One comparison (the page before the GET, the same page after it) sees whatever moved between two
loads: a page that changes on its own (a view counter, a rotating banner, a random quote, a clock the
clock reading missed) and, for an action opened after the walk, whatever the walk changed since the
page was loaded (a count another opening moved). So the first comparison's effect must also be

(a) **kept on a reload** of the affected page: loaded again, it shows the same effect against the page
    before — the same relabelled control or the same counterpart (numbers beside it may move on every
    load: a view counter), or, when numbers are all the effect, a number that moved by one and stayed
    (one that moved again on the reload is the page's own: a view counter beside a like counter).
    A page that changes on every load shows another change: a view counter two ahead, another banner;
(b) **seen again when the link is followed a second time**, where that is a GET: the control now
    offered in its place (a toggle's counterpart, its undo) or the same control again (a relabelled
    one, a counter's) is opened, and the page reloaded must change on that control again — a toggle
    flips back, a kept number steps again. A page that changed on its own, or before the action was
    opened, does not answer a second opening. An undo that is a form only (a POST with its token) is
    not sent, nor is one the oracles may not open (`PermissionError`: the walk's own refusals): then
    (a) alone decides. A toggle flipped back leaves the site as it was before the first opening.

Three oracle fetches at most (reload, second opening, reload), none a click, and only when the first
comparison saw an effect. Stated on controls, links and numbers only: every family (a forum's
subscriptions, a blog's likes, an admin's install/uninstall links, a tracker's analytics pages).
"""

from __future__ import annotations

from collections.abc import Callable

from bughunt.actions import page_actions
from bughunt.oracles.action_effect import control_identity, page_numbers
from bughunt.oracles.base import Fetch, fetch_again
from bughunt.page import FetchedPage
from memgpt_lite.log import logger

Judge = Callable[[FetchedPage, FetchedPage, str], dict[str, str]]
"""The effect the GET of a control (its URL) had between a page and the same page loaded after it, as
evidence (empty: none)."""


_CONTROL_KEYS = ("label_before", "label_after", "control_after")
"""The evidence a control gives of its own state (relabelled, or given way to its counterpart)."""


def _same(first: dict[str, str], reloaded: dict[str, str]) -> bool:
    """Whether the effect on the reloaded page is the first one. The control's own evidence decides
    when there is some (its counterpart by identity: a fresh request token is the same control); the
    counts beside it may hold a number that moves on every load (views), as the reload shows. Counts
    alone must be the same numbers moved the same way."""
    mine = [k for k in _CONTROL_KEYS if k in first]
    if not mine:
        return reloaded.get("counts") == first.get("counts")
    if [k for k in _CONTROL_KEYS if k in reloaded] != mine:
        return False
    if "control_after" in first:
        return control_identity(first["control_after"]) == control_identity(reloaded["control_after"])
    return all(first[k] == reloaded[k] for k in mine)


def _link_to(page: FetchedPage, url: str) -> str | None:
    """The target of `page`'s GET link (not a form) to the control `url` names, as the page draws it
    now (with its fresh token), or None."""
    mine = control_identity(url)
    return next((a.target for a in page_actions(page).actions if control_identity(a.target) == mine), None)


def second_opening(reloaded: FetchedPage, url: str, effect: dict[str, str]) -> str | None:
    """What to open a second time on the reloaded page: the control offered in place of `url` (its
    counterpart), or `url`'s own control (relabelled, or counting) — a GET link of the page, else None."""
    return _link_to(reloaded, effect.get("control_after") or url)


def _kept_counts(before: FetchedPage, after: FetchedPage, reloaded: FetchedPage) -> tuple[set[int], set[int]]:
    """(kept, restless): the places of the page's numbers that moved by one from `before` to `after`
    and stayed on the reload, and those that moved between `after` and the reload with no action at
    all (a counter of the page's own loads, a view counter beside the like counter that moved)."""
    b, a, r = page_numbers(before), page_numbers(after), page_numbers(reloaded)
    if not len(b) == len(a) == len(r):
        return set(), set()
    restless = {i for i, (x, y) in enumerate(zip(a, r, strict=True)) if x != y}
    kept = {i for i, (x, y) in enumerate(zip(b, a, strict=True)) if abs(x - y) == 1 and i not in restless}
    return kept, restless


def _stepped_again(kept: set[int], reloaded: FetchedPage, second: FetchedPage) -> bool:
    """Whether a number of `kept` moved by one again after the second opening (up: a counter; down: a
    toggle undone); the restless ones are not asked."""
    r, s = page_numbers(reloaded), page_numbers(second)
    return len(r) == len(s) and any(abs(r[i] - s[i]) == 1 for i in kept)


def seen_twice(
    before: FetchedPage, after: FetchedPage, effect: dict[str, str], url: str, judge: Judge, fetch: Fetch
) -> bool | None:
    """Whether the `effect` the GET of `url` had between `before` and `after` (by `judge`) is seen
    twice (see the module): kept on a reload of `before`'s page, and seen again on a second opening
    where one can be sent. Counts alone are read number by number: those that moved on the reload
    too are the page's own (views), the others must stay, then step again. None when it could not be
    judged: a fetch failed (the site, or the oracles' requests of the step spent) — no confirmation,
    and no verdict either (another instance of the control may be judged later)."""
    counts_only = not any(k in effect for k in _CONTROL_KEYS)
    kept: set[int] = set()
    try:
        reloaded = fetch_again(fetch, before.url)
        if reloaded.status >= 400:
            return False
        if counts_only:
            kept, _ = _kept_counts(before, after, reloaded)
            if not kept:
                logger.debug("unsafe GET {}: no moved number was kept on a reload", url)
                return False
        elif not _same(effect, judge(before, reloaded, url)):
            logger.debug("unsafe GET {}: its effect was not kept on a reload", url)
            return False
        again = second_opening(reloaded, url, effect)
        if again is None:
            return True
        try:
            fetch_again(fetch, again)
        except PermissionError:
            return True  # the walk would not open it either: the reload alone decides
        second = fetch_again(fetch, before.url)
    except OSError as err:
        logger.debug("unsafe GET {} not judged: {}", url, err)
        return None
    if not (_stepped_again(kept, reloaded, second) if counts_only else judge(reloaded, second, again)):
        logger.debug("unsafe GET {}: a second opening ({}) changed nothing", url, again)
        return False
    return True


def confirmed_twice(
    before: FetchedPage, after: FetchedPage, effect: dict[str, str], url: str, judge: Judge, fetch: Fetch
) -> bool:
    """`seen_twice` for an action opened by the destructive oracle: not judged (a fetch failed) is an
    `OSError`, so the action's template is not settled by it (`destructive._confirm`'s callers)."""
    seen = seen_twice(before, after, effect, url, judge, fetch)
    if seen is None:
        raise OSError(f"the effect of {url} could not be seen again")
    return seen
