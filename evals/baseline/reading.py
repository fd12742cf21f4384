"""Reading a question in memory's own words: the labels memory uses (a record's kind, claim and bug
state) that the question writes out, how much of the question memory's records write at all, and a
Chinese question glossed into memory's vocabulary (`evals.gloss`)."""

from __future__ import annotations

import re
from typing import Any

from evals.baseline.hits import MIN_POOL, Hit, parse_hits
from evals.baseline.question import Question, asked_sentence
from evals.gloss import CJK, gloss, stem


def label_words(label: str) -> str:
    return " ".join(label.lower().replace("_", " ").split())


LABEL_FIELDS = ("claim", "kind", "bug_status")
"""The fields whose values name what a record is or says: its claim, its kind, the bug state it records."""


CAUSE = "cause"
_ASKS_WHY = re.compile(r"(?i)\bwhy\b|为什么|为何|怎么会")
"""A question asking why asks for a cause: read as if it wrote the word (a closed set of question words,
so a question asking why about something no record explains gets `no_match`, never a looser answer)."""


def named_labels(q: Question, pool: list[Hit], text: str | None = None) -> set[str]:
    """The record kinds, claim labels and bug states memory shows that the question (or one sentence of
    it) writes out ("daily note", "root cause", "release note", "fixed"): read from memory's own labels,
    not from a word list."""
    said = said_stems(q, q.words if text is None else text)
    return {lab for lab in pool_labels(pool) if " " + " ".join(stem(w) for w in lab.split()) + " " in said}


def pool_labels(pool: list[Hit]) -> set[str]:
    """Every kind, claim and bug state the records shown hold, as words."""
    return {label_words(v) for h in pool for k in LABEL_FIELDS for v in h.values(k)} - {""}


def said_stems(q: Question, text: str) -> str:
    """The text's words as stems, space-delimited, for matching labels: "the BH-272 fix" writes out the
    state "fixed", "regressed" the regression."""
    text = re.sub(r"(?<=\w)-(?=\w)", "", text.lower())
    # a word written against a version named as a point in time names that point ("since the 1.8.1
    # release"): it says since when, not what kind of record is asked
    for v in {i for _, k, i in q.anchors if k == "app_version"}:
        text = re.sub(rf"(?:\w+\s+)?(?<![\w.]){re.escape(v)}(?![\w.]|\.\d)(?:\s+\w+)?", " ", text)
    return " " + " ".join(stem(w) for w in WORD.findall(text)) + " "


def implied_claims(q: Question, pool: list[Hit]) -> set[str]:
    """Claims the asking sentence asks for without writing them out whole: a claim of several words by
    its last word when no other label ends so ("what caused it?" asks for a root cause), and a question
    asking why. Read only to find that no record makes the claim asked (`no_match`), never to widen what
    is on topic: a looser reading may only make the answer more careful."""
    text = asked_sentence(q.words)
    said = said_stems(q, text) + (f"{stem(CAUSE)} " if _ASKS_WHY.search(text) else "")
    heads: dict[str, set[str]] = {}
    for lab in pool_labels(pool):
        heads.setdefault(stem(lab.split()[-1]), set()).add(lab)
    claims = {c for h in pool for c in claims_of(h) if len(c.split()) > 1}
    return {lab for head, labs in heads.items() if len(labs) == 1 and f" {head} " in said
            for lab in labs & claims}  # fmt: skip


def claims_of(h: Hit) -> set[str]:
    return {label_words(v) for v in h.values("claim")}


def kinds_of(h: Hit) -> set[str]:
    return {label_words(v) for v in h.values("kind")}


def asking_labels(q: Question, pool: list[Hit]) -> set[str]:
    """The labels memory uses that the asking sentence writes out (a sentence before it sets the scene)."""
    return named_labels(q, pool, asked_sentence(q.words))


def asked_claims(q: Question, pool: list[Hit], asked: set[str]) -> set[str]:
    """The claim labels memory uses that the asking sentence writes out (`asked`: "what's the root
    cause?") or implies (`implied_claims`)."""
    return {c for h in pool for c in claims_of(h)} & asked | implied_claims(q, pool)


def state_of(h: Hit) -> set[str]:
    """The bug state a record holds ("open", "fixed"), as words."""
    return {label_words(v) for v in h.values("bug_status")}


def state_labels(pool: list[Hit]) -> set[str]:
    """The bug states memory's records hold, as words."""
    return {s for h in pool for s in state_of(h)}


def labels_of(h: Hit, pool: list[Hit]) -> set[str]:
    """A hit's kind, claim and bug state, and the kind and claim of the item it replaces (a retraction
    of a lesson is the current word on that lesson; a fix replacing a report is not "open")."""
    own = {label_words(v) for k in LABEL_FIELDS for v in h.values(k)}
    replaced = h.fields.get("supersedes", "").strip()
    for old in pool:
        if replaced and old.id == replaced:
            own |= {label_words(v) for v in (*old.values("claim"), *old.values("kind"))}
    return own


READABLE_SHARE = 0.5
"""Below this share of its words (identifiers aside) found in what memory showed, a question is read by
its identifiers only."""
WORD = re.compile(r"\w+")


def readable_share(q: Question, pool: list[Hit]) -> float:
    """How many of the question's words, identifiers and dates aside, memory's own records also use.
    A question in another language than memory's (Chinese to English records) shares almost none, so
    nothing but its identifiers says what kind of answer it wants. No word list: the vocabulary is the
    records'."""
    text = q.text
    for ident in (*q.tickets, *q.paths, *q.routes, *q.versions, *(r.text for r in q.ranges)):
        text = text.replace(ident, " ")
    # Chinese words count as read when the dictionary gives one a sense memory's words write (`gloss`)
    vocab = [w.lower() for h in pool for w in WORD.findall(h.content)]
    chinese = gloss(text, vocab) if len(pool) >= MIN_POOL else None
    words = [w.lower() for w in WORD.findall(CJK.sub(" ", text)) if not w.isdigit()]
    total = len(words) + (chinese.words if chinese else 0)
    if not total or len(pool) < MIN_POOL:
        return 1.0  # nothing to read, or too little of memory's text to judge by
    # as stems, as labels and glosses are matched: "retested" is read where memory writes "retest"
    known = {stem(w) for w in vocab}
    return (sum(stem(w) in known for w in words) + (chinese.understood if chinese else 0)) / total


def read_in_memory_words(text: str, shown: list[tuple[dict[str, Any], str]]) -> str:
    """A Chinese question in the words of the records its first searches showed (`evals.gloss`), or ""
    for a question memory's language reads as it is. Only the first round's results (those searched by
    the text itself) give the vocabulary, so the reading stays one through the later rounds."""
    if not CJK.search(text):
        return ""
    first = [h for args, content in shown if args.get("query") == text for h in parse_hits(content)]
    if not first:
        return ""
    vocab = [w for h in first for part in (h.content, *h.fields.values()) for w in WORD.findall(part)]
    kinds = {v for h in first for v in h.values("kind")}
    return gloss(text, vocab, kinds).text
