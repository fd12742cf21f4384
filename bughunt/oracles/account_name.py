"""The signed-in account's name in a user bar: the account's own form left without it drops it.

A profile or settings form edits the signed-in account; it shows the account's login (a user-name
field, often disabled: "you may not change your user name") beside the fields that may change. Most
applications also show the account in a user bar as its name with the login in brackets ("Logged in
as: Alice Admin (alice)"). When the form's name field (full name, real name, display name) opens
empty while the page shows that name beside the very login the form holds, the form was drawn
without the stored name: saving it as drawn clears the name. No other page need show the name under
a label — the user bar is the witness, and the login ties it to this form's account (an admin's
form for another account holds another login, and is left alone). A user card of two lines — the
name over the login, as a sidebar's account button draws it — witnesses it alike; an application
whose accounts log in by e-mail has the form's one e-mail as its login.
"""

from __future__ import annotations

import re

from bughunt.dom import Node
from bughunt.oracles.reading import missing_value

NAME_KEYS = frozenset({"name", "fullname", "realname", "displayname", "yourname"})
"""Field keys (`form_fields.key`) of the one field holding a person's whole name (not a first or last part)."""
LOGIN_KEYS = frozenset({"login", "username", "loginname", "userid", "account", "accountname"})
EMAIL_KEYS = frozenset({"email", "mail", "emailaddres"})
MAX_NAME_CHARS = 60
_LABEL = re.compile(r"^[^:()]{1,40}:\s*")


def _login(fields: list[tuple[Node, str, str, set[str], bool]]) -> str | None:
    """The login an account form holds: one filled input keyed as a user name, one word — else, in a
    form without one, its one filled e-mail (an application whose accounts log in by e-mail)."""
    for login_keys in (LOGIN_KEYS, EMAIL_KEYS):
        logins = {
            value
            for node, _name, value, keys, visible in fields
            if visible and node.tag == "input" and keys & login_keys and value and len(value.split()) == 1
        }
        if logins:
            return logins.pop() if len(logins) == 1 else None
    return None


def _shown_name(doc: Node, form: Node, login: str) -> str | None:
    """The name a part of the page outside the form shows with `login` in brackets after it
    ("Alice Admin (alice)", a label before it aside)."""
    bracketed = re.compile(rf"^(?P<name>[^()]+?)\s*\(\s*{re.escape(login)}\s*\)$")
    for node in doc.iter():
        if node is form or any(a is form for a in node.ancestors()):
            continue
        text = node.short_text(MAX_NAME_CHARS + len(login) + 44)
        if not text or login not in text:
            continue
        if (match := bracketed.match(_LABEL.sub("", text))) is None:
            continue
        name = match["name"].strip()
        if name != login and any(c.isalpha() for c in name) and len(name) <= MAX_NAME_CHARS:
            return name
    return None


def _card_name(doc: Node, form: Node, login: str) -> str | None:
    """The name a user card outside the form shows on the line above `login`: an element of exactly
    two lines, the name then the login (a sidebar's account button: "Alice Archer" over
    "alice@example.com", an avatar's initials beside them)."""
    for node in doc.iter():
        lines = node.elements
        if len(lines) != 2 or node is form or any(a is form for a in node.ancestors()):
            continue
        name, second = (" ".join(line.text().split()) for line in lines)
        if second != login or any(line.tag in ("a", "button", "input") for line in lines):
            continue
        if " ".join(node.text().split()) != f"{name} {login}":
            continue  # the two lines are not all the element says
        if (
            name != login
            and "@" not in name
            and re.search(r"[^\W\d_]{2,}", name) is not None  # a word, not "N/A"
            and len(name) <= MAX_NAME_CHARS
            and not missing_value(name)
        ):
            return name
    return None


def dropped_account_name(
    form: Node, doc: Node, fields: list[tuple[Node, str, str, set[str], bool]]
) -> list[tuple[str, str]]:
    """(field name, name shown) when the account form's name field is empty while the page's user
    bar shows the account's name beside the login the form holds."""
    empty = [
        name
        for node, name, value, keys, visible in fields
        if visible and not value and node.tag == "input" and keys & NAME_KEYS and not keys & LOGIN_KEYS
    ]
    if len(empty) != 1 or (login := _login(fields)) is None:
        return []
    shown = _shown_name(doc, form, login) or _card_name(doc, form, login)
    return [(empty[0], shown)] if shown else []
