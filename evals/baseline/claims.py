"""The shape of the baseline's answer (the arguments of `submit_answer`): claims copied from the cited
records' own fields, a `no_match`, and the answers to the parts of a question joined into one."""

from __future__ import annotations

from typing import Any

from evals.baseline.hits import Hit
from evals.baseline.question import Question

Answer = dict[str, Any]
"""The arguments of `submit_answer`."""


def joined_answer(parts: list[Answer]) -> Answer | None:
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


def no_match_answer(reason: str, flagged: list[str]) -> Answer:
    return dict(answer=f"{reason} Memory cannot answer this; inspect the app afresh.", evidence_ids=[],
                support_layer="fresh_inspection_required", no_match=True, fresh_inspection_requested=True,
                superseded_ids=flagged, claims={})  # fmt: skip


def claims_from(q: Question, cited: list[Hit]) -> dict[str, str]:
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
