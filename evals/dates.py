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

from dateparser.date import DateDataParser
from dateparser.search import search_dates

from evals.identifiers import ISO_DATE, PATH, ROUTE, TICKET, VERSION

_BEFORE = re.compile(r"\b(?:before|prior to|earlier than)\b|之前|以前|前", re.IGNORECASE)
_AFTER = re.compile(r"\b(?:after|later than)\b|之后|以后|后", re.IGNORECASE)
_SINCE = re.compile(r"\b(?:since|from)\b|自|从|以来|起", re.IGNORECASE)
_UNTIL = re.compile(r"\b(?:until|till|up to|through)\b|截至|截止|为止", re.IGNORECASE)
_RELATIONS = (("before", _BEFORE), ("after", _AFTER), ("since", _SINCE), ("until", _UNTIL))
_CN_MONTH_DAY = re.compile(r"(?<![年\d])(\d{1,2})月(\d{1,2})[日号]")
_DAY_OF = re.compile(r"\w+\s+of\s*$", re.IGNORECASE)
_CN_DATE = re.compile(r"\d{4}年\d{1,2}月(?:\d{1,2}[日号])?")
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


def _located(masked: str, base: datetime) -> list[tuple[int, int]]:
    """Where dates are written: ISO ones and Chinese ones by their pattern (dateparser's search reads the
    "分" of "分诊会" as minutes), English ones by dateparser's search, days first, then months of a year.
    A span inside a longer one is one date."""
    spans = [(m.start(), m.end()) for pat in (_CN_DATE, ISO_DATE) for m in pat.finditer(masked)]
    for parts in (["day", "month"], ["month", "year"]):
        settings = {**_SETTINGS, "REQUIRE_PARTS": parts, "RELATIVE_BASE": base}
        at = 0
        for found, _ in search_dates(masked, languages=["en"], settings=settings) or []:
            if not re.search(r"\d", found) or (i := masked.find(found, at)) < 0:
                continue
            at = i + len(found)
            spans.append((i, at))
    return [
        (a, b)
        for a, b in sorted(set(spans))
        if not any(c <= a and b <= d and (c, d) != (a, b) for c, d in spans)
    ]


def _days(span: str, base: datetime) -> tuple[date, date] | None:
    """The first and last day a written date means: one day, or a whole month ("March 2026")."""
    parser = DateDataParser(
        languages=["en", "zh"], settings={"PREFER_DATES_FROM": "past", "RELATIVE_BASE": base}
    )
    data = parser.get_date_data(span)
    if data.date_obj is None:
        return None
    first = data.date_obj.date()
    if data.period == "month":
        first = first.replace(day=1)
        nxt = (first.replace(day=28) + timedelta(days=4)).replace(day=1)
        return first, nxt - timedelta(days=1)
    if data.period == "day":
        return first, first
    return None


def read_dates(text: str, base: datetime) -> list[DayRange]:
    """Every date in `text` with a day and a month, or a month and a year, as the range of days the text
    means ("before March 2026" ends on 28 February, "in March 2026" is the whole month)."""
    text = _CN_MONTH_DAY.sub(lambda m: f"{base.year}年{m[1]}月{m[2]}日", text)
    masked = text
    # Versions ("1.3"), tickets and paths are identifiers, not dates.
    for pat in (VERSION, TICKET, PATH, ROUTE, *(p for _, p in _RELATIONS)):
        masked = pat.sub(lambda m: " " * len(m[0]), masked)
    out: list[DayRange] = []
    seen: set[tuple[date | None, date | None]] = set()
    one = timedelta(days=1)
    for start, end in _located(masked, base):
        span = masked[start:end].strip()
        days = _days(span, base)
        lead = masked[:start] + re.match(r"(?i)(?:of\s+)?", span)[0]
        if days is None or (days[0] != days[1] and _DAY_OF.search(lead)):
            # "the thirteenth of March 2026": a day the parser cannot read is not the whole month
            continue
        first, last = days
        rel = _relation(text, start, end)
        since, until = {"before": (None, first - one), "after": (last + one, None), "since": (first, None),
                        "until": (None, last)}.get(rel, (first, last))  # fmt: skip
        if (since, until) in seen:
            continue
        seen.add((since, until))
        out.append(DayRange(since, until, span))
    return out
