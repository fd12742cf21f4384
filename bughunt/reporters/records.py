"""The reporters' input: an exploration's bugs as `ReportedBug`s, read from its store.

`reported_bug` is the one place that turns a stored bug entry into what JUnit, SARIF and the baseline
see; a reporter never reads the bug table itself, so new evidence in the bug records reaches every
reporter by changing this function alone.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from bughunt.explorer.destructive_mode import is_suspected
from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.store.rows import Bug
from bughunt.oracles import ORACLES


@dataclass(frozen=True, slots=True)
class ReportedBug:
    fingerprint: str
    kind: str
    """One of `bughunt.oracles.KINDS`."""
    route: str
    url: str
    """Absolute URL of the route on the explored site ("" when the store knows no base URL)."""
    message: str
    """The harness's template message (no page text)."""
    status: str
    """"open" or "fixed"."""
    suspected: bool
    version: str | None
    seen_at: float
    routes: tuple[str, ...]
    """Every route the bug showed on (its occurrences), the first one first."""

    @property
    def open(self) -> bool:
        return self.status == "open"

    @property
    def gates(self) -> bool:
        """Whether the bug counts for a CI gate (`--fail-on`, JUnit failures, SARIF problems): open and
        observed. A suspected one (a destructive link seen, never opened) is a lead for a person to
        look at: the same link may lead to a confirmation page, so failing a build on it would fail
        correct sites alike."""
        return self.open and not self.suspected

    @property
    def seen_iso(self) -> str:
        return datetime.fromtimestamp(self.seen_at, UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class StoredRun:
    """What the reporters need of one exploration."""

    store: str
    base_url: str
    engine: str
    app_version: str | None
    pages_visited: tuple[str, ...]
    oracles: tuple[str, ...]
    """The oracles that ran on every visited page (the client-error oracle only with a browser)."""
    bugs: tuple[ReportedBug, ...]

    def open_bugs(self) -> list[ReportedBug]:
        return [b for b in self.bugs if b.open]

    def gating_bugs(self) -> list[ReportedBug]:
        """The open bugs a CI gate counts (`ReportedBug.gates`)."""
        return [b for b in self.bugs if b.gates]

    def leads(self) -> list[ReportedBug]:
        """The open bugs only suspected (not opened): to look at, never failing a build."""
        return [b for b in self.bugs if b.open and b.suspected]


def reported_bug(bug: Bug, base_url: str, routes: Iterable[str] = ()) -> ReportedBug:
    """A stored bug entry as the reporters see it."""
    shown = tuple(dict.fromkeys([bug.route, *routes]))
    return ReportedBug(
        fingerprint=bug.fingerprint,
        kind=bug.kind,
        route=bug.route,
        url=urljoin(base_url, bug.route) if base_url else "",
        message=bug.message,
        status=bug.status,
        suspected=is_suspected(_evidence(bug.evidence)),
        version=bug.last_seen_version or bug.version,
        seen_at=bug.seen_at,
        routes=shown,
    )


def stored_run(store: ExplorerStore) -> StoredRun:
    base_url = store.meta.get("base_url") or ""
    last = store.history.last_session()
    if last is not None and last.base_url:
        base_url = last.base_url  # the address it was last explored at (`--url` may move it)
    engine = store.meta.get("engine") or "http"
    occurrences = store.bug_table.occurrences()
    bugs = tuple(
        reported_bug(b, base_url, (o.route for o in occurrences.get(b.fingerprint, [])))
        for b in store.bug_table.live()
    )
    oracles = tuple(k for k in ORACLES if k != "client_error" or engine != "http")
    return StoredRun(
        store=str(store.dir),
        base_url=base_url,
        engine=engine,
        app_version=store.meta.get("app_version"),
        pages_visited=tuple(store.visits.explored()),
        oracles=oracles,
        bugs=bugs,
    )


def read_run(store_dir: str | Path) -> StoredRun:
    """`stored_run` of a store opened read-only (writes nothing, takes no lock)."""
    store = ExplorerStore(store_dir, create=False, lock=False)
    try:
        return stored_run(store)
    finally:
        store.close()


def _evidence(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
