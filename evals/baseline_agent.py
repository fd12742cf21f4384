"""The offline `baseline` agent of layer 2: a deterministic, non-LLM reader of memgpt_lite's memory tools.

It receives the question only and uses the tools an LLM agent has. It reads no intent from words and
keeps no keyword list; what it knows of the question are the identifiers written in it and its dates:

0. **Memory's words.** A Chinese question is read in the words memory's records write: each word as the
   first of its CC-CEDICT senses that memory's vocabulary writes (`evals.gloss`); the searches rank by
   that reading and labels are read from it. Labels are matched by stem ("fix" writes out `fixed`).

1. **Exact before ranked.** Each ticket, file path, route and version the question names is looked up
   with `archival_memory_lookup` (exact match) before `archival_memory_search` ranks anything. The
   ranked search is paged until every exact hit has a similarity to the question (bounded). Tickets in
   lower case or with a space, and file names without their directory, are read in memory's own form
   when memory's fields hold it (`memory_forms`).
2. **Dates** in common English and Chinese forms are read with `dateparser` (`evals.dates`); "before /
   after / since / until D" and "between A and B" become ranges, and the ranked search is narrowed to
   each range. A path or version named as a point in time ("since its code moved to app/x.py") is a
   range from the day memory's earliest record carrying it, not the topic (`Question.anchors`).
3. **Topic by identifiers.** Hits that carry the question's most specific identifiers (ticket, else
   path, else route), in their fields or text, are on topic; a named version must be the hit's app
   version or be written in it; a named date range must hold the hit's day. A page named by name is
   the route memory's own records give that name. In several sentences, the asking (last) one's
   identifiers are the topic when it names some of that kind; the earlier ones set the scene. Nothing named at all → on topic only above a
   cosine floor and standing out from the searches' own scores. Nothing on topic → `no_match`.
4. **Only current, trusted, established items support.** Superseded hits on the topic are flagged in
   `superseded_ids`; quarantined or untrusted hits are never cited; an unconfirmed hypothesis is no
   support, nor is an agent's bug state that a person's current record on the ticket contradicts and
   that replaced nothing (`contested`); a hit that says a retest is due (bug status `needs_retest`), chosen, or as close to the
   question as the chosen one and due on a page or version the question names, means the status is
   not known. When every record carrying the most of what is named is superseded or a guess, what
   replaced or settled it answers (a successor; a person's decision on the guess's tickets); so does a
   person's replacement of the record a question naming no ticket or path stands out closest to, or a
   person's record memory says rests on it (provenance). A day named alone takes in the persons'
   records resting on that day's records. A bug state the question takes as given that the chosen
   record does not hold is not confirmed (`no_match`). A list that only mentions the asked
   identifier, or a question in words memory does not use with one thing named and no person's word on
   it, is no answer either.
5. **Choice** among what is left: most identifiers carried, fewest unasked, a label memory uses (kind,
   claim, bug state) that the question writes out, a day it names, a person's record (one labelled a
   decision before a person's release note), similarity —
   in a question whose words memory does not use, how many records rest on the item comes before
   similarity (closeness is noise there), and a version named alone is its topic.
6. **Several records** when memory links them: a rename note that carries the asked path and names the
   path it replaced (`renamed_from`) is cited together with the best item about the old path, one of
   the rename's own workflow first. A question for a file as it is *now* ("which file should I open
   now") cites the best record with the later rename note of its file (`renamed_since`).
   A question about a time (a range in a sentence ending in "?") with no usable record from then is
   `no_match`, unless the date only dates a version or path named as a point in time.
7. **Claims** (`ticket`, `status`, `version`, `path`, `date`, `decision_by`) are copied from the cited
   items' fields, so each is entailed by what it cites.

It never sees a case or the evaluator, and it shares no decision code with layer 1 (`evals.layer1`,
an audit that decides no answer). Only the identifier patterns (`evals.identifiers`) are common.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta
from typing import Any

from evals.dates import DayRange, anchor_relation, anchored, read_dates
from evals.gloss import CJK, gloss, stem
from evals.identifiers import PATH, ROUTE, TICKET, VERSION, named_identifiers
from memgpt_lite.messages import ModelRequest, ModelResponse
from memgpt_lite.testing import response, tool_call
from memgpt_lite.tools.memory_functions import exact_pattern

SEARCH = "archival_memory_search"
LOOKUP = "archival_memory_lookup"
SIMILARITY_FLOOR = 0.45
"""A question that names no identifier is about a hit only above this cosine similarity (calibrated on
MiniLM: unrelated questions' best hits stay below 0.3, related ones reach 0.47+; the hashing embedder's
cosines rarely reach it, so with hashing such questions get `no_match` unless they name a record kind)."""
RELATIVE_FLOOR = 1.5
"""... and only when the hit stands this many standard deviations above the mean similarity of all the
searches showed: a cosine floor alone lets a question that resembles everything a little "answer"."""
MIN_POOL = 5
VOCABULARY_PAGES = 10
"""Pages of a Chinese question's own search read for memory's vocabulary (`read_in_memory_words`)."""
LOOKUP_PAGES = 2
SEARCH_PAGES = 3
MAX_ROUNDS = 5
FOLLOW_UPS = 6
"""Lookups of what replaced, or settled, the records about what the question names (bounded)."""

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


# -- the question ---------------------------------------------------------------------------------
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


# A question that asks which file (to open, to change) or where something lives, as things are now: the
# answer is the file under its current name. Without "now" the file the record names is the answer
# ("which file holds the cause").
_ASKS_FILE = re.compile(r"(?i)\b(?:files?|file\s*names?|filenames?|modules?|where)\b|文件|哪里|在哪")
_NOW = re.compile(r"(?i)\b(?:now|currently|current|in use today|these days)\b|现在|目前|当前|如今")


def asks_file_now(q: Question) -> bool:
    """Does the asking sentence ask for a file or a place (not name a file) as things are now?"""
    asked = asked_sentence(q.text)
    return bool(_ASKS_FILE.search(asked) and _NOW.search(q.text)) and not q.paths


def renamed_since(q: Question, best: Hit, pool: list[Hit]) -> Hit | None:
    """A current, trusted rename note dated on or after `best` that renamed one of its paths, within any
    time the question names (a question about the state before the rename does not want it)."""
    old = set(best.values("paths"))
    notes = [
        h for h in pool
        if h.current and h.trusted and h.id != best.id and h.day >= best.day
        and h.fields.get("renamed_from", "").strip() in old
        and all(r.contains(h.day) for r in q.ranges)
    ]  # fmt: skip
    return max(notes, key=lambda h: h.day) if notes else None


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


# -- the decision ---------------------------------------------------------------------------------
def _no_match(reason: str, flagged: list[str]) -> dict[str, Any]:
    return dict(answer=f"{reason} Memory cannot answer this; inspect the app afresh.", evidence_ids=[],
                support_layer="fresh_inspection_required", no_match=True, fresh_inspection_requested=True,
                superseded_ids=flagged, claims={})  # fmt: skip


def _identifier_score(q: Question, h: Hit, key: str, ids: list[str]) -> int:
    return sum(h.carries(i, key) for i in ids)


def _aliases(q: Question, pool: list[Hit]) -> dict[str, str]:
    """Paths memory says were renamed to a path the question names: old path -> rename note id."""
    out = {}
    for h in pool:
        old = h.fields.get("renamed_from", "").strip()
        if old and h.current and h.trusted and any(h.carries(p, "paths") for p in q.paths):
            out[old] = h.id
    return out


def _claims(q: Question, cited: list[Hit]) -> dict[str, str]:
    """Claims copied from the cited items' own fields, the asked identifier first."""
    c: dict[str, str] = {}
    main = cited[-1]
    tickets = [t for t in q.tickets if any(t in h.values("tickets") for h in cited)] or main.values("tickets")
    paths = [p for p in q.paths if any(p in h.values("paths") for h in cited)] or main.values("paths")
    if len(tickets) >= 1 and (q.tickets or len(main.values("tickets")) == 1):
        c["ticket"] = tickets[0]
    if paths and (q.paths or len(main.values("paths")) == 1):
        c["path"] = paths[0]
    if main.fields.get("bug_status"):
        c["status"] = main.fields["bug_status"].strip()
    if main.values("app_version"):
        c["version"] = main.values("app_version")[0]
    c["date"] = main.day.isoformat()
    if main.layer == "user_authored_decision" and main.fields.get("author"):
        c["decision_by"] = main.fields["author"].strip()
    return c


