"""The simulator against the seed script: generator draws, eviction, strategies, paths and aggregates.

Expected values were produced by the seed's own script (`../shared/seeds/001_*.txt`, section 代码)."""

from __future__ import annotations

import statistics

import pytest

from bughunt.sim.engine import RunConfig, SimSite, run
from bughunt.sim.memory import Memory
from bughunt.sim.rng import derive_seed, mulberry32, pick
from bughunt.sim.strategies import frontier_strategy, random_strategy, visited_strategy
from memgpt_lite.errors import ConfigError
from tests.support.known_links import KnownTable


def test_mulberry32_known_outputs():
    r = mulberry32(1000)
    assert [r() for _ in range(5)] == [
        0.7951949068810791,
        0.8276879135519266,
        0.6915161057841033,
        0.8805752142798156,
        0.017807392636314034,
    ]
    r = mulberry32(0)
    assert [r() for _ in range(3)] == [0.26642920868471265, 0.0003297457005828619, 0.2232720274478197]
    r = mulberry32(2**32 + 5)  # seeds wrap to 32 bits
    assert [r() for _ in range(2)] == [0.6897749109193683, 0.7727432732935995]


def test_pick_is_floor_of_draw_times_length():
    r = mulberry32(1000)  # first draw 0.795...
    assert pick(r, ["a", "b", "c", "d"]) == "d"
    assert derive_seed(1234, 0) == 1234
    assert derive_seed(1234, 1) != derive_seed(1234, 2)


@pytest.mark.parametrize(
    ("policy", "writes", "expected"),
    [
        ("fifo", [0, 4, 3, 0, 5, 14], [3, 5, 14]),
        ("lru", [0, 4, 3, 0, 5, 14], [0, 5, 14]),  # revisiting 0 saved it
    ],
)
def test_eviction_fifo_lru(policy, writes, expected):
    m = Memory(3, policy)
    for p in writes:
        m.write(p, (p,))
    assert list(m) == expected
    assert m.evictions == 2


def test_random_eviction_draws_from_the_run_generator():
    m = Memory(3, "random", mulberry32(7))
    for p in [0, 4, 3, 5, 14, 0, 3]:
        m.write(p, ())
    assert list(m) == [3, 5, 0]  # the seed's Memory gives the same
    assert Memory(None, "random").capacity is None


def test_memory_rejects_bad_settings():
    with pytest.raises(ConfigError, match="capacity"):
        Memory(0, "fifo")
    with pytest.raises(ConfigError, match="eviction"):
        Memory(3, "mru")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="eviction"):
        RunConfig("frontier", capacity=3, eviction="mru")  # type: ignore[arg-type]


def test_policy_is_the_deprecated_name_of_eviction():
    old, new = (
        RunConfig("frontier", capacity=6, policy="lru"),
        RunConfig("frontier", capacity=6, eviction="lru"),
    )
    assert old == new and old.eviction == "lru" and old.policy is None
    assert run(old, 1003).path == run(new, 1003).path


def test_strategies_on_a_small_graph():
    # a -> b, c ; b -> a ; c -> a, d ; d unknown. Memory knows a, b, c.
    known = KnownTable({"a": ("b", "c"), "b": ("a",), "c": ("a", "d")})
    r = mulberry32(1000)
    assert random_strategy("a", ("b", "c"), known, r) == "c"  # 0.795 * 2 -> 1
    # all neighbours of b remembered: visited draws among all links
    assert visited_strategy("b", ("a",), known, mulberry32(1)) == "a"
    # frontier walks b -> a -> c -> d and steps to a, without a draw
    r = mulberry32(1)
    assert frontier_strategy("b", ("a",), known, r) == "a"
    assert r() == mulberry32(1)()  # no draw was consumed
    # everything reachable is remembered: frontier stops
    assert frontier_strategy("b", ("a",), KnownTable({"a": ("b",), "b": ("a",)}), r) is None


def test_frontier_prefers_an_unremembered_neighbour():
    known = KnownTable({"a": ("b", "x")})
    assert frontier_strategy("a", ("b", "x"), known, mulberry32(3)) in {"b", "x"}


