"""A single-page app's shell is not its page: a load read before the app drew anything is read again.

An SPA's server sends one HTML shell for every path — scripts, styles, an empty root element, maybe a
`<noscript>` line — and the app draws the view once its bundle ran and, often, once its first data came
(a socket's login by token, an API's list). On a busy machine that comes after the document's `load`
and after every request the page's record follows has settled: the socket is not open yet, the lazy
route component not yet fetched. A page read then is the shell: nothing to click, nothing to judge,
and every path of the app the same empty structure (Uptime Kuma, session 29: 30 of 55 loads in a run,
its XSS and edit-form pages among them, were read as the shell).

So after a load whose rendered body still looks like a shell — almost no text (`SHELL_TEXT_CHARS`)
and at most `SHELL_ACTIONS` controls, the very test `engine auto` applies to a start page without
scripts — the engine waits, polling, until it does not (bounded by `SHELL_WAIT_S` and the step's
deadline), then lets the page settle again before it is read. A page that stays a shell is read as it
is at the bound. Stated on what a page shows, not on any framework: Vue, React, Angular and Svelte
apps alike, in the browser engine only (the HTTP engine reads what the server sent).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

SHELL_TEXT_CHARS = 200
"""Text of a body that shows almost nothing (fewer characters)."""
SHELL_ACTIONS = 2
"""Controls of a body that offers almost nothing (at most this many)."""
SHELL_WAIT_S = 6.0
"""How long a load that shows the shell is waited for to draw the app (at most)."""
SHELL_POLL_MS = 100

_LOOKS_LIKE_SHELL = """
([chars, actions]) => {
  const body = document.body;
  if (!body || !document.querySelector('script')) { return false; }
  const text = (body.innerText || '').trim().length;
  const controls = body.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, [role=button], [tabindex]'
  ).length;
  return text < chars && controls <= actions;
}
"""


def looks_like_shell(page: Any) -> bool:
    """Whether the rendered page (a Playwright page) shows almost nothing while it has scripts."""
    return bool(page.evaluate(_LOOKS_LIKE_SHELL, [SHELL_TEXT_CHARS, SHELL_ACTIONS]))


def wait_drawn(page: Any, deadline: float, settle: Callable[[float], None]) -> bool:
    """Wait while the rendered page looks like an app's shell (see the module), at most `SHELL_WAIT_S`
    and never past `deadline`, then `settle(deadline)` again (what it drew fetched and opened channels);
    True when it had to wait."""
    if not looks_like_shell(page):
        return False
    stop = min(deadline, time.monotonic() + SHELL_WAIT_S)
    while time.monotonic() < stop:
        page.wait_for_timeout(SHELL_POLL_MS)
        if not looks_like_shell(page):
            break
    settle(deadline)
    return True
