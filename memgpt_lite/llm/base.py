"""The one interface every model client implements (Anthropic, scripted, function)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from memgpt_lite.messages import ModelRequest, ModelResponse


@runtime_checkable
class Model(Protocol):
    """A model takes one request (system, messages, tools) and returns one response."""

    name: str

    def request(self, request: ModelRequest) -> ModelResponse:
        """Send one request. Provider failures raise `ModelError` after the client's own retries."""
        ...

    def count_tokens(self, request: ModelRequest) -> int | None:
        """Exact input-token count from the provider when it offers one, else None."""
        ...
