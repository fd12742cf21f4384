"""Acceptance: a long scripted conversation through the real loop and the real memory.

Memory pressure makes the model save facts to archival memory, a flush evicts the oldest messages
(the code word leaves the prompt entirely: it is neither in context nor in the summary), and a later
question is answered by `conversation_search` paging the evicted message back from recall storage.
The model is a function of the prompt it receives — it knows nothing but what the agent sends it.
"""

from __future__ import annotations

import re

from memgpt_lite.agent import Agent, AgentConfig
from memgpt_lite.context import DeterministicSummarizer
from memgpt_lite.memory import AgentMemory
from memgpt_lite.messages import ModelRequest
from memgpt_lite.storage.embeddings import HashingEmbedder
from memgpt_lite.testing import FunctionModel, response, send_message, text, tool_call

CODE_WORD = "ZEBRA-42"
OPENING = (
    "Hello! Before we start I want to tell you a few things about the project we will work on together. "
    f"Fact: the code word for the deployment is {CODE_WORD}."
)
FILLER = (
    "Here is another routine status update about the test run: pages were loaded, forms were submitted, "
    "nothing unusual happened and the logs look ordinary. Number {i}."
)
DECOYS = [
    "Note that any code word must be kept private.",
    "A code word is no password.",
    "Code word rules apply.",
]
QUESTION = "What was the code word I told you at the very start?"


def latest_user_text(req: ModelRequest) -> str:
    return next(m.text for m in reversed(req.messages) if m.role == "user")


def brain(req: ModelRequest):
    """A stand-in for a model: reads only the request, as a real model would."""
    last = req.messages[-1]
    if last.role == "system" and last.meta.get("kind") == "memory_pressure":
        facts = [
            m.text.split("Fact:", 1)[1].strip()
            for m in req.messages
            if m.role == "user" and "Fact:" in m.text
        ]
        if facts:
            return response(
                text("Context is filling up; saving the facts the user gave me."),
                tool_call(
                    "archival_memory_insert",
                    content=" ".join(facts),
                    importance=9,
                    tags=["facts"],
                    request_heartbeat=True,
                ),
            )
        # Nothing new to save: carry on with what was happening before the notice.
        last = req.messages[-2]
    if last.role == "tool":
        result = last.tool_results_parts[-1]
        if result.name == "conversation_search":
            found = re.search(r"code word for the deployment is (\S+?)\.", result.content)
            if found:
                return response(send_message(f"The code word was {found.group(1)}."))
            more = re.search(r"More: page=(\d+)", result.content)
            if more:
                return response(
                    tool_call(
                        "conversation_search",
                        query="code word",
                        page=int(more.group(1)),
                        request_heartbeat=True,
                    )
                )
            return response(send_message("I could not find it."))
    question = latest_user_text(req)
    if last.role == "user" and question == QUESTION:
        return response(
            text("Not in my context any more; search recall."),
            tool_call("conversation_search", query="code word", request_heartbeat=True),
        )
    return response(send_message(f"Noted ({len(question)} chars)."))


def test_pressure_save_flush_and_paging_back_an_evicted_message(tmp_path):
    memory = AgentMemory.open(
        tmp_path / "store",
        context_window=6000,
        embedder=HashingEmbedder(),
        summarizer=DeterministicSummarizer(max_chars=400, line_chars=60),
    )
    model = FunctionModel(brain)
    agent = Agent(model, memory, config=AgentConfig(page_size=2))

    opening_turn = agent.step(OPENING)
    opening_id = next(m.id for m in memory.recall.iter_messages() if m.role == "user")
    assert opening_turn.messages and opening_turn.errors == 0

    events = []
    for i in range(40):
        events += agent.step(FILLER.format(i=i)).events
    for d in DECOYS:
        events += agent.step(d).events
    kinds = [e.type for e in events]
    assert "memory_pressure_warning" in kinds and "flush" in kinds
    assert kinds.index("memory_pressure_warning") < kinds.index("flush")
    flushed = [e for e in events if e.type == "flush"]
    assert opening_id in {i for e in flushed for i in e.evicted_ids}

    # The warning made the model save the fact before anything was evicted.
    saved = memory.archival.search("code word deployment", page_size=5)
    assert saved.total >= 1 and CODE_WORD in saved.items[0].passage.content

    # Ask. The code word is nowhere in the prompt the model now receives.
    n_before = len(model.requests)
    answer = agent.step(QUESTION)
    first = model.requests[n_before]
    assert CODE_WORD not in first.system
    assert all(CODE_WORD not in m.text for m in first.messages)
    assert answer.messages == [f"The code word was {CODE_WORD}."]
    searches = [c for c in answer.tool_calls if c.name == "conversation_search"]
    assert len(searches) >= 2 and searches[-1].arguments["page"] >= 1  # paged past the first page
    assert CODE_WORD in searches[-1].result and opening_id in searches[-1].result
    # The agent's own searches are not counted as matches, so the total stays put while it pages.
    totals = {re.search(r"of (\d+) \(page", c.result).group(1) for c in searches}
    assert len(totals) == 1
    assert answer.errors == 0 and answer.stopped == "yield"

    # Nothing was lost: every message is in recall, every call has its result, and state resumes.
    msgs = list(memory.recall.iter_messages())
    calls = [c.id for m in msgs for c in m.tool_calls]
    results = [r.tool_call_id for m in msgs for r in m.tool_results_parts]
    assert sorted(calls) == sorted(results)
    in_context = [m.id for m in memory.context.in_context]
    memory.close()
    with AgentMemory.open(tmp_path / "store", embedder=HashingEmbedder()) as again:
        assert [m.id for m in again.context.in_context] == in_context
        assert again.context.summary
