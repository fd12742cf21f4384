"""One place that builds the model a command talks to, and checks it has something to talk to first."""

from __future__ import annotations

import os

from memgpt_lite.errors import UsageError
from memgpt_lite.llm.base import Model

KEY_VARIABLE = "ANTHROPIC_API_KEY"


class NoModel(UsageError):
    """Neither an API key nor a server URL: nothing to talk to."""


def check_model_key(base_url: str | None = None, *, needed_by: str = "this command") -> None:
    """Raise `NoModel` unless a key is set or a server URL is given (before anything is created)."""
    if not base_url and not os.environ.get(KEY_VARIABLE):
        raise NoModel(
            f"{needed_by} needs a model: set {KEY_VARIABLE} to talk to Claude, or pass --base-url URL for a "
            "server that speaks the Messages API (e.g. --base-url http://localhost:11434 for Ollama); "
            "tests drive it with a scripted model (memgpt_lite.testing)"
        )


def make_model(
    model: str | None = None,
    *,
    base_url: str | None = None,
    max_retries: int | None = None,
    timeout: float | None = None,
    needed_by: str = "this command",
) -> Model:
    """The Anthropic client (or a Messages-API server at `base_url`, asked for the context size it
    serves), after `check_model_key`."""
    check_model_key(base_url, needed_by=needed_by)
    from memgpt_lite.llm.anthropic import AnthropicModel  # loads the SDK: only when a model is wanted

    if max_retries is None:
        client = AnthropicModel(model, base_url=base_url, timeout=timeout)
    else:
        client = AnthropicModel(model, base_url=base_url, max_retries=max_retries, timeout=timeout)
    if base_url:
        # A local server that states its context (llama.cpp, Ollama) renders prompts with a chat template:
        # knowing it turns on the check that the tools reach the prompt (`AnthropicModel.check_tools`).
        client.stated_window()
    return client
