"""The storage benchmark functions run end to end at toy sizes (their numbers are not asserted:
speed claims come from `python -m benchmarks.memory`, not from timed tests)."""

import pytest

from benchmarks import storage as bench_storage


def test_recall_bench_runs_with_baseline():
    r = bench_storage.bench_recall_search(n=3000, queries=20)
    assert r["n"] == 3000 and r["queries"] == 20
    assert {"p50", "p95"} <= r.keys() and {"p50", "p95"} <= r["baseline_like_scan"].keys()
    assert r["median_total"] > 0  # the generated queries really match messages


def test_archival_bench_builds_caches_and_reuses_its_corpus(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMGPT_LITE_BENCH_CACHE", str(tmp_path))
    first = bench_storage.bench_archival_search(n=600, queries=10)
    assert {"p50", "p95"} <= first.keys() and "p50" in first["baseline_bruteforce"]
    assert (tmp_path / "archival-600-s0-v2" / "complete.npz").exists()
    again = bench_storage.bench_archival_search(n=600, queries=10)
    assert again["n"] == 600


@pytest.mark.slow
def test_embed_bench_runs_with_baseline():
    # the shape of the report, not a measurement: 4 sentences still pass through every section (the
    # 256-token padded baseline costs ~0.1 s a sentence); several batches in parallel: test_embeddings.py
    e = bench_storage.bench_embed(sentences=4)
    assert e["embed_per_s"] > 0 and e["baseline_padded_256_per_s"] > 0
    assert e["baseline_chroma_onnx_per_s"] is None
    assert set(e["batch_size_sweep_per_s"]) == {"8", "16", "32", "64"}


def test_a_run_waits_for_another_run_holding_the_cached_corpus(tmp_path, monkeypatch):
    # Two runs at once on one cached Chroma folder corrupted it: the corpus is used under its store
    # lock, and a run that cannot get it within its bounded wait stops with the holder's name.
    import subprocess
    import sys
    import time

    from memgpt_lite.errors import StoreError

    monkeypatch.setenv("MEMGPT_LITE_BENCH_CACHE", str(tmp_path))
    root = bench_storage._corpus_root(600, 0)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from pathlib import Path; from memgpt_lite.storage.lock import StoreLock; "
         f"StoreLock(Path({str(root.parent)!r}) / {root.name + '.lock'!r}, 'x').acquire(); print('held', flush=True); time.sleep(30)"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        monkeypatch.setattr(bench_storage, "CACHE_LOCK_WAIT_S", 0.3)
        started = time.monotonic()
        with pytest.raises(StoreError, match="in use"):
            bench_storage.bench_archival_search(n=600, queries=2)
        assert time.monotonic() - started < 10
        assert not root.exists()  # nothing was built while another run held it
    finally:
        holder.kill()
        holder.wait()
    assert bench_storage.bench_archival_search(n=600, queries=2)["n"] == 600