def _label_words(label: str) -> str:
    return " ".join(label.lower().replace("_", " ").split())


LABEL_FIELDS = ("claim", "kind", "bug_status")
"""The fields whose values name what a record is or says: its claim, its kind, the bug state it records."""

CAUSE = "cause"
_ASKS_WHY = re.compile(r"(?i)\bwhy\b|为什么|为何|怎么会")
"""A question asking why asks for a cause: read as if it wrote the word (a closed set of question words,
so a question asking why about something no record explains gets `no_match`, never a looser answer)."""


def _named_labels(q: Question, pool: list[Hit], text: str | None = None) -> set[str]:
    """The record kinds, claim labels and bug states memory shows that the question (or one sentence of
    it) writes out ("daily note", "root cause", "release note", "fixed"): read from memory's own labels,
    not from a word list."""
    said = _said(q, q.words if text is None else text)
    return {lab for lab in _pool_labels(pool) if " " + " ".join(stem(w) for w in lab.split()) + " " in said}


def _pool_labels(pool: list[Hit]) -> set[str]:
    """Every kind, claim and bug state the records shown hold, as words."""
    return {_label_words(v) for h in pool for k in LABEL_FIELDS for v in h.values(k)} - {""}


def _said(q: Question, text: str) -> str:
    """The text's words as stems, space-delimited, for matching labels: "the BH-272 fix" writes out the
    state "fixed", "regressed" the regression."""
    text = re.sub(r"(?<=\w)-(?=\w)", "", text.lower())
    # a word written against a version named as a point in time names that point ("since the 1.8.1
    # release"): it says since when, not what kind of record is asked
    for v in {i for _, k, i in q.anchors if k == "app_version"}:
        text = re.sub(rf"(?:\w+\s+)?(?<![\w.]){re.escape(v)}(?![\w.]|\.\d)(?:\s+\w+)?", " ", text)
    return " " + " ".join(stem(w) for w in _WORD.findall(text)) + " "


def _implied_claims(q: Question, pool: list[Hit]) -> set[str]:
    """Claims the asking sentence asks for without writing them out whole: a claim of several words by
    its last word when no other label ends so ("what caused it?" asks for a root cause), and a question
    asking why. Read only to find that no record makes the claim asked (`no_match`), never to widen what
    is on topic: a looser reading may only make the answer more careful."""
    text = asked_sentence(q.words)
    said = _said(q, text) + (f"{stem(CAUSE)} " if _ASKS_WHY.search(text) else "")
    heads: dict[str, set[str]] = {}
    for lab in _pool_labels(pool):
        heads.setdefault(stem(lab.split()[-1]), set()).add(lab)
    claims = {c for h in pool for c in _claims_of(h) if len(c.split()) > 1}
    return {lab for head, labs in heads.items() if len(labs) == 1 and f" {head} " in said
            for lab in labs & claims}  # fmt: skip


def _claims_of(h: Hit) -> set[str]:
    return {_label_words(v) for v in h.values("claim")}


