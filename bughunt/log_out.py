"""A control that says it ends the session: "Log out", "Sign out", "Log off".

What a link does is what it says as much as where it goes. The explorer's address rule
(`http_engine.DEFAULT_AVOID`: `/logout`, `/sign-out`) misses the sites whose log-out has an address of
another name: a PHP admin whose menu's "Logout" is `login.php` (the login page ends the session it
finds on a GET), a monitoring front end's "Sign out" to `index.php?reconnect=1`, a database admin's
"Log out" to `index.php?old_usr=root`. Followed, such a link logs the walk out: every later page
answers with the login page, and the rest of the budget is spent on repeats. So a link, a scripted
navigation or a GET form whose label says it logs out is no action of the page (`actions._walk`), and
a script's control that says so is never clicked (`offered_clicks.avoided`).

A label is a control's words, short: a post titled "Why I log off social media at night" links an
article, not the session's end, so a label of more than `MAX_WORDS` words is read as content.
"""

from __future__ import annotations

import re

LOG_OUT = re.compile(r"(?i)\b(log\s*-?\s*(out|off)|sign\s*-?\s*out)\b")
MAX_WORDS = 4
"""The most words a log-out control's label has ("Log out alice@example.com", "Sign out (admin)")."""


def says_log_out(label: str) -> bool:
    """Whether a control's label says it ends the session (a short label: `MAX_WORDS` at most)."""
    return LOG_OUT.search(label) is not None and len(label.split()) <= MAX_WORDS
