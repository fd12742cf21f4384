"""The one interface every model client implements (Anthropic, scripted, function)."""

from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class StatedWindow:
    """A context size a model server states, and where it said so (for messages)."""

    tokens: int
    source: str


@runtime_checkable
class StatesWindow(Protocol):
    """A model client that can ask its server for the context size it serves (a local server)."""

    def stated_window(self) -> StatedWindow | None:
        """The context size the server states for this model, or None when it states none."""
        ...
