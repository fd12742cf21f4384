"""What a click's scripts kept in the origin's `localStorage` is put back once the step is read: a view's
preference is no state of the site (the counterpart of `script_cookies`).

A shell remembers which tab, pane or tree branch was open in `localStorage` (Tiny Tiny RSS's
`ttrss:prefs-tab` and its feed tree's open folders, Dojo's Tree `persist`, Bootstrap tab-persistence
scripts, Grafana's and GitLab's collapsed sidebars), and its next load opens that view. The walk
reaches each click state by replaying its clicks from a fresh load: after one click on the Filters
tab, every later load of the preferences showed Filters, and the controls of the Feeds tab that the
load had been read with were gone — 7 of 38 clicks of one walk failed "not found". So the entries a
step's scripts changed get back their values of before the step (and new ones go); an entry whose
name says it keeps the session (a token, an auth or session record, a CSRF value) is never touched:
a script that refreshed the login's token must not be logged out by us.
"""

from __future__ import annotations

from typing import Any

from memgpt_lite.log import logger

MAX_CHARS = 1_000_000
"""Beyond this much stored text the storage is not read (an offline cache, not a preference)."""
SESSION_KEYS = r"token|auth|session|jwt|csrf|xsrf|secret|credential|login"
"""Words of an entry's name that say it keeps the session, matched case-insensitively."""

_READ = """(max) => {
  try {
    const out = {};
    let size = 0;
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i), v = localStorage.getItem(k);
      size += k.length + (v === null ? 0 : v.length);
      if (size > max) { return null; }
      out[k] = v;
    }
    return out;
  } catch (e) { return null; }
}"""
_PUT_BACK = """([then, keep]) => {
  try {
    const kept = new RegExp(keep, 'i'), changed = [];
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const k = localStorage.key(i);
      if (!kept.test(k) && !Object.prototype.hasOwnProperty.call(then, k)) { localStorage.removeItem(k); changed.push(k); }
    }
    for (const [k, v] of Object.entries(then)) {
      if (!kept.test(k) && localStorage.getItem(k) !== v) { localStorage.setItem(k, v); changed.push(k); }
    }
    return changed;
  } catch (e) { return []; }
}"""


def stored(page: Any) -> dict[str, str] | None:
    """The origin's `localStorage` entries now, or None when they cannot be read (no document, storage
    refused, or more than `MAX_CHARS` of it)."""
    try:
        got = page.evaluate(_READ, MAX_CHARS)
    except Exception as exc:  # noqa: BLE001 — a page gone or blocked: nothing known, nothing restored
        logger.debug("reading the local storage: {!r}", exc)
        return None
    if not isinstance(got, dict):
        return None
    return {k: v for k, v in got.items() if isinstance(k, str) and isinstance(v, str)}


def put_back(page: Any, before: dict[str, str] | None) -> list[str]:
    """Give the entries changed since `before` (the storage when the step began) their values of then,
    except the session's (`SESSION_KEYS`); the names put back."""
    if before is None:
        return []
    try:
        changed = page.evaluate(_PUT_BACK, [before, SESSION_KEYS])
    except Exception as exc:  # noqa: BLE001 — an entry the page will not take back stays as it is
        logger.debug("putting back the local storage: {!r}", exc)
        return []
    return [k for k in changed if isinstance(k, str)] if isinstance(changed, list) else []
