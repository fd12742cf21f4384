"""The offline `baseline` agent of layer 2: a deterministic, non-LLM reader of memgpt_lite's memory tools.

It receives the question only and works like a careful person with the same tools an LLM agent has:
it calls `archival_memory_search` (the question, then each ticket, path, route or page name the question
names, the question narrowed to the claim label or record kind it asks for, and to the dates it names),
reads the tool's *text* — status, superseded_by, structured fields and provenance per hit — and submits
an answer through `submit_answer`. It never sees a case, an expected id or the evaluator's rule (layer 1's
`evals/sufficiency.py` judges retrieval and shares no code with this module). Its rules are general:

1. A yes/no question about the live state ("does it still…", "is it currently…") asks about the app
   now: memory records the past, so it asks for a fresh inspection.
2. A question about an app version no remembered item is about cannot be answered from memory.
3. Only current items support an answer; superseded items on the same topic are flagged as history.
4. The cited item must name what the question names: its ticket, else its file path, else its
   route or page name (page names are linked to routes and tickets by glosses memory itself holds,
   such as "Invoice page 2 (/invoices/2)" or "OPS-7 (Invoice page 2 …)"), else its date.
5. Why/cause questions need a root-cause item: a symptom note is not one, a person's recorded
   decision beats an agent's inference, and a hedged agent guess ("probably", "unconfirmed") is no
   support. Status questions need a status item, and one that says a retest is due is no answer.
   Questions for a rule or procedure need guidance; a question naming a kind of record (a
   "hand-over note", a "daily note") needs that kind, the latest one if it says so.
6. Nothing current and specific left → `no_match` with a request for fresh inspection.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from memgpt_lite.messages import Message, ModelRequest, ModelResponse
from memgpt_lite.testing import response, tool_call

SEARCH = "archival_memory_search"
MAX_FOLLOW_UPS = 8

_HEAD = re.compile(
    r"^\[(?P<date>\d{4}-\d{2}-\d{2}) \d{2}:\d{2} id=(?P<id>\S+) importance=\d+"
    r"(?: tags=(?P<tags>\S+))?(?: status=(?P<status>\w+))?(?: superseded_by=(?P<by>\S+))?\] (?P<content>.*)$"
)
_FIELD = re.compile(r"(?:^|; )(?P<key>[A-Za-z_][\w-]*)=")


@dataclass
class Hit:
    """One archival hit as the tool printed it."""

    id: str
    day: date
    content: str
    status: str = "current"
    superseded_by: str | None = None
    tags: list[str] = field(default_factory=list)
    fields: dict[str, str] = field(default_factory=dict)
    rank: int = 0
    """Position in the first search that returned it, counting searches in the order they ran."""

    def values(self, key: str) -> list[str]:
        raw = self.fields.get(key, "")
        return [v.strip() for v in raw.split(",") if v.strip()]

    @property
    def current(self) -> bool:
        return self.status != "superseded"

    @property
    def labels(self) -> set[str]:
        """What kind of record this is: its claim and kind fields and its tags, normalised."""
        return {_norm(x) for x in (*self.tags, *self.values("claim"), *self.values("kind"))}

    @property
    def layer(self) -> str:
        stated = self.fields.get("support_layer", "")
        if stated in ("user_authored_decision", "agent_inferred_summary"):
            return stated
        return "user_authored_decision" if "user_authored_decision" in self.tags else "agent_inferred_summary"


def _norm(label: str) -> str:
    return re.sub(r"[^a-z0-9]", "", label.lower())


def parse_hits(text: str) -> list[Hit]:
    """The hits of one `archival_memory_search` result, with the indented field line under each."""
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
                )  # fmt: skip
            )
        elif line.startswith("  ") and hits:
            body = line.strip()
            keys = list(_FIELD.finditer(body))
            for k, nxt in zip(keys, [*keys[1:], None], strict=True):
                end = nxt.start() if nxt else len(body)
                hits[-1].fields[k["key"]] = body[k.end() : end]
    return hits


# -- the question ---------------------------------------------------------------------------------
_TICKET = re.compile(r"\b[A-Z][A-Z0-9]+-\d+\b")
_PATH = re.compile(r"(?<![\w/])[\w.-]+(?:/[\w.-]+)+\.[A-Za-z]\w*\b")
_ROUTE = re.compile(r"(?<![\w./])/[a-z0-9][\w/-]*", re.IGNORECASE)
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_VERSION = re.compile(r"\b(?:app|version|release|v)\s*(\d+\.\d+(?:\.\d+)?)\b", re.IGNORECASE)
_LIVE_START = re.compile(r"^\s*(?:does|do|is|are|has|have|can|will)\b", re.IGNORECASE)
_LIVE_WORD = re.compile(
    r"\b(?:still|currently|now|any ?more|today|at the moment|current app)\b", re.IGNORECASE
)
_CAUSE = re.compile(r"\b(?:why|caus(?:e|ed|es|ing)|root[- ]?cause)\b", re.IGNORECASE)
_STATUS = re.compile(r"\b(?:status|fixed|resolved)\b", re.IGNORECASE)
_GUIDANCE = re.compile(
    r"\b(?:how (?:should|do|can|must) (?:i|we)|procedure|rule|guideline|should i|must i|best practice)\b",
    re.IGNORECASE,
)
_LATEST = re.compile(r"\b(?:latest|last|most recent|newest)\b", re.IGNORECASE)
_HEDGE = re.compile(r"\b(?:probably|suspect(?:ed)?|unconfirmed|maybe|might|possibly|guess)\b", re.IGNORECASE)
_RETEST = re.compile(r"needs?[ _]a?[ _]?retest|retest[ _]due|needs_retest", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][\w#'-]*|\d+(?:\.\d+)*")
_STOP = frozenset(
    "a an the of to in on at for and or but is are was were be been do does did what which who whom why how "
    "when where that this these those it its with by from about into i we you my our your me us should must "
    "can could would will has have had not no yes there their they them any some than then so as if".split()
)
# Which claim label an intent needs, as stored labels are normalised by `_norm`.
INTENT_LABEL = {"cause": "rootcause", "status": "status", "guidance": "guidance"}


@dataclass
class Question:
    text: str
    tickets: list[str]
    paths: list[str]
    routes: list[str]
    phrases: list[str]
    dates: list[str]
    versions: list[str]
    intent: str
    live_state: bool
    latest: bool

    @property
    def words(self) -> set[str]:
        return _content_words(self.text)


def _content_words(text: str) -> set[str]:
    return {w.lower()[:5] for w in _WORD.findall(text) if len(w) > 2 and w.lower() not in _STOP}


def _phrases(text: str) -> list[str]:
    """Names in the question: runs of capitalised words (and numbers), a run ending after "page N".
    A lone capitalised word opening a sentence is grammar, not a name."""
    out: list[str] = []
    for sentence in re.split(r"(?<=[.?!])\s+", text):
        toks = [t for t in _WORD.finditer(sentence)]
        i = 0
        while i < len(toks):
            t = toks[i].group()
            if not t[0].isupper() or _TICKET.fullmatch(t) or t.lower() in _STOP:
                i += 1
                continue
            run, j = [t], i + 1
            while j < len(toks):
                nxt = toks[j].group()
                if nxt.lower() == "page":
                    run.append(nxt)
                    if j + 1 < len(toks) and toks[j + 1].group().isdigit():
                        run.append(toks[j + 1].group())
                        j += 1
                    j += 1
                    break
                if (nxt[0].isupper() and not _TICKET.fullmatch(nxt)) or nxt.isdigit():
                    run.append(nxt)
                    j += 1
                    continue
                break
            if not (i == 0 and len(run) == 1):
                out.append(" ".join(run))
            i = j
    return list(dict.fromkeys(out))


def read_question(text: str) -> Question:
    if _CAUSE.search(text):
        intent = "cause"
    elif _STATUS.search(text):
        intent = "status"
    elif _GUIDANCE.search(text):
        intent = "guidance"
    else:
        intent = "any"
    paths = list(dict.fromkeys(_PATH.findall(text)))
    return Question(
        text=text,
        tickets=list(dict.fromkeys(_TICKET.findall(text))),
        paths=paths,
        routes=[r for r in dict.fromkeys(_ROUTE.findall(text)) if not any(r in p for p in paths)],
        phrases=_phrases(text),
        dates=list(dict.fromkeys(_DATE.findall(text))),
        versions=list(dict.fromkeys(_VERSION.findall(text))),
        intent=intent,
        live_state=bool(_LIVE_START.search(text) and _LIVE_WORD.search(text)),
        latest=bool(_LATEST.search(text)),
    )


# -- reading the hits -----------------------------------------------------------------------------
def _mentions(text: str, term: str) -> bool:
    return re.search(rf"(?<![\w/]){re.escape(term)}(?![\w/])", text, re.IGNORECASE) is not None


def _names(hit: Hit, term: str, key: str) -> bool:
    return term in hit.values(key) or _mentions(hit.content, term)


def glosses(hits: list[Hit], phrase: str) -> set[str]:
    """Tickets and routes memory itself links to a page name: "Invoice page 2 (/invoices/2)" or
    "OPS-7 (Invoice page 2 wrong total)"."""
    out: set[str] = set()
    for h in hits:
        for m in re.finditer(rf"{re.escape(phrase)}\s*\((/[^)\s,;]*)", h.content, re.IGNORECASE):
            out.add(m[1])
        for m in re.finditer(r"\b([A-Z][A-Z0-9]+-\d+)\s*\(([^)]*)\)", h.content):
            if _mentions(m[2], phrase):
                out.add(m[1])
    return out


def topic_score(q: Question, hit: Hit, pool: list[Hit]) -> tuple[str, int]:
    """How many of the question's most specific identifiers the hit names, and which kind they are:
    tickets, else file paths, else routes and page names, else dates, else none."""
    if q.tickets:
        return "ticket", sum(_names(hit, t, "tickets") for t in q.tickets)
    if q.paths:
        return "path", sum(_names(hit, p, "paths") for p in q.paths)
    if q.routes or q.phrases:
        n = sum(_names(hit, r, "routes") for r in q.routes)
        for ph in q.phrases:
            aliases = glosses(pool, ph)
            named = _mentions(hit.content, ph) or any(
                _names(hit, a, "routes" if a.startswith("/") else "tickets") for a in aliases
            )
            n += named
        return "name", n
    if q.dates:
        days = {hit.day.isoformat(), hit.fields.get("date", "")[:10]}
        return "date", sum(d in days for d in q.dates)
    return "none", 0


def named_kinds(q: Question, pool: list[Hit]) -> set[str]:
    """Record kinds the question names ("hand-over note", "daily note"), from the kinds memory shows."""
    text = re.sub(r"(?<=\w)-(?=\w)", "", q.text.lower())
    kinds = {v for h in pool for v in (*h.values("kind"), *h.values("claim"))}
    return {_norm(k) for k in kinds if re.search(_kind_pattern(k), text)}


def _kind_pattern(kind: str) -> str:
    # A one-word kind also matches its other forms ("observation" / "observed"); a longer one as a phrase.
    words = kind.lower().replace("_", " ").split()
    if len(words) == 1 and len(words[0]) > 6:
        return rf"\b{re.escape(words[0][:6])}"
    return rf"\b{re.escape(' '.join(words))}s?\b"


def _admitted(q: Question, hit: Hit, kinds: set[str]) -> bool:
    if q.intent in INTENT_LABEL:
        return INTENT_LABEL[q.intent] in hit.labels
    if kinds:
        return bool(kinds & hit.labels)
    return True


def _on_topic(q: Question, hit: Hit, pool: list[Hit], kinds: set[str]) -> int:
    level, score = topic_score(q, hit, pool)
    if level != "none":
        return score
    if kinds:  # the kind of record it is answers "which one"
        return 1
    return len(q.words & _content_words(hit.content))


def known_versions(pool: list[Hit]) -> set[str]:
    out = {v for h in pool for v in h.values("app_version")}
    for h in pool:
        out.update(_VERSION.findall(h.content))
    return out


def decide(q: Question, pool: list[Hit]) -> dict[str, Any]:
    """The structured answer (the arguments of `submit_answer`) from what the searches showed."""
    kinds = named_kinds(q, pool) if q.intent == "any" else set()
    relevant = [h for h in pool if _admitted(q, h, kinds) and _on_topic(q, h, pool, kinds) > 0]
    superseded = [h.id for h in relevant if not h.current]
    anchored = [h for h in pool if topic_score(q, h, pool)[1] > 0]
    history = list(dict.fromkeys([*superseded, *(h.id for h in anchored if not h.current)]))

    def no_match(reason: str) -> dict[str, Any]:
        return dict(answer=f"{reason} Memory cannot answer this; inspect the app afresh.", evidence_ids=[],
                    support_layer="fresh_inspection_required", no_match=True,
                    fresh_inspection_requested=True, superseded_ids=history)  # fmt: skip

    if q.live_state:
        return no_match("The question asks about the live state of the app now; memory records the past.")
    unknown = [v for v in q.versions if v not in known_versions(pool)]
    if unknown:
        return no_match(f"Memory holds nothing about app {', '.join(unknown)}.")
    candidates = [h for h in relevant if h.current]
    if q.intent == "cause":
        # An agent's hedged guess is a hypothesis, not a cause anybody established.
        candidates = [
            h for h in candidates if h.layer == "user_authored_decision" or not _HEDGE.search(h.content)
        ]
    if not candidates:
        what = {"cause": "root-cause item", "status": "status item", "guidance": "guidance item"}
        return no_match(f"No current {what.get(q.intent, 'item')} names what the question asks about.")

    def key(h: Hit) -> tuple[Any, ...]:
        person = h.layer != "user_authored_decision"
        recency = -h.day.toordinal() if q.latest else 0
        spread = len(h.values("tickets"))
        score = -_on_topic(q, h, pool, kinds)
        if q.intent == "cause":
            return (person, score, recency, spread, h.rank)
        return (score, recency, person, spread, h.rank)

    best = min(candidates, key=key)
    if q.intent == "status" and (
        _RETEST.search(best.fields.get("bug_status", "")) or _RETEST.search(best.content)
    ):
        return no_match(f"{best.id} says a retest is due, so the recorded status no longer holds.")
    return dict(answer=f"{best.content} (memory item {best.id}, {best.layer}, {best.day})",
                evidence_ids=[best.id], support_layer=best.layer, no_match=False,
                fresh_inspection_requested=False, superseded_ids=history)  # fmt: skip


# -- the searches ---------------------------------------------------------------------------------
def plan_searches(q: Question, pool: list[Hit]) -> list[dict[str, Any]]:
    """Follow-up searches after reading what memory returned so far."""
    plan: list[dict[str, Any]] = [{"query": q.text, "page": 1}]
    terms = [*q.tickets, *q.paths, *q.routes]
    if not q.tickets and not q.paths:
        terms += q.phrases[:3]
    plan += [{"query": t} for t in terms[:5]]
    seen_tags = {t for h in pool for t in h.tags}
    wanted = {INTENT_LABEL[q.intent]} if q.intent in INTENT_LABEL else named_kinds(q, pool)
    plan += [{"query": q.text, "tags": [t]} for t in sorted(seen_tags) if _norm(t) in wanted]
    plan += [{"query": q.text, "since": d, "until": d} for d in q.dates[:2]]
    return plan[:MAX_FOLLOW_UPS]


def _call_args(msg: Message) -> list[dict[str, Any]]:
    return [
        {k: v for k, v in c.arguments.items() if k != "request_heartbeat"}
        for c in msg.tool_calls
        if c.name == SEARCH
    ]


def baseline_reply(request: ModelRequest) -> ModelResponse:
    """One step of the baseline: search, search again where the first results point, then answer."""
    msgs = request.messages
    start = max(i for i, m in enumerate(msgs) if m.role == "user")
    q = read_question(msgs[start].text)
    after = msgs[start + 1 :]
    results = [r for m in after if m.role == "tool" for r in m.tool_results_parts]
    if any(r.name == "submit_answer" for r in results):
        return response(model="baseline")  # answered: end the turn
    done = [a for m in after if m.role == "assistant" for a in _call_args(m)]
    if not done:
        return response(tool_call(SEARCH, query=q.text, request_heartbeat=True), model="baseline")
    pool: dict[str, Hit] = {}
    for r in results:
        if r.name == SEARCH and not r.is_error:
            for h in parse_hits(r.content):
                if h.id not in pool:
                    h.rank = len(pool)
                    pool[h.id] = h
    hits = list(pool.values())
    rounds = sum(m.role == "assistant" for m in after)
    todo = [a for a in plan_searches(q, hits) if a not in done]
    if todo and rounds < 3:
        calls = [tool_call(SEARCH, **a, request_heartbeat=True) for a in todo]
        return response(*calls, model="baseline")
    return response(tool_call("submit_answer", **decide(q, hits)), model="baseline")
