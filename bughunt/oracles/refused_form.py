"""A refused form that comes back without what was typed in it: the login form, after a wrong password,
shows its error over an empty e-mail field.

A form a site refuses (a wrong password, a required field left empty) is drawn again with its error,
and a tester checks that the fields typed are still filled — a person should not type their address
again because the password was wrong. Passwords are never refilled (a site is right to drop them), nor
hidden inputs (a CSRF token is new on every draw), nor what was never typed (a checkbox, a select).

Judged on the answer the refused submission led to (its redirects followed, as a browser follows them):
a page that answered (status below 400, as every form oracle asks) holding a form with a field of
each typed name — the same form came back. A typed field whose field there is empty dropped its value.
A form that comes back with another value in the field (the site's normalised address) kept one.

Reported **suspected** (a lead no gate counts, `Finding.suspected`): many applications clear the login
form after a refused login by design — a redirect to a fresh form, no `value` written — and that page
reads exactly as one whose refill was lost; only a person who knows the application can tell.

Who submits: the explorer itself, once, as it logs in (`explorer/login.refused_login`): the login form
with the username typed and a password that is not the account's. Stated on forms and fields only:
every family's login form (server templates re-filling `old()`/`request.form` values, or not).
"""

from __future__ import annotations

from collections.abc import Mapping

from bughunt.actions import is_text_box
from bughunt.dom import Node
from bughunt.oracles.base import Finding, evidence, page_shape, quoted
from bughunt.page import FetchedPage
from bughunt.tree_facts import tree_facts

MESSAGE = "a refused form comes back without the values typed in it"


def _text_fields(form: Node) -> dict[str, Node]:
    """The form's fields a person types into (text-like inputs and text areas), by name."""
    out: dict[str, Node] = {}
    for node in form.iter():
        name = node.get("name")
        if not name:
            continue
        if is_text_box(node):
            out.setdefault(name, node)
    return out


def _value(node: Node) -> str:
    return node.raw_text() if node.tag == "textarea" else node.get("value")


def check_refused_form(answer: FetchedPage, typed: Mapping[str, str]) -> list[Finding]:
    """One finding when the form `typed` was sent from came back (see the module) with typed fields
    empty: the field names are evidence, never the values typed."""
    typed = {name: value for name, value in typed.items() if value.strip()}
    if not typed or not answer.is_html or answer.status >= 400:
        return []
    for form in tree_facts(answer).tagged("form"):
        fields = _text_fields(form)
        secret = {n.get("name") for n in form.find_all("input") if n.get("type").lower() == "password"}
        asked = {name for name in typed if name not in secret}  # a password is never drawn again
        if not asked or not asked <= set(fields):
            continue  # not the form that was sent: another form of the page (a search box)
        dropped = sorted(name for name in asked if not _value(fields[name]).strip())
        if not dropped:
            return []
        return [
            Finding(
                "form_drops_value",
                answer.route,
                MESSAGE,
                # `probe`: a visit of this page does not send the refused form again, so only this
                # probe can say the bug is gone (`harness`: what supersedes "open" with "fixed")
                evidence(
                    answer,
                    f'name="{dropped[0]}"',
                    field=dropped[0],
                    fields=quoted(dropped),
                    probe="refused_login",
                ),
                shape=page_shape(answer),
                # a lead, not a finding: an application may clear its login form on purpose (5 of 12
                # released corpus apps' clean builds do — Trac, Roundup, Datasette, a Flask and a
                # web2py app), and the page reads the same whether it does so by design or by a bug
                suspected=True,
            )
        ]
    return []
