"""Three trivial agents, run beside every layer-2 agent so a reader sees what a score is worth.

- `always-no-match`: never answers from memory (right exactly on the `no_match` cases);
- `top-hit`: cites the first hit of one ranked search of the question, whatever it is;
- `right-ids-wrong-status`: an oracle that cites exactly the case's evidence (and answers `no_match`
  where the case expects it) but claims a status none of the cited items has — the verdict must catch
  it because claims are checked against the cited items' fields.

They run in the same loop and tools as the real agents (`memgpt_lite.testing.FunctionModel`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from evals.baseline.hits import SEARCH, parse_hits
from evals.case_schema import Case
from memgpt_lite.llm.base import Model
from memgpt_lite.messages import ModelRequest, ModelResponse
from memgpt_lite.storage.archival import ArchivalStore
from memgpt_lite.testing import FunctionModel, response, tool_call

STATUSES = ("open", "fixed", "needs_retest", "wont_fix")
_NO_MATCH: dict[str, Any] = dict(answer="Memory cannot answer this.", evidence_ids=[], support_layer="fresh_inspection_required",
                 no_match=True, fresh_inspection_requested=True)  # fmt: skip


def _answered(request: ModelRequest) -> bool:
    return any(
        r.name == "submit_answer" for m in request.messages if m.role == "tool" for r in m.tool_results_parts
    )


def _no_match(request: ModelRequest) -> ModelResponse:
    if _answered(request):
        return response(model="always-no-match")
    return response(tool_call("submit_answer", **_NO_MATCH), model="always-no-match")


def _top_hit(request: ModelRequest) -> ModelResponse:
    if _answered(request):
        return response(model="top-hit")
    results = [
        r for m in request.messages if m.role == "tool" for r in m.tool_results_parts if r.name == SEARCH
    ]
    if not results:
        question = [m for m in request.messages if m.role == "user"][-1].text
        return response(tool_call(SEARCH, query=question, request_heartbeat=True), model="top-hit")
    hits = parse_hits(results[0].content)
    if not hits:
        return response(tool_call("submit_answer", **_NO_MATCH), model="top-hit")
    top = hits[0]
    return response(
        tool_call(
            "submit_answer",
            answer=top.content,
            evidence_ids=[top.id],
            support_layer=top.layer,
            no_match=False,
            fresh_inspection_requested=False,
        ),  # fmt: skip
        model="top-hit",
    )


def _wrong_status(case: Case, archival: ArchivalStore) -> Callable[[ModelRequest], ModelResponse]:
    held = {p.meta.get("bug_status") for p in archival.get_many(list(case.evidence))}
    wrong = next(s for s in STATUSES if s not in held)

    def reply(request: ModelRequest) -> ModelResponse:
        if _answered(request):
            return response(model="right-ids-wrong-status")
        args: dict[str, Any] = (
            {**_NO_MATCH}
            if case.expected_mode == "no_match"
            else dict(
                answer=f"Status: {wrong}.",
                evidence_ids=list(case.evidence),
                support_layer=case.support_layer,
                no_match=False,
                fresh_inspection_requested=False,
            )  # fmt: skip
        )
        return response(
            tool_call("submit_answer", **args, claims={"status": wrong}), model="right-ids-wrong-status"
        )

    return reply


TRIVIAL_AGENTS: dict[str, Callable[[Case, ArchivalStore], Model]] = {
    "always-no-match": lambda case, archival: FunctionModel(_no_match, name="always-no-match"),
    "top-hit": lambda case, archival: FunctionModel(_top_hit, name="top-hit"),
    "right-ids-wrong-status": lambda case, archival: FunctionModel(
        _wrong_status(case, archival), name="right-ids-wrong-status"
    ),
}