def _kinds_of(h: Hit) -> set[str]:
    return {_label_words(v) for v in h.values("kind")}


def _asked_labels(q: Question, pool: list[Hit]) -> set[str]:
    """The labels memory uses that the asking sentence writes out (a sentence before it sets the scene)."""
    return _named_labels(q, pool, asked_sentence(q.words))


def _asked_kinds(q: Question, pool: list[Hit], asked: set[str]) -> set[str]:
    """The claim labels memory uses that the asking sentence writes out (`asked`: "what's the root
    cause?") or implies (`_implied_claims`)."""
    return {c for h in pool for c in _claims_of(h)} & asked | _implied_claims(q, pool)


def _state_of(h: Hit) -> set[str]:
    """The bug state a record holds ("open", "fixed"), as words."""
    return {_label_words(v) for v in h.values("bug_status")}


def _state_labels(pool: list[Hit]) -> set[str]:
    """The bug states memory's records hold, as words."""
    return {s for h in pool for s in _state_of(h)}


def _labels(h: Hit, pool: list[Hit]) -> set[str]:
    """A hit's kind, claim and bug state, and the kind and claim of the item it replaces (a retraction
    of a lesson is the current word on that lesson; a fix replacing a report is not "open")."""
    own = {_label_words(v) for k in LABEL_FIELDS for v in h.values(k)}
    replaced = h.fields.get("supersedes", "").strip()
    for old in pool:
        if replaced and old.id == replaced:
            own |= {_label_words(v) for v in (*old.values("claim"), *old.values("kind"))}
    return own


def _standing_out(pool: list[Hit]) -> set[str]:
    """Hits close to the question (SIMILARITY_FLOOR) that stand out from what every search showed
    (RELATIVE_FLOOR). Too few scores to tell → none stands out."""
    sims = [h.similarity for h in pool if h.similarity is not None]
    if len(sims) < MIN_POOL:
        return set()
    mean = statistics.fmean(sims)
    spread = statistics.pstdev(sims) or 1.0
    return {h.id for h in pool if h.similarity is not None and h.similarity >= SIMILARITY_FLOOR
            and (h.similarity - mean) / spread >= RELATIVE_FLOOR}  # fmt: skip


def _of_named_day(q: Question, pool: list[Hit]) -> set[str]:
    """The records of a single day the question names with nothing else (a session, a meeting), and
    the persons' current records memory says rest on one of them (provenance): a decision taken two days
    later on a bug a session found is memory's word on what that session found."""
    days = [r for r in q.ranges if r.since is not None and r.since == r.until]
    if not days or q.tickets or q.paths or q.routes:
        return set()
    on_day = {h.id for h in pool if any(r.contains(h.day) for r in days)}
    rest = {h.id for h in pool if h.layer == "user_authored_decision" and _usable(h)
            and on_day & set(h.values("provenance"))}  # fmt: skip
    return on_day | rest


def _topical(
    q: Question, pool: list[Hit], aliases: dict[str, str], readable: bool, close: set[str]
) -> tuple[list[Hit], dict[str, int]]:
    """Hits about what the question names, with how many of its identifiers each carries. `readable`:
    the question's words are memory's (`readable_share`); `close`: the hits standing out (`_standing_out`)."""
    field_name, ids = q.topic()
    if ids:
        scored = {h.id: _identifier_score(q, h, field_name, ids) + sum(h.carries(a, "paths") for a in aliases)
                  for h in pool}  # fmt: skip
        topical = [h for h in pool if scored[h.id] > 0]
    else:
        scored = {h.id: 0 for h in pool}
        topical = list(pool)
    if q.versions:
        of_version = [h for h in topical if all(h.carries_version(v) for v in q.versions)]
        patches = [h for h in topical if _usable(h) and all(h.patch_of(v) for v in q.versions)]
        if not ids:
            # a question naming no ticket or path is about the tickets of what stands out close to it
            subject = {t for h in pool if h.id in close for t in h.values("tickets")}
            patches = [h for h in patches if subject & set(h.values("tickets"))]
        asked = _asked_labels(q, pool)
        if (
            (ids or asked)
            and patches
            and not any(
                _usable(h) and (not asked or asked & _labels(h, [])) and not _extra(h, field_name, set(ids))
                for h in of_version
            )
        ):
            # nothing current on what is named says what is asked of that version (a record listing other
            # tickets too only mentions it): the version is what the question tests ("fixed in 1.6, or
            # later?"), and the records of its later patch releases answer
            of_version = patches
        topical = of_version
    # An open range ("before 1 March") is a constraint; a day named beside a ticket is context.
    bounds = [r for r in q.ranges if not ids or r.since != r.until]
    if bounds:
        of_day = _of_named_day(q, topical)
        topical = [h for h in topical if any(r.contains(h.day) for r in bounds) or h.id in of_day]
    if bounds and not ids and not q.versions and readable:
        # a period alone says when, not what: within it, what the question is about is still what it
        # names in words (a kind of record) or what stands out close to it (in words memory does not
        # use, the period is all that is understood, and its records are the topic)
        wanted = _named_labels(q, pool)
        topical = [h for h in topical if wanted & _labels(h, []) or h.id in close or h.id in of_day]
    elif not bounds and not ids and not (q.versions and not readable):
        # A version named in words memory does not use is all that is understood of the question: its
        # records are the topic (and only a person's word among them answers, see `decide`).
        # Nothing named: the kind of record the question writes out, and what is close in meaning.
        wanted = _named_labels(q, pool)
        anchors = _anchors(close, pool)
        topical = [h for h in topical
                   if wanted & _labels(h, []) and _same_subject(h, wanted, anchors) or h.id in close]  # fmt: skip
    return topical, scored


