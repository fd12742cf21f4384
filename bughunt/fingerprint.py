"""Bug fingerprints: (route, error type, normalised message), so one bug is reported once.

Comparing titles fails ("save failed" vs "clicking save does nothing"); comparing the triple after
volatile parts are replaced by placeholders does not. Routes keep small numbers (`/feed/2` and
`/feed/3` are different pages) but lose ids: uuids, long hex strings and long numbers.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

_UUID = re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
_TIMESTAMP = re.compile(
    r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b"
    r"|\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\b"
)
_HEX = re.compile(r"\b(?:0x)?[0-9a-fA-F]*\d[0-9a-fA-F]*[a-fA-F][0-9a-fA-F]*\b|\b0x[0-9a-fA-F]+\b")
_NUMBER = re.compile(r"(?<![A-Za-z])[-+]?\d+(?:[.,]\d+)*")
_SPACE = re.compile(r"\s+")
_ROUTE_ID = re.compile(r"(?<=[/=])(?:\d{4,}|[0-9a-fA-F]{12,})(?=[/?&#;]|$)")


def normalise_message(message: str) -> str:
    """Lower-case message with uuids, timestamps, hex ids and numbers replaced by placeholders.

    Words stay (a field or tag name is part of the error type); only volatile values go.
    """
    text = _UUID.sub("<uuid>", message)
    text = _TIMESTAMP.sub("<time>", text)
    text = _HEX.sub(lambda m: m.group(0) if len(m.group(0)) < 6 else "<hex>", text)
    text = _NUMBER.sub("<n>", text)
    return _SPACE.sub(" ", text).strip().lower()


def normalise_route(route: str) -> str:
    """Route with uuids and long ids (path segments or query values) replaced by placeholders."""
    route = _UUID.sub("<uuid>", route)
    return _ROUTE_ID.sub("<id>", route) or "/"


@dataclass(frozen=True, slots=True)
class Fingerprint:
    route: str
    kind: str
    message: str

    @property
    def key(self) -> str:
        """The readable triple joined by `|`."""
        return f"{self.route}|{self.kind}|{self.message}"

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.key.encode("utf-8")).hexdigest()[:16]


def fingerprint_parts(route: str, kind: str, message: str) -> Fingerprint:
    """The normalised triple behind a fingerprint (what a person reads)."""
    return Fingerprint(normalise_route(route), kind, normalise_message(message))


def fingerprint(route: str, kind: str, message: str) -> str:
    """A stable 16-hex-digit fingerprint of (route, kind, normalised message)."""
    return fingerprint_parts(route, kind, message).digest
