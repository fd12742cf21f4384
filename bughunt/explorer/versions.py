"""The application's version as the site states it, and what a stated version asks memory to do.

What the site sends is trusted only when it is a version number (else it is quarantined with
provenance and the version stays unknown). A version stated for the first time after earlier sessions tested pages
under an unknown one, or a changed version, starts a re-test — once the next page says the same (one
flapping answer is not an upgrade), and at most once per session (a server that keeps changing its mind
must not starve the pages not yet visited). `--app-version` is the user's word and needs no confirmation.

`VersionWatch.observe` only decides; the writes it asks for (`VersionWrites`) are applied by the
exploration graph inside the step's one transaction.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bughunt.page import FetchedPage
from bughunt.record_repr import field_repr
from memgpt_lite.log import logger

_META_VERSION = re.compile(
    r"(?is)<meta[^>]+name\s*=\s*[\"']?(?:app-version|version|generator-version)[\"']?[^>]+content\s*=\s*[\"']?([\w.\-]+)"
)
_FOOTER = re.compile(r"(?is)<footer\b.*?</footer>")
_FOOTER_VERSION = re.compile(r"(?i)\b(?:version|ver\.?|v)\s*(\d+\.\d+(?:\.\d+)?)\b")
_TAG = re.compile(r"<[^>]*>")

VERSION_PATTERN = re.compile(r"^\d{1,9}(?:\.\d{1,9}){0,3}(?:[-+][0-9A-Za-z.]{1,20})?$")
"""What an app version may look like to enter trusted memory (bounded: at most ~60 characters)."""


def check_version(text: str | None) -> str | None:
    """`text` when it is a version number (`VERSION_PATTERN`), else None (the version is unknown)."""
    if text is None:
        return None
    text = text.strip()
    return text if VERSION_PATTERN.match(text) else None


def stated_version(page: FetchedPage) -> tuple[str | None, str | None]:
    """(version, refused): the version the page states when it is a version number; otherwise
    (None, the raw text) so the caller can quarantine what the site sent instead."""
    raw = _raw_app_version(page)
    checked = check_version(raw)
    return (checked, None) if checked is not None or raw is None else (None, raw)


def read_app_version(page: FetchedPage) -> str | None:
    """The application's version as the site states it (`X-App-Version` header, a version meta tag,
    or "v1.2" / "version 1.2" in the footer), when it is a version number; None otherwise."""
    return stated_version(page)[0]


def _raw_app_version(page: FetchedPage) -> str | None:
    header = page.header("x-app-version").strip()
    if header:
        return header[:200]
    m = _META_VERSION.search(page.body)
    if m:
        return m.group(1)[:200]
    footer = _FOOTER.search(page.body)
    if footer:
        m = _FOOTER_VERSION.search(_TAG.sub(" ", footer.group(0)))
        if m:
            return m.group(1)
    return None


@dataclass(repr=False, slots=True, eq=False)
class VersionWrites:
    """What one observed page asks memory to write about the version, in this order."""

    __repr__ = field_repr

    refused: tuple[str, dict[str, Any]] | None = None
    """Text that is not a version number, with its provenance: a quarantined observation."""
    first: str | None = None
    """The first version of a new exploration."""
    flap: bool = False
    """The version changed again in one session: counted, ignored."""
    changed: tuple[str, str] | None = None
    """(new version, position): pages tested under another version become due for re-test."""

    def __bool__(self) -> bool:
        return self.refused is not None or self.first is not None or self.flap or self.changed is not None


@dataclass(repr=False, slots=True, eq=False)
class VersionWatch:
    """One session's judgement of the versions pages state (see the module docstring)."""

    __repr__ = field_repr

    hint: str | None = None
    """`--app-version`: the user's word, used when a page states nothing."""
    pending: str | None = None
    """A changed version one page stated, adopted when the next page states it too."""
    changed: bool = False
    """A version change was adopted in this session already."""

    def observe(
        self, page: FetchedPage, position: str, current: str | None, explored_any: Callable[[], bool],
        *, confirmed: bool,
    ) -> tuple[str | None, VersionWrites]:  # fmt: skip
        """(the version to record for `page`, the writes that go with it)."""
        writes = VersionWrites()
        stated, refused = stated_version(page)
        if refused is not None:
            provenance = {
                "source": "app version (not a version number)",
                "url": page.url,
                "route": page.route,
            }
            writes.refused = (refused, provenance)
        hinted = stated is None and self.hint is not None
        stated = stated or self.hint
        if stated is None or stated == current:
            self.pending = None
            return current, writes
        if current is None and not explored_any():
            writes.first = stated
            return stated, writes
        if not (confirmed or hinted or self.pending == stated):
            self.pending = stated
            return current, writes
        self.pending = None
        if self.changed:
            logger.warning("app version changes again ({} -> {}) in one session: ignored", current, stated)
            writes.flap = True
            return current, writes
        self.changed = True
        writes.changed = (stated, position)
        return stated, writes
