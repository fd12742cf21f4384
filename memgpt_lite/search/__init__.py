"""Hybrid retrieval over recall storage: FTS5 bm25 and MiniLM embeddings, over messages and windows."""

from memgpt_lite.search.config import HybridConfig
from memgpt_lite.search.hybrid import INDEX_FILE, VIEWS, HybridSearch, Ranked, recall_search
from memgpt_lite.search.index import RecallIndex
from memgpt_lite.search.views import message_view

__all__ = [
    "INDEX_FILE",
    "VIEWS",
    "HybridConfig",
    "HybridSearch",
    "Ranked",
    "RecallIndex",
    "message_view",
    "recall_search",
]
