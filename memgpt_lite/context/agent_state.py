"""The persisted agent state: one typed object, made and owned by the context manager
(`ContextManager.state()`), written by its owner on every change (`memgpt_lite.state`: `state.json`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from memgpt_lite.messages import utcnow

from .blocks import Block
from .config import ContextConfig

STATE_FORMAT = "memgpt_lite-agent-state"
STATE_VERSION = 1


class AgentState(BaseModel):
    """Everything needed to resume an agent exactly, apart from the messages themselves (in recall)."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["memgpt_lite-agent-state"] = "memgpt_lite-agent-state"
    format_version: int = STATE_VERSION
    config: ContextConfig
    system_prompt: str
    blocks: list[Block] = Field(default_factory=list)
    in_context_ids: list[str] = Field(default_factory=list)
    pending_ids: list[str] = Field(default_factory=list)
    """Messages being appended when the state was written: in context if recall has them, else never were."""
    summary: str = ""
    summary_at: datetime | None = None
    warned: bool = False
    counters: dict[str, int] = Field(default_factory=dict)
    last_tools_tokens: int = 0
    token_encoding: str = "cl100k_base"
    embedder: str | None = None
    """Name of the embedder archival storage was opened with, so a reopen picks the same one."""
    safety_margin: float
    extra: dict[str, Any] = Field(default_factory=dict)
    """Application data that must survive with the agent (e.g. the demo's turn number)."""
    updated_at: datetime = Field(default_factory=utcnow)
