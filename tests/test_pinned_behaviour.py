"""Behaviour that earlier tests left unpinned (mutants survived them): each test here fails on the
mutant named in its docstring. Expected values are written out by hand."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bughunt.sim.stats import bootstrap_ci
from memgpt_lite.context import (
    Block,
    ContextConfig,
    ContextManager,
    DeterministicSummarizer,
    TokenCounter,
    WorkingContext,
)
from memgpt_lite.context.queue import pressure_notice
from memgpt_lite.messages import Message
from memgpt_lite.storage.pages import Page
from memgpt_lite.storage.recall import RecallStore


class ListStore:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    def append(self, msg: Message) -> None:
        self.messages.append(msg)


def manager(window: int = 1000, **cfg) -> ContextManager:
    return ContextManager(
        ListStore(),
        TokenCounter(safety_margin=1.0),
        DeterministicSummarizer(max_chars=400, line_chars=60),
        ContextConfig(context_window=window, **cfg),
        "You are a helpful agent.",
        working_context=WorkingContext([Block(name="persona", value="curious", limit=100)]),
    )


def test_flush_evicts_down_to_half_the_window_and_no_further():
    """Mutant: `evict_to` 0.50 → 0.30 (the old test checked only `after <= 500`)."""
    cm = manager()
    cm.warned = True
    i = 0
    while cm.prompt_tokens() < 1000:  # many small, equal exchanges (~8 tokens per message)
        cm.append(Message.user(f"u{i} a b"))
        cm.append(Message.assistant({"kind": "text", "text": f"r{i} c d"}))
        i += 1
    unit = cm.counter.count_message(Message.user("u10 a b")) * 2  # one exchange, evicted together
    [ev] = cm.prepare().events
    assert ev.type == "flush" and ev.prompt_tokens_before >= 1000
    # Evicted until the prompt is at most 50% of the window, and not much below: the summary's room was
    # set aside up front (DeterministicSummarizer(max_chars=400) reserves 160 tokens), so the prompt
    # ends within that reserve plus one exchange of 500.
    assert 500 - 160 - unit <= ev.prompt_tokens_after <= 500
    assert ev.prompt_tokens_after > 300  # a 30% target would land here or below


def test_recall_date_filter_includes_its_exact_end_instant(tmp_path):
    """Mutant: the end bound `created_at <= end` → `<` (a message at exactly `end_date` is in range)."""
    with RecallStore(tmp_path / "r.sqlite") as recall:
        at = datetime(2024, 3, 5, 12, 0, 0, tzinfo=UTC)
        recall.append(Message.user("at noon", created_at=at))
        recall.append(Message.user("a second later", created_at=datetime(2024, 3, 5, 12, 0, 1, tzinfo=UTC)))
        got = recall.search_date("2024-03-05T11:00:00+00:00", "2024-03-05T12:00:00+00:00")
        assert [h.message.text for h in got.items] == ["at noon"] and got.total == 1
        exact = recall.search_date("2024-03-05T12:00:00+00:00", "2024-03-05T12:00:00+00:00")
        assert [h.message.text for h in exact.items] == ["at noon"]
        whole_day = recall.search_date(None, "2024-03-05")  # a bare date: the whole day
        assert whole_day.total == 2


def test_bootstrap_interval_for_a_fixed_seed_has_hand_written_values():
    """Mutant: the bootstrap seed ignored or changed (the old test compared the function with itself).

    Values from PCG64 with the seed (numpy's documented, stable stream); data are multiples of 1/7, so
    every resampled mean of 12 values is a multiple of 1/84."""
    data = [(i * i) % 7 / 7 for i in range(12)]  # 0, 1/7, 4/7, 2/7, 2/7, 4/7, 1/7, 0, 1/7, 4/7, 2/7, 2/7
    assert bootstrap_ci(data, resamples=2000) == (pytest.approx(13 / 84), pytest.approx(32 / 84))  # seed 0
    assert bootstrap_ci(data, resamples=2000, seed=0) == (pytest.approx(13 / 84), pytest.approx(32 / 84))
    assert bootstrap_ci(data, resamples=2000, seed=1) == (pytest.approx(14 / 84), pytest.approx(32 / 84))
    assert bootstrap_ci(data, resamples=2000, seed=2) == (pytest.approx(14 / 84), pytest.approx(33 / 84))
    tenths = [0.1 * i for i in range(20)]
    assert bootstrap_ci(tenths) == (pytest.approx(0.695), pytest.approx(1.195))
    assert bootstrap_ci(tenths, seed=7) == (pytest.approx(0.695), pytest.approx(1.2))


def test_memory_pressure_notices_stay_out_of_the_summary():
    """Mutant: notices passed to the summarizer like conversation (they hold no conversation content)."""
    when = datetime(2024, 1, 2, 3, 4, tzinfo=UTC)
    msgs = [
        Message.user("the door code is 4711", created_at=when),
        pressure_notice(0.72).model_copy(update={"created_at": when}),
        Message.assistant({"kind": "text", "text": "noted"}, created_at=when),
    ]
    summary = DeterministicSummarizer(max_chars=400, line_chars=60).summarize("", msgs)
    assert summary == "[2024-01-02 03:04] user: the door code is 4711\n[2024-01-02 03:04] assistant: noted"


class WideSummarizer(DeterministicSummarizer):
    """Keeps every line (no oldest-line dropping to hide a notice line), with a small room hint."""

    @property
    def max_summary_tokens(self) -> int:
        return 100


def test_a_flush_after_a_warning_keeps_the_notice_out_of_the_recursive_summary():
    """The same mutant, through the queue manager: warn at 50%, then flush at 100% down to 40%."""
    cm = ContextManager(
        ListStore(),
        TokenCounter(safety_margin=1.0),
        WideSummarizer(max_chars=100_000, line_chars=30),
        ContextConfig(context_window=1000, warning=0.5, evict_to=0.4),
        "You are a helpful agent.",
    )
    i = 0
    while cm.prompt_tokens() < 520:
        cm.append(Message.user(f"user {i} " + "lorem " * 60))
        i += 1
    assert [e.type for e in cm.prepare().events] == ["memory_pressure_warning"]
    while cm.prompt_tokens() < 1000:
        cm.append(Message.user(f"user {i} " + "lorem " * 60))
        i += 1
    assert "flush" in [e.type for e in cm.prepare().events]
    assert not any(m.meta.get("kind") == "memory_pressure" for m in cm.in_context)  # the notice was evicted
    assert "user: user 0 lo" in cm.summary
    assert "memory pressure" not in cm.summary and "system:" not in cm.summary


@pytest.mark.parametrize(
    ("total", "page", "more"),
    [
        (25, 0, True),
        (25, 1, True),
        (25, 2, False),
        (20, 1, False),
        (20, 0, True),
        (10, 0, False),
        (0, 0, False),
    ],
)
def test_page_has_more_is_false_on_the_last_page(total, page, more):
    """Mutant: `has_more` true on the last page (`page + 1 <= pages`)."""
    p = Page.of([], total=total, page=page, page_size=10)
    assert p.has_more is more
    assert p.pages == {25: 3, 20: 2, 10: 1, 0: 0}[total]
