"""The sufficiency rule: which retrieved items would support an answer to a question.

Case-blind by construction: it sees the question and what retrieval returned, never a case's
`evidence` or `must_not_reuse` lists, so the lists can only judge its outcome.

The rule, in order (each rejected candidate keeps the first reason that rejected it):

1. **Identifiers in the question** are structured anchors: ticket ids (`BH-142`), file paths
   (`app/search/paginate.py`), routes (`/search/2`) and BugHunt page names (`Search page 2` → its route,
   from `bughunt.site`), dates (`2026-03-10`) and app versions (`app 1.3`). Only the most specific class
   present decides topicality (ticket, then path, then route, then date): a candidate is on topic when
   its stored field of that class shares a value with the question. Identifiers are matched exactly;
   nothing is matched by resemblance.
2. **Intent** is read from a few question words (`why`/`cause` → root cause, `status`/`still`/`fixed` →
   status, `rule`/`procedure`/`how should` → guidance, `hand-over`, `daily note`); each intent admits
   only matching claim labels, so a symptom-only note never answers a root-cause question.
3. A candidate is **sufficient** when it is current (never superseded), on topic, of an admitted
   claim, not a "needs retest" status, and — when the question names an app version — memory knows
   that version, and status claims are about exactly that version.
4. Without identifiers, retrieval's relevance decides topicality: only the sufficient candidate with
   the highest raw cosine (recency and importance rank priority, not topic).
5. **Support layer**: a person's decision outranks an agent's inference; if any sufficient candidate is
   `user_authored_decision` only those support, else the `agent_inferred_summary` ones. Nothing
   sufficient → `no_match` with `fresh_inspection_required`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from bughunt.site import PAGES

Intent = Literal["handover", "summary", "root_cause", "guidance", "status", "any"]
AnchorClass = Literal["ticket", "path", "route", "date"]

_TICKET = re.compile(r"\b[A-Z]{2,}-\d+\b")
_PATH = re.compile(r"(?<![\w/])[\w.-]+(?:/[\w.-]+)+\.[A-Za-z]{1,5}\b")
_ROUTE = re.compile(r"(?<![\w./])/[a-z][\w/-]*")
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_VERSION = re.compile(r"\b(?:app|version|v)\s*(\d+\.\d+)\b", re.IGNORECASE)
_PAGE_NAMES = sorted(((p.name, p.route) for p in PAGES), key=lambda x: -len(x[0]))

# First match wins, so the specific intents come before the broad "status" words.
_INTENTS: tuple[tuple[Intent, re.Pattern[str]], ...] = (
    ("handover", re.compile(r"\bhand-?\s?over\b")),
    ("summary", re.compile(r"\bdaily note\b|\bsummar(?:y of|ise|ize)\b")),
    ("root_cause", re.compile(r"\broot cause\b|\bwhy\b|\bcaused?\b")),
    ("guidance", re.compile(r"\bhow should\b|\bprocedure\b|\brules?\b|\blessons?\b|\bguidance\b")),
    ("status", re.compile(r"\bstatus\b|\bstill\b|\bfixed\b|\bopen\b")),
)
INTENT_CLAIMS: dict[Intent, frozenset[str]] = {
    "handover": frozenset({"handover"}),
    "summary": frozenset({"summary"}),
    "root_cause": frozenset({"root_cause"}),
    "guidance": frozenset({"guidance"}),
    "status": frozenset({"status"}),
    "any": frozenset({"root_cause", "status", "guidance", "handover", "summary", "release", "symptom"}),
}
LAYER_ORDER = ("user_authored_decision", "agent_inferred_summary")


@dataclass(frozen=True)
class Anchors:
    tickets: frozenset[str] = frozenset()
    paths: frozenset[str] = frozenset()
    routes: frozenset[str] = frozenset()
    dates: frozenset[str] = frozenset()
    versions: frozenset[str] = frozenset()

    @property
    def deciding(self) -> AnchorClass | None:
        for cls, values in (
            ("ticket", self.tickets),
            ("path", self.paths),
            ("route", self.routes),
            ("date", self.dates),
        ):
            if values:
                return cls  # type: ignore[return-value]
        return None

    def values(self, cls: AnchorClass) -> frozenset[str]:
        return {"ticket": self.tickets, "path": self.paths, "route": self.routes, "date": self.dates}[cls]


@dataclass(frozen=True)
class QuestionAnalysis:
    question: str
    intent: Intent
    anchors: Anchors


def analyse_question(question: str) -> QuestionAnalysis:
    text = question
    paths = set(_PATH.findall(text))
    for p in paths:
        text = text.replace(p, " ")
    routes = set(_ROUTE.findall(text))
    for name, route in _PAGE_NAMES:
        pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
        if pattern.search(text):
            routes.add(route)
            text = pattern.sub(" ", text)
    lowered = question.lower()
    intent: Intent = next((i for i, rx in _INTENTS if rx.search(lowered)), "any")
    anchors = Anchors(
        tickets=frozenset(_TICKET.findall(question)),
        paths=frozenset(paths),
        routes=frozenset(routes),
        dates=frozenset(_DATE.findall(question)),
        versions=frozenset(_VERSION.findall(question)),
    )
    return QuestionAnalysis(question=question, intent=intent, anchors=anchors)


@dataclass(frozen=True)
class Candidate:
    """One item retrieval returned, as memory reports it (fields read back from storage)."""

    evidence_id: str
    store_id: str
    rank: int
    score: float
    """Retrieval's weighted score (recency · importance · relevance) in the query that found it."""
    cosine: float
    """Retrieval's raw relevance (embedding cosine) to the query that found it."""
    content: str
    status: str
    superseded_by: str | None
    """Evidence id of the replacing item, as memory reports it."""
    support_layer: str
    claim: str
    kind: str
    date: datetime
    source: str
    author: str
    app_version: str
    tickets: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    routes: tuple[str, ...] = ()
    bug_status: str | None = None
    fingerprint: str | None = None
    provenance: tuple[str, ...] = ()
    """Store ids (archival passage ids or recall message ids) this item rests on."""

    def anchor_values(self, cls: AnchorClass) -> frozenset[str]:
        if cls == "date":
            return frozenset({self.date.date().isoformat()})
        return frozenset({"ticket": self.tickets, "path": self.paths, "route": self.routes}[cls])


