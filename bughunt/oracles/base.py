"""What an oracle returns: a `Finding` with its evidence and fingerprint."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, get_args

from bughunt.fingerprint import fingerprint as make_fingerprint
from bughunt.html import FetchedPage
from bughunt.site import BugKind

Fetch = Callable[[str], FetchedPage]
"""Fetch one same-origin URL (absolute). Oracles use it to look at a related page."""

KINDS: tuple[str, ...] = tuple(dict.fromkeys((*get_args(BugKind), "client_error")))
"""The oracle kinds are the site definition's bug kinds (one vocabulary for site, oracles and memory),
plus "client_error": what only the browser engine sees (uncaught JS errors, console errors, failed XHR/fetch)."""


@dataclass(frozen=True)
class Finding:
    """One bug observation. `message` describes the bug without volatile values (those go in
    `evidence`), so the fingerprint (route, kind, normalised message) is stable across visits."""

    kind: str
    route: str
    message: str
    evidence: dict[str, Any] = field(default_factory=dict)
    fingerprint: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown finding kind {self.kind!r}; expected one of {', '.join(KINDS)}")
        if not self.fingerprint:
            object.__setattr__(self, "fingerprint", make_fingerprint(self.route, self.kind, self.message))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Finding:
        return cls(
            kind=data["kind"],
            route=data["route"],
            message=data["message"],
            evidence=dict(data.get("evidence") or {}),
            fingerprint=data.get("fingerprint", ""),
        )


def evidence(page: FetchedPage, needle: str = "", **extra: Any) -> dict[str, Any]:
    """The standard evidence: the request, the status, and an excerpt of the body around `needle`."""
    return {
        "request": f"{page.method} {page.url}",
        "url": page.url,
        "status": page.status,
        "content_type": page.content_type,
        "elapsed_ms": page.elapsed_ms,
        "excerpt": page.excerpt(needle),
        **extra,
    }


def short(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
