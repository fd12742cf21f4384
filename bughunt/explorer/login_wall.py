"""A page that answered in place with a login form (no redirect, no 401): a login wall all the same —
judged on the form the page shows, not on its markup as text.

A single-page app carries its login form's markup long after the login: as a template in its script
(a string its router draws when the session is gone), in a `<template>` or `<noscript>`, or drawn and
then hidden (a login dialog kept for when the session expires). Two text searches of the whole page (a
password input somewhere, a form posting to a login address somewhere) found that markup and called
the logged-in app a wall, so the login that had just worked was reported as failed ("logged in, but /
is still behind a login wall"). A wall is one form the page shows that posts to a login address and
holds a password field the page shows.

Many apps name no login in their form's address (`public.php` with a hidden `op=login`, a front
controller's `index.php?r=site/index`, a script-driven form with no action at all). Once the explorer
has logged in through a form, it knows that form's shape (`LoginShape`: the names of the fields a
person types into, and the path it posts to), and a page that shows the same form again is the same
wall, whatever its address says: the session was lost (Tiny Tiny RSS, Yii's and CodeIgniter's front
controllers, a Dojo or ExtJS shell that draws its login in place).
"""

from __future__ import annotations

import re
from typing import NamedTuple
from urllib.parse import urlsplit

from bughunt.dom import Node
from bughunt.oracles.visibility import unseen
from bughunt.page import FetchedPage, base_url
from bughunt.urls import absolute

_PASSWORD_INPUT = re.compile(r"(?i)<input[^>]+type\s*=\s*[\"']?password")
_LOGIN_FORM = re.compile(r"(?i)<form[^>]+action\s*=\s*[\"']?[^\"'>]*(log-?in|sign-?in|signin|/auth|session)")
_LOGIN_ACTION = re.compile(r"(?i)log-?in|sign-?in|signin|/auth|session")
_NOT_DRAWN = frozenset(("template", "noscript", "script"))
"""Containers whose content the page does not show as it stands (a template's, a fallback for no
scripts, a script's text)."""


USERNAME_TYPES = frozenset(("", "text", "email", "tel"))
"""Input types a login form asks for the username in (`login.username_field`)."""
_TYPED = USERNAME_TYPES | {"password"}
"""Input types a person types a login into (no hidden token, box, button or file)."""


class LoginShape(NamedTuple):
    """What identifies the login form the explorer filled: the names of its typed fields and the path
    it posts to (a form with no action posts to its page's address, as HTML says; None for a
    `javascript:` action: its script sends it, from any page)."""

    fields: frozenset[str]
    path: str | None


def login_shape(page: FetchedPage, form: Node) -> LoginShape | None:
    """The shape of `form` (the login form on `page`), or None when it has no named password field to
    know it by."""
    fields = _typed_fields(form)
    if not any(kind == "password" for _, kind in fields):
        return None
    return LoginShape(frozenset(name for name, _ in fields), _action_path(page, form))


def shows_login_form(page: FetchedPage, known: LoginShape | None = None) -> bool:
    """Does `page` show a login form: a form, shown, with a shown password field, whose action names a
    login address — or which is `known`, the form the explorer logged in with? The text searches come
    first (the parse only on a page that may hold one)."""
    if not _PASSWORD_INPUT.search(page.body):
        return False
    named = _LOGIN_FORM.search(page.body) is not None
    if not named and known is None:
        return False
    return any(
        (named and _shown_login_form(form)) or (known is not None and _shown_known_form(page, form, known))
        for form in page.document.find_all("form")
    )


def _typed_fields(form: Node) -> list[tuple[str, str]]:
    return [
        (n.get("name"), kind)
        for n in form.iter()
        if n.tag == "input" and n.get("name") and (kind := n.get("type").strip().lower()) in _TYPED
    ]


def _action_path(page: FetchedPage, form: Node) -> str | None:
    action = form.get("action").strip()
    if action.lower().startswith("javascript:"):
        return None
    target = absolute(base_url(page), action) if action else page.url
    return (urlsplit(target).path or "/") if target else None


def _shown_known_form(page: FetchedPage, form: Node, known: LoginShape) -> bool:
    """The login form the explorer filled, shown again: the same typed fields (a sign-up or a password
    change asks for others), posting to the same path, its password field shown."""
    if _not_drawn(form):
        return False
    fields = _typed_fields(form)
    if frozenset(name for name, _ in fields) != known.fields or _action_path(page, form) != known.path:
        return False
    return _shows_password(form)


def _shown_login_form(form: Node) -> bool:
    if not _LOGIN_ACTION.search(form.get("action")) or _not_drawn(form):
        return False
    return _shows_password(form)


def _shows_password(form: Node) -> bool:
    return any(
        node.tag == "input" and node.get("type").strip().lower() == "password" and not unseen(node)
        for node in form.iter()
    )


def _not_drawn(node: Node) -> bool:
    return unseen(node) or any(a.tag in _NOT_DRAWN for a in node.ancestors())
