"""Memory's relations between records, read as rules: what replaced or settled a record (its
supersession chain, a person's decision on a guess), an agent's state a person's record contradicts
(`contested`), and a rename note since a record (`renamed_since`)."""

from __future__ import annotations

from evals.baseline.hits import UNSETTLED, Hit, can_support
from evals.baseline.question import Question, named_score
from evals.baseline.reading import claims_of, named_labels, state_labels, state_of


def current_word(h: Hit, pool: list[Hit]) -> list[Hit]:
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
    if end is not h and can_support(end):
        out.append(end)
    claim = h.fields.get("claim", "").strip()
    if claim in UNSETTLED:
        # settled by a person's record on the same tickets that states what the guess guessed (a guess
        # about a file is settled by a decision naming a file, not by a note that only cites the ticket;
        # a symptom by a person's record of its ticket's cause)
        tickets = set(h.values("tickets"))
        symptom = claim == "symptom"
        guessed = [] if symptom else [k for k in ("paths", "routes") if h.values(k)]
        out += [p for p in pool if can_support(p) and p.layer == "user_authored_decision"
                and tickets & set(p.values("tickets")) and all(p.values(k) for k in guessed)
                and (not symptom or "root cause" in claims_of(p))]  # fmt: skip
    return out


def overruling(h: Hit, pool: list[Hit]) -> list[Hit]:
    """A person's current records on the agent record's tickets that state another bug state."""
    state = h.fields.get("bug_status", "").strip()
    return [
        p
        for p in pool
        if can_support(p)
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


def replaced_subject(q: Question, topical: list[Hit], pool: list[Hit], aliases: dict[str, str]) -> list[Hit]:
    """The records carrying the most of what the question names are its subject. When none of them can
    support an answer (superseded, an unconfirmed guess) and no usable record carries as much, the
    question is answered by what replaced them — a decision that overruled a summary, a fix that closed
    a report — not by a record that matches less of it."""
    score = {h.id: named_score(q, h, aliases) for h in topical}
    top = max(score.values(), default=0)
    if top == 0:
        return []
    subject = [h for h in topical if score[h.id] == top]
    if any(can_support(h) for h in subject):
        return []
    out: list[Hit] = []
    for h in subject:
        # the next hand-over note replaces the last one, not what it said about what is named: a
        # successor answers when it is still about it (it carries what is named, or shares a ticket)
        out += [r for r in current_word(h, pool) if r not in out and still_about(q, h, r, aliases)]
    return out


def still_about(q: Question, old: Hit, new: Hit, aliases: dict[str, str]) -> bool:
    tickets = set(old.values("tickets"))
    return bool(named_score(q, new, aliases) or not tickets or tickets & set(new.values("tickets")))


def replaced_closest(q: Question, pool: list[Hit], top: Hit | None) -> list[Hit]:
    """A question naming no ticket or path that is far closer to one record than to the rest is about
    that record; when a person has since replaced it (a withdrawn lesson, an overruled guess), the
    person's record is the current word on it. `top` is that record (`standing_out_closest`)."""
    if top is None or can_support(top) or not top.trusted:
        return []

    # the question's own constraints (a version, a date) still hold for the record that answers; what
    # settles a guess or a symptom is a person's word, what replaced a state is the state since
    # ("is the double posting fixed now? a retest said so" → the regression that superseded that retest)
    asks_state = bool(state_labels(pool) & named_labels(q, pool))

    def fits(r: Hit) -> bool:
        return (
            (r.layer == "user_authored_decision" or (asks_state and not top.current))
            and all(r.carries_version(v) for v in q.versions)
            and all(rg.contains(r.day) for rg in q.ranges)
        )  # fmt: skip

    word = [r for r in current_word(top, pool) if fits(r)]
    if word or not top.trusted:
        return word
    # what replaced it is no person's word (a report closed by a fix that later regressed): a person's
    # current record that memory says rests on that very record (its provenance) is the word on it
    return [p for p in pool if can_support(p) and fits(p) and top.id in p.values("provenance")]


def left_state(best: Hit, states: set[str], pool: list[Hit]) -> bool:
    """`best` replaced a record holding one of `states` (directly or down its supersession chain): the
    ticket was in that state and memory records that it left it ("is the share-link bug still open?" is
    answered by the fix verification that superseded the open report)."""
    by_id = {h.id: h for h in pool}
    seen: set[str] = set()
    old = by_id.get(best.fields.get("supersedes", "").strip())
    while old is not None and old.id not in seen:
        if states & state_of(old):
            return True
        seen.add(old.id)
        old = by_id.get(old.fields.get("supersedes", "").strip())
    return any(h.superseded_by == best.id and states & state_of(h) for h in pool)


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