def test_seed_paths():
    assert run(RunConfig("frontier"), 1000).path == [
        0, 12, 18, 5, 7, 4, 3, 20, 21, 0, 14, 15, 0, 10, 0, 1, 2, 0, 11, 16, 17, 0, 8, 9, 0, 22, 23, 5, 6, 0, 12,
    ]  # fmt: skip
    assert run(RunConfig("visited"), 1000).path == [
        0, 12, 18, 5, 7, 4, 3, 20, 21, 5, 6, 16, 17, 16, 5, 3, 0, 2, 1, 3, 20, 4, 14, 15, 4, 0, 8, 9, 8, 16, 17,
    ]  # fmt: skip
    assert run(RunConfig("frontier", capacity=12, policy="random"), 1003).path == [
        0, 1, 4, 14, 18, 19, 5, 6, 16, 17, 3, 20, 21, 0, 2, 0, 22, 23, 4, 5, 7, 3, 20, 21, 5, 0, 10, 12, 13, 0, 22,
    ]  # fmt: skip
    assert run(RunConfig("frontier", capacity=4, policy="lru"), 1003).path == [
        0, 1, 4, 14, 18, 5, 7, 4, 14, 18, 0, 1, 2, 3, 4, 14, 18, 0, 2, 4, 5, 3, 20, 21, 4, 14, 0, 8, 9, 16, 18,
    ]  # fmt: skip


def test_seed_1000_without_memory():
    r = run(RunConfig("random"), 1000)
    assert r.coverage == 12 / 24
    assert r.path.count(0) - 1 == 6 and r.path.count(5) - 1 == 4  # Home, My Profile revisits
    assert 21 not in r.path
    assert (r.reports, r.bugs_found, r.duplicate_reports) == (4, 2, 2)
    assert r.tokens == 90_000 and r.steps == 30


def test_aggregates_match_the_seed():
    def mean(strategy, field, **kw):
        return statistics.fmean(getattr(run(RunConfig(strategy, **kw), 1000 + i), field) for i in range(200))

    assert mean("random", "coverage") == pytest.approx(0.4875)
    assert mean("visited", "coverage") == pytest.approx(0.78)
    assert mean("frontier", "tokens") == pytest.approx(105358.6)
    assert mean("frontier", "coverage", capacity=12, policy="fifo") == pytest.approx(0.7520833333333333)
    assert mean("frontier", "coverage", capacity=12, policy="random") == pytest.approx(0.7895833333333333)


def test_until_all_bugs_and_stop():
    r = run(RunConfig("frontier", until_all_bugs=True), 1000)
    assert r.bugs_found == 6 and r.steps < 5000
    full = run(RunConfig("frontier", budget=200), 1000)
    assert full.stopped and full.coverage == 1.0 and full.steps < 200


def test_memory_components():
    both = run(RunConfig("frontier"), 1000)
    visits_only = run(RunConfig("frontier", memory="visited"), 1000)
    assert visits_only.path == both.path  # the bug list does not steer the walk
    bugs_only = run(RunConfig("frontier", memory="bugs"), 1000)
    assert bugs_only.path == run(RunConfig("random"), 1000).path  # no visit record: random's draws
    assert bugs_only.duplicate_reports == 0 and bugs_only.tokens == 90_000
    assert run(RunConfig("random", memory="none"), 1000).duplicate_reports == 2
    long_visits_only = run(RunConfig("visited", memory="visited", budget=300), 1000)
    assert long_visits_only.duplicate_reports > 0


def test_token_model_is_configurable():
    r = run(RunConfig("random", base_tokens=10, entry_tokens=1), 1000)
    assert r.tokens == 300
    r = run(RunConfig("frontier", base_tokens=0, entry_tokens=1, budget=2), 1000)
    assert r.tokens == 1 + 2  # one remembered page before step 1, two before step 2


def test_bad_config_names_the_field():
    with pytest.raises(ConfigError, match="strategy"):
        RunConfig("teleport")
    with pytest.raises(ConfigError, match="memory"):
        RunConfig("frontier", memory="everything")  # type: ignore[arg-type]


def test_generic_nodes():
    site = SimSite(
        links={"/": ("/a", "/b"), "/a": ("/",), "/b": ("/", "/c"), "/c": ("/b",)},
        start="/",
        bugs=frozenset({"/c"}),
    )
    r = run(RunConfig("frontier", budget=20), 5, site)
    assert r.coverage == 1.0 and r.bugs_found == 1 and r.stopped
