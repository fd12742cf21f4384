"""Cookies a click's scripts wrote are put back once the step is read: a view's preference is no state of the site.

A page's script keeps a view's preference in a cookie (`document.cookie = "compact_display_state=true"`:
Transmission's compact list, ExtJS's `Ext.state.CookieProvider` for collapsed panels and column
widths, jQuery's cookie plugin, Dojo's `dojo/cookie`), and every later load of the site shows it. The
walk reaches each click state by replaying its clicks from a fresh load, and finds each control again
by what the load it was chosen on showed (`click_target`): after one "Compact view" click every row
of that list read differently, so each row's click failed ("not found") and each chain through one
broke — 14 of 24 clicks on a corpus torrent client. So the cookies the page's own scripts wrote
during a click step (the init script records their names, `page_scripts.init_script`) get back the
values they had before the step; a cookie the server set (`Set-Cookie`: a session, a CSRF token) is
never touched, and neither is one a script wrote before the step began (the login's).
"""

from __future__ import annotations

from typing import Any

from memgpt_lite.log import logger

WROTE = "(name) => { const r = window[name]; return r && typeof r.wrote === 'function' ? r.wrote() : []; }"
MAX_NAMES = 64


def cookie_jar(context: Any) -> list[dict[str, Any]]:
    """The context's cookies now (Playwright's records)."""
    try:
        return list(context.cookies())
    except Exception as exc:  # noqa: BLE001 — a closed context has none to restore
        logger.debug("reading the cookies: {!r}", exc)
        return []


def written_names(page: Any, record: str) -> list[str]:
    """The cookie names the page's scripts wrote (the init script's record; nothing when the page
    replaced it or answers nonsense)."""
    try:
        names = page.evaluate(WROTE, record)
    except Exception as exc:  # noqa: BLE001 — a page gone or blocked: nothing known, nothing restored
        logger.debug("reading the written cookies: {!r}", exc)
        return []
    if not isinstance(names, list):
        return []
    return [n for n in names[:MAX_NAMES] if isinstance(n, str) and n]


def put_back(context: Any, page: Any, record: str, before: list[dict[str, Any]]) -> list[str]:
    """Give the cookies the page's scripts wrote since `before` (the jar when the step began) their
    values of then (dropping those that did not exist); the names put back."""
    names = set(written_names(page, record))
    if not names:
        return []
    now = {(c["name"], c.get("domain"), c.get("path")): c for c in cookie_jar(context)}
    then = {(c["name"], c.get("domain"), c.get("path")): c for c in before}
    changed = sorted(
        {key[0] for key in set(now) | set(then) if key[0] in names and now.get(key) != then.get(key)}
    )
    for name in changed:
        try:
            context.clear_cookies(name=name)
            old = [c for c in before if c["name"] == name]
            if old:
                context.add_cookies(old)
        except Exception as exc:  # noqa: BLE001 — a cookie the browser will not take back stays as it is
            logger.debug("putting back cookie {}: {!r}", name, exc)
    return changed
