"""Dates a question names, in common English and Chinese forms, as day ranges ("before D" is a range).

Parsing is `dateparser`'s (offline, no network); Chinese numerals in dates are read with `cn2an`, English
ordinal words next to a month ("the twelfth of March", "March the first") with `text2num`. Two things it does not do are done here: it reads
"before 1 March" as a relative phrase and then finds nothing, so the few words that turn a date into a
range are taken out first and remembered by position; and it does not read a Chinese month-day without
a year ("3月12日"), which gets the year of `base` first. An English day written without its year is
put in the year that brings it nearest `base` (dateparser would take the past one: "April 10th" two
days after `base` was read as last year's).
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

import cn2an
from dateparser.date import DateDataParser
from dateparser.search import search_dates
from text_to_num import alpha2digit

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
_MONTHS = "|".join(
    sorted({*calendar.month_name[1:], *calendar.month_abbr[1:], "Sept"}, key=len, reverse=True)
)
_ORD = r"(?:st|nd|rd|th)?"
_LINK = r"and|to|until|till|through|thru|[-–—~～]"
# "the 1st and the 6th of March 2026", "1-6 March": the first day takes the month and year of the second
_DAYS_MONTH = re.compile(
    rf"(?<![\w.-])(?:the\s+)?(\d{{1,2}}){_ORD}\s*({_LINK})\s*(?:the\s+)?(\d{{1,2}}){_ORD}\s+(?:of\s+)?"
    rf"({_MONTHS})\b(,?\s+\d{{4}})?",
    re.IGNORECASE | re.ASCII,
)
# "March 1-6, 2026", "March 1 to 6": the second day takes the month (and year) of the first
_MONTH_DAYS = re.compile(
    rf"\b({_MONTHS})\s+(\d{{1,2}}){_ORD}\s*({_LINK})\s*(\d{{1,2}}){_ORD}\b(?!\s*(?:of\s+)?(?:{_MONTHS})\b)"
    rf"(,?\s+\d{{4}})?",
    re.IGNORECASE | re.ASCII,
)
# "3月1日到6日", "2026年3月1日至6日"
_CN_DAYS = re.compile(
    r"(\d{4}年)?(\d{1,2})月(\d{1,2})[日号]?\s*(到|至|[-–—~～])\s*(?:(\d{1,2})月)?(\d{1,2})[日号]"
)
# what joins two dates into one range: "between A and B", "from A to B", "A–B", "A到B", "在A和B之间"
_CLAUSE = re.compile(r"(?:[^,;:?!。，、？！；：]|,(?=\s*\d{4}\b))+")
"""A clause: up to a punctuation mark, except the comma before a year ("March 5, 2026")."""
_JOIN = re.compile(r"^\s*(?:(and|to|until|till|through|thru)|[-–—~～]|到|至|(和|与|跟))\s*(?:the\s+)?$", re.I)
_BETWEEN_BEFORE = re.compile(r"(?:between|介于|在)\s*(?:the\s+)?$", re.IGNORECASE)
_BETWEEN_AFTER = re.compile(r"^\s*(?:之间|之內|之内|期间)")


# A thing named (a path, a version) can be the point in time of a range: "retested since its code moved
# to app/search/pager.py", "anything after 1.3.2?", "自 1.3.2 以来". The relation words, both languages:
_ANCHOR_SINCE = re.compile(r"\b(since)\b|(自从|自)", re.IGNORECASE)
# "after"/"before"/"until" often bound something else ("after a reload in app 3.0"): only right before it
_ANCHOR_NEXT = re.compile(r"\b(after|before|until|prior to)\s+(?:\S+\s+)?$", re.IGNORECASE)
# right after it, or after a short verb ("1.6.1 出来以后", "1.5.1 发布之前": came out, was released)
_ANCHOR_AFTER = re.compile(r"^\s*[\u4e00-\u9fff]{0,3}?(以来|之后|以后|之前|以前)")
_ANCHOR_NAMES = {"since": "since", "自从": "since", "自": "since", "以来": "since", "after": "after",
                 "之后": "after", "以后": "after", "before": "before", "prior to": "before", "之前": "before",
                 "以前": "before", "until": "until"}  # fmt: skip


def anchor_relation(text: str, start: int, end: int, after: int = 0) -> str | None:
    """The relation ("since", "after", "before", "until") that makes the thing written at
    `text[start:end]` the point in time of a range: "since" (自, 自从) before it in its clause with nothing
    else named between (from `after` on), "after"/"before"/"until" at most one word before it ("after
    app 1.3"), or a Chinese relation right after it. None: it is no time point."""
    if m := _ANCHOR_AFTER.match(text[end:]):
        return _ANCHOR_NAMES[m[1]]
    lead = text[after:start]
    cut = max((m.end() for m in re.finditer(r"[,;:?!。，、？！；：]", lead)), default=0)
    if m := _ANCHOR_NEXT.search(lead[cut:]):
        return _ANCHOR_NAMES[m[1].lower()]
    found = list(_ANCHOR_SINCE.finditer(lead[cut:]))
    return _ANCHOR_NAMES[found[-1][0].lower()] if found else None


def anchored(rel: str, day: date, text: str) -> DayRange:
    """The range a relation to the day something happened means ("since" it: that day on)."""
    one = timedelta(days=1)
    since, until = {"since": (day, None), "after": (day + one, None), "before": (None, day - one),
                    "until": (None, day)}[rel]  # fmt: skip
    return DayRange(since, until, text)


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
        # clause by clause: the search finds nothing at all in "1 March 2026 and 6 March 2026, what was
        # found?" but both dates in its first clause
        for clause in _CLAUSE.finditer(masked):
            at = clause.start()
            for found, _ in search_dates(clause[0], languages=["en"], settings=settings) or []:
                # the search reports the words with their spacing collapsed; find them as written
                written = re.compile(r"\s+".join(map(re.escape, found.split())))
                if not re.search(r"\d", found) or not (m := written.search(masked, at, clause.end())):
                    continue
                at = m.end()
                spans.append((m.start(), at))
    outer = [
        (a, b)
        for a, b in sorted(set(spans))
        if not any(c <= a and b <= d and (c, d) != (a, b) for c, d in spans)
    ]
    # spans that overlap are one date the two searches each read part of ("6 March" and "March 2026")
    merged: list[tuple[int, int]] = []
    for a, b in outer:
        if merged and a < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


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
        if not _YEAR.search(span):
            first = _nearest_year(first, base.date())
        return first, first
    return None


_YEAR = re.compile(r"(?<!\d)\d{4}(?!\d)")


def _nearest_year(day: date, base: date) -> date:
    """A day written without its year, in the year that puts it nearest `base` (the newest memory): "April
    10th" two days after memory's last record is this year's, not last year's; "December 3rd" in March is
    last December."""
    candidates = []
    for year in (base.year - 1, base.year, base.year + 1):
        try:
            candidates.append(day.replace(year=year))
        except ValueError:  # 29 February
            continue
    return min(candidates, key=lambda d: (abs((d - base).days), d > base))


def _spelled_out(text: str) -> str:
    """Two dates written as one ("the 1st and the 6th of March 2026", "March 1-6", "3月1日到6日") as two
    whole dates with the words between them kept, so each is parsed and the pair can be joined."""

    def year(m: re.Match[str], group: int) -> str:
        return f" {m[group].strip(', ')}" if m[group] else ""  # "March 1, 2026": the comma would cut a clause

    text = _DAYS_MONTH.sub(lambda m: f"{m[1]} {m[4]}{year(m, 5)} {m[2]} {m[3]} {m[4]}{year(m, 5)}", text)
    text = _MONTH_DAYS.sub(lambda m: f"{m[1]} {m[2]}{year(m, 5)} {m[3]} {m[1]} {m[4]}{year(m, 5)}", text)
    return _CN_DAYS.sub(
        lambda m: f"{m[1] or ''}{m[2]}月{m[3]}日{m[4]}{m[1] or ''}{m[5] or m[2]}月{m[6]}日", text
    )


def _joined(text: str, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Are two dates, in this order, the two ends of one range? "from A to B", "A–B", "A到B" are;
    "A and B" only after "between" (or before "之间"): "on 1 March and on 6 March" are two days."""
    link = _JOIN.match(text[a[1] : b[0]])
    if link is None:
        return False
    if link[1] and link[1].lower() != "and" or not (link[1] or link[2]):
        return True
    return bool(_BETWEEN_BEFORE.search(text[max(0, a[0] - 12) : a[0]]) or _BETWEEN_AFTER.match(text[b[1] :]))


_CN_NUMERAL_DATE = re.compile(
    r"(?:[〇零一二三四五六七八九\d]{4}年)?[一二三四五六七八九十\d]{1,3}月(?:[一二三四五六七八九十\d]{1,3}[日号])?"
)
_SLASH_DATE = re.compile(r"(?<![\w/.-])(\d{4})/(\d{1,2})/(\d{1,2})(?![\w/.-])", re.ASCII)


# "the twelfth of March", "the first and the sixth of March", "March the twenty-third"
_ORDINAL_WORDS = r"[a-z]+(?:[- ][a-z]+)?"
_WORD_DAY_OF = re.compile(
    rf"\b(?:the\s+)?({_ORDINAL_WORDS})(?=\s+(?:(?:and|to|until|through)\s+(?:the\s+)?{_ORDINAL_WORDS}\s+)?of\s+(?:{_MONTHS})\b)",
    re.IGNORECASE,
)
_MONTH_WORD_DAY = re.compile(rf"\b(?:{_MONTHS})\s+(?:the\s+)?({_ORDINAL_WORDS})\b", re.IGNORECASE)
_DAY_WORDS_JOINED = re.compile(
    rf"\b(?:the\s+)?({_ORDINAL_WORDS})(?=\s+(?:and|to|until|through)\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)\s+of\b)",
    re.IGNORECASE,
)


def _ordinal(m: re.Match[str]) -> str:
    """The match with its day written in words as digits; a word that is no ordinal stays as it is."""
    words = m[1]
    digits = str(alpha2digit(words, "en", threshold=0))  # text2num ships no type hints
    if not re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)", digits):
        return m[0]
    return m[0][: m.start(1) - m.start(0)] + digits + m[0][m.end(1) - m.start(0) :]


def _numerals(text: str) -> str:
    """Dates written with Chinese numerals ("三月五日", "二〇二六年三月十二日") in digits (cn2an), English
    ordinal words next to a month in digits (text2num), and "2026/3/5" as ISO: only date-shaped spans
    change, never other numbers in the text."""
    text = _CN_NUMERAL_DATE.sub(lambda m: cn2an.transform(m[0], "cn2an"), text)
    text = _MONTH_WORD_DAY.sub(_ordinal, _WORD_DAY_OF.sub(_ordinal, text))
    text = _DAY_WORDS_JOINED.sub(_ordinal, text)
    return _SLASH_DATE.sub(lambda m: f"{m[1]}-{int(m[2]):02d}-{int(m[3]):02d}", text)


def read_dates(text: str, base: datetime) -> list[DayRange]:
    """Every date in `text` with a day and a month, or a month and a year, as the range of days the text
    means ("before March 2026" ends on 28 February, "in March 2026" is the whole month, "between the 1st
    and the 6th of March 2026" is six days)."""
    text = _CN_MONTH_DAY.sub(lambda m: f"{base.year}年{m[1]}月{m[2]}日", _spelled_out(_numerals(text)))
    masked = text
    # Versions ("1.3"), tickets and paths are identifiers, not dates.
    for pat in (VERSION, TICKET, PATH, ROUTE, *(p for _, p in _RELATIONS)):
        masked = pat.sub(lambda m: " " * len(m[0]), masked)
    out: list[DayRange] = []
    seen: set[tuple[date | None, date | None]] = set()
    one = timedelta(days=1)
    dated: list[tuple[int, int, int, date, date, str]] = []
    for start, end in _located(masked, base):
        start += len(masked[start:end]) - len(masked[start:end].lstrip())
        span = masked[start:end].strip()
        days = _days(span, base)
        found_at = start
        while (word := re.match(r"\S+\s+", span)) and _days(span[word.end() :], base) == days:
            # dateparser's search may take words before the date with it ("about … 16 April 2026"): the
            # date is what still means the same days without them, and the range word is read before that
            start += word.end()
            span = span[word.end() :]
        of = re.match(r"(?i)of\s+", span)
        lead = masked[:start] + (of[0] if of else "")
        if days is None or (days[0] != days[1] and _DAY_OF.search(lead)):
            # "the thirteenth of March 2026": a day the parser cannot read is not the whole month
            continue
        dated.append((found_at, start, end, *days, span))
    i = 0
    since: date | None
    until: date | None
    while i < len(dated):
        found_at, start, end, first, last, span = dated[i]
        nxt = dated[i + 1] if i + 1 < len(dated) else None
        if nxt and nxt[3] >= first and _joined(text, (found_at, end), (nxt[0], nxt[2])):
            since, until, span = first, nxt[4], f"{span} – {nxt[5]}"
            i += 2
        else:
            rel = _relation(text, start, end)
            if rel == "on":
                rel = _relation(text, found_at, end)  # "after the 10th of March": the word before "the"
            since, until = {"before": (None, first - one), "after": (last + one, None), "since": (first, None),
                            "until": (None, last)}.get(rel, (first, last))  # fmt: skip
            i += 1
        if (since, until) in seen:
            continue
        seen.add((since, until))
        out.append(DayRange(since, until, span))
    return _between(out)


def _between(ranges: list[DayRange]) -> list[DayRange]:
    """One lower bound and one upper bound that overlap ("after 20 March and before 1 April") are one
    range: each alone would hold days the other excludes."""
    lower = [r for r in ranges if r.since and not r.until]
    upper = [r for r in ranges if r.until and not r.since]
    if len(lower) != 1 or len(upper) != 1 or lower[0].since > upper[0].until:  # type: ignore[operator]
        return ranges
    both = DayRange(lower[0].since, upper[0].until, f"{lower[0].text} – {upper[0].text}")
    return [both if r is lower[0] else r for r in ranges if r is not upper[0]]
