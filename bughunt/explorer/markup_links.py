"""Links to a record whose stored text holds markup: where a stored script would run, opened first.

A list that escapes what it prints shows a record's markup as text: the row of an issue whose
subject a user pasted from a browser console reads "Console shows <script>alert(…)</script> on load".
The list is right; the record's own page prints the same text through another template (its
heading, its title bar, a breadcrumb) and is where an unescaped print runs it. Such a record is
one instance of a page type the walk may have sampled already (one issue page of a hundred): its
stored text makes it the instance worth opening, so the planner takes its link before the other
links of the same level (`Planner.marked`). Read on the link's own text alone — an element or an
event handler written as text (`<script`, `<img … onerror=`), never a word — so plain titles are
never marked.

Applies to every family that lists records by a title or summary linked to the record's page:
trackers (an issue's subject, a ticket's summary, a task's title), forums (a topic's subject),
wikis and CMSs (a page's or post's title), admin lists (a row's name).
"""

from __future__ import annotations

import re
from urllib.parse import urljoin

from bughunt.page import FetchedPage
from bughunt.tree_facts import tree_facts

_ESCAPED_LT = re.compile(r"&lt;|&#0*60;|&#x0*3c;", re.I)
"""A `<` written as text: the page's source holds it escaped, or no link's text can show markup."""
_ACTIVE_MARKUP = re.compile(
    r"<\s*(?:script|iframe|img|svg|object|embed|video|audio|body|details|math|marquee)\b"
    r"|<[a-z][^<>]*\son[a-z]{3,}\s*=",
    re.I,
)


def shows_markup(label: str) -> bool:
    """Whether a link's text shows an active element or an event handler written as text."""
    return bool(_ACTIVE_MARKUP.search(label))


def marked_targets(page: FetchedPage) -> set[str]:
    """The absolute addresses of the page's links whose own text shows markup written as text. Every
    link to a target is read, not only its first: a tracker's row links its issue by number first and
    by subject after."""
    if not _ESCAPED_LT.search(page.body):
        return set()
    return {
        urljoin(page.base, a.get("href").strip())
        for a in tree_facts(page).tagged("a")
        if a.get("href").strip() and shows_markup(a.text())
    }
