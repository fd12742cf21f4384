"""The question as the baseline reads it: the identifiers and dates written in it, its sentences (the
last one that asks is the topic, the ones before set the scene), identifiers in memory's own forms, and
how much of what it names a hit carries."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from evals.baseline.hits import Hit
from evals.dates import DayRange, anchor_relation, anchored, read_dates
from evals.identifiers import PATH, ROUTE, TICKET, VERSION, named_identifiers


@dataclass
class Question:
    text: str
    tickets: list[str]
    paths: list[str]
    routes: list[str]
    versions: list[str]
    ranges: list[DayRange] = field(default_factory=list)
    context: set[str] = field(default_factory=set)
    """Tickets, paths and routes named only in the sentences before the one that asks, when that one
    names others of the same kind (`resolve_named`): the scene, not the topic."""
    asked_ranges: list[DayRange] = field(default_factory=list)
    """The date ranges named in the sentences that ask (ending in "?" or "？"): a time the question is
    about. A date in a statement before them ("the hand-over of 4 March blamed …") sets the scene."""
    anchors: list[tuple[str, str, str]] = field(default_factory=list)
    """(relation, field, identifier): a path or version named as a point in time ("since its code moved
    to app/x.py"), dated by memory's earliest record carrying it (`resolve_named`)."""
    reading: str = ""
    """The question in memory's words (`evals.gloss`: Chinese words as the senses memory's records use),
    what searches rank by and labels are read from; empty = the text itself."""

    @property
    def words(self) -> str:
        return self.reading or self.text

    def topic(self) -> tuple[str, list[str]]:
        """The most specific identifiers named, and which field they are matched in."""
        for key, ids in (("tickets", self.tickets), ("paths", self.paths), ("routes", self.routes)):
            if ids:
                return key, ids
        return "", []


def read_question(text: str, base: datetime | None = None) -> Question:
    named = named_identifiers(text)
    q = Question(text, list(named.tickets), list(named.paths), list(named.routes), list(named.versions))
    base = base or datetime.now()
    q.ranges = read_dates(text, base)
    asking = " ".join(p for p in sentences(text) if p.strip().endswith(("?", "？")))
    if asking.strip() == text.strip():  # one question: every range it names is asked
        q.asked_ranges = list(q.ranges)
    elif q.ranges and asking:
        asked = {(a.since, a.until) for a in read_dates(asking, base)}
        q.asked_ranges = [r for r in q.ranges if (r.since, r.until) in asked]
    spans = sorted(
        (m.start(), m.end(), key, m[1] if key == "app_version" else m[0])
        for key, pat in (("tickets", TICKET), ("paths", PATH), ("routes", ROUTE), ("app_version", VERSION))
        for m in pat.finditer(text)
    )
    prev = 0
    for start, end, key, ident in spans:
        rel = anchor_relation(text, start, end, after=prev) if key in ("paths", "app_version") else None
        prev = end
        if rel:
            q.anchors.append((rel, key, ident))
    # a time point is not the topic: "retested since its code moved to app/x.py" is about the ticket
    q.paths = [p for p in q.paths if ("paths", p) not in {(k, i) for _, k, i in q.anchors}]
    q.versions = [v for v in q.versions if ("app_version", v) not in {(k, i) for _, k, i in q.anchors}]
    return q


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")


def sentences(text: str) -> list[str]:
    """The text's sentences (a path or version's dots end none: "in 2.2.1?" ends at the "?")."""
    return [p for p in _SENTENCE_END.split(text.strip()) if p.strip()]


def asked_sentence(text: str) -> str:
    """The last sentence that asks (ends in "?" or "？"), else the last one: a sentence before it sets the
    scene, one after it ("Why won't it stay off? I turn it off, save, and it's on again.") tells what was
    seen."""
    parts = sentences(text)
    asking = [p for p in parts if p.strip().endswith(("?", "？"))]
    return (asking or parts)[-1] if len(parts) > 1 else text


_NAME_CUT = re.compile(r"[:;,.!?()\[\]\"']")


def _named_before(content: str, route: str) -> list[str]:
    """The words memory writes right before "(route" ("Feed page 3 (/feed/3)") or inside the brackets
    right after it ("GET /feed/3 (Feed page 3)"): the names that record gives the page."""
    out = []
    r = re.escape(route)
    for m in re.finditer(rf"\({r}(?![\w/-])", content):
        words = _NAME_CUT.split(content[: m.start()])[-1].split()[-5:]
        out += [" ".join(words[i:]) for i in range(len(words))]
    for m in re.finditer(rf"(?<![\w/-]){r}(?![\w/-]) \((?P<name>[^()]{{3,40}})\)", content):
        out.append(m["name"].strip())
    return out


def page_routes(q: Question, pool: list[Hit]) -> list[str]:
    """Routes of the pages the question names by name, learnt from how memory's own records name the
    routes they carry; a name of two words or more, the longest where names overlap."""
    found: list[tuple[int, int, str]] = []
    for h in pool:
        for route in h.values("routes"):
            for name in _named_before(h.content, route):
                if len(name.split()) < 2 or not re.search(r"[A-Za-z]", name):
                    continue
                for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", q.text, re.IGNORECASE):
                    found.append((m.start(), m.end(), route))
    routes: list[str] = []
    # overlapping names are one mention: the one reaching furthest ("Search page 2" over "the Search
    # page"), then the longest
    spans: list[tuple[int, int]] = []
    for start, stop, route in sorted(found, key=lambda f: (-f[1], f[0])):
        if any(start < e0 and stop > s0 and (start, stop) != (s0, e0) for s0, e0 in spans):
            continue
        spans.append((start, stop))
        if route not in routes and route not in q.routes:
            routes.append(route)
    return routes


_LOOSE_TICKET = re.compile(r"(?<![\w-])([A-Za-z][A-Za-z0-9]*)(?:-| ?)(\d+)(?![\w-])", re.ASCII)
_HASH_NUMBER = re.compile(r"(?<![\w#&])#(\d+)(?![\w-])", re.ASCII)
_FILE_NAME = re.compile(r"(?<![\w/.-])[\w-]{2,}\.[A-Za-z][A-Za-z0-9]{0,5}(?![\w/.-])", re.ASCII)


def file_names(q: Question) -> list[str]:
    """File names written without their directory ("counts.py"), which memory stores as full paths."""
    return [n for n in dict.fromkeys(_FILE_NAME.findall(q.text)) if not any(n in p for p in q.paths)]


def memory_forms(q: Question, pool: list[Hit]) -> tuple[list[str], list[str]]:
    """Tickets and paths the question names as people write them, in the form memory stores them: a
    ticket in lower case or with a space ("bh-142", "BH 142") when memory holds tickets of that prefix,
    a ticket number alone ("#142") when all memory's tickets share one prefix,
    and a file named without its directory ("counts.py") as memory's full paths of that name. Checked
    against memory's own fields, never guessed: "utf-8" is no ticket where memory has no UTF tickets."""
    prefixes = {t.rsplit("-", 1)[0] for h in pool for t in h.values("tickets") if "-" in t}
    tickets = [
        f"{m[1].upper()}-{m[2]}"
        for m in _LOOSE_TICKET.finditer(q.text)
        if m[1].upper() in prefixes and f"{m[1].upper()}-{m[2]}" not in q.tickets
    ]
    if len(prefixes) == 1:
        # "#142": a ticket number without its prefix, where memory's tickets all share one
        (prefix,) = prefixes
        tickets += [
            f"{prefix}-{m[1]}" for m in _HASH_NUMBER.finditer(q.text) if f"{prefix}-{m[1]}" not in q.tickets
        ]
    names = set(file_names(q))
    paths = [p for h in pool for p in h.values("paths") if p.rsplit("/", 1)[-1] in names and p not in q.paths]
    return list(dict.fromkeys(tickets)), list(dict.fromkeys(paths))


def resolve_named(q: Question, pool: list[Hit]) -> None:
    """Adds what the question names in memory's own forms: tickets and paths (`memory_forms`), and the
    routes of pages named by name (`page_routes`). Idempotent."""
    tickets, paths = memory_forms(q, pool)
    q.tickets += tickets
    q.paths += paths
    q.routes += page_routes(q, pool)
    last = asked_sentence(q.text)
    if last != q.text:
        # sentences before the one that asks set the scene ("the agent kept switching between the
        # favourites count, the tag page and the blank search"); when the asking sentence names some of
        # the same kind of thing, those are the topic
        key, ids = q.topic()
        asked = read_question(last, datetime(2000, 1, 1))
        tickets, paths = memory_forms(asked, pool)
        asked.tickets += tickets
        asked.paths += paths
        asked.routes += page_routes(asked, pool)
        asked_key, asked_ids = asked.topic()
        if asked_key == key and asked_ids:
            q.context |= set(ids) - set(asked_ids)
    q.tickets = [t for t in q.tickets if t not in q.context]
    q.paths = [p for p in q.paths if p not in q.context]
    q.routes = [r for r in q.routes if r not in q.context]
    for rel, key, ident in q.anchors:
        days = [h.day for h in pool if h.trusted and ident in h.values(key)]
        if days and ident not in {r.text for r in q.ranges}:
            q.ranges.append(anchored(rel, min(days), ident))


# A question that asks which file (to open, to change) or where something lives, as things are now: the
# answer is the file under its current name. Without "now" the file the record names is the answer
# ("which file holds the cause").
_ASKS_FILE = re.compile(r"(?i)\b(?:files?|file\s*names?|filenames?|modules?|where)\b|文件|哪里|在哪")
_NOW = re.compile(r"(?i)\b(?:now|currently|current|in use today|these days)\b|现在|目前|当前|如今")


def asks_file_now(q: Question) -> bool:
    """Does the asking sentence ask for a file or a place (not name a file) as things are now?"""
    asked = asked_sentence(q.text)
    return bool(_ASKS_FILE.search(asked) and _NOW.search(q.text)) and not q.paths


def identifier_score(q: Question, h: Hit, key: str, ids: list[str]) -> int:
    return sum(h.carries(i, key) for i in ids)


def renamed_aliases(q: Question, pool: list[Hit]) -> dict[str, str]:
    """Paths memory says were renamed to a path the question names: old path -> rename note id."""
    out = {}
    for h in pool:
        old = h.fields.get("renamed_from", "").strip()
        if old and h.current and h.trusted and any(h.carries(p, "paths") for p in q.paths):
            out[old] = h.id
    return out


def named_score(q: Question, h: Hit, aliases: dict[str, str]) -> int:
    """How many of the tickets, paths and routes the question names the hit carries (a path memory says
    was renamed counts through its old name)."""
    paths = sum(h.carries(p, "paths") or any(h.carries(a, "paths") for a in aliases) for p in q.paths)
    return (
        sum(h.carries(t, "tickets") for t in q.tickets)
        + paths
        + sum(h.carries(r, "routes") for r in q.routes)
    )


def unasked_count(h: Hit, key: str, known: set[str]) -> int:
    """How many identifiers of the asked kind the item carries that the question does not ask."""
    return len([x for x in h.values(key) if x not in known])