def _left_state(best: Hit, states: set[str], pool: list[Hit]) -> bool:
    """`best` replaced a record holding one of `states` (directly or down its supersession chain): the
    ticket was in that state and memory records that it left it ("is the share-link bug still open?" is
    answered by the fix verification that superseded the open report)."""
    by_id = {h.id: h for h in pool}
    seen: set[str] = set()
    old = by_id.get(best.fields.get("supersedes", "").strip())
    while old is not None and old.id not in seen:
        if states & _state_of(old):
            return True
        seen.add(old.id)
        old = by_id.get(old.fields.get("supersedes", "").strip())
    return any(h.superseded_by == best.id and states & _state_of(h) for h in pool)


def _anchors(close: set[str], pool: list[Hit]) -> list[Hit]:
    """The records closest to the question: those standing out (`close`), else the closest one."""
    scored = [c for c in pool if c.similarity is not None]
    return [c for c in pool if c.id in close] or (
        [max(scored, key=lambda c: c.similarity or 0.0)] if scored else []
    )


def _same_subject(h: Hit, wanted: set[str], anchors: list[Hit]) -> bool:
    """A record of the kind a question naming nothing asks for is about it when the records closest to
    the question (`_anchors`) are of that same kind too, or share a ticket with it: "has the root cause
    of the delete-account regression been found?" is closest to the regression, and another bug's root
    cause does not answer it; "what did the latest hand-over say?" is closest to hand-over notes."""
    if not anchors:
        return True
    kinds = wanted & _labels(h, [])
    return any(kinds & _labels(a, []) or set(a.values("tickets")) & set(h.values("tickets")) for a in anchors)


READABLE_SHARE = 0.5
"""Below this share of its words (identifiers aside) found in what memory showed, a question is read by
its identifiers only."""
_WORD = re.compile(r"\w+")


def readable_share(q: Question, pool: list[Hit]) -> float:
    """How many of the question's words, identifiers and dates aside, memory's own records also use.
    A question in another language than memory's (Chinese to English records) shares almost none, so
    nothing but its identifiers says what kind of answer it wants. No word list: the vocabulary is the
    records'."""
    text = q.text
    for ident in (*q.tickets, *q.paths, *q.routes, *q.versions, *(r.text for r in q.ranges)):
        text = text.replace(ident, " ")
    # Chinese words count as read when the dictionary gives one a sense memory's words write (`gloss`)
    vocab = [w.lower() for h in pool for w in _WORD.findall(h.content)]
    chinese = gloss(text, vocab) if len(pool) >= MIN_POOL else None
    words = [w.lower() for w in _WORD.findall(CJK.sub(" ", text)) if not w.isdigit()]
    total = len(words) + (chinese.words if chinese else 0)
    if not total or len(pool) < MIN_POOL:
        return 1.0  # nothing to read, or too little of memory's text to judge by
    # as stems, as labels and glosses are matched: "retested" is read where memory writes "retest"
    known = {stem(w) for w in vocab}
    return (sum(stem(w) in known for w in words) + (chinese.understood if chinese else 0)) / total


def _extra(h: Hit, key: str, known: set[str]) -> int:
    """How many identifiers of the asked kind the item carries that the question does not ask."""
    return len([x for x in h.values(key) if x not in known])


UNSETTLED = ("hypothesis", "symptom")
"""Claims that answer nothing alone: a guess at a cause, and what was seen before any cause was found
("what's making the button do nothing?" is not answered by "the button does nothing")."""


def _usable(h: Hit) -> bool:
    return h.current and h.trusted and h.fields.get("claim", "").strip() not in UNSETTLED


def _named_score(q: Question, h: Hit, aliases: dict[str, str]) -> int:
    """How many of the tickets, paths and routes the question names the hit carries (a path memory says
    was renamed counts through its old name)."""
    paths = sum(h.carries(p, "paths") or any(h.carries(a, "paths") for a in aliases) for p in q.paths)
    return (
        sum(h.carries(t, "tickets") for t in q.tickets)
        + paths
        + sum(h.carries(r, "routes") for r in q.routes)
    )


def _current_word(h: Hit, pool: list[Hit]) -> list[Hit]:
    """What memory holds as the current word on a record that cannot support an answer itself: the end
    of its supersession chain, or — for an unconfirmed guess — a person's current decision on the same
    tickets. Untrusted text leads nowhere (it never steers what is cited)."""
    if not h.trusted:
        return []
    by_id = {p.id: p for p in pool}
    out: list[Hit] = []
    end, seen = h, {h.id}
    while not end.current and end.superseded_by in by_id and end.superseded_by not in seen:
        end = by_id[end.superseded_by]
        seen.add(end.id)
    if end is not h and _usable(end):
        out.append(end)
    claim = h.fields.get("claim", "").strip()
    if claim in UNSETTLED:
        # settled by a person's record on the same tickets that states what the guess guessed (a guess
        # about a file is settled by a decision naming a file, not by a note that only cites the ticket;
        # a symptom by a person's record of its ticket's cause)
        tickets = set(h.values("tickets"))
        symptom = claim == "symptom"
        guessed = [] if symptom else [k for k in ("paths", "routes") if h.values(k)]
        out += [p for p in pool if _usable(p) and p.layer == "user_authored_decision"
                and tickets & set(p.values("tickets")) and all(p.values(k) for k in guessed)
                and (not symptom or "root cause" in _claims_of(p))]  # fmt: skip
    return out


def overruling(h: Hit, pool: list[Hit]) -> list[Hit]:
    """A person's current records on the agent record's tickets that state another bug state."""
    state = h.fields.get("bug_status", "").strip()
    return [
        p
        for p in pool
        if _usable(p)
        and p.layer == "user_authored_decision"
        and p.fields.get("bug_status", "").strip() not in ("", state)
        and set(h.values("tickets")) & set(p.values("tickets"))
    ]