@dataclass(frozen=True)
class Rejection:
    evidence_id: str
    reason: str


@dataclass
class Decision:
    mode: Literal["memory_answer", "no_match"]
    support_layer: str
    support: list[Candidate] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)


def _version_key(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split(".") if x.isdigit())


def _why_insufficient(c: Candidate, qa: QuestionAnalysis, known_max: tuple[int, ...]) -> str | None:
    if c.status != "current":
        return f"superseded (by {c.superseded_by})" if c.superseded_by else f"status {c.status}"
    cls = qa.anchors.deciding
    if cls is not None and not (c.anchor_values(cls) & qa.anchors.values(cls)):
        have = ", ".join(sorted(c.anchor_values(cls))) or "none"
        return f"off topic: {cls} {have} is not {', '.join(sorted(qa.anchors.values(cls)))}"
    if c.claim not in INTENT_CLAIMS[qa.intent]:
        return f"claim '{c.claim}' does not answer a {qa.intent} question"
    if c.bug_status == "needs_retest":
        return f"status needs retest on app {c.app_version}: fresh inspection required"
    if qa.anchors.versions:
        asked = max(qa.anchors.versions, key=_version_key)
        if _version_key(asked) > known_max:
            return f"question is about app {asked}; memory knows app versions up to {'.'.join(map(str, known_max))}"
        if c.claim == "status" and c.app_version not in qa.anchors.versions:
            return f"status is about app {c.app_version}, not {', '.join(sorted(qa.anchors.versions))}"
    return None


def decide(qa: QuestionAnalysis, candidates: list[Candidate]) -> Decision:
    """Apply the rule to candidates in retrieval rank order."""
    known_max = max((_version_key(c.app_version) for c in candidates), default=())
    sufficient: list[Candidate] = []
    rejected: list[Rejection] = []
    for c in sorted(candidates, key=lambda c: c.rank):
        reason = _why_insufficient(c, qa, known_max)
        if reason is None:
            sufficient.append(c)
        else:
            rejected.append(Rejection(c.evidence_id, reason))
    if qa.anchors.deciding is None and len(sufficient) > 1:
        best = max(sufficient, key=lambda c: (c.cosine, -c.rank))
        for c in sufficient:
            if c is not best:
                rejected.append(
                    Rejection(
                        c.evidence_id, f"no identifier in the question: {best.evidence_id} is more relevant"
                    )
                )
        sufficient = [best]
    for layer in LAYER_ORDER:
        chosen = [c for c in sufficient if c.support_layer == layer]
        if chosen:
            for c in sufficient:
                if c.support_layer != layer:
                    rejected.append(Rejection(c.evidence_id, f"outranked: {layer} evidence exists"))
            return Decision(mode="memory_answer", support_layer=layer, support=chosen, rejected=rejected)
    return Decision(mode="no_match", support_layer="fresh_inspection_required", rejected=rejected)
