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
