"""Summarizers: deterministic bounds and recursion; LLM summarizer chunking and failures."""

from __future__ import annotations

import pytest

from memgpt_lite.context import DeterministicSummarizer, LLMSummarizer, TokenCounter
from memgpt_lite.errors import ConfigError, ModelError
from memgpt_lite.messages import Message, ModelRequest, ModelResponse, TextPart, ToolCallPart
from memgpt_lite.testing import FunctionModel


def msgs(n: int, words: int = 30) -> list[Message]:
    return [Message.user(f"m{i} " + "alpha beta gamma " * (words // 3)) for i in range(n)]


def test_deterministic_one_line_per_message_and_keeps_previous():
    s = DeterministicSummarizer(max_chars=10_000, line_chars=60)
    first = s.summarize("", msgs(3))
    assert len(first.splitlines()) == 3 and all(len(ln) <= 60 for ln in first.splitlines())
    second = s.summarize(first, msgs(2))
    assert second.startswith(first) and len(second.splitlines()) == 5


def test_deterministic_bounded_by_dropping_oldest_lines():
    s = DeterministicSummarizer(max_chars=200, line_chars=50)
    out = s.summarize("old line one\nold line two", msgs(10))
    assert len(out) <= 200
    assert "old line one" not in out  # oldest dropped first
    assert out.splitlines()[-1].endswith(s.line(msgs(10)[-1]).split(": ", 1)[1])


def test_deterministic_marks_tool_calls():
    s = DeterministicSummarizer()
    call = Message.assistant(ToolCallPart(id="c1", name="archival_memory_search", arguments={"query": "x"}))
    assert "assistant(tool call): archival_memory_search" in s.summarize("", [call])


def test_bad_deterministic_config():
    with pytest.raises(ConfigError):
        DeterministicSummarizer(max_chars=10, line_chars=50)


def _echo_model(calls: list[ModelRequest]):
    def fn(req: ModelRequest) -> ModelResponse:
        calls.append(req)
        body = req.messages[0].text
        n_lines = body.count("\n[")
        return ModelResponse(
            message=Message.assistant(TextPart(text=f"S{len(calls)} covered {n_lines} msgs"))
        )

    return FunctionModel(fn)


def test_llm_summarizer_single_call_when_small():
    calls: list[ModelRequest] = []
    s = LLMSummarizer(_echo_model(calls), max_input_tokens=4000, max_summary_tokens=200)
    out = s.summarize("prior facts", msgs(5))
    assert len(calls) == 1 and out == "S1 covered 5 msgs"
    assert "prior facts" in calls[0].messages[0].text


def test_llm_summarizer_chunks_large_input_and_folds_summary():
    calls: list[ModelRequest] = []
    counter = TokenCounter()  # with the Claude margin: budgets are in provider tokens
    s = LLMSummarizer(_echo_model(calls), max_input_tokens=800, max_summary_tokens=150, counter=counter)
    messages = msgs(60)
    out = s.summarize("prior facts", messages)
    assert len(calls) > 2
    for req in calls:  # every call fits the summarizer's own budget
        assert counter.count_request(req) <= 800
    assert "prior facts" in calls[0].messages[0].text
    for prev, req in zip(calls, calls[1:], strict=False):  # each chunk folds in the summary so far
        assert f"S{calls.index(prev) + 1} covered" in req.messages[0].text
    total = sum(int(r.messages[0].text.count("\n[")) for r in calls)
    assert total == 60 and out.startswith(f"S{len(calls)} ")


def test_llm_summarizer_cuts_a_single_huge_message():
    calls: list[ModelRequest] = []
    counter = TokenCounter(safety_margin=1.0)
    s = LLMSummarizer(
        _echo_model(calls),
        max_input_tokens=1600,
        max_summary_tokens=200,
        counter=counter,
        max_message_chars=2000,
    )
    s.summarize("", [Message.user("word " * 5000)])
    assert len(calls) == 1 and "chars cut]" in calls[0].messages[0].text
    assert counter.count_request(calls[0]) <= 1600


def test_llm_summarizer_failures_raise():
    def boom(req):
        raise ModelError("provider down")

    with pytest.raises(ModelError):
        LLMSummarizer(FunctionModel(boom)).summarize("", msgs(2))
    empty = FunctionModel(lambda req: ModelResponse(message=Message.assistant(TextPart(text="  "))))
    with pytest.raises(ModelError, match="empty summary"):
        LLMSummarizer(empty).summarize("", msgs(2))
    with pytest.raises(ConfigError):
        LLMSummarizer(empty, max_input_tokens=100, max_summary_tokens=200)