def contested(pool: list[Hit]) -> set[str]:
    """An agent's current record whose bug state differs from a person's current record on the same
    ticket, and that replaced nothing: memory records a change of state by replacing the record of the
    state before (a fix verification supersedes the report, a regression the fix), so a summary saying
    "looks resolved" beside a person's standing "open" is a claim against the person's word, not a state."""
    return {
        h.id
        for h in pool
        if h.fields.get("bug_status", "").strip()
        and h.layer != "user_authored_decision"
        and not h.fields.get("supersedes", "").strip()
        and overruling(h, pool)
    }


def _replaced_subject(q: Question, topical: list[Hit], pool: list[Hit], aliases: dict[str, str]) -> list[Hit]:
    """The records carrying the most of what the question names are its subject. When none of them can
    support an answer (superseded, an unconfirmed guess) and no usable record carries as much, the
    question is answered by what replaced them — a decision that overruled a summary, a fix that closed
    a report — not by a record that matches less of it."""
    score = {h.id: _named_score(q, h, aliases) for h in topical}
    top = max(score.values(), default=0)
    if top == 0:
        return []
    subject = [h for h in topical if score[h.id] == top]
    if any(_usable(h) for h in subject):
        return []
    out: list[Hit] = []
    for h in subject:
        # the next hand-over note replaces the last one, not what it said about what is named: a
        # successor answers when it is still about it (it carries what is named, or shares a ticket)
        out += [r for r in _current_word(h, pool) if r not in out and _still_about(q, h, r, aliases)]
    return out


def _still_about(q: Question, old: Hit, new: Hit, aliases: dict[str, str]) -> bool:
    tickets = set(old.values("tickets"))
    return bool(_named_score(q, new, aliases) or not tickets or tickets & set(new.values("tickets")))


def _closest(q: Question, pool: list[Hit], close: set[str]) -> Hit | None:
    """The record a question naming no ticket or path is about: the closest, if it stands out (`close`)."""
    scored = [h for h in pool if h.similarity is not None]
    if q.tickets or q.paths or not scored:
        return None
    top = max(scored, key=lambda h: h.similarity or 0.0)
    return top if top.id in close else None


def _replaced_closest(q: Question, pool: list[Hit], top: Hit | None) -> list[Hit]:
    """A question naming no ticket or path that is far closer to one record than to the rest is about
    that record; when a person has since replaced it (a withdrawn lesson, an overruled guess), the
    person's record is the current word on it. `top` is that record (`_closest`)."""
    if top is None or _usable(top) or not top.trusted:
        return []

    # the question's own constraints (a version, a date) still hold for the record that answers; what
    # settles a guess or a symptom is a person's word, what replaced a state is the state since
    # ("is the double posting fixed now? a retest said so" → the regression that superseded that retest)
    asks_state = bool(_state_labels(pool) & _named_labels(q, pool))

    def fits(r: Hit) -> bool:
        return (
            (r.layer == "user_authored_decision" or (asks_state and not top.current))
            and all(r.carries_version(v) for v in q.versions)
            and all(rg.contains(r.day) for rg in q.ranges)
        )  # fmt: skip

    word = [r for r in _current_word(top, pool) if fits(r)]
    if word or not top.trusted:
        return word
    # what replaced it is no person's word (a report closed by a fix that later regressed): a person's
    # current record that memory says rests on that very record (its provenance) is the word on it
    return [p for p in pool if _usable(p) and fits(p) and top.id in p.values("provenance")]


def decide(q: Question, pool: list[Hit]) -> dict[str, Any]:
    """The structured answer (the arguments of `submit_answer`) from what the tools showed. A question
    asking about several tickets ("which of BH-246 and BH-264 was won't-fix, and which file was the
    other one's fault?") is answered ticket by ticket, each part citing its own record, when memory
    answers every part; a record that lists them all (a daily note, a hand-over) only mentions each."""
    resolve_named(q, pool)
    if len(q.tickets) > 1:
        joined = _joined([_answer(replace(q, tickets=[t]), pool) for t in q.tickets])
        if joined:
            return joined
    return _answer(q, pool)


def _joined(parts: list[dict[str, Any]]) -> dict[str, Any] | None:
    """One answer from the answers to the parts of a question, when memory answers every part and they
    cite more than one record between them; else None."""
    cited = list(dict.fromkeys(i for a in parts for i in a["evidence_ids"]))
    if any(a["no_match"] for a in parts) or len(cited) < 2:
        return None
    layers = [a["support_layer"] for a in parts]
    return dict(answer=" ".join(dict.fromkeys(a["answer"] for a in parts)), evidence_ids=cited,
                support_layer="user_authored_decision" if "user_authored_decision" in layers else layers[0],
                no_match=False, fresh_inspection_requested=False,
                superseded_ids=sorted({i for a in parts for i in a["superseded_ids"]}),
                claims=parts[0]["claims"])  # fmt: skip


