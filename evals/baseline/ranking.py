"""What is on topic, and which record a question naming nothing is about: hits carrying what the
question names, within the versions and days it names; with nothing named, the kind of record it writes
out or what stands out close to it (a cosine floor and a standing-out test over the searches' scores)."""

from __future__ import annotations

import statistics

from evals.baseline.hits import MIN_POOL, Hit, can_support
from evals.baseline.question import Question, identifier_score, unasked_count
from evals.baseline.reading import asking_labels, labels_of, named_labels

SIMILARITY_FLOOR = 0.45
"""A question that names no identifier is about a hit only above this cosine similarity (calibrated on
MiniLM: unrelated questions' best hits stay below 0.3, related ones reach 0.47+; the hashing embedder's
cosines rarely reach it, so with hashing such questions get `no_match` unless they name a record kind)."""
RELATIVE_FLOOR = 1.5
"""... and only when the hit stands this many standard deviations above the mean similarity of all the
searches showed: a cosine floor alone lets a question that resembles everything a little "answer"."""


def standing_out(pool: list[Hit]) -> set[str]:
    """Hits close to the question (SIMILARITY_FLOOR) that stand out from what every search showed
    (RELATIVE_FLOOR). Too few scores to tell → none stands out."""
    sims = [h.similarity for h in pool if h.similarity is not None]
    if len(sims) < MIN_POOL:
        return set()
    mean = statistics.fmean(sims)
    spread = statistics.pstdev(sims) or 1.0
    return {h.id for h in pool if h.similarity is not None and h.similarity >= SIMILARITY_FLOOR
            and (h.similarity - mean) / spread >= RELATIVE_FLOOR}  # fmt: skip


def of_named_day(q: Question, pool: list[Hit]) -> set[str]:
    """The records of a single day the question names with nothing else (a session, a meeting), and
    the persons' current records memory says rest on one of them (provenance): a decision taken two days
    later on a bug a session found is memory's word on what that session found."""
    days = [r for r in q.ranges if r.since is not None and r.since == r.until]
    if not days or q.tickets or q.paths or q.routes:
        return set()
    on_day = {h.id for h in pool if any(r.contains(h.day) for r in days)}
    rest = {h.id for h in pool if h.layer == "user_authored_decision" and can_support(h)
            and on_day & set(h.values("provenance"))}  # fmt: skip
    return on_day | rest


def on_topic(
    q: Question, pool: list[Hit], aliases: dict[str, str], readable: bool, close: set[str]
) -> tuple[list[Hit], dict[str, int]]:
    """Hits about what the question names, with how many of its identifiers each carries. `readable`:
    the question's words are memory's (`readable_share`); `close`: the hits standing out (`standing_out`)."""
    field_name, ids = q.topic()
    if ids:
        scored = {h.id: identifier_score(q, h, field_name, ids) + sum(h.carries(a, "paths") for a in aliases)
                  for h in pool}  # fmt: skip
        topical = [h for h in pool if scored[h.id] > 0]
    else:
        scored = {h.id: 0 for h in pool}
        topical = list(pool)
    if q.versions:
        of_version = [h for h in topical if all(h.carries_version(v) for v in q.versions)]
        patches = [h for h in topical if can_support(h) and all(h.patch_of(v) for v in q.versions)]
        if not ids:
            # a question naming no ticket or path is about the tickets of what stands out close to it
            subject = {t for h in pool if h.id in close for t in h.values("tickets")}
            patches = [h for h in patches if subject & set(h.values("tickets"))]
        asked = asking_labels(q, pool)
        if (
            (ids or asked)
            and patches
            and not any(
                can_support(h)
                and (not asked or asked & labels_of(h, []))
                and not unasked_count(h, field_name, set(ids))
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
        of_day = of_named_day(q, topical)
        topical = [h for h in topical if any(r.contains(h.day) for r in bounds) or h.id in of_day]
    if bounds and not ids and not q.versions and readable:
        # a period alone says when, not what: within it, what the question is about is still what it
        # names in words (a kind of record) or what stands out close to it (in words memory does not
        # use, the period is all that is understood, and its records are the topic)
        wanted = named_labels(q, pool)
        topical = [h for h in topical if wanted & labels_of(h, []) or h.id in close or h.id in of_day]
    elif not bounds and not ids and not (q.versions and not readable):
        # A version named in words memory does not use is all that is understood of the question: its
        # records are the topic (and only a person's word among them answers, see `decide`).
        # Nothing named: the kind of record the question writes out, and what is close in meaning.
        wanted = named_labels(q, pool)
        anchors = closest_records(close, pool)
        topical = [h for h in topical
                   if wanted & labels_of(h, []) and same_subject(h, wanted, anchors) or h.id in close]  # fmt: skip
    return topical, scored


def closest_records(close: set[str], pool: list[Hit]) -> list[Hit]:
    """The records closest to the question: those standing out (`close`), else the closest one."""
    scored = [c for c in pool if c.similarity is not None]
    return [c for c in pool if c.id in close] or (
        [max(scored, key=lambda c: c.similarity or 0.0)] if scored else []
    )


def same_subject(h: Hit, wanted: set[str], anchors: list[Hit]) -> bool:
    """A record of the kind a question naming nothing asks for is about it when the records closest to
    the question (`closest_records`) are of that same kind too, or share a ticket with it: "has the root cause
    of the delete-account regression been found?" is closest to the regression, and another bug's root
    cause does not answer it; "what did the latest hand-over say?" is closest to hand-over notes."""
    if not anchors:
        return True
    kinds = wanted & labels_of(h, [])
    return any(
        kinds & labels_of(a, []) or set(a.values("tickets")) & set(h.values("tickets")) for a in anchors
    )


def standing_out_closest(q: Question, pool: list[Hit], close: set[str]) -> Hit | None:
    """The record a question naming no ticket or path is about: the closest, if it stands out (`close`)."""
    scored = [h for h in pool if h.similarity is not None]
    if q.tickets or q.paths or not scored:
        return None
    top = max(scored, key=lambda h: h.similarity or 0.0)
    return top if top.id in close else None
