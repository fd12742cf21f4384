"""memgpt_lite: a MemGPT-style agent-memory framework (context window = RAM, storage = disk).

    from memgpt_lite import Agent, AgentMemory, AnthropicModel

    with AgentMemory.open("runs/me") as memory:
        agent = Agent(AnthropicModel(), memory)
        print(agent.step("Hi, I'm Ada.").reply)

The public names below are imported on first use, so `import memgpt_lite` stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from memgpt_lite.log import logger as _logger
from memgpt_lite.version import __version__ as __version__

# Quiet by default: applications enable with `logger.enable("memgpt_lite")`.
_logger.disable("memgpt_lite")

_EXPORTS: dict[str, str] = {
    "Agent": "memgpt_lite.agent",
    "AgentConfig": "memgpt_lite.agent",
    "TurnResult": "memgpt_lite.agent",
    "AgentMemory": "memgpt_lite.memory",
    "AnthropicModel": "memgpt_lite.llm.anthropic",
    "Model": "memgpt_lite.llm.base",
    "MemoryTool": "memgpt_lite.tools.memory_tool",
    "ToolRegistry": "memgpt_lite.tools.registry",
    "ToolContext": "memgpt_lite.tools.registry",
    "redact": "memgpt_lite.tools.redaction",
    "Message": "memgpt_lite.messages",
}

if TYPE_CHECKING:
    from memgpt_lite.agent import Agent, AgentConfig, TurnResult
    from memgpt_lite.llm.anthropic import AnthropicModel
    from memgpt_lite.llm.base import Model
    from memgpt_lite.memory import AgentMemory
    from memgpt_lite.messages import Message
    from memgpt_lite.tools.memory_tool import MemoryTool
    from memgpt_lite.tools.redaction import redact
    from memgpt_lite.tools.registry import ToolContext, ToolRegistry

__all__ = [
    "Agent",
    "AgentConfig",
    "AgentMemory",
    "AnthropicModel",
    "MemoryTool",
    "Message",
    "Model",
    "ToolContext",
    "ToolRegistry",
    "TurnResult",
    "redact",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'memgpt_lite' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