def _answer(q: Question, pool: list[Hit]) -> dict[str, Any]:
    field_name, ids = q.topic()
    aliases = _aliases(q, pool) if field_name == "paths" else {}
    readable = readable_share(q, pool) >= READABLE_SHARE
    close = _standing_out(pool)
    topical, scored = _topical(q, pool, aliases, readable, close)
    flagged = sorted({h.id for h in topical if not h.current})
    closest = _closest(q, pool, close)
    # (when the records of a later patch release are the topic, the question tests the version it names:
    # what replaced the closest record on that version does not answer it)
    patched = bool(q.versions and topical) and all(h.patch_of(v) for h in topical for v in q.versions)
    replaced = _replaced_subject(q, topical, pool, aliases) or (
        [] if patched else _replaced_closest(q, pool, closest)
    )
    if replaced:
        flagged = sorted(
            {*flagged, *(h.id for h in pool if not h.current and h.superseded_by in {r.id for r in replaced})}
        )
    if not replaced and closest is not None and closest.current and closest.trusted and not _usable(closest):
        # the question is about an unconfirmed guess or a symptom no one has settled ("do we know yet
        # what's making the button do nothing?"): memory holds no answer, whatever else is near it
        kind = closest.fields.get("claim", "").strip()
        return _no_match(
            f"The record closest to the question, {closest.id}, is a {kind} nothing settles.", flagged
        )
    disputed = contested(pool)
    usable = [h for h in replaced or topical if (replaced or _usable(h)) and h.id not in disputed]
    # an agent's claim against a person's standing record is on topic: the question checks that claim
    overruled = bool(disputed & {h.id for h in topical})
    if overruled and not usable:
        # what is asked about is an agent's claim against a person's standing record on its ticket ("the
        # summary says it was fixed in 1.5 — is that right?"): the person's record is the current word,
        # whatever version or day the claim named
        usable = [p for h in topical if h.id in disputed for p in overruling(h, pool)]
        usable = list({h.id: h for h in usable}.values())
        if not usable:
            d = next(h for h in topical if h.id in disputed)
            return _no_match(f"{d.id} states a bug state a person's current record on it does not.", flagged)
    if not usable:
        named = ", ".join([*ids, *q.versions, *(r.text for r in q.ranges)]) or "the question"
        return _no_match(f"No current, trusted memory item is about {named}.", flagged)
    wanted = _named_labels(q, pool)
    if asks_file_now(q):
        # "which file should I open now?": the file is asked, not a bug state
        wanted -= _state_labels(pool)
    known = {*ids, *aliases}
    of_day = _of_named_day(q, pool)
    unreadable = not readable
    rested_on: dict[str, int] = {}
    for h in pool:
        if h.trusted:  # a later record replaced since still rested on it
            for src in set(h.values("provenance")):
                rested_on[src] = rested_on.get(src, 0) + 1

    # (a question naming a kind of record besides a state asks for that record: "which tickets did the
    # release note fix?")
    asked_all = _asked_labels(q, pool)
    asked_labels = asked_all & wanted
    asks_state = bool(asked_labels) and asked_labels <= _state_labels(pool)

    def rank(h: Hit) -> tuple[Any, ...]:
        # most identifiers asked, fewest not asked (a daily note about four tickets is less about one),
        # the kind of record the question names, a person's decision, then closeness in meaning
        extra = _extra(h, field_name, known) if ids else 0
        on_day = any(r.contains(h.day) for r in q.ranges) or h.id in of_day
        # a question in words memory does not use is as close to one record as to the next: there, what
        # memory's own records rest on (provenance) is its established word, before closeness
        linked = rested_on.get(h.id, 0) if unreadable else 0
        person = h.layer == "user_authored_decision"
        # Among what replaced the records on what is named, a person's word comes first: a decision
        # naming another file than the guess did is the answer to "was it confirmed, or something else?"
        # So does a person's record among the later patch releases a question on a version is answered by.
        patch = bool(q.versions) and not all(h.carries_version(v) for v in q.versions)
        first = person if replaced or patch else False
        # a question naming a bug state ("is it still open?") asks the ticket's state now: a record of a
        # state answers it before a cause or a plan does
        state = bool(asks_state and h.values("bug_status"))
        return (scored[h.id], first, -extra, bool(wanted & _labels(h, pool)), state, on_day, person,
                person and "decision" in h.values("kind"), linked, h.similarity or 0.0, -h.rank)  # fmt: skip

    if ids and not replaced:
        # An item that names the asked identifier among others of its kind (a hand-over note listing four
        # tickets) mentions it; it answers only a question that names what kind of record it is.
        # A record that replaced one about it (the decision that superseded the guess it names) is about it.
        replaced_ids = {h.id for h in topical if h.superseded_by}
        specific = [h for h in usable if not _extra(h, field_name, known) or wanted & _labels(h, pool)
                    or h.fields.get("supersedes", "").strip() in replaced_ids]  # fmt: skip
        if not specific:
            return _no_match(f"Memory only mentions {', '.join(ids)} among other things.", flagged)
        usable = specific
    best = max(usable, key=rank)
    # (with a point in time named by a version or a path, a date dates that point: "before 1.4.1 went
    # out on 24 March" asks about what came before the release, not about the 24th)
    asked_ranges = [] if q.anchors else q.asked_ranges
    if overruled:
        # a day alone names the claim's record ("the April 2 summary"); a period ("since 16 April") is asked
        asked_ranges = [r for r in asked_ranges if r.since != r.until]
    if asked_ranges and not any(r.contains(h.day) for h in usable for r in asked_ranges) and not of_day:
        # a question about a time ("since April 10th?", "3月25日之前，…复测过吗？") with no record on what
        # it names from then: memory holds nothing about that time
        when = ", ".join(r.text for r in asked_ranges)
        return _no_match(
            f"No record on this is from {when}; the latest, {best.id}, is of {best.day}.", flagged
        )
    constraints = bool(ids) + bool(q.versions) + bool(q.ranges)
    if unreadable and constraints < 2 and best.layer != "user_authored_decision":
        # Only the identifier is understood: a cause, a status and a plan about it are all on topic, so only
        # a person's word on it, or a record pinned by two things named (a ticket and a version), answers.
        return _no_match(
            f"Which of memory's records on {', '.join(ids) or 'this'} is asked is unclear.", flagged
        )
    # (a state named in a sentence before the asking one is a claim being checked: "a comment says BH-253
    # was fixed in 1.6.1. Can we close it?" is answered by the record that says it is still open)
    states = _state_labels(pool) & asked_labels
    own = _state_of(best)
    # ... unless the record it holds replaced one in the asked state, and the question does not name that
    # record's kind: "is it still open?" is answered by the fix that closed the report; "which release
    # fixed the regression?" knows of the regression and asks for a fix after it
    left = _left_state(best, states, pool) and not wanted & _kinds_of(best)
    if states and own and not states & own and not overruled and not left:
        # the question takes a bug state as given ("which release fixed …") that the current record on it
        # does not hold: memory cannot confirm what is asked, only that the state differs
        return _no_match(
            f"{best.id} records {', '.join(sorted(own))}, not {', '.join(sorted(states))}.", flagged
        )
    kinds = _asked_kinds(q, pool, asked_all)
    if kinds and not any(kinds & _claims_of(h) for h in usable):
        # the asking sentence wants a kind of statement memory makes elsewhere ("what's the root cause?")
        # and no current record on what it names makes one: the records there say something else (a
        # sentence before it may name the kind of record a claim came from: "the summary says …")
        return _no_match(f"No current record on this states a {', '.join(sorted(kinds))}.", flagged)
    if best.fields.get("bug_status", "").strip() == "needs_retest":
        return _no_match(f"{best.id} says a retest is due, so the recorded state no longer holds.", flagged)
    # A retest is due on a page of an app version: a question that names that page or that version is
    # about what one sees there now. A question naming only the ticket may ask its cause or its decision,
    # which a retest-due note does not undo.
    due = [h for h in usable if h.fields.get("bug_status", "").strip() == "needs_retest"
           and ({*h.values("routes")} & {*q.routes} or {*h.values("app_version")} & {*q.versions})]  # fmt: skip
    if (
        due
        and not wanted & _labels(best, pool)
        and max(d.similarity or 0.0 for d in due) >= (best.similarity or 0.0)
    ):
        # memory says the live state there must be inspected again, and that is at least as close to the
        # question as the best other item: unless the question names what it wants, it asks the live state
        return _no_match(f"{due[0].id} says a retest is due, so the recorded state no longer holds.", flagged)
    later_claims = [h for h in pool if not h.trusted and h.day >= best.day
                    and best.similarity is not None and (h.similarity or 0.0) >= best.similarity
                    and set(h.values("tickets")) & set(best.values("tickets")) & set(ids)]  # fmt: skip
    agents_word = best.layer != "user_authored_decision"
    if later_claims and agents_word and best.values("bug_status") and not q.versions and not kinds:
        # the question is closer to untrusted text on the ticket (a comment saying it was fixed) than to
        # memory's own last word on its state, an observation no person has decided on, and that text is
        # as new or newer: the question checks the claim, memory can neither confirm nor refute it, and
        # the page must be looked at
        return _no_match(
            f"{best.id} is memory's last trusted word on this; {later_claims[0].id}, untrusted, is as recent.",
            flagged,
        )
    cited = [best]
    days = [r for r in q.ranges if r.since is not None and r.since == r.until]
    if days and not ids and not q.versions and wanted & _labels(best, pool) and best.id not in close:
        # a day named with a kind of record and nothing else ("the root causes decided at the 18 March
        # triage"): every record of that kind from that day answers, not only the closest one (one that
        # stands out close to the question is what it asks about: "the root cause found that day for the
        # feed's duplicate article")
        day_kinds = wanted & _labels(best, pool)
        same = [h for h in usable if h is not best and day_kinds <= _labels(h, pool)
                and any(r.contains(h.day) for r in days) and best.day == h.day]  # fmt: skip
        cited = [best, *sorted(same, key=rank, reverse=True)]
    if q.versions and best.layer != "user_authored_decision" and all(best.patch_of(v) for v in q.versions):
        # the asked version is what the question tests, and a later patch release answers: the person's
        # record of that release on the ticket (a release note listing it) is cited beside the verification
        release = [h for h in pool if _usable(h) and h.layer == "user_authored_decision"
                   and set(h.values("app_version")) & set(best.values("app_version"))
                   and set(h.values("tickets")) & set(best.values("tickets"))]  # fmt: skip
        cited = [max(release, key=rank), best] if release else cited
    notes = [h for h in usable if h.id in aliases.values()]
    about_old = [h for h in usable if h not in notes and any(h.carries(a, "paths") for a in aliases)]
    if notes and about_old and (best in notes or best in about_old):
        # memory links the asked path to an older one: cite the rename note and the item about the old path,
        # from the rename's own line of work (its workflow) before one that only lists the file (a release)
        def same_work(h: Hit) -> bool:
            return bool(set(h.values("workflow")) & set(notes[0].values("workflow")))

        old = (
            best
            if best in about_old and same_work(best)
            else max(about_old, key=lambda h: (same_work(h), rank(h)))
        )
        cited = [notes[0], old]
    renamed = renamed_since(q, best, pool) if cited == [best] and asks_file_now(q) else None
    if renamed is not None:
        # "which file should I open": the record names the file as it was; a later rename note says
        # what it is called now, and both are the answer
        cited = [renamed, best]
    if len(cited) == 1:
        # one question asking two things of one ticket ("what was its cause, and has the fix been confirmed
        # since?"): a claim the asking sentence asks that the answer does not make is taken from the best
        # current record on the same ticket that makes it (a bug state it names is not: "was the fix in
        # 1.5?" is answered by the release note alone)
        tickets = set(best.values("tickets"))
        for lab in sorted(kinds - _claims_of(best)):
            more = [h for h in usable if h not in cited and lab in _claims_of(h)
                    and tickets and set(h.values("tickets")) == tickets]  # fmt: skip
            if more:
                cited.append(max(more, key=rank))
    layer = (
        "user_authored_decision" if any(h.layer == "user_authored_decision" for h in cited) else best.layer
    )
    text = " ".join(f"{h.content} (memory item {h.id}, {h.layer}, {h.day})" for h in cited)
    claims = _claims(q, cited)
    if renamed is not None:
        now = [p for p in renamed.values("paths") if p != renamed.fields.get("renamed_from", "").strip()]
        if now:
            claims["path"] = now[0]
    return dict(answer=text, evidence_ids=[h.id for h in cited], support_layer=layer, no_match=False,
                fresh_inspection_requested=False, superseded_ids=flagged, claims=claims)  # fmt: skip


