"""Reading LoCoMo (Maharana et al., 2024): conversations, their turns, and the labelled questions.

Only what a listener of the conversation could know is kept on a `Turn`: speaker, text, the image
caption of image turns, the session's date and the dialogue id. The dataset's `observation`,
`session_summary` and `event_summary` fields (written by the benchmark's authors) and the answers are
never read into a `Turn`, so nothing downstream can ingest them by mistake.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memgpt_lite.errors import UsageError

DIALOGUE_ID = re.compile(r"D(\d+):(\d+)")
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
_SESSION_KEY = re.compile(r"session_(\d+)")
_DATE_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%I:%M %p on %B %d, %Y")


@dataclass(frozen=True)
class Turn:
    dia_id: str
    session: int
    speaker: str
    text: str
    date: datetime
    caption: str | None = None


@dataclass(frozen=True)
class Question:
    question: str
    category: int
    evidence: tuple[str, ...]
    """Valid dialogue ids of turns this conversation holds, in the order given, without duplicates."""


@dataclass
class Conversation:
    sample_id: str
    speakers: tuple[str, str]
    turns: list[Turn]
    questions: list[Question]
    skipped: int = 0
    """Questions without any valid evidence id (not scored)."""
    notes: list[str] = field(default_factory=list)


def parse_evidence(items: Any) -> list[str]:
    """Every `D<session>:<turn>` id in the evidence list, in order, once each.

    The data holds malformed entries such as "D8:6; D9:17" (two ids in one string), so ids are
    extracted with the pattern instead of trusting the list's shape; text without an id adds nothing."""
    if items is None:
        return []
    if isinstance(items, str):
        items = [items]
    if not isinstance(items, list):
        raise UsageError(f"evidence must be a list of dialogue ids, got {type(items).__name__}")
    found: dict[str, None] = {}
    for item in items:
        if isinstance(item, str):
            for session, turn in DIALOGUE_ID.findall(item):
                found.setdefault(f"D{int(session)}:{int(turn)}", None)
    return list(found)


def parse_session_date(text: str) -> datetime:
    """LoCoMo's "1:56 pm on 8 May, 2023" as a UTC datetime (the dataset gives no time zone)."""
    cleaned = " ".join(str(text).split())
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(cleaned, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise UsageError(f"cannot read the session date {text!r} (expected e.g. '1:56 pm on 8 May, 2023')")


def load(path: str | Path) -> list[Conversation]:
    """All conversations of a LoCoMo JSON file (a list of samples)."""
    p = Path(path)
    try:
        raw = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"--data {p}: no such file") from None
    except (OSError, json.JSONDecodeError) as e:
        raise UsageError(f"--data {p} is not readable JSON: {e}") from None
    if not isinstance(raw, list) or not raw:
        raise UsageError(f"--data {p}: expected a non-empty list of LoCoMo samples")
    return [parse_sample(s, i) for i, s in enumerate(raw)]


def parse_sample(sample: Any, index: int = 0) -> Conversation:
    if not isinstance(sample, dict) or not isinstance(sample.get("conversation"), dict):
        raise UsageError(f"sample {index} has no 'conversation' object")
    conv = sample["conversation"]
    sample_id = str(sample.get("sample_id", f"sample-{index}"))
    sessions = sorted(int(m.group(1)) for k in conv if (m := _SESSION_KEY.fullmatch(k)))
    turns: list[Turn] = []
    for n in sessions:
        date_text = conv.get(f"session_{n}_date_time")
        if date_text is None:
            raise UsageError(f"{sample_id}: session_{n} has no session_{n}_date_time")
        date = parse_session_date(date_text)
        for t in conv[f"session_{n}"]:
            turns.append(_turn(t, n, date, sample_id))
    held = {t.dia_id for t in turns}
    if len(held) != len(turns):
        raise UsageError(f"{sample_id}: two turns share a dialogue id")
    questions: list[Question] = []
    skipped = 0
    for q in sample.get("qa", []):
        evidence = tuple(e for e in parse_evidence(q.get("evidence")) if e in held)
        if not evidence or "question" not in q or q.get("category") not in CATEGORIES:
            skipped += 1
            continue
        questions.append(Question(str(q["question"]), int(q["category"]), evidence))
    speakers = (str(conv.get("speaker_a", "")), str(conv.get("speaker_b", "")))
    return Conversation(sample_id, speakers, turns, questions, skipped)


def _turn(t: Any, session: int, date: datetime, sample_id: str) -> Turn:
    if not isinstance(t, dict) or not {"speaker", "dia_id", "text"} <= t.keys():
        raise UsageError(f"{sample_id}: session_{session} has a turn without speaker, dia_id or text")
    m = DIALOGUE_ID.fullmatch(str(t["dia_id"]).strip())
    if m is None:
        raise UsageError(f"{sample_id}: turn id {t['dia_id']!r} is not D<session>:<turn>")
    caption = t.get("blip_caption")
    return Turn(
        dia_id=f"D{int(m.group(1))}:{int(m.group(2))}",
        session=session,
        speaker=str(t["speaker"]),
        text=str(t["text"]),
        date=date,
        caption=str(caption) if caption else None,
    )
