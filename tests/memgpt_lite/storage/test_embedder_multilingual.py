"""The multilingual embedder (USE multilingual v3) and how a store remembers its embedder."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from memgpt_lite.errors import ConfigError, StoreError
from memgpt_lite.memory import AgentMemory
from memgpt_lite.messages import Message
from memgpt_lite.search import recall_search
from memgpt_lite.storage.archival import ArchivalStore
from memgpt_lite.storage.embeddings import (
    Embedder,
    HashingEmbedder,
    MiniLMEmbedder,
    QueryVectors,
    default_embedder,
    describe_embedder,
    embedder_named,
    make_embedder,
)
from memgpt_lite.storage.multilingual import MultilingualEmbedder

PAIRS = [  # an English record and a Chinese question about it
    ("The save button on the settings page does nothing", "设置页面上的保存按钮没有反应"),
    ("We decided not to fix the export crash", "我们决定不修复导出崩溃的问题"),
    ("Which file holds the root cause of the pagination bug?", "分页错误的根本原因在哪个文件里？"),
]
UNRELATED = "我们周末去爬山了，天气很好"  # "we went hiking at the weekend, the weather was fine"


@pytest.fixture(scope="module")
def multilingual() -> Embedder:
    return make_embedder("multilingual")


def cosines(embedder: Embedder) -> tuple[list[float], list[float]]:
    para, unrel = [], []
    for en, zh in PAIRS:
        a, b, c = embedder.embed([en, zh, UNRELATED])
        para.append(float(a @ b))
        unrel.append(float(a @ c))
    return para, unrel


def test_vectors_are_unit_rows_of_the_declared_size(multilingual):
    rows = multilingual.embed(["one", "两个", ""])
    assert rows.shape == (3, 512) and rows.dtype == np.float32
    assert np.allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)
    assert multilingual.embed([]).shape == (0, 512)


def test_english_and_chinese_paraphrases_meet(multilingual):
    para, unrel = cosines(multilingual)
    assert min(para) > 0.5 and max(unrel) < 0.3
    assert all(p > u + 0.3 for p, u in zip(para, unrel, strict=True))


def test_minilm_cannot_tell_them_apart():
    """Why the multilingual embedder exists: MiniLM scores a translation no higher than unrelated text."""
    para, _ = cosines(make_embedder("minilm"))
    assert max(para) < 0.35


def test_choices_names_and_the_environment(monkeypatch, multilingual):
    assert make_embedder("multilingual") is multilingual  # one weight table per process
    assert isinstance(make_embedder("minilm"), MiniLMEmbedder)
    assert isinstance(make_embedder("hashing"), HashingEmbedder)
    with pytest.raises(ConfigError, match="minilm, multilingual, hashing"):
        make_embedder("e5")
    assert embedder_named(MultilingualEmbedder.name) is multilingual
    assert embedder_named("hashing-64").dim == 64
    with pytest.raises(StoreError, match="cannot rebuild"):
        embedder_named("my-custom-embedder")
    assert describe_embedder(MultilingualEmbedder.name) == "--embedder multilingual"
    monkeypatch.setenv("MEMGPT_LITE_EMBEDDER", "multilingual")
    assert default_embedder() is multilingual
    monkeypatch.setenv("MEMGPT_LITE_EMBEDDER", "nope")
    with pytest.raises(ConfigError):
        default_embedder()


def test_archival_search_finds_english_records_for_a_chinese_question(tmp_path, multilingual):
    records = [
        "Decision BH-142: the pager bug is in app/search/pager.py; fix it by counting from zero.",
        "Release 1.3 notes: the settings form saves again.",
        "Daily note: lunch with the team, nothing about bugs.",
        "The export page crashes when the list is empty (BH-150).",
    ]
    # One fixed instant for every write, search and access (`created_at=`, `now=`): with the wall clock,
    # recency — min-max stretched over milliseconds, weighed like relevance — ranked by how long each
    # insert took (a pause before the last insert put the settings record third). The same instant for
    # all makes recency a tie, so what is found is found by meaning.
    at = datetime(2026, 1, 1, tzinfo=UTC)
    with ArchivalStore(tmp_path / "archival", multilingual) as store:
        for text in records:
            store.insert(text, importance=5, created_at=at)
        # did export crash on empty?
        hits = store.search("导出页面在列表为空时崩溃了吗？", page_size=2, now=at)
        assert hits.items[0].passage.content == records[3]
        # does the settings form save now?
        hits = store.search("设置表单现在能保存了吗？", page_size=2, now=at)
        assert records[1] in [h.passage.content for h in hits.items]


def test_recall_search_with_the_multilingual_embedder(tmp_path, multilingual):
    with AgentMemory.open(tmp_path / "s", embedder=multilingual) as memory:
        for text in (
            "I adopted a puppy called Biscuit",
            "The quarterly report is due on Friday",
            "I like tea",
        ):
            memory.append(Message.user(text))
        hits = recall_search(memory).search("我的小狗叫什么名字？", page_size=1)  # what is my puppy called?
        assert "Biscuit" in hits.items[0].message.text


def test_a_store_remembers_its_embedder(tmp_path):
    path = tmp_path / "s"
    AgentMemory.open(path, embedder=HashingEmbedder(dim=64)).close()  # recorded at creation
    with AgentMemory.open(path) as memory:
        assert memory.embedder is not None and memory.embedder.name == "hashing-64"
    with pytest.raises(StoreError, match="holds vectors of embedder 'hashing-64'") as err:
        AgentMemory.open(path, embedder=HashingEmbedder(dim=128))
    assert "\n" not in str(err.value) and "--embedder hashing" in str(err.value)
    with AgentMemory.open(path, embedder=HashingEmbedder(dim=64)) as memory:  # the same one is fine
        assert memory.embedder.name == "hashing-64"


class PrefixedEmbedder:
    """An E5-style embedder: queries and passages are encoded differently."""

    name, dim = "prefixed-test", 16

    def __init__(self) -> None:
        self.inner = HashingEmbedder(dim=16)
        self.queries: list[str] = []

    def embed(self, texts):
        return self.inner.embed([f"passage {t}" for t in texts])

    def embed_queries(self, texts):
        self.queries += list(texts)
        return self.inner.embed([f"query {t}" for t in texts])


def test_searches_embed_queries_as_queries_when_the_embedder_says_how():
    embedder = PrefixedEmbedder()
    vectors = QueryVectors(embedder)
    got = vectors("where is the pager bug")
    assert embedder.queries == ["where is the pager bug"]
    assert np.allclose(got, embedder.inner.embed(["query where is the pager bug"])[0])


@pytest.mark.slow
def test_layer1_retrieval_with_the_multilingual_embedder(tmp_path, multilingual):
    """Layer 1's retrieval measure on a case set with Chinese questions: the fixture is built with the
    multilingual embedder, the store remembers it, and the agent's search finds Chinese questions'
    English evidence that MiniLM misses (benchmarks.embedders: heldout2, MiniLM 2 of 5, USE 4 of 5)."""
    import re
    from pathlib import Path

    from evals.case_schema import load_cases
    from evals.fixture import write_fixture
    from evals.fixture_records import records_files_for
    from evals.layer1 import run_layer1

    cases_dir = Path(__file__).resolve().parents[3] / "evals" / "datasets" / "heldout2"
    store = tmp_path / "store"
    manifest = write_fixture(store, embedder="multilingual", records=records_files_for(cases_dir))
    assert manifest.embedder == "multilingual"
    with AgentMemory.open(store, create=False, read_only=True) as memory:
        assert memory.state().embedder == MultilingualEmbedder.name
    run = run_layer1(load_cases(cases_dir), store, str(cases_dir))
    assert run.embedder == "multilingual"
    chinese = [r for r in run.results if re.search(r"[\u3400-\u9fff]", r.case.question)]
    found = sum(len(r.retrieval["found"]) for r in chinese)
    wanted = sum(len(r.retrieval["evidence"]) for r in chinese)
    assert wanted == 5 and found > 2
