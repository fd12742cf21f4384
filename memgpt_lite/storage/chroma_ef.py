"""Our embedders as a Chroma `EmbeddingFunction`, so Chroma never falls back to its default one.

Chroma's default function downloads a model on first use; we always pass vectors ourselves, but a
collection is still opened with this adapter so no code path (ours or a user's `collection.query(
query_texts=...)`) can trigger that download.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
from chromadb.utils.embedding_functions import register_embedding_function

from memgpt_lite.errors import ConfigError, StoreError
from memgpt_lite.storage.embeddings import Embedder, embedder_named


@register_embedding_function
class ChromaEmbeddingFunction(EmbeddingFunction[Documents]):
    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder

    def __call__(self, input: Documents) -> Embeddings:
        return list(np.asarray(self.embedder.embed(list(input)), dtype=np.float32))

    @staticmethod
    def name() -> str:
        return "memgpt_lite"

    def default_space(self) -> Any:
        return "cosine"

    def supported_spaces(self) -> Any:
        return ["cosine"]

    def get_config(self) -> dict[str, Any]:
        return {"embedder": self.embedder.name, "dim": self.embedder.dim}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> ChromaEmbeddingFunction:
        name = str(config.get("embedder", ""))
        try:
            return ChromaEmbeddingFunction(embedder_named(name))
        except StoreError:
            raise ConfigError(
                f"collection was built with embedder {name!r}, which memgpt_lite cannot rebuild; pass it explicitly"
            ) from None
