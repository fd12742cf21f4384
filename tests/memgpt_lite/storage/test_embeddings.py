import numpy as np
import pytest

from memgpt_lite.errors import ConfigError, UsageError
from memgpt_lite.storage.embeddings import Embedder, HashingEmbedder, MiniLMEmbedder, default_embedder


@pytest.fixture(scope="module")
def minilm():
    return MiniLMEmbedder()


def test_minilm_shapes_and_norms(minilm):
    v = minilm.embed(["hello world", "a much longer sentence " * 20, ""])
    assert v.shape == (3, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert minilm.embed([]).shape == (0, 384)
    assert isinstance(minilm, Embedder)


def test_minilm_similar_sentences_are_closer(minilm):
    a, b, c, d = minilm.embed(
        [
            "A man is playing a guitar.",
            "Someone plays an acoustic guitar.",
            "The quarterly earnings report was released today.",
            "The company published its financial results.",
        ]
    )
    assert a @ b > 0.5 and c @ d > 0.4
    assert a @ b > a @ c + 0.3 and c @ d > b @ d + 0.3


def test_minilm_batching_and_dynamic_padding_do_not_change_vectors(minilm):
    texts = ["short", "a somewhat longer sentence about databases and indexes", "mid length text here"]
    together = minilm.embed(texts)
    alone = np.vstack([minilm.embed([t]) for t in texts])
    # int8 kernels are exact up to float summation order; padding is masked out of the mean
    assert np.allclose(together, alone, atol=2e-3)
    small_batches = MiniLMEmbedder(batch_size=1, workers=2).embed(texts)
    assert np.allclose(together, small_batches, atol=2e-3)
    sequential = MiniLMEmbedder(batch_size=1, workers=1, threads=2).embed(texts)
    assert np.allclose(sequential, small_batches, atol=2e-3)


def test_minilm_truncates_long_text(minilm):
    long = "word " * 2000
    assert minilm.embed([long]).shape == (1, 384)


def test_minilm_config_errors():
    for kw in ({"batch_size": 0}, {"threads": 0}, {"workers": 0}, {"max_length": 2}):
        with pytest.raises(ConfigError):
            MiniLMEmbedder(**kw)


def test_embed_rejects_single_string():
    with pytest.raises(UsageError):
        HashingEmbedder().embed("not a list")


def test_hashing_is_deterministic_and_lexical():
    h = HashingEmbedder()
    v = h.embed(["the login page crashes", "login page crash on submit", "bananas are yellow fruit"])
    assert np.array_equal(
        v,
        HashingEmbedder().embed(
            ["the login page crashes", "login page crash on submit", "bananas are yellow fruit"]
        ),
    )
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[1] > 0.3 > abs(v[0] @ v[2])
    assert h.embed(["same"])[0] @ h.embed(["same"])[0] == pytest.approx(1.0)
    assert h.embed([""]).shape == (1, 384)


def test_hashing_dim_and_name():
    h = HashingEmbedder(dim=64)
    assert h.embed(["x"]).shape == (1, 64) and h.name == "hashing-64"
    with pytest.raises(ConfigError):
        HashingEmbedder(dim=4)


def test_default_embedder_env(monkeypatch):
    monkeypatch.setenv("MEMGPT_LITE_EMBEDDER", "hashing")
    assert isinstance(default_embedder(), HashingEmbedder)
    monkeypatch.setenv("MEMGPT_LITE_EMBEDDER", "word2vec")
    with pytest.raises(ConfigError):
        default_embedder()
    monkeypatch.delenv("MEMGPT_LITE_EMBEDDER")
    assert default_embedder() is default_embedder()
    assert isinstance(default_embedder(), MiniLMEmbedder)


def test_minilm_embedders_of_one_process_share_one_loaded_model():
    # Loading the ONNX model costs ~0.7 s of CPU; a process that opens several memories pays once.
    from memgpt_lite.storage.embeddings import MiniLMEmbedder

    a, b = MiniLMEmbedder(), MiniLMEmbedder(batch_size=16)
    va, vb = a.embed(["the cents add up"]), b.embed(["the cents add up"])
    assert a._session is b._session and (va == vb).all()
    c = MiniLMEmbedder(threads=2)
    c.embed(["x"])
    assert c._session is not a._session, "another thread count is another session"
    assert a._tokenizer is not b._tokenizer, "tokenizers stay per instance (padding is set on them)"
