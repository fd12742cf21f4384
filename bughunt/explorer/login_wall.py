"""A page that answered in place with a login form (no redirect, no 401): a login wall all the same —
judged on the form the page shows, not on its markup as text.

A single-page app carries its login form's markup long after the login: as a template in its script
(a string its router draws when the session is gone), in a `<template>` or `<noscript>`, or drawn and
then hidden (a login dialog kept for when the session expires). Two text searches of the whole page (a
password input somewhere, a form posting to a login address somewhere) found that markup and called
the logged-in app a wall, so the login that had just worked was reported as failed ("logged in, but /
is still behind a login wall"). A wall is one form the page shows that posts to a login address and
holds a password field the page shows.
"""

from __future__ import annotations

import re

from bughunt.dom import Node
from bughunt.oracles.visibility import unseen
from bughunt.page import FetchedPage

_PASSWORD_INPUT = re.compile(r"(?i)<input[^>]+type\s*=\s*[\"']?password")
_LOGIN_FORM = re.compile(r"(?i)<form[^>]+action\s*=\s*[\"']?[^\"'>]*(log-?in|sign-?in|signin|/auth|session)")
_LOGIN_ACTION = re.compile(r"(?i)log-?in|sign-?in|signin|/auth|session")
_NOT_DRAWN = frozenset(("template", "noscript", "script"))
"""Containers whose content the page does not show as it stands (a template's, a fallback for no
scripts, a script's text)."""


def shows_login_form(page: FetchedPage) -> bool:
    """Does `page` show a login form: a form, shown, whose action names a login address, with a shown
    password field? The text searches come first (the parse only on a page that has both)."""
    if not (_PASSWORD_INPUT.search(page.body) and _LOGIN_FORM.search(page.body)):
        return False
    return any(_shown_login_form(form) for form in page.document.find_all("form"))


def _shown_login_form(form: Node) -> bool:
    if not _LOGIN_ACTION.search(form.get("action")) or _not_drawn(form):
        return False
    return any(
        node.tag == "input" and node.get("type").strip().lower() == "password" and not unseen(node)
        for node in form.iter()
    )


def _not_drawn(node: Node) -> bool:
    return unseen(node) or any(a.tag in _NOT_DRAWN for a in node.ancestors())
