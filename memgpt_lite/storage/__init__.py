"""Storage: the store directory, recall (SQLite + FTS5), archival (Chroma) and embeddings.

The names below are loaded on first use (PEP 562): importing one light submodule (`storage.lock`,
`storage.directory`) must not import Chroma and onnxruntime, which take about a second — every
`bughunt`/`memgpt-lite` command start-up paid for it, `--help` included.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memgpt_lite.lazy_names import lazy_names

if TYPE_CHECKING:
    from memgpt_lite.storage.archival import ArchivalStore
    from memgpt_lite.storage.directory import StoreDirectory, atomic_write_json, read_json
    from memgpt_lite.storage.embeddings import Embedder, HashingEmbedder, MiniLMEmbedder, default_embedder
    from memgpt_lite.storage.pages import Page
    from memgpt_lite.storage.passages import NewPassage, Passage, ScoredPassage
    from memgpt_lite.storage.recall import RecallHit, RecallStore

_SUBMODULE: dict[str, str] = {
    "ArchivalStore": ".archival",
    "Embedder": ".embeddings",
    "HashingEmbedder": ".embeddings",
    "MiniLMEmbedder": ".embeddings",
    "NewPassage": ".passages",
    "Page": ".pages",
    "Passage": ".passages",
    "RecallHit": ".recall",
    "RecallStore": ".recall",
    "ScoredPassage": ".passages",
    "StoreDirectory": ".directory",
    "atomic_write_json": ".directory",
    "default_embedder": ".embeddings",
    "read_json": ".directory",
}

__all__ = [
    "ArchivalStore",
    "Embedder",
    "HashingEmbedder",
    "MiniLMEmbedder",
    "NewPassage",
    "Page",
    "Passage",
    "RecallHit",
    "RecallStore",
    "ScoredPassage",
    "StoreDirectory",
    "atomic_write_json",
    "default_embedder",
    "read_json",
]


__getattr__, __dir__ = lazy_names(__name__, _SUBMODULE)
