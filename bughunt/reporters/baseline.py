"""The baseline: a versioned JSON file of accepted bug fingerprints, each with the reason it was
accepted, and the CI gate (`--fail-on`) that reads it.

    {"format": "bughunt-baseline", "version": 1,
     "accepted": [{"fingerprint": "...", "kind": "...", "route": "...", "reason": "...", "accepted_at": "..."}]}

`--fail-on none` never fails; `open` fails on any open bug; `new` on an open bug the baseline does not
accept (with no baseline every open bug is new). Fixed bugs never fail a build, nor do suspected ones
(a destructive link seen but not opened, `ReportedBug.gates`): they are leads to look at, and a
baseline never accepts one — the same fingerprint confirmed later (`--allow-destructive`) is new.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgpt_lite.errors import UsageError

from .fail_on import DEFAULT_PATH as DEFAULT_PATH  # the names kept here too: `bl.DEFAULT_PATH`, ...
from .fail_on import EXIT_BUGS as EXIT_BUGS
from .fail_on import FAIL_ON as FAIL_ON

if TYPE_CHECKING:  # types only: the records module is read after a run, this one may be read before it
    from .records import ReportedBug, StoredRun

FORMAT = "bughunt-baseline"
VERSION = 1
DEFAULT_REASON = "accepted when the baseline was written"


class BaselineError(UsageError):
    """A baseline file that cannot be read as one (bad input: exit 2)."""


@dataclass(frozen=True, slots=True)
class Entry:
    fingerprint: str
    kind: str
    route: str
    reason: str
    accepted_at: str

    def as_json(self) -> dict[str, str]:
        return {
            "fingerprint": self.fingerprint,
            "kind": self.kind,
            "route": self.route,
            "reason": self.reason,
            "accepted_at": self.accepted_at,
        }


@dataclass(frozen=True, slots=True)
class Baseline:
    entries: tuple[Entry, ...]

    @property
    def fingerprints(self) -> frozenset[str]:
        return frozenset(e.fingerprint for e in self.entries)

    def as_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "comment": "Bugs accepted as known: `--fail-on new` fails only for open bugs not listed here. "
            "Edit a reason freely; `bughunt baseline write` keeps it.",
            "accepted": [e.as_json() for e in self.entries],
        }


def load(path: Path) -> Baseline:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BaselineError(f"--baseline {path}: no such file (`bughunt baseline write` makes one)") from None
    except (OSError, UnicodeDecodeError) as e:
        reason = e.reason if isinstance(e, UnicodeDecodeError) else (e.strerror or str(e))
        raise BaselineError(f"--baseline {path}: cannot read it ({reason})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise BaselineError(f"{path}:{e.lineno}: not valid JSON ({e.msg})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BaselineError(f'{path}: not a bughunt baseline (no "format": "{FORMAT}")')
    if data.get("version") != VERSION:
        raise BaselineError(f"{path}: baseline version {data.get('version')!r}; this bughunt reads {VERSION}")
    entries = []
    for i, item in enumerate(data.get("accepted") or []):
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("fingerprint"), str)
            or not item["fingerprint"]
        ):
            raise BaselineError(f'{path}: accepted[{i}] has no "fingerprint" string')
        entries.append(
            Entry(
                item["fingerprint"],
                str(item.get("kind", "")),
                str(item.get("route", "")),
                str(item.get("reason", "")),
                str(item.get("accepted_at", "")),
            )
        )
    return Baseline(tuple(entries))


def accept_open(run: StoredRun, previous: Baseline | None, reason: str | None) -> Baseline:
    """A baseline accepting every open bug of `run` that a gate counts (not the suspected ones):
    entries already in `previous` keep their reason and date; the others get `reason`. Entries of
    bugs no longer open are dropped."""
    kept = {e.fingerprint: e for e in previous.entries} if previous else {}
    now = datetime.now(UTC).isoformat(timespec="seconds")
    entries = []
    for bug in run.gating_bugs():
        old = kept.get(bug.fingerprint)
        entries.append(
            Entry(bug.fingerprint, bug.kind, bug.route, old.reason, old.accepted_at)
            if old is not None and reason is None
            else Entry(bug.fingerprint, bug.kind, bug.route, reason or DEFAULT_REASON, now)
        )
    return Baseline(tuple(entries))


def failing(run: StoredRun, fail_on: str, baseline: Baseline | None) -> list[ReportedBug]:
    """The open bugs that fail a build under `--fail-on` (empty: the build passes)."""
    if fail_on == "none":
        return []
    accepted = baseline.fingerprints if baseline is not None and fail_on == "new" else frozenset()
    return [b for b in run.gating_bugs() if b.fingerprint not in accepted]


def check(run: StoredRun, baseline: Baseline) -> dict[str, Any]:
    """`bughunt baseline check --json`: open bugs not accepted (`new`), accepted and still open,
    accepted entries no longer open (`stale`: fixed or gone, safe to drop) and the suspected ones
    (`suspected`: leads, never new — `ReportedBug.gates`)."""
    open_now = {b.fingerprint: b for b in run.gating_bugs()}
    accepted = baseline.fingerprints
    return {
        "new": [_brief(b) for fp, b in open_now.items() if fp not in accepted],
        "accepted": [_brief(b) for fp, b in open_now.items() if fp in accepted],
        "stale": [e.as_json() for e in baseline.entries if e.fingerprint not in open_now],
        "suspected": [_brief(b) for b in run.leads()],
    }


def _brief(bug: ReportedBug) -> dict[str, Any]:
    return {"fingerprint": bug.fingerprint, "kind": bug.kind, "route": bug.route, "url": bug.url}
