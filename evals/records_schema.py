"""The schema of a fixture record: one remembered thing, as a records file writes it.

Every records file — the generated fixture's own (`evals/datasets/fixture/records.yaml`) and those a
held-out set brings — holds a list of these; `evals.fixture_records` validates each entry against
`FixtureItem` (unknown fields are errors) and resolves supersession; `evals.fixture` stores them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

Claim = Literal[
    "root_cause", "symptom", "status", "guidance", "handover", "summary", "release", "source", "hypothesis",
    "rename", "retraction",
]  # fmt: skip
ItemLayer = Literal["user_authored_decision", "agent_inferred_summary"]
BugStatus = Literal["open", "fixed", "needs_retest", "wont_fix"]
Trust = Literal["trusted", "quarantined"]


class FixtureItem(BaseModel):
    """One remembered thing, with everything layer 1 checks survives storage."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    store: Literal["archival", "recall"]
    date: datetime
    source: str
    """Where it came from: a session step, a triage meeting, a release, a person."""
    author: str
    kind: str
    claim: Claim
    support_layer: ItemLayer
    content: str
    app_version: str
    workflow: str
    tickets: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    routes: tuple[str, ...] = ()
    bug_status: BugStatus | None = None
    fingerprint: str | None = None
    importance: int = 5
    provenance: tuple[str, ...] = ()
    """Fixture ids this item rests on; every chain ends in recall (the raw session log)."""
    supersedes: str | None = None
    superseded_by: str | None = None
    trust: Trust = "trusted"
    """`quarantined`: text a visited site sent (never trusted memory; kept only as a record of what was seen)."""
    renamed_from: str | None = None
    """For a rename note: the path the item's other path replaced."""

    @property
    def status(self) -> Literal["current", "superseded"]:
        return "superseded" if self.superseded_by else "current"
