"""The one scrubber of secret values: what the login options gave (password, cookie and header values,
a storage state's cookies and local-storage values) and the session cookies a login response set.

A site may echo any of them ("Your password is …", a debug page listing the request's headers), and
whatever a page shows reaches quarantined observations, evidence, bug records, notes, logs and JSON.
The session gives the scrubber every secret it holds (`add`); the store applies it to every string
parameter it writes (`store.scrubbing.ScrubbingConnection`), the log sink to every message (`patch_record`), and the
commands to what they print. Each value is matched as given and in the forms a page or a URL shows
it: percent-encoded (path and form style), HTML-escaped, JSON-escaped and base64. A value shorter
than `MIN_SECRET_CHARS` cannot be told apart from ordinary text and is not matched (the command warns).
"""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote, quote_plus

REDACTED = "[secret]"
MIN_SECRET_CHARS = 4
_CHECKED_FORMS = 24
"""Up to this many forms, `Scrubber.text` looks for each before scanning for all (~3 secrets' worth)."""


def _forms(value: str) -> set[str]:
    raw = value.encode("utf-8", "surrogatepass")
    forms = {
        value,
        quote(value, safe=""),
        quote(value, safe="/"),
        quote_plus(value),
        html.escape(value),
        html.escape(value, quote=False),
        json.dumps(value)[1:-1],
        base64.b64encode(raw).decode().rstrip("="),
        base64.urlsafe_b64encode(raw).decode().rstrip("="),
    }
    forms |= {f.lower() for f in forms if "%" in f}  # %2f as well as %2F
    return {f for f in forms if len(f) >= MIN_SECRET_CHARS}


class Scrubber:
    """Replaces every known secret value (and its encoded forms) with `REDACTED`. Empty until the
    session adds the secrets it holds; one scan of the text whatever their number."""

    def __init__(self, values: Iterable[str] = ()) -> None:
        self._values: set[str] = set()
        self._pattern: re.Pattern[str] | None = None
        self._forms: tuple[str, ...] = ()
        self._shortest = 0
        """The length of the shortest form: a shorter text holds none (most parameters a step writes
        are short: statuses, kinds, routes)."""
        self.added = 0
        """How many times secrets were added: text written before the last addition may hold one."""
        self.add(values)

    def add(self, values: Iterable[str]) -> int:
        """Also scrub these values from now on. Returns how many of the new ones are too short to be
        matched (`MIN_SECRET_CHARS`), for the caller to warn about."""
        new = {v for v in values if v and v not in self._values}
        if not new:
            return 0
        short = sum(len(v) < MIN_SECRET_CHARS for v in new)
        self._values |= new
        self.added += 1
        forms = set().union(*(_forms(v) for v in self._values if len(v) >= MIN_SECRET_CHARS))
        # longest first: a value containing another is replaced whole
        self._forms = tuple(sorted(forms, key=len, reverse=True))
        self._shortest = min(map(len, forms), default=0)
        self._pattern = re.compile("|".join(re.escape(f) for f in self._forms)) if forms else None
        return short

    def __bool__(self) -> bool:
        return self._pattern is not None

    def text(self, text: str) -> str:
        pattern = self._pattern
        if pattern is None:
            return text
        # Most texts hold no secret: a substring search per form (in C, skipping ahead) tells so several
        # times faster than the alternation's scan, which then runs only where one is found (a
        # page's text is written at every step). Past `_CHECKED_FORMS` forms the scan is cheaper.
        if len(text) < self._shortest:
            return text
        forms = self._forms
        if len(forms) <= _CHECKED_FORMS:
            for form in forms:  # a loop, not `any(...)`: no generator made for each of ~40 texts a step
                if form in text:
                    break
            else:
                return text
        return pattern.sub(REDACTED, text)

    def holds_none(self, text: str) -> bool:
        """Whether `text` holds no form of any secret: `text(text)` is then `text` as given. Asked of
        the strings of many rows joined (`ScrubbingConnection.executemany`), it clears them at once."""
        pattern = self._pattern
        if pattern is None or len(text) < self._shortest:
            return True
        forms = self._forms
        if len(forms) <= _CHECKED_FORMS:
            for form in forms:
                if form in text:
                    return False
            return True
        return pattern.search(text) is None

    def data(self, value: Any) -> Any:
        """`value` with every string inside it scrubbed (JSON-like data: dicts, lists, tuples). Bytes are
        left as they are: a blob is no text, and a match inside one would corrupt it."""
        if self._pattern is None:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return {self.data(k): self.data(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(self.data(v) for v in value)
        return value

    def patch_record(self, record: Any) -> None:
        """A loguru patcher: the message (and its arguments' text) as any sink shows it, scrubbed."""
        if self._pattern is not None:
            record["message"] = self.text(record["message"])


_SETTING = re.compile(r"[A-Za-z][A-Za-z_-]{0,11}|\d{1,9}")
"""A word or a small number: a setting's value (`theme=dark`, `lang=en-US`, `skin=vector`, `UserID=1`)."""


def site_cookie_secrets(values: Iterable[str | None], username: str | None) -> list[str]:
    """Which values of the cookies a site set are secrets: all but the account's own name (the login's
    username, which the explorer prints as `account`) and settings — a word or a small number, never
    a session token, which is longer or mixes letters with digits. Scrubbed, such a value was replaced
    in every page, route and title that shows it: a wiki's `UserName` cookie turned every link to the
    account's user page into `/User:[secret]`, and its `account` into `[secret]`."""
    name = (username or "").casefold()
    return [v for v in values if v and v.casefold() != name and not _SETTING.fullmatch(v)]


def storage_state_secrets(state: Mapping[str, Any]) -> list[str]:
    """The cookie and local-storage values of a Playwright storage state (already parsed)."""
    values: list[str] = []
    for cookie in state.get("cookies") or ():
        if isinstance(cookie, Mapping) and isinstance(cookie.get("value"), str):
            values.append(cookie["value"])
    for origin in state.get("origins") or ():
        for item in (origin.get("localStorage") or ()) if isinstance(origin, Mapping) else ():
            if isinstance(item, Mapping) and isinstance(item.get("value"), str):
                values.append(item["value"])
    return values