# -- the tool calls -------------------------------------------------------------------------------
def _calls(msgs: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (c.name, {k: v for k, v in c.arguments.items() if k != "request_heartbeat"})
        for m in msgs
        if m.role == "assistant"
        for c in m.tool_calls
    ]


def _day_bounds(r: DayRange) -> dict[str, str]:
    out = {}
    if r.since:
        out["since"] = datetime.combine(r.since, time.min).isoformat()
    if r.until:
        out["until"] = r.until.isoformat()
    return out


def plan(q: Question, pool: list[Hit]) -> list[tuple[str, dict[str, Any]]]:
    """The calls to make: exact lookups first (ordered by similarity to the question, every page), then
    the ranked search, the question narrowed to each date range, and lookups of renamed paths."""
    wanted: list[tuple[str, dict[str, Any]]] = []
    for i in (*q.tickets, *q.paths, *q.routes, *q.versions, *_aliases(q, pool), *(a[2] for a in q.anchors)):
        wanted += [
            (LOOKUP, {"text": i, "query": q.words, **({"page": n} if n else {})}) for n in range(LOOKUP_PAGES)
        ]
    wanted += [(SEARCH, {"query": q.words, **({"page": n} if n else {})}) for n in range(SEARCH_PAGES)]
    if CJK.search(q.text):
        # memory's vocabulary, for reading the question in its words: the text's own search, further
        wanted += [(SEARCH, {"query": q.text, **({"page": n} if n else {})}) for n in range(VOCABULARY_PAGES)]
    # a file named without its directory: memory's records of it show its full path
    wanted += [(SEARCH, {"query": n}) for n in file_names(q)]
    wanted += [(SEARCH, {"query": q.words, **_day_bounds(r)}) for r in q.ranges if _day_bounds(r)]
    # what replaced a record about what is named, and a person's word on the tickets of a guess about it
    follow: list[str] = []
    # (a replaced record of a kind the question names leads on too: "the latest hand-over note" is at the
    # end of the chain of hand-overs; a claim or a state named is not a kind of record)
    kinds = _named_labels(q, pool)
    for h in pool:
        if h.trusted and not _usable(h) and (_named_score(q, h, {}) or kinds & _kinds_of(h)):
            nxt = [h.superseded_by] if h.superseded_by else []
            if h.fields.get("claim", "").strip() in UNSETTLED:
                nxt += h.values("tickets")
            follow += [x for x in nxt if x not in follow and x not in q.tickets]
    wanted += [
        (LOOKUP, {"text": x, "query": q.words, **({"page": n} if n else {})})
        for x in follow[:FOLLOW_UPS]
        for n in range(LOOKUP_PAGES)
    ]
    if asks_file_now(q):
        # the files the records about what is named carry: memory's rename notes name them too
        carried: list[str] = []
        for h in pool:
            if h.current and h.trusted and _named_score(q, h, {}):
                carried += [p for p in h.values("paths") if p not in carried]
        wanted += [(LOOKUP, {"text": p, "query": q.words}) for p in carried[:FOLLOW_UPS]]
    unique: list[tuple[str, dict[str, Any]]] = []
    for call in wanted:  # the reading is the text itself until the first results come (Chinese pages 0-2)
        if call not in unique:
            unique.append(call)
    return unique


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


