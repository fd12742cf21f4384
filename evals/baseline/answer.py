"""The decision: from the hits the tools showed to the arguments of `submit_answer`.

In order: what the answer may rest on (`_grounds`: on topic, current, trusted, settled, or what replaced
it), what the question asks for (`_asked`: labels, days, the kind of record), the best record by a fixed
order of preferences (`_Ranker`), the checks that turn it into `no_match` (`_check_asked`,
`_check_live_state`), the records cited beside it (`_cited`), and the claims copied from their fields.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from evals.baseline.claims import Answer, claims_from, joined_answer, no_match_answer
from evals.baseline.hits import Hit, can_support
from evals.baseline.question import (
    Question,
    asks_file_now,
    renamed_aliases,
    resolve_named,
    unasked_count,
)
from evals.baseline.ranking import of_named_day, on_topic, standing_out, standing_out_closest
from evals.baseline.reading import (
    READABLE_SHARE,
    asked_claims,
    asking_labels,
    claims_of,
    kinds_of,
    labels_of,
    named_labels,
    readable_share,
    state_labels,
    state_of,
)
from evals.baseline.rules import (
    contested,
    left_state,
    overruling,
    renamed_since,
    replaced_closest,
    replaced_subject,
)


def decide(q: Question, pool: list[Hit]) -> Answer:
    """The structured answer (the arguments of `submit_answer`) from what the tools showed. A question
    asking about several tickets ("which of BH-246 and BH-264 was won't-fix, and which file was the
    other one's fault?") is answered ticket by ticket, each part citing its own record, when memory
    answers every part; a record that lists them all (a daily note, a hand-over) only mentions each."""
    resolve_named(q, pool)
    if len(q.tickets) > 1:
        joined = joined_answer([answer_whole(replace(q, tickets=[t]), pool) for t in q.tickets])
        if joined:
            return joined
    return answer_whole(q, pool)


class _NoMatch(Exception):
    """Memory holds no answer; raised by a step, answered as `no_match` by `answer_whole`."""

    def __init__(self, reason: str, flagged: list[str]) -> None:
        super().__init__(reason)
        self.reason = reason
        self.flagged = flagged


def answer_whole(q: Question, pool: list[Hit]) -> Answer:
    """The answer to the question as one (`decide` also tries it ticket by ticket)."""
    try:
        g = _grounds(q, pool)
        asked = _asked(q, pool, g)
        rank = _Ranker(q, pool, g, asked)
        usable = _specific(pool, g, asked)
        best = max(usable, key=rank)
        kinds = _check_asked(q, pool, g, asked, usable, best)
        _check_live_state(q, pool, g, asked, usable, best, kinds)
    except _NoMatch as e:
        return no_match_answer(e.reason, e.flagged)
    cited = _cited(q, pool, g, asked, usable, best, rank, kinds)
    renamed = renamed_since(q, best, pool) if cited == [best] and asks_file_now(q) else None
    if renamed is not None:
        # "which file should I open": the record names the file as it was; a later rename note says
        # what it is called now, and both are the answer
        cited = [renamed, best]
    if len(cited) == 1:
        cited = _other_claims(usable, best, rank, kinds)
    layer = (
        "user_authored_decision" if any(h.layer == "user_authored_decision" for h in cited) else best.layer
    )
    text = " ".join(f"{h.content} (memory item {h.id}, {h.layer}, {h.day})" for h in cited)
    claims = claims_from(q, cited)
    if renamed is not None:
        now = [p for p in renamed.values("paths") if p != renamed.fields.get("renamed_from", "").strip()]
        if now:
            claims["path"] = now[0]
    return dict(answer=text, evidence_ids=[h.id for h in cited], support_layer=layer, no_match=False,
                fresh_inspection_requested=False, superseded_ids=g.flagged, claims=claims)  # fmt: skip


@dataclass
class _Grounds:
    """What the answer may rest on, and how the question relates to memory."""

    field_name: str
    ids: list[str]
    aliases: dict[str, str]
    readable: bool
    close: set[str]
    topical: list[Hit]
    scored: dict[str, int]
    flagged: list[str]
    replaced: list[Hit]
    usable: list[Hit]
    overruled: bool


def _grounds(q: Question, pool: list[Hit]) -> _Grounds:
    field_name, ids = q.topic()
    aliases = renamed_aliases(q, pool) if field_name == "paths" else {}
    readable = readable_share(q, pool) >= READABLE_SHARE
    close = standing_out(pool)
    topical, scored = on_topic(q, pool, aliases, readable, close)
    flagged = sorted({h.id for h in topical if not h.current})
    closest = standing_out_closest(q, pool, close)
    # (when the records of a later patch release are the topic, the question tests the version it names:
    # what replaced the closest record on that version does not answer it)
    patched = bool(q.versions and topical) and all(h.patch_of(v) for h in topical for v in q.versions)
    replaced = replaced_subject(q, topical, pool, aliases) or (
        [] if patched else replaced_closest(q, pool, closest)
    )
    if replaced:
        flagged = sorted(
            {*flagged, *(h.id for h in pool if not h.current and h.superseded_by in {r.id for r in replaced})}
        )
    if (
        not replaced
        and closest is not None
        and closest.current
        and closest.trusted
        and not can_support(closest)
    ):
        # the question is about an unconfirmed guess or a symptom no one has settled ("do we know yet
        # what's making the button do nothing?"): memory holds no answer, whatever else is near it
        kind = closest.fields.get("claim", "").strip()
        raise _NoMatch(
            f"The record closest to the question, {closest.id}, is a {kind} nothing settles.", flagged
        )
    disputed = contested(pool)
    usable = [h for h in replaced or topical if (replaced or can_support(h)) and h.id not in disputed]
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
            raise _NoMatch(f"{d.id} states a bug state a person's current record on it does not.", flagged)
    if not usable:
        named = ", ".join([*ids, *q.versions, *(r.text for r in q.ranges)]) or "the question"
        raise _NoMatch(f"No current, trusted memory item is about {named}.", flagged)
    return _Grounds(field_name, ids, aliases, readable, close, topical, scored, flagged, replaced, usable,
                    overruled)  # fmt: skip


@dataclass
class _Asked:
    """What the question asks for, beyond what it names."""

    wanted: set[str]
    """The labels memory uses (kind, claim, bug state) that the question writes out."""
    known: set[str]
    of_day: set[str]
    rested_on: dict[str, int]
    asked_all: set[str]
    """The labels the asking sentence writes out."""
    labels: set[str]
    """... of them, the ones `wanted` holds."""
    state: bool
    """The asking sentence names only bug states ("is it still open?")."""


def _asked(q: Question, pool: list[Hit], g: _Grounds) -> _Asked:
    wanted = named_labels(q, pool)
    if asks_file_now(q):
        # "which file should I open now?": the file is asked, not a bug state
        wanted -= state_labels(pool)
    rested_on: dict[str, int] = {}
    for h in pool:
        if h.trusted:  # a later record replaced since still rested on it
            for src in set(h.values("provenance")):
                rested_on[src] = rested_on.get(src, 0) + 1
    # (a question naming a kind of record besides a state asks for that record: "which tickets did the
    # release note fix?")
    asked_all = asking_labels(q, pool)
    labels = asked_all & wanted
    state = bool(labels) and labels <= state_labels(pool)
    return _Asked(wanted, {*g.ids, *g.aliases}, of_named_day(q, pool), rested_on, asked_all, labels, state)


@dataclass
class _Ranker:
    """The order of preference among the usable records (the key of `max`)."""

    q: Question
    pool: list[Hit]
    g: _Grounds
    asked: _Asked

    def __call__(self, h: Hit) -> tuple[Any, ...]:
        q, g, asked = self.q, self.g, self.asked
        # most identifiers asked, fewest not asked (a daily note about four tickets is less about one),
        # the kind of record the question names, a person's decision, then closeness in meaning
        extra = unasked_count(h, g.field_name, asked.known) if g.ids else 0
        on_day = any(r.contains(h.day) for r in q.ranges) or h.id in asked.of_day
        # a question in words memory does not use is as close to one record as to the next: there, what
        # memory's own records rest on (provenance) is its established word, before closeness
        linked = asked.rested_on.get(h.id, 0) if not g.readable else 0
        person = h.layer == "user_authored_decision"
        # Among what replaced the records on what is named, a person's word comes first: a decision
        # naming another file than the guess did is the answer to "was it confirmed, or something else?"
        # So does a person's record among the later patch releases a question on a version is answered by.
        patch = bool(q.versions) and not all(h.carries_version(v) for v in q.versions)
        first = person if g.replaced or patch else False
        # a question naming a bug state ("is it still open?") asks the ticket's state now: a record of a
        # state answers it before a cause or a plan does
        state = bool(asked.state and h.values("bug_status"))
        return (g.scored[h.id], first, -extra, bool(asked.wanted & labels_of(h, self.pool)), state, on_day,
                person, person and "decision" in h.values("kind"), linked, h.similarity or 0.0,
                -h.rank)  # fmt: skip


def _specific(pool: list[Hit], g: _Grounds, asked: _Asked) -> list[Hit]:
    """The usable records that are about what is named, not records that only mention it."""
    if not g.ids or g.replaced:
        return g.usable
    # An item that names the asked identifier among others of its kind (a hand-over note listing four
    # tickets) mentions it; it answers only a question that names what kind of record it is.
    # A record that replaced one about it (the decision that superseded the guess it names) is about it.
    replaced_ids = {h.id for h in g.topical if h.superseded_by}
    specific = [h for h in g.usable if not unasked_count(h, g.field_name, asked.known)
                or asked.wanted & labels_of(h, pool)
                or h.fields.get("supersedes", "").strip() in replaced_ids]  # fmt: skip
    if not specific:
        raise _NoMatch(f"Memory only mentions {', '.join(g.ids)} among other things.", g.flagged)
    return specific


def _check_asked(
    q: Question, pool: list[Hit], g: _Grounds, asked: _Asked, usable: list[Hit], best: Hit
) -> set[str]:
    """`no_match` when what the question asks (a time, a state, a kind of statement) is not what memory's
    records on it say; else the claims the asking sentence asks for."""
    # (with a point in time named by a version or a path, a date dates that point: "before 1.4.1 went
    # out on 24 March" asks about what came before the release, not about the 24th)
    asked_ranges = [] if q.anchors else q.asked_ranges
    if g.overruled:
        # a day alone names the claim's record ("the April 2 summary"); a period ("since 16 April") is asked
        asked_ranges = [r for r in asked_ranges if r.since != r.until]
    if asked_ranges and not any(r.contains(h.day) for h in usable for r in asked_ranges) and not asked.of_day:
        # a question about a time ("since April 10th?", "3月25日之前，…复测过吗？") with no record on what
        # it names from then: memory holds nothing about that time
        when = ", ".join(r.text for r in asked_ranges)
        raise _NoMatch(
            f"No record on this is from {when}; the latest, {best.id}, is of {best.day}.", g.flagged
        )
    constraints = bool(g.ids) + bool(q.versions) + bool(q.ranges)
    if not g.readable and constraints < 2 and best.layer != "user_authored_decision":
        # Only the identifier is understood: a cause, a status and a plan about it are all on topic, so only
        # a person's word on it, or a record pinned by two things named (a ticket and a version), answers.
        raise _NoMatch(
            f"Which of memory's records on {', '.join(g.ids) or 'this'} is asked is unclear.", g.flagged
        )
    # (a state named in a sentence before the asking one is a claim being checked: "a comment says BH-253
    # was fixed in 1.6.1. Can we close it?" is answered by the record that says it is still open)
    states = state_labels(pool) & asked.labels
    own = state_of(best)
    # ... unless the record it holds replaced one in the asked state, and the question does not name that
    # record's kind: "is it still open?" is answered by the fix that closed the report; "which release
    # fixed the regression?" knows of the regression and asks for a fix after it
    left = left_state(best, states, pool) and not asked.wanted & kinds_of(best)
    if states and own and not states & own and not g.overruled and not left:
        # the question takes a bug state as given ("which release fixed …") that the current record on it
        # does not hold: memory cannot confirm what is asked, only that the state differs
        raise _NoMatch(
            f"{best.id} records {', '.join(sorted(own))}, not {', '.join(sorted(states))}.", g.flagged
        )
    kinds = asked_claims(q, pool, asked.asked_all)
    if kinds and not any(kinds & claims_of(h) for h in usable):
        # the asking sentence wants a kind of statement memory makes elsewhere ("what's the root cause?")
        # and no current record on what it names makes one: the records there say something else (a
        # sentence before it may name the kind of record a claim came from: "the summary says …")
        raise _NoMatch(f"No current record on this states a {', '.join(sorted(kinds))}.", g.flagged)
    return kinds


def _check_live_state(
    q: Question, pool: list[Hit], g: _Grounds, asked: _Asked, usable: list[Hit], best: Hit, kinds: set[str]
) -> None:
    """`no_match` when memory says the live state must be looked at again: a retest is due, or untrusted
    text as recent as memory's last word claims otherwise."""
    if best.fields.get("bug_status", "").strip() == "needs_retest":
        raise _NoMatch(f"{best.id} says a retest is due, so the recorded state no longer holds.", g.flagged)
    # A retest is due on a page of an app version: a question that names that page or that version is
    # about what one sees there now. A question naming only the ticket may ask its cause or its decision,
    # which a retest-due note does not undo.
    due = [h for h in usable if h.fields.get("bug_status", "").strip() == "needs_retest"
           and ({*h.values("routes")} & {*q.routes} or {*h.values("app_version")} & {*q.versions})]  # fmt: skip
    if (
        due
        and not asked.wanted & labels_of(best, pool)
        and max(d.similarity or 0.0 for d in due) >= (best.similarity or 0.0)
    ):
        # memory says the live state there must be inspected again, and that is at least as close to the
        # question as the best other item: unless the question names what it wants, it asks the live state
        raise _NoMatch(f"{due[0].id} says a retest is due, so the recorded state no longer holds.", g.flagged)
    later_claims = [h for h in pool if not h.trusted and h.day >= best.day
                    and best.similarity is not None and (h.similarity or 0.0) >= best.similarity
                    and set(h.values("tickets")) & set(best.values("tickets")) & set(g.ids)]  # fmt: skip
    agents_word = best.layer != "user_authored_decision"
    if later_claims and agents_word and best.values("bug_status") and not q.versions and not kinds:
        # the question is closer to untrusted text on the ticket (a comment saying it was fixed) than to
        # memory's own last word on its state, an observation no person has decided on, and that text is
        # as new or newer: the question checks the claim, memory can neither confirm nor refute it, and
        # the page must be looked at
        raise _NoMatch(
            f"{best.id} is memory's last trusted word on this; {later_claims[0].id}, untrusted, is as recent.",
            g.flagged,
        )


def _cited(
    q: Question,
    pool: list[Hit],
    g: _Grounds,
    asked: _Asked,
    usable: list[Hit],
    best: Hit,
    rank: _Ranker,
    kinds: set[str],
) -> list[Hit]:
    """The records cited: `best`, with the others memory links to it for this question."""
    cited = [best]
    days = [r for r in q.ranges if r.since is not None and r.since == r.until]
    if (
        days
        and not g.ids
        and not q.versions
        and asked.wanted & labels_of(best, pool)
        and best.id not in g.close
    ):
        # a day named with a kind of record and nothing else ("the root causes decided at the 18 March
        # triage"): every record of that kind from that day answers, not only the closest one (one that
        # stands out close to the question is what it asks about: "the root cause found that day for the
        # feed's duplicate article")
        day_kinds = asked.wanted & labels_of(best, pool)
        same = [h for h in usable if h is not best and day_kinds <= labels_of(h, pool)
                and any(r.contains(h.day) for r in days) and best.day == h.day]  # fmt: skip
        cited = [best, *sorted(same, key=rank, reverse=True)]
    if q.versions and best.layer != "user_authored_decision" and all(best.patch_of(v) for v in q.versions):
        # the asked version is what the question tests, and a later patch release answers: the person's
        # record of that release on the ticket (a release note listing it) is cited beside the verification
        release = [h for h in pool if can_support(h) and h.layer == "user_authored_decision"
                   and set(h.values("app_version")) & set(best.values("app_version"))
                   and set(h.values("tickets")) & set(best.values("tickets"))]  # fmt: skip
        cited = [max(release, key=rank), best] if release else cited
    notes = [h for h in usable if h.id in g.aliases.values()]
    about_old = [h for h in usable if h not in notes and any(h.carries(a, "paths") for a in g.aliases)]
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
    return cited


def _other_claims(usable: list[Hit], best: Hit, rank: _Ranker, kinds: set[str]) -> list[Hit]:
    """`best`, and for one question asking two things of one ticket ("what was its cause, and has the
    fix been confirmed since?") a claim the asking sentence asks that `best` does not make is taken from
    the best current record on the same ticket that makes it (a bug state it names is not: "was the fix
    in 1.5?" is answered by the release note alone)."""
    cited = [best]
    tickets = set(best.values("tickets"))
    for lab in sorted(kinds - claims_of(best)):
        more = [h for h in usable if h not in cited and lab in claims_of(h)
                and tickets and set(h.values("tickets")) == tickets]  # fmt: skip
        if more:
            cited.append(max(more, key=rank))
    return cited
