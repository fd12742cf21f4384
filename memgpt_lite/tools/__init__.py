"""Tools the model can call: the typed registry, MemGPT memory functions, the Claude memory tool, redaction.

Heavy pieces (the memory tool loads the anthropic SDK) are imported lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memgpt_lite.tools.redaction import Redacted, redact
from memgpt_lite.tools.registry import Tool, ToolContext, ToolRegistry, requests_heartbeat

if TYPE_CHECKING:
    from memgpt_lite.tools.memory_functions import memory_functions
    from memgpt_lite.tools.memory_tool import MemoryTool

__all__ = [
    "MemoryTool",
    "Redacted",
    "Tool",
    "ToolContext",
    "ToolRegistry",
    "memory_functions",
    "redact",
    "requests_heartbeat",
]


def __getattr__(name: str) -> Any:
    if name == "MemoryTool":
        from memgpt_lite.tools.memory_tool import MemoryTool

        return MemoryTool
    if name == "memory_functions":
        from memgpt_lite.tools.memory_functions import memory_functions

        return memory_functions
    raise AttributeError(name)
