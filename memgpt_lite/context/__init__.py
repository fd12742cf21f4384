"""Main context: token counting, working-context blocks, the summarizer and the queue manager.

The names below load on first use (PEP 562), as `memgpt_lite.storage`'s do: every
`memgpt_lite.context.X` import runs this file first, and the queue manager and summarizer pull in the
message models (pydantic) that a caller of `context.tokens` alone (a strategy policy's counter) need not
pay for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memgpt_lite.lazy_names import lazy_names

if TYPE_CHECKING:
    from memgpt_lite.errors import ContextWindowExceeded

    from .blocks import Block, WorkingContext
    from .queue import ContextConfig, ContextEvent, ContextManager, PreparedPrompt, tool_units
    from .summarizer import DeterministicSummarizer, LLMSummarizer, Summarizer
    from .tokens import CLAUDE_SAFETY_MARGIN, TokenCounter, load_encoding

_MODULE: dict[str, str] = {
    "CLAUDE_SAFETY_MARGIN": f"{__name__}.tokens",
    "Block": f"{__name__}.blocks",
    "ContextConfig": f"{__name__}.queue",
    "ContextEvent": f"{__name__}.queue",
    "ContextManager": f"{__name__}.queue",
    "ContextWindowExceeded": "memgpt_lite.errors",
    "DeterministicSummarizer": f"{__name__}.summarizer",
    "LLMSummarizer": f"{__name__}.summarizer",
    "PreparedPrompt": f"{__name__}.queue",
    "Summarizer": f"{__name__}.summarizer",
    "TokenCounter": f"{__name__}.tokens",
    "WorkingContext": f"{__name__}.blocks",
    "load_encoding": f"{__name__}.tokens",
    "tool_units": f"{__name__}.queue",
}

__all__ = [
    "CLAUDE_SAFETY_MARGIN",
    "Block",
    "ContextConfig",
    "ContextEvent",
    "ContextManager",
    "ContextWindowExceeded",
    "DeterministicSummarizer",
    "LLMSummarizer",
    "PreparedPrompt",
    "Summarizer",
    "TokenCounter",
    "WorkingContext",
    "load_encoding",
    "tool_units",
]


__getattr__, __dir__ = lazy_names(__name__, _MODULE)
