"""Main context: token counting, working-context blocks, the summarizer and the queue manager."""

from memgpt_lite.errors import ContextWindowExceeded

from .blocks import Block, WorkingContext
from .queue import (
    ContextConfig,
    ContextEvent,
    ContextManager,
    PreparedPrompt,
    tool_units,
)
from .summarizer import DeterministicSummarizer, LLMSummarizer, Summarizer
from .tokens import CLAUDE_SAFETY_MARGIN, TokenCounter, load_encoding

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
