"""What the memory tools showed, as the baseline reads it: one `Hit` per archival record a search or
lookup printed (its header line and its fields line), gathered once each across every call."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from memgpt_lite.tools.memory_functions import exact_pattern

SEARCH = "archival_memory_search"
LOOKUP = "archival_memory_lookup"
"""The tools whose results these are."""
MIN_POOL = 5
"""Fewer hits than this are too few to judge by (a standing-out test, a readable share)."""
_HEAD = re.compile(
    r"^\[(?P<date>\d{4}-\d{2}-\d{2}) \d{2}:\d{2} id=(?P<id>\S+) importance=\d+(?: similarity=(?P<sim>-?[\d.]+))?"
    r"(?: tags=(?P<tags>\S+))?(?: status=(?P<status>\w+))?(?: superseded_by=(?P<by>\S+))?\] (?P<content>.*)$"
)
_FIELD = re.compile(r"(?:^|; )(?P<key>[A-Za-z_][\w-]*)=")


@dataclass
class Hit:
    """One archival hit as a tool printed it."""

    id: str
    day: date
    content: str
    status: str = "current"
    superseded_by: str | None = None
    tags: list[str] = field(default_factory=list)
    fields: dict[str, str] = field(default_factory=dict)
    similarity: float | None = None
    rank: int = 0

    def values(self, key: str) -> list[str]:
        return [v.strip() for v in self.fields.get(key, "").split(",") if v.strip()]

    @property
    def current(self) -> bool:
        return self.status != "superseded"

    @property
    def trusted(self) -> bool:
        trust = self.fields.get("trust", "trusted").strip().lower()
        return trust == "trusted" and not {"quarantined", "untrusted"} & {t.lower() for t in self.tags}

    @property
    def layer(self) -> str:
        stated = self.fields.get("support_layer", "")
        if stated in ("user_authored_decision", "agent_inferred_summary"):
            return stated
        return "user_authored_decision" if "user_authored_decision" in self.tags else "agent_inferred_summary"

    def carries(self, ident: str, key: str) -> bool:
        return ident in self.values(key) or bool(exact_pattern(ident).search(self.content))

    def carries_version(self, version: str) -> bool:
        # the item's own version field when it has one ("fix planned for 1.3.2" is not about 1.3.2)
        if self.values("app_version"):
            return version in self.values("app_version")
        return bool(exact_pattern(version).search(self.content))

    def patch_of(self, version: str) -> bool:
        """The item's own version is a later patch release of `version` (1.6.1 of 1.6), never 1.6 itself."""
        return any(v.startswith(version + ".") for v in self.values("app_version"))


def parse_hits(text: str) -> list[Hit]:
    """The hits of one `archival_memory_search` / `archival_memory_lookup` result."""
    hits: list[Hit] = []
    for line in text.splitlines():
        m = _HEAD.match(line)
        if m:
            hits.append(
                Hit(
                    id=m["id"],
                    day=date.fromisoformat(m["date"]),
                    content=m["content"],
                    status=m["status"] or "current",
                    superseded_by=m["by"],
                    tags=(m["tags"] or "").split(",") if m["tags"] else [],
                    similarity=float(m["sim"]) if m["sim"] else None,
                )  # fmt: skip
            )
        elif line.startswith("  ") and hits:
            body = line.strip()
            keys = list(_FIELD.finditer(body))
            # (an indented line without fields is a wrapped part of the hit's text, or a cut one: no fields)
            for k, nxt in zip(keys, [*keys[1:], None], strict=False):
                hits[-1].fields[k["key"]] = body[k.end() : nxt.start() if nxt else len(body)]
    return hits


def gather(shown: list[tuple[dict[str, Any], str]], question: str) -> list[Hit]:
    """Every hit the searches and lookups showed (their arguments and text), once each, in the order
    first shown, with the best similarity to the question any of them gave."""
    by_id: dict[str, Hit] = {}
    for args, content in shown:
        for h in parse_hits(content):
            if args.get("query") != question:
                h.similarity = None  # a search for a file name alone: its scores are not the question's
            old = by_id.get(h.id)
            if old is None:
                h.rank = len(by_id)
                by_id[h.id] = h
                continue
            # a result cut to fit the context ("[… truncated …]") shows its last hit without its fields
            # line or with its text cut: another result showing it whole completes it
            if len(h.fields) > len(old.fields):
                old.fields = dict(h.fields)
            if len(h.content) > len(old.content):
                old.content = h.content
            if h.similarity is not None and (old.similarity is None or h.similarity > old.similarity):
                old.similarity = h.similarity
    return list(by_id.values())


UNSETTLED = ("hypothesis", "symptom")
"""Claims that answer nothing alone: a guess at a cause, and what was seen before any cause was found
("what's making the button do nothing?" is not answered by "the button does nothing")."""


def can_support(h: Hit) -> bool:
    return h.current and h.trusted and h.fields.get("claim", "").strip() not in UNSETTLED
