"""Queue manager: threshold edges, eviction rules, recursive summary, failure safety, overflow errors."""

from __future__ import annotations

import itertools

import pytest

from memgpt_lite.context import (
    Block,
    ContextConfig,
    ContextManager,
    ContextWindowExceeded,
    DeterministicSummarizer,
    TokenCounter,
    WorkingContext,
    tool_units,
)
from memgpt_lite.messages import Message, ToolCallPart, ToolResultPart


class ListStore:
    def __init__(self):
        self.messages: list[Message] = []

    def append(self, msg: Message) -> None:
        self.messages.append(msg)

    def ids(self) -> set[str]:
        return {m.id for m in self.messages}


class FailingSummarizer:
    def summarize(self, previous_summary, messages):
        raise RuntimeError("model down")


def make(
    window=1000, summarizer=None, system="You are a helpful agent.", summary="", **cfg
) -> tuple[ContextManager, ListStore]:
    store = ListStore()
    cm = ContextManager(
        store,
        TokenCounter(safety_margin=1.0),
        summarizer or DeterministicSummarizer(max_chars=400, line_chars=60),
        ContextConfig(context_window=window, **cfg),
        system,
        working_context=WorkingContext([Block(name="persona", value="curious", limit=100)]),
        summary=summary,
    )
    return cm, store


def fill_to(cm: ContextManager, target: int, role: str = "user") -> None:
    """Append one message sized so that the prompt is exactly `target` tokens (" a" is one token)."""
    gap = target - cm.prompt_tokens()
    assert gap > 8, "already too full"
    for k in range(gap, 0, -1):
        msg = Message(role=role, parts=[{"kind": "text", "text": "a" + " a" * k}])
        if cm.prompt_tokens() + cm.counter.count_message(msg) == target:
            cm.append(msg)
            assert cm.prompt_tokens() == target
            return
        cm.counter.forget([msg.id])
    raise AssertionError("could not hit target")


_turn = itertools.count()


def chat(cm: ContextManager, n: int, words: int = 20) -> None:
    for _ in range(n):
        i = next(_turn)
        cm.append(Message.user(f"user {i} " + "lorem " * words))
        cm.append(Message.assistant({"kind": "text", "text": f"reply {i} " + "ipsum " * words}))


def test_no_event_just_below_warning():
    cm, _ = make()
    fill_to(cm, 699)
    p = cm.prepare()
    assert p.events == [] and p.prompt_tokens == 699


def test_warning_at_exactly_070_once_per_period():
    cm, store = make()
    fill_to(cm, 700)
    p = cm.prepare()
    assert [e.type for e in p.events] == ["memory_pressure_warning"]
    ev = p.events[0]
    assert ev.prompt_tokens_before == 700 and ev.prompt_tokens_after > 700
    notice = cm.in_context[-1]
    assert notice.role == "system" and notice.meta["kind"] == "memory_pressure" and notice in store.messages
    assert notice in p.request.messages
    cm.append(Message.user("more " * 10))
    assert cm.prepare().events == []  # still under pressure: no second notice


def fill_near(cm: ContextManager, target: int) -> None:
    """Chat until close to `target`, then land exactly on it with a small message."""
    while cm.prompt_tokens() + 70 < target - 20:
        chat(cm, 1)
    fill_to(cm, target)


def test_no_flush_just_below_window():
    cm, _ = make()
    cm.warned = True  # this pressure period's notice was already given
    fill_near(cm, 999)
    p = cm.prepare()
    assert p.events == [] and p.prompt_tokens == 999


@pytest.mark.parametrize("over", [0, 1])
def test_flush_at_and_over_window(over):
    cm, store = make()
    cm.warned = True
    fill_near(cm, 1000 + over)
    p = cm.prepare()
    assert [e.type for e in p.events] == ["flush"]
    ev = p.events[0]
    assert ev.prompt_tokens_before == 1000 + over
    assert ev.prompt_tokens_after <= 500 and p.prompt_tokens == ev.prompt_tokens_after
    assert ev.evicted_messages == len(ev.evicted_ids) > 0
    assert set(ev.evicted_ids) <= store.ids()  # everything evicted is in recall
    assert not set(ev.evicted_ids) & {m.id for m in cm.in_context}
    assert cm.summary and p.request.messages[0].meta["kind"] == "recursive_summary"
    assert cm.counter.count_request(p.request) == p.prompt_tokens  # incremental count == full recount


def test_warning_resets_after_flush():
    cm, _ = make()
    chat(cm, 6)
    fill_to(cm, 720)
    assert [e.type for e in cm.prepare().events] == ["memory_pressure_warning"]
    chat(cm, 6)
    assert [e.type for e in cm.prepare().events] == ["flush"]
    assert not cm.warned
    while True:
        chat(cm, 1)
        events = cm.prepare().events
        if events:
            assert events[0].type == "memory_pressure_warning"
            break


