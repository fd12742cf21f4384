"""Storage benchmarks: recall search, archival scored search and embedding throughput
(`python -m benchmarks.memory` runs them after the context step).

Each returns its numbers together with a baseline measured in the same run:
- recall: FTS5 + bm25 `RecallStore.search` vs a LIKE scan over the same table (substring search);
- archival: `ArchivalStore.search` (HNSW candidates + Generative-Agents scoring + access update)
  vs brute force — numpy cosine and scoring over every passage held in memory;
- embedding: `MiniLMEmbedder` (dynamic padding) vs the same model padded to 256 tokens
  (Chroma's bundled ONNX function cannot be measured offline: it downloads its model).

The archival corpus (100k passages, hashing-embedder vectors) takes about a minute to index in
Chroma, so it is built once and cached under `$MEMGPT_LITE_BENCH_CACHE` (default
`~/.cache/memgpt_lite/bench`); later runs reuse it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from memgpt_lite.errors import StoreError
from memgpt_lite.messages import Message, TextPart
from memgpt_lite.retrieval import ScoreWeights, rank, score
from memgpt_lite.storage.archival import ArchivalStore
from memgpt_lite.storage.embeddings import HashingEmbedder, MiniLMEmbedder
from memgpt_lite.storage.fts import STOP_WORDS
from memgpt_lite.storage.lock import StoreLock
from memgpt_lite.storage.passages import NewPassage
from memgpt_lite.storage.recall import RecallStore
from memgpt_lite.storage.sqlite import open_sqlite_readonly

Progress = Callable[[str], None]

_WORDS = """time person year way day thing man world life hand part child eye woman place work week case point
government company number group problem fact garden painting music guitar camping hiking beach dog cat puppy
school class teacher book novel poem story movie film concert festival museum park lake mountain river forest
city trip vacation flight hotel train car bike race marathon yoga gym dinner lunch breakfast recipe cake pie
pizza pasta salad coffee tea wine birthday wedding party friend family sister brother mother father daughter son
grandma job career interview promotion office meeting project deadline report code bug release version server
database login password settings profile article comment editor feed tag follow favorite photo camera sunset
painting pottery workshop volunteer shelter charity counseling support group adoption transition identity pride
parade speech conference research paper study exam degree college university scholarship award prize game
soccer basketball tennis chess piano violin drums dance song album band singer artist gallery sculpture mural
bakery market store shopping gift card letter email phone call message news weather rain snow storm summer
winter spring autumn holiday christmas halloween thanksgiving anniversary graduation retirement move house
apartment kitchen bedroom window door roof paint furniture plant flower tree seed harvest tomato basil herb""".split()


def _vocab() -> tuple[list[str], np.ndarray]:
    words = list(dict.fromkeys(_WORDS)) + [f"term{i}" for i in range(3000)]
    ranks = np.arange(1, len(words) + 1, dtype=np.float64)
    p = 1.0 / ranks**1.05  # Zipf-like: a few words everywhere, most words rare
    return words, p / p.sum()


def _sentences(n: int, rng: np.random.Generator) -> list[str]:
    words, p = _vocab()
    lengths = rng.integers(6, 26, size=n)
    picks = rng.choice(len(words), size=int(lengths.sum()), p=p)
    out, at = [], 0
    fillers = ["the", "and", "a", "to", "was", "with", "my"]
    for k in lengths:
        chunk = [words[i] for i in picks[at : at + k]]
        at += k
        chunk.insert(len(chunk) // 2, fillers[k % len(fillers)])
        out.append(" ".join(chunk))
    return out


def _queries(n: int, rng: np.random.Generator) -> list[str]:
    """1-3 content words, as an agent would ask ("camping dog", "painting workshop")."""
    content = [w for w in dict.fromkeys(_WORDS) if w not in STOP_WORDS]
    return [" ".join(rng.choice(content, size=int(rng.integers(1, 4)), replace=False)) for _ in range(n)]


def _pct(samples: list[float]) -> dict[str, float]:
    arr = np.asarray(samples) * 1000.0
    return {"p50": round(float(np.percentile(arr, 50)), 3), "p95": round(float(np.percentile(arr, 95)), 3)}


def _noop(_: str) -> None:
    pass


# -- recall ---------------------------------------------------------------------------------------
def bench_recall_search(
    n: int = 100_000, queries: int = 200, seed: int = 0, progress: Progress = _noop
) -> dict[str, Any]:
    """p50/p95 ms of `RecallStore.search` (page 0, 10 per page, true total) over `n` messages."""
    rng = np.random.default_rng(seed)
    tmp = Path(tempfile.mkdtemp(prefix="memgpt-bench-recall-"))
    try:
        store = RecallStore(tmp / "recall.sqlite")
        t0 = datetime(2024, 1, 1, tzinfo=UTC)
        progress(f"recall: writing {n:,} messages")
        started = time.perf_counter()
        batch = 10_000
        for start in range(0, n, batch):
            texts = _sentences(min(batch, n - start), rng)
            store.extend(_message(start + i, t, t0) for i, t in enumerate(texts))
            progress(f"recall: wrote {start + len(texts):,}/{n:,} messages")
        ingest_s = time.perf_counter() - started
        qs = _queries(queries, rng)
        progress(f"recall: {len(qs)} searches")
        store.search(qs[0])  # warm the page cache
        samples, totals = [], []
        for q in qs:
            t = time.perf_counter()
            page = store.search(q, page_size=10)
            samples.append(time.perf_counter() - t)
            totals.append(page.total)
        filtered = []
        for q in qs[:50]:
            t = time.perf_counter()
            store.search(
                q, roles=["user"], start_date=t0 + timedelta(days=10), end_date=t0 + timedelta(days=50)
            )
            filtered.append(time.perf_counter() - t)
        store.close()
        progress("recall: LIKE-scan baseline")
        baseline = _like_baseline(tmp / "recall.sqlite", qs[:20])
        return {
            **_pct(samples),
            "filtered": _pct(filtered),
            "baseline_like_scan": _pct(baseline),
            "n": n,
            "queries": len(qs),
            "median_total": int(np.median(totals)),
            "ingest_per_s": round(n / ingest_s),
        }
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _like_baseline(path: Path, qs: list[str]) -> list[float]:
    """What a recall store without a text index does: substring-match every row, newest first.

    Raw, read-only SQL on purpose: this baseline measures the database itself, not a store."""
    db = open_sqlite_readonly(path, "recall database", check=False)
    out = []
    for q in qs:
        terms = [w for w in q.split() if w]
        cond = " OR ".join("text LIKE ?" for _ in terms)
        args = [f"%{w}%" for w in terms]
        t = time.perf_counter()
        db.execute(f"SELECT count(*) FROM messages WHERE {cond}", args).fetchone()
        db.execute(
            f"SELECT json FROM messages WHERE {cond} ORDER BY created_at DESC LIMIT 10", args
        ).fetchall()
        out.append(time.perf_counter() - t)
    db.close()
    return out


def _message(i: int, text: str, t0: datetime) -> Message:
    role = "user" if i % 2 == 0 else "assistant"
    speaker = ("Ann", "Bob")[i % 4 // 2] if role == "user" else "Bot"
    return Message(
        role=role,
        parts=[TextPart(text=text)],
        created_at=t0 + timedelta(minutes=i),
        meta={"speaker": speaker},
    )


# -- archival -------------------------------------------------------------------------------------
_CORPUS_VERSION = 2
_TAGS = ("bug", "page", "note", "fact", "plan")


def _cache_root() -> Path:
    return Path(os.environ.get("MEMGPT_LITE_BENCH_CACHE", Path.home() / ".cache" / "memgpt_lite" / "bench"))


def _corpus_root(n: int, seed: int) -> Path:
    return _cache_root() / f"archival-{n}-s{seed}-v{_CORPUS_VERSION}"


CACHE_LOCK_WAIT_S = 1800.0
"""How long a run waits for another run using the same cached corpus (building it takes minutes)."""


@contextmanager
def _corpus_lock(root: Path, progress: Progress, wait_s: float | None = None) -> Iterator[None]:
    """Hold the cached corpus's store lock (`StoreLock`, as every store is opened) while it is built or
    searched: two runs at once on one Chroma folder corrupted it ("Failed to apply logs to the hnsw
    segment writer"). A second run waits, at most `wait_s`, then stops with the first run's name."""
    root.parent.mkdir(parents=True, exist_ok=True)
    lock = StoreLock(root.parent / f"{root.name}.lock", "benchmark cache")
    wait_s = CACHE_LOCK_WAIT_S if wait_s is None else wait_s
    deadline = time.monotonic() + wait_s
    waited = False
    while True:
        try:
            lock.acquire()
            break
        except StoreError:
            if time.monotonic() >= deadline:
                raise
            if not waited:
                progress(
                    f"archival: {root} is in use by another run; waiting for it (at most {wait_s:.0f} s)"
                )
                waited = True
            time.sleep(0.5)
    try:
        yield
    finally:
        lock.release()


def _archival_corpus(
    n: int, seed: int, progress: Progress
) -> tuple[Path, np.ndarray, np.ndarray, np.ndarray]:
    """A Chroma store of `n` passages plus their vectors, importances and access times (for the baseline).
    The caller holds `_corpus_lock(_corpus_root(n, seed))`."""
    root = _corpus_root(n, seed)
    done = root / "complete.npz"
    if done.exists():
        progress(f"archival: the corpus of {n:,} passages is cached in {root}")
        data = np.load(done)
        return root / "store", data["vectors"], data["importance"], data["accessed"]
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    progress(f"archival: indexing {n:,} passages into {root} (once; later runs reuse it)")
    rng = np.random.default_rng(seed)
    embedder = HashingEmbedder()
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    texts = _sentences(n, rng)
    importance = rng.integers(1, 11, size=n)
    created = np.sort(rng.uniform(0, 365 * 24 * 3600, size=n))
    vectors = np.empty((n, embedder.dim), dtype=np.float32)
    started = time.perf_counter()
    with ArchivalStore(root / "store", embedder) as store:
        batch = 5000
        for start in range(0, n, batch):
            end = min(n, start + batch)
            vectors[start:end] = embedder.embed(texts[start:end])
            items = [
                NewPassage(
                    content=texts[i],
                    importance=int(importance[i]),
                    tags=[_TAGS[i % len(_TAGS)]],
                    created_at=t0 + timedelta(seconds=float(created[i])),
                )
                for i in range(start, end)
            ]
            store.insert_many(items, embeddings=vectors[start:end])
            progress(f"archival: indexed {end:,}/{n:,} passages ({time.perf_counter() - started:.0f} s)")
    accessed = created + t0.timestamp()
    np.savez(done, vectors=vectors, importance=importance, accessed=accessed)
    return root / "store", vectors, importance, accessed


def bench_archival_search(
    n: int = 100_000, queries: int = 100, seed: int = 0, progress: Progress = _noop
) -> dict[str, Any]:
    """p50/p95 ms of `ArchivalStore.search` (query embedding, HNSW top-100 candidates, scoring, paging,
    access update) over `n` passages, vs brute-force numpy cosine + scoring over all passages. The
    cached corpus is built and searched under its lock (`_corpus_lock`)."""
    with _corpus_lock(_corpus_root(n, seed), progress):
        return _archival_search(n, queries, seed, progress)


def _archival_search(n: int, queries: int, seed: int, progress: Progress) -> dict[str, Any]:
    store_path, vectors, importance, accessed = _archival_corpus(n, seed, progress)
    rng = np.random.default_rng(seed + 1)
    qs = _queries(queries, rng)
    now = datetime(2025, 1, 15, tzinfo=UTC)
    embedder = HashingEmbedder()
    with ArchivalStore(store_path, embedder) as store:
        for q in qs[:5]:  # warm the index into memory
            store.search(q, now=now)
        progress(f"archival: {len(qs)} scored searches")
        samples = []
        for q in qs:
            t = time.perf_counter()
            store.search(q, now=now)
            samples.append(time.perf_counter() - t)
        tagged, dated = [], []
        for q in qs[:20]:  # a tag on 20% of the passages
            t = time.perf_counter()
            store.search(q, tags=["bug"], now=now)
            tagged.append(time.perf_counter() - t)
        for k, q in enumerate(qs[:20]):  # a new date bound every time: the total is counted afresh
            t = time.perf_counter()
            store.search(q, since=datetime(2024, 1, 1 + k, tzinfo=UTC), now=now)
            dated.append(time.perf_counter() - t)
        # Quality of the candidates: by relevance alone, does the top 10 match exact cosine search?
        # (Meaning only: with words fused in, the top 10 is meant to differ from the cosine top 10.)
        relevance_only = ScoreWeights(recency=0, importance=0, relevance=1)
        store.lexical_weight = 0.0
        overlap = []
        for q in qs[:20]:
            hits = store.search(q, now=now, weights=relevance_only).items
            cos = vectors @ embedder.embed([q])[0]
            tenth = float(np.sort(cos)[-10])  # ties at the boundary make any of them a right answer
            overlap.append(sum(h.cosine >= tenth - 1e-5 for h in hits) / 10)
        store.flush()
    progress("archival: brute-force baseline")
    baseline = []
    hours_all = (now.timestamp() - accessed) / 3600.0
    for q in qs[:30]:
        t = time.perf_counter()
        qv = embedder.embed([q])[0]
        cos = vectors @ qv
        s = score(hours_all, importance, cos)
        rank(s)[:10]
        baseline.append(time.perf_counter() - t)
    return {
        **_pct(samples),
        "filtered_by_tag": _pct(tagged),
        "filtered_by_new_date": _pct(dated),
        "baseline_bruteforce": _pct(baseline),
        "n": n,
        "queries": len(qs),
        "candidates": 100,
        "recall_at_10_vs_exact_cosine": round(float(np.mean(overlap)), 3),
        "embedder": embedder.name,
    }


# -- embeddings -----------------------------------------------------------------------------------
def bench_embed(sentences: int = 1000, seed: int = 0, progress: Progress = _noop) -> dict[str, Any]:
    """Short sentences per second through `MiniLMEmbedder` (dynamic padding, sorted batches), the
    per-batch-size sweep behind its default, single-query latency, and the same model padded to
    256 tokens as the baseline. Chroma's own ONNX function downloads its model, so it is not run."""
    texts = _sentences(sentences, np.random.default_rng(seed))
    emb = MiniLMEmbedder()
    emb.embed(texts[:64])  # load the model and warm up
    progress(f"embed: {len(texts)} sentences")
    t, cpu = time.perf_counter(), time.process_time()
    emb.embed(texts)
    per_s = len(texts) / (time.perf_counter() - t)
    # CPU seconds do not grow when other processes share the cores; wall time does.
    per_cpu_s = len(texts) / max(1e-9, time.process_time() - cpu)
    sweep = {}
    for bs in (8, 16, 32, 64):
        e = MiniLMEmbedder(batch_size=bs)
        e.embed(texts[:16])
        subset = texts[:300]
        t = time.perf_counter()
        e.embed(subset)
        sweep[str(bs)] = round(len(subset) / (time.perf_counter() - t), 1)
    lat = []
    for q in texts[:50]:
        t = time.perf_counter()
        emb.embed([q])
        lat.append(time.perf_counter() - t)
    progress("embed: fixed-length padding baseline")
    padded = MiniLMEmbedder()
    padded._load()
    padded._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]", length=256)
    subset = texts[:64]
    t = time.perf_counter()
    padded.embed(subset)
    padded_per_s = len(subset) / (time.perf_counter() - t)
    return {
        "embed_per_s": round(per_s, 1),
        "embed_per_cpu_s": round(per_cpu_s, 1),
        "baseline_padded_256_per_s": round(padded_per_s, 1),
        "baseline_chroma_onnx_per_s": None,
        "batch_size_sweep_per_s": sweep,
        "query_ms": _pct(lat),
        "sentences": len(texts),
        "cpus": os.cpu_count(),
        "load_average_1m": round(os.getloadavg()[0], 2),
    }
