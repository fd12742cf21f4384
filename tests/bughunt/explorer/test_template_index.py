"""`TemplateIndex` (templates kept up to date step by step) answers exactly what the whole-memory
functions it replaces answer — `template_function`, `saturated_templates`, `variant` — after every step
of random walks that add pages, grow sibling groups, change a page's structure and forget pages."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.templates import TemplateIndex, saturated_templates, template_function, variant

_SEGMENTS = ["a", "b", "c", "7", "12", "web-dev", "x-1"]
_HEADS = ["u", "tag", "item", "c"]


def _route(rnd: random.Random) -> str:
    path = "/" + "/".join([rnd.choice(_HEADS), *(rnd.choice(_SEGMENTS) for _ in range(rnd.randint(0, 2)))])
    if rnd.random() < 0.3:
        path += rnd.choice(["?page=1", "?page=2", "?sort=new", "?tab=likes&page=3"])
    return path


@pytest.mark.parametrize("seed", range(40))
def test_the_index_answers_what_the_whole_memory_functions_answer(seed: int) -> None:
    rnd = random.Random(seed)
    index = TemplateIndex()
    hashes: dict[str, str | None] = {}
    siblings: dict[tuple[str, str], list[str]] = {}
    grown: set[tuple[str, str]] = set()
    probe = [_route(rnd) for _ in range(30)]
    for _step in range(60):
        roll = rnd.random()
        if roll < 0.08 and hashes:
            # a page's structure changed on a revisit
            hashes[rnd.choice(list(hashes))] = rnd.choice(["h1", "h2", "h3"])
        elif roll < 0.11 and hashes:
            del hashes[rnd.choice(list(hashes))]  # an expired memory
        else:
            hashes.setdefault(_route(rnd), rnd.choice(["h1", "h2", "h3", None]))
        if rnd.random() < 0.4:
            key = (rnd.choice(list(hashes) or ["/"]), rnd.choice(["li", "row"]))
            siblings.setdefault(key, []).append(_route(rnd))
            grown.add(key)
        fn = index.update(hashes, siblings, grown)
        grown.clear()
        want = template_function(hashes, siblings.values())
        for route in [*probe, *hashes, *(r for g in siblings.values() for r in g)]:
            assert fn(route) == want(route), (seed, route)
        assert fn.listed == want.listed
        assert index.saturated() == saturated_templates(hashes, want)
        for route, digest in hashes.items():
            assert index.variant(route, digest) == variant(route, hashes, want), (seed, route)


def test_a_sibling_group_that_did_not_grow_is_not_read_again() -> None:
    index = TemplateIndex()
    siblings = {("/", "li"): ["/profile/alice", "/profile/bob"]}
    assert index.update({}, siblings, set(siblings))("/profile/carol") == "/profile/<slug>"
    # the group is read when named as grown; a later call without it keeps what it learned
    assert index.update({"/": "h"}, siblings, set())("/profile/dave") == "/profile/<slug>"


def test_a_grown_sibling_group_reads_only_its_new_routes(monkeypatch: pytest.MonkeyPatch) -> None:
    # A place's links are appended as pages are read: each step reads the routes added since, not
    # the whole group again (the same merges, `test_the_index_answers_...` above).
    import bughunt.explorer.templates as templates

    shaped: list[str] = []

    def counted(route: str) -> str:
        shaped.append(route)
        return route_shape(route)

    route_shape = templates.route_shape
    monkeypatch.setattr(templates, "route_shape", counted)
    index = TemplateIndex()
    group = ["/profile/alice", "/profile/bob"]
    siblings = {("/", "li"): group}
    index.update({}, siblings, set(siblings))
    assert shaped == ["/profile/alice", "/profile/bob"]
    for name in ("carol", "dave", "erin"):
        shaped.clear()
        group.append(f"/profile/{name}")
        index.update({}, siblings, set(siblings))
        assert shaped == [f"/profile/{name}"]
    shaped.clear()
    group.append("/profile/fay")
    assert index.update({}, siblings, set(siblings))("/profile/zed") == "/profile/<slug>"
    assert shaped[:1] == ["/profile/fay"]


@pytest.mark.parametrize("seed", range(12))
def test_an_index_fed_the_stores_hash_log_starts_afresh_exactly_when_a_whole_comparison_would(
    tmp_path: Path, seed: int
) -> None:
    # The store's visits, written as a session writes them (first visits, revisits that change a
    # page's outcome or structure, the clock going back, forgotten pages); one index told the routes
    # `Visits.hash_log` names, one comparing every hash each time: the same epochs, the same answers.
    rnd = random.Random(seed)
    store = ExplorerStore(tmp_path / "s")
    told, whole = TemplateIndex(), TemplateIndex()
    read: tuple[int, int] = (-1, 0)
    restarts = 0
    clock = 100.0
    try:
        for _step in range(80):
            route = _route(rnd)
            clock += rnd.choice((1.0, 1.0, 1.0, -5.0))
            with store.transaction():
                roll = rnd.random()
                if roll < 0.05:
                    store.visits.forget(["http_error"])
                else:
                    outcome = rnd.choice(("page", "page", "page", "http_error"))
                    store.visits.record(route, outcome, 200, "1", None, clock)
                    store.visits.set_structure_hash(route, rnd.choice(["h1", "h2", "h3", None]))
            visits = store.visits
            hashes = visits.page_hashes()
            touched = visits.hash_log[read[1] :] if read[0] == visits.hash_epoch else None
            read = (visits.hash_epoch, len(visits.hash_log))
            epoch = whole.function.epoch
            a = told.update(hashes, {}, (), touched)
            b = whole.update(dict(hashes), {}, ())
            restarts += b.epoch != epoch
            assert a.epoch == b.epoch
            assert hashes == visits.structure_hashes() == _hashes_in_the_store(store)
            for r in [*hashes, _route(rnd)]:
                assert a(r) == b(r)
    finally:
        store.close()
    assert restarts >= 2  # the walks change hashes already read, not only add new ones


def _hashes_in_the_store(store: ExplorerStore) -> dict[str, str | None]:
    rows = store.db.execute(
        "SELECT route, structure_hash FROM pages WHERE outcome = 'page' ORDER BY first_visited_at, rowid"
    )
    return {r["route"]: r["structure_hash"] for r in rows}


def test_a_menu_s_delete_is_a_kind_of_control_of_its_own_its_other_items_one_kind() -> None:
    menu = "html > body > div > div:nth-of-type(2) > button:nth-of-type({})"
    clicks = {f"/records#click-{n}": ("/records", menu.format(n)) for n in range(1, 6)}
    words = {
        "/records#click-1": "e24a5a32c9b8",
        "/records#click-2": "352736b38fa7",
        "/records#click-5": "delete",
    }
    fn = TemplateIndex().update({}, {}, (), None, clicks.get, lambda route: words.get(route, ""))
    kinds = {route: fn(route) for route in clicks}
    assert kinds["/records#click-1"] == kinds["/records#click-2"] == kinds["/records#click-3"]
    assert kinds["/records#click-5"] != kinds["/records#click-1"]  # "Delete": sampled on its own
    assert (
        TemplateIndex().update({}, {}, (), None, clicks.get)("/records#click-5") == kinds["/records#click-1"]
    )