def test_warning_that_reaches_flush_threshold_flushes_in_same_prepare():
    cm, _ = make(warning=0.95)
    fill_near(cm, 960)
    types = [e.type for e in cm.prepare().events]
    assert types == ["memory_pressure_warning", "flush"]
    assert cm.prompt_tokens() <= 500


def tool_exchange(i: int, n_calls: int = 2) -> list[Message]:
    calls = [
        ToolCallPart(id=f"c{i}-{k}", name="archival_memory_search", arguments={"query": f"q{i} " * 10})
        for k in range(n_calls)
    ]
    results = [ToolResultPart(tool_call_id=c.id, name=c.name, content="result " * 15) for c in calls]
    return [
        Message.assistant({"kind": "text", "text": f"thinking {i}"}, *calls),
        Message.tool_results(*results),
    ]


def assert_tool_pairs_intact(messages: list[Message]) -> None:
    for i, m in enumerate(messages):
        if m.role == "assistant" and m.tool_calls:
            nxt = messages[i + 1]
            assert nxt.role == "tool"
            assert {r.tool_call_id for r in nxt.tool_results_parts} == {c.id for c in m.tool_calls}
        if m.role == "tool":
            assert i > 0 and messages[i - 1].tool_calls, "tool result without its call"


def test_eviction_never_splits_tool_pairs_and_keeps_latest_user_turn():
    cm, _ = make(window=1500)
    for i in range(40):
        cm.append(Message.user(f"question {i} " + "word " * 15))
        for msg in tool_exchange(i):
            cm.append(msg)
        p = cm.prepare()
        assert p.prompt_tokens <= 1500
        assert_tool_pairs_intact(p.request.messages[1:] if cm.summary else p.request.messages)
        latest_user = [m for m in cm.in_context if m.role == "user"]
        assert latest_user and latest_user[-1].text.startswith(f"question {i} ")
    assert cm.counters["flushes"] >= 2


def test_latest_user_turn_kept_even_when_newest_exchange_follows():
    cm, _ = make(window=800)
    chat(cm, 5)
    cm.append(Message.user("THE LATEST QUESTION " + "x " * 20))
    for i in range(8):
        for msg in tool_exchange(100 + i, n_calls=1):
            cm.append(msg)
    p = cm.prepare()
    assert any(e.type == "flush" for e in p.events)
    kept = cm.in_context
    assert any(m.text.startswith("THE LATEST QUESTION") for m in kept)
    assert kept[-1].role == "tool" and kept[-2].tool_calls  # newest exchange kept, whole
    assert_tool_pairs_intact(kept)


def test_tool_units_grouping():
    msgs = [Message.user("hi"), *tool_exchange(1), Message.assistant({"kind": "text", "text": "done"})]
    assert [len(u) for u in tool_units(msgs)] == [1, 2, 1]


def test_recursive_summary_contains_previous_summary():
    cm, _ = make(window=3000, summarizer=DeterministicSummarizer(max_chars=5000, line_chars=40))
    summaries = []
    for _ in range(100):
        chat(cm, 1, words=60)
        if any(e.type == "flush" for e in cm.prepare().events):
            summaries.append(cm.summary)
        if len(summaries) == 2:
            break
    first, second = summaries
    assert first in second and len(second) > len(first)
    assert first.splitlines()[0] in second


def test_summarizer_failure_keeps_old_summary_and_loses_nothing():
    cm, store = make(window=1000, summarizer=FailingSummarizer(), summary="Earlier: the user likes tea.")
    cm.warned = True
    while cm.prompt_tokens() < 1000:
        chat(cm, 1)
    in_context_before = [m.id for m in cm.in_context]
    p = cm.prepare()
    ev = p.events[-1]
    assert ev.type == "flush" and ev.summary_failed and ev.evicted_messages > 0
    assert cm.summary.startswith("Earlier: the user likes tea.")
    assert "without a summary" in cm.summary and "conversation_search" in cm.summary
    assert set(in_context_before) == set(ev.evicted_ids) | {m.id for m in cm.in_context}
    assert set(ev.evicted_ids) <= store.ids()
    assert cm.counters["summary_failures"] == 1


def test_append_failure_changes_nothing():
    class BrokenStore(ListStore):
        def append(self, msg):
            raise OSError("disk full")

    cm = ContextManager(
        BrokenStore(), TokenCounter(), DeterministicSummarizer(), ContextConfig(context_window=500), "s"
    )
    with pytest.raises(OSError):
        cm.append(Message.user("hi"))
    assert cm.in_context == [] and cm.pending_ids == [] and cm.counters["appended"] == 0


