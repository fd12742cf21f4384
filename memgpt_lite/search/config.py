"""How the hybrid retriever weighs its four views of recall storage.

The defaults are the measured choice on the LoCoMo dev conversations (see docs/locomo.md): each view
min-max normalised, equal weights, windows of two messages either side that never cross a pause of
more than half an hour (a new sitting of the conversation).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class HybridConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    lexical: float = Field(1.0, ge=0)
    """FTS5 bm25 of the message itself (recall storage's own full-text search)."""
    dense: float = Field(1.0, ge=0)
    """Cosine of the query and the message's embedding (`speaker: text`)."""
    window_lexical: float = Field(1.0, ge=0)
    """FTS5 bm25 of the message's window (it and its neighbours as one document)."""
    window_dense: float = Field(1.0, ge=0)
    """Cosine of the query and the mean embedding of the message's window."""
    radius: int = Field(2, ge=0, le=20)
    """Neighbours on each side in a window. An answer often only makes sense with the question before it."""
    session_gap_minutes: float = Field(30.0, gt=0)
    """A longer pause between two messages starts a new session; windows stay inside one session."""
    dense_candidates: int = Field(100, ge=1)
    """Messages the dense views add to the lexical matches as candidates (the rest rank below them)."""
    speaker_boost: float = Field(0.0, ge=0)
    """Added to the messages of the one speaker a query names ("what did Ann paint?"). Off by default:
    on LoCoMo it gains +0.02 frac@10 on categories 1-4 and loses more on adversarial questions, which
    name the wrong person on purpose (docs/locomo.md)."""
    lexical_pool: int = Field(1000, ge=1, le=1000)
    """Most lexical matches taken from recall storage per query (its page-size limit)."""

    def weights(self) -> tuple[float, float, float, float]:
        return (self.lexical, self.dense, self.window_lexical, self.window_dense)