def read_in_memory_words(text: str, shown: list[tuple[dict[str, Any], str]]) -> str:
    """A Chinese question in the words of the records its first searches showed (`evals.gloss`), or ""
    for a question memory's language reads as it is. Only the first round's results (those searched by
    the text itself) give the vocabulary, so the reading stays one through the later rounds."""
    if not CJK.search(text):
        return ""
    first = [h for args, content in shown if args.get("query") == text for h in parse_hits(content)]
    if not first:
        return ""
    vocab = [w for h in first for part in (h.content, *h.fields.values()) for w in _WORD.findall(part)]
    kinds = {v for h in first for v in h.values("kind")}
    return gloss(text, vocab, kinds).text


def baseline_reply(request: ModelRequest) -> ModelResponse:
    """One step of the baseline: look up, search, follow what the results point to, then answer."""
    msgs = request.messages
    start = max(i for i, m in enumerate(msgs) if m.role == "user")
    text = msgs[start].text
    after = msgs[start + 1 :]
    results = [r for m in after if m.role == "tool" for r in m.tool_results_parts]
    if any(r.name == "submit_answer" for r in results):
        return response(model="baseline")  # answered: end the turn
    done = _calls(after)
    shown = [(args, r.content) for (name, args), r in zip(done, results, strict=False)
             if not r.is_error and name in (SEARCH, LOOKUP)]  # fmt: skip
    reading = read_in_memory_words(text, shown)
    pool = gather(shown, reading or text)
    # A date without a year is read in the year of the newest memory seen.
    base = datetime.combine(max((h.day for h in pool), default=date.today()) + timedelta(days=1), time.min)
    q = read_question(text, base)
    q.reading = reading
    resolve_named(q, pool)
    rounds = sum(m.role == "assistant" for m in after)
    todo = [(n, a) for n, a in plan(q, pool) if (n, a) not in done]
    if todo and rounds < MAX_ROUNDS:
        return response(*(tool_call(n, **a, request_heartbeat=True) for n, a in todo), model="baseline")
    return response(tool_call("submit_answer", **decide(q, pool)), model="baseline")