def test_window_too_small_is_a_clear_error():
    cm, _ = make(window=60, system="You are a helpful agent. " * 5)
    cm.append(Message.user("hello " * 30))
    with pytest.raises(ContextWindowExceeded, match="context window is 60"):
        cm.prepare()


@pytest.mark.parametrize(
    "cfg",
    [
        {"context_window": 0},
        {"context_window": 100, "warning": 0.4, "evict_to": 0.5},
        {"context_window": 100, "flush": 1.2},
        {"context_window": 100, "warning": 0.9, "flush": 0.8},
    ],
)
def test_bad_config_is_rejected(cfg):
    with pytest.raises(ValueError):
        ContextConfig(**cfg)


class _ExactCounter:
    """A provider whose count-tokens endpoint says every request is 20% bigger than our raw count."""

    name = "exact"

    def request(self, request):  # pragma: no cover - never called
        raise AssertionError

    def count_tokens(self, request):
        return int(TokenCounter(safety_margin=1.0).count_request_raw(request) * 1.2)


def test_provider_counts_calibrate_the_margin_before_deciding():
    store = ListStore()
    counter = TokenCounter(safety_margin=1.0)
    cm = ContextManager(
        store,
        counter,
        DeterministicSummarizer(),
        ContextConfig(context_window=1000, provider_counts=True),
        "You are a helpful agent.",
        model=_ExactCounter(),
    )
    while counter.apply_margin(TokenCounter(safety_margin=1.0).count_request_raw(cm.build_request())) < 620:
        chat(cm, 1)
    # ~620 tokens by our raw count (no warning at margin 1.0) but ~744 by the provider's: warn.
    p = cm.prepare()
    assert counter.safety_margin == pytest.approx(1.2, abs=0.02)
    assert [e.type for e in p.events] == ["memory_pressure_warning"]


def test_llm_summarizer_in_the_queue():
    from memgpt_lite.context import LLMSummarizer
    from memgpt_lite.messages import ModelResponse, TextPart
    from memgpt_lite.testing import FunctionModel

    model = FunctionModel(
        lambda req: ModelResponse(message=Message.assistant(TextPart(text="User chatted about lorem.")))
    )
    cm, _ = make(window=1000, summarizer=LLMSummarizer(model, max_input_tokens=2000, max_summary_tokens=100))
    cm.warned = True
    while cm.prompt_tokens() < 1000:
        chat(cm, 1)
    p = cm.prepare()
    assert p.events[-1].type == "flush" and cm.summary == "User chatted about lorem."
    assert len(model.requests) == 1 and "user " in model.requests[0].messages[0].text


def test_bench_context_step_runs_and_matches_full_recount():
    from benchmarks.memory import bench_context_step

    # bench_context_step raises if the incremental count ever differs from a from-scratch recount.
    result = bench_context_step(n_messages=30, window=32_000, steps=5)
    assert result["messages"] == 30 and result["steps"] == 5
    assert result["p50"] > 0 and result["baseline_p50"] > 0 and result["prompt_tokens_p50"] > 1000


def test_appending_the_same_message_twice_is_refused():
    from memgpt_lite.errors import UsageError

    cm, store = make()
    msg = Message.user("once")
    cm.append(msg)
    with pytest.raises(UsageError, match="already in the context"):
        cm.append(msg)
    assert len(cm.in_context) == 1 and len(store.messages) == 1


def test_repeated_summarizer_failures_keep_summary_bounded():
    cm, _ = make(window=1000, summarizer=FailingSummarizer(), summary="Earlier: the user likes tea.")
    for _ in range(6):
        cm.warned = True
        while cm.prompt_tokens() < 1000:
            chat(cm, 1)
        assert cm.prepare().events[-1].summary_failed
    lines = cm.summary.splitlines()
    assert lines[0] == "Earlier: the user likes tea." and len(lines) == 4  # the three newest notes
    assert cm.counters["summary_failures"] == 6


def test_the_context_manager_owns_the_agent_state_and_hands_it_over_once_per_append():
    from memgpt_lite.state import AgentState

    cm, store = make()
    cm.extra["turn"] = 3
    written: list[AgentState] = []
    cm.on_change = written.append
    first, second = Message.user("one"), Message.user("two")
    cm.append(first)
    cm.append(second)
    assert len(written) == 2, "one state per appended message"
    # each is handed over before the recall write and names the message being appended
    assert [(s.pending_ids, s.in_context_ids) for s in written] == [
        ([first.id], []),
        ([second.id], [first.id]),
    ]
    now = cm.state()
    assert isinstance(now, AgentState) and now.in_context_ids == [first.id, second.id] and not now.pending_ids
    assert now.extra == {"turn": 3} and now.blocks[0].value == "curious" and now.counters["appended"] == 2
    assert AgentState.model_validate_json(now.model_dump_json()) == now
