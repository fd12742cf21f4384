"""The context window's size and thresholds (shared by the queue manager and the persisted state)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator


class ContextConfig(BaseModel):
    """Window size and thresholds, as fractions of the window."""

    model_config = ConfigDict(extra="forbid")

    context_window: int = Field(gt=0)
    warning: float = 0.70
    flush: float = 1.00
    evict_to: float = 0.50
    provider_counts: bool = False
    """When a model is given, calibrate the token margin from its count-tokens endpoint on every prepare."""

    @model_validator(mode="after")
    def _ordered(self) -> ContextConfig:
        if not (0.0 < self.evict_to < self.warning <= self.flush <= 1.0):
            raise ValueError(
                "thresholds must satisfy 0 < evict_to < warning <= flush <= 1 "
                f"(got evict_to={self.evict_to}, warning={self.warning}, flush={self.flush})"
            )
        return self
