"""The baseline as a `FunctionModel` reply: look up what the question names, search, follow what the
results point to (at most `MAX_ROUNDS` rounds of calls), then submit the answer `decide` gives."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from evals.baseline.answer import decide
from evals.baseline.hits import LOOKUP, SEARCH, UNSETTLED, Hit, can_support, gather
from evals.baseline.question import (
    Question,
    asks_file_now,
    file_names,
    named_score,
    read_question,
    renamed_aliases,
    resolve_named,
)
from evals.baseline.reading import kinds_of, named_labels, read_in_memory_words
from evals.dates import DayRange
from evals.gloss import CJK
from memgpt_lite.messages import ModelRequest, ModelResponse
from memgpt_lite.testing import response, tool_call

VOCABULARY_PAGES = 10
"""Pages of a Chinese question's own search read for memory's vocabulary (`read_in_memory_words`)."""
LOOKUP_PAGES = 2
SEARCH_PAGES = 3
MAX_ROUNDS = 5
FOLLOW_UPS = 6
"""Lookups of what replaced, or settled, the records about what the question names (bounded)."""


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
    for i in (
        *q.tickets,
        *q.paths,
        *q.routes,
        *q.versions,
        *renamed_aliases(q, pool),
        *(a[2] for a in q.anchors),
    ):
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
    kinds = named_labels(q, pool)
    for h in pool:
        if h.trusted and not can_support(h) and (named_score(q, h, {}) or kinds & kinds_of(h)):
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
            if h.current and h.trusted and named_score(q, h, {}):
                carried += [p for p in h.values("paths") if p not in carried]
        wanted += [(LOOKUP, {"text": p, "query": q.words}) for p in carried[:FOLLOW_UPS]]
    unique: list[tuple[str, dict[str, Any]]] = []
    for call in wanted:  # the reading is the text itself until the first results come (Chinese pages 0-2)
        if call not in unique:
            unique.append(call)
    return unique


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
