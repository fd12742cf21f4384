"""Model clients behind one interface (`Model`). The Anthropic client is imported lazily (it loads the SDK)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memgpt_lite.llm.base import Model

if TYPE_CHECKING:
    from memgpt_lite.llm.anthropic import AnthropicModel

__all__ = ["AnthropicModel", "Model"]


def __getattr__(name: str) -> Any:
    if name == "AnthropicModel":
        from memgpt_lite.llm.anthropic import AnthropicModel

        return AnthropicModel
    raise AttributeError(name)
