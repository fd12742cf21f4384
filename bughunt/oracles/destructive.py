"""Destructive actions that run on a plain GET, with no confirmation step.

A page whose URL names a destructive action (delete, remove, destroy, deactivate, close account…)
that answers a GET with success and offers no confirmation (no POST form, no "yes / confirm"
control) has done the action on a link click. The oracle judges the page after the explorer has
opened it; it never follows such links itself, since on a real site that would do the damage.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

from bughunt.html import FetchedPage
from bughunt.oracles.base import Fetch, Finding, evidence

_VERBS = frozenset("delete remove destroy deactivate unsubscribe erase purge wipe terminate drop".split())
_ACCOUNT_VERBS = frozenset({"close", "cancel"})
_ACCOUNT_NOUNS = frozenset({"account", "subscription", "profile", "membership", "user"})
_CONFIRM = re.compile(r"\b(yes|confirm|continue|proceed|i understand)\b", re.I)


_ACTION_KEYS = frozenset({"action", "op", "cmd", "do", "method", "task", "_method"})


def destructive_action(url: str) -> str | None:
    """The action named by a URL (`delete account`), or None if it names none.

    The path counts, and of the query only an action-like key (`?action=delete`): a search for
    "delete" (`?q=delete`) names no action."""
    parts = urlsplit(url)
    text = parts.path + " " + " ".join(v for k, v in parse_qsl(parts.query) if k.lower() in _ACTION_KEYS)
    words = [w for w in re.split(r"[^a-z0-9]+", text.lower()) if w]
    if _VERBS & set(words) or (_ACCOUNT_VERBS & set(words) and _ACCOUNT_NOUNS & set(words)):
        return " ".join(w for w in words if not w.isdigit())
    return None


def has_confirmation_step(page: FetchedPage) -> bool:
    doc = page.document
    if any(f.get("method", "get").lower() == "post" for f in doc.find_all("form")):
        return True
    if doc.find_all("dialog"):
        return True
    return any(_CONFIRM.search(n.text()) for n in doc.find_all("a", "button"))


def check_unconfirmed_destructive(page: FetchedPage, fetch: Fetch | None = None) -> list[Finding]:
    if page.method != "GET" or not 200 <= page.status < 300 or not page.is_html:
        return []
    action = destructive_action(page.url)
    if action is None or has_confirmation_step(page):
        return []
    message = f"destructive action '{action}' runs on a plain GET with no confirmation step"
    heading = next((n.text() for n in page.document.find_all("h1", "h2") if n.text()), "")
    return [
        Finding("unconfirmed_destructive", page.route, message, evidence(page, heading, page_heading=heading))
    ]
