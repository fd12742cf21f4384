"""Helpers every embedder shares: input checks and L2 normalisation."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memgpt_lite.errors import UsageError


def check_texts(texts: Sequence[str]) -> list[str]:
    if isinstance(texts, str):
        raise UsageError("embed() takes a list of texts, not a single string")
    out = list(texts)
    for t in out:
        if not isinstance(t, str):
            raise UsageError(f"embed() takes texts, got {type(t).__name__}")
    return out


def normalise(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    out: np.ndarray = (rows / np.clip(norms, 1e-12, None)).astype(np.float32, copy=False)
    return out
