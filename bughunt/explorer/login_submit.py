"""Submitting a login form in the page as a person does: Enter in the password field, and, when that
sent nothing, a click on the form's button.

Enter submits a `<form>` that has a submit button (the browser clicks it for the person) or a single
field. A single-page app's login is often no such form: fields and a button in a `<div>`, or a form
whose button is `type="button"` with a click handler that sends the credentials by `fetch`. There
Enter does nothing, the password field stays, and the login was reported refused while a person — and a
plain script that fills the fields and clicks the button — logs in. So: Enter first (it is what a form
with a submit button expects, and a click could land on a "show password" toggle); if no request took
the password within `ENTER_WAIT_S` (the gate still holds the one write it admits) and the field is
still shown, the button a person would press: the scope's submit button, else a button named like a
login, else its last button.
"""

from __future__ import annotations

import re
import time
from typing import Any
from urllib.parse import urlsplit

from .gate import Gate

ENTER_WAIT_S = 1.5
"""How long Enter has to send the login (a form's submit handler starts its `fetch` at once; a page
that hashes the password first fetches a nonce, a local round trip)."""
_POLL_S = 0.1
_LOGIN_WORDS = re.compile(r"(?i)\b(log ?in|sign ?in|submit|continue|enter|go|ok)\b")
_BUTTONS = "button:visible, input[type=submit]:visible, input[type=button]:visible, [role=button]:visible"
_HOLDS_BUTTON = ".//button or .//input[@type='submit' or @type='button'] or .//*[@role='button']"
_SUBMITS = "button[type=submit]:visible, input[type=submit]:visible"


def submit_login(page: Any, password: Any, form: Any, gate: Gate) -> bool:
    """Submit the filled login form (`password`: the field's locator, `form`: its form's, which may
    match nothing); True when the button had to be clicked after Enter sent nothing."""
    password.press("Enter")
    if _sent(page, password, gate, time.monotonic() + ENTER_WAIT_S):
        return False
    button = _button(page, password, form)
    if button is None:
        return False
    button.click(timeout=ENTER_WAIT_S * 4 * 1000)
    return True


def form_address(form: Any) -> str | None:
    """Where the login form (its locator, which may match nothing) says it is submitted: its
    `action` resolved against the page, or None when it names no address a request can go to — no
    `action` at all, or a `javascript:` one. Such a form is submitted by its script, wherever the
    script posts it: React renders a function action (`<form action={fn}>`, a Next.js server action
    drawn by a client component, a React Router or Waku form action) as `javascript:throw ...`, and
    its script posts the fields to the page's own URL; an older script-driven login
    (`action="javascript:void(0)" onsubmit="login()"`) posts them to the API its handler names."""
    if not form.count() or form.get_attribute("action") is None:
        return None
    target = form.evaluate("f => f.action")
    if not isinstance(target, str) or urlsplit(target).scheme.lower() not in ("http", "https"):
        return None
    return target


def _sent(page: Any, password: Any, gate: Gate, until: float) -> bool:
    """Enter sent the login, or the page moved on from the form (navigated, or the field went)."""
    from playwright.sync_api import Error as PlaywrightError

    url = page.url
    while True:
        try:
            if not gate.login_armed() or page.url != url or not password.is_visible():
                return True
        except PlaywrightError:  # the document went while looked at: Enter navigated
            return True
        if time.monotonic() >= until:
            return False
        page.wait_for_timeout(_POLL_S * 1000)


def _button(page: Any, password: Any, form: Any) -> Any | None:
    """The button that submits the login: in the field's form, else in the nearest element around
    the field that holds a button."""
    scope = form if form.count() else password.locator(f"xpath=ancestor::*[{_HOLDS_BUTTON}][1]")
    if not scope.count():
        return None
    submits = scope.locator(_SUBMITS)
    if submits.count():
        return submits.first
    buttons = scope.locator(_BUTTONS)
    named = [buttons.nth(i) for i in range(buttons.count()) if _LOGIN_WORDS.search(_label(buttons.nth(i)))]
    if named:
        return named[0]
    return buttons.last if buttons.count() else None


def _label(button: Any) -> str:
    return " ".join(
        (
            button.inner_text() or "",
            button.get_attribute("value") or "",
            button.get_attribute("aria-label") or "",
        )
    )
