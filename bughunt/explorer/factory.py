"""Build a policy by name: a simulator strategy, or the memgpt_lite agent (`llm`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from memgpt_lite.context.tokens import TokenCounter
from memgpt_lite.errors import UsageError

from .policies import Policy, StrategyPolicy, policy_names
from .store import ExplorerStore


@lru_cache(maxsize=1)
def shared_counter() -> TokenCounter:
    """One token counter per process: loading the BPE ranks is the expensive part."""
    return TokenCounter()


@contextmanager
def make_policy(
    name: str,
    *,
    store: ExplorerStore,
    model_name: str | None = None,
    model: Any = None,
    embedder: Any = None,
    base_url: str | None = None,
) -> Iterator[Policy]:
    """The policy called `name`. For `llm`, `model` (a memgpt_lite `Model`, e.g. the scripted one in
    tests) wins over `model_name` (an Anthropic model, which needs ANTHROPIC_API_KEY)."""
    names = policy_names()
    if name not in names:
        raise UsageError(f"--policy: unknown {name!r}; choose one of {', '.join(names)}")
    if name != "llm":
        yield StrategyPolicy(name, shared_counter().count_text)
        return
    from .llm_policy import LLMPolicy, default_model

    policy = LLMPolicy(
        store=store,
        model=model if model is not None else default_model(model_name, base_url),
        embedder=embedder,
    )
    try:
        yield policy
    finally:
        policy.close()
