"""Storage: the store directory, recall (SQLite + FTS5), archival (Chroma) and embeddings."""

from memgpt_lite.storage.archival import ArchivalStore
from memgpt_lite.storage.directory import StoreDirectory, atomic_write_json, read_json
from memgpt_lite.storage.embeddings import Embedder, HashingEmbedder, MiniLMEmbedder, default_embedder
from memgpt_lite.storage.pages import Page
from memgpt_lite.storage.passages import NewPassage, Passage, ScoredPassage
from memgpt_lite.storage.recall import RecallHit, RecallStore

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
