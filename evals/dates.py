"""Dates a question names, in common English and Chinese forms, as day ranges ("before D" is a range).

Parsing is `dateparser`'s (offline, no network). Two things it does not do are done here: it reads
"before 1 March" as a relative phrase and then finds nothing, so the few words that turn a date into a
range are taken out first and remembered by position; and it does not read a Chinese month-day without
a year ("3月12日"), which gets the year of `base` first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from dateparser.search import search_dates

from evals.identifiers import PATH, ROUTE, TICKET, VERSION

_BEFORE = re.compile(r"\b(?:before|prior to|earlier than)\b|之前|以前|前", re.IGNORECASE)
_AFTER = re.compile(r"\b(?:after|later than)\b|之后|以后|后", re.IGNORECASE)
_SINCE = re.compile(r"\b(?:since|from)\b|自|从|以来|起", re.IGNORECASE)
_UNTIL = re.compile(r"\b(?:until|till|up to|through)\b|截至|截止|为止", re.IGNORECASE)
_RELATIONS = (("before", _BEFORE), ("after", _AFTER), ("since", _SINCE), ("until", _UNTIL))
_CN_MONTH_DAY = re.compile(r"(?<![年\d])(\d{1,2})月(\d{1,2})[日号]")
_SETTINGS = {"REQUIRE_PARTS": ["day", "month"], "PREFER_DATES_FROM": "past"}


@dataclass(frozen=True)
class DayRange:
    """Whole days, both ends included; None is open."""

    since: date | None
    until: date | None
    text: str

    def contains(self, d: date) -> bool:
        return (self.since is None or d >= self.since) and (self.until is None or d <= self.until)


def _relation(text: str, start: int, end: int) -> str:
    """The range word right before the date (English, "自") or right after it (Chinese "之前")."""
    before = text[max(0, start - 14) : start]
    after = text[end : end + 4]
    for name, pat in _RELATIONS:
        if any(m.end() >= len(before) - 1 for m in pat.finditer(before)):
            return name
        if re.match(rf"[\s日号]*(?:{pat.pattern})", after, re.IGNORECASE):
            return name
    return "on"


def read_dates(text: str, base: datetime) -> list[DayRange]:
    """Every date in `text` with a day and a month, as the range of days the text means."""
    text = _CN_MONTH_DAY.sub(lambda m: f"{base.year}年{m[1]}月{m[2]}日", text)
    masked = text
    # Versions ("1.3"), tickets and paths are identifiers, not dates.
    for pat in (VERSION, TICKET, PATH, ROUTE, *(p for _, p in _RELATIONS)):
        masked = pat.sub(lambda m: " " * len(m[0]), masked)
    found = []
    for lang in ("en", "zh"):
        hits = search_dates(masked, languages=[lang], settings={**_SETTINGS, "RELATIVE_BASE": base}) or []
        found += [(s, d) for s, d in hits if re.search(r"\d", s)]
    out: list[DayRange] = []
    seen: set[tuple[str, date]] = set()
    for span, when in found:
        day = when.date()
        start = masked.find(span)
        rel = _relation(text, start, start + len(span)) if start >= 0 else "on"
        if (rel, day) in seen:
            continue
        seen.add((rel, day))
        one = timedelta(days=1)
        since, until = {"before": (None, day - one), "after": (day + one, None), "since": (day, None),
                        "until": (None, day)}.get(rel, (day, day))  # fmt: skip
        out.append(DayRange(since, until, span.strip()))
    return out
