"""What a step asks again and again is answered once (issue 28, the step's path): the pure readings of
a route are kept, the working context's counter is found once, not imported per piece, and the
store's writer keeps what it wrote of `meta` and the step count rather than reading them back."""

from __future__ import annotations

from bughunt.explorer import loop
from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.templates import safe_route
from bughunt.sim.pager_links import _segments, leads_on


def test_a_routes_canonical_form_is_kept():
    safe_route.cache_clear()
    assert safe_route("/a b/c%20d?x=1#frag") == "/a%20b/c%20d?x=1"
    assert safe_route("/a b/c%20d?x=1#frag") == "/a%20b/c%20d?x=1"
    assert safe_route.cache_info().hits == 1
    assert safe_route("no-slash") is None


def test_the_segments_of_a_path_are_kept():
    _segments.cache_clear()
    assert leads_on("/x/y", "/x/y/comments") and leads_on("/x/y", "/x/y?tab=likes")
    assert _segments.cache_info().hits >= 1  # "/x/y" read once for both links
    assert _segments("/a//b#c/d") == ("a", "b")


def test_the_line_counter_is_found_once():
    loop._line_counter.cache_clear()
    assert loop._count("visited (1): /a") == loop._count("visited (1): /a") > 0
    assert loop._line_counter.cache_info().misses == 1


def _selects(store: ExplorerStore) -> list[str]:
    statements: list[str] = []
    store.db.set_trace_callback(statements.append)
    store.meta.get("app_version"), store.meta.get("never set"), store.history.step_count()
    store.db.set_trace_callback(None)
    return [s for s in statements if s.lstrip().upper().startswith("SELECT")]


def test_the_writer_keeps_meta_and_the_step_count_and_forgets_them_on_a_rollback(tmp_path):
    store = ExplorerStore(tmp_path / "s")
    try:
        session, _ = store.history.start_session("planner", "http://x/", 3)
        with store.transaction():
            store.meta.set("app_version", "1.0")
            store.history.add_step(
                session, route="/", final_route="/", outcome="page", status=200, detail="",
                app_version="1.0", tokens=0, repeat=0, at=1.0,
            )  # fmt: skip
        _selects(store)
        assert _selects(store) == []  # asked again: answered from the copies, not the file
        assert (store.meta.get("app_version"), store.history.step_count()) == ("1.0", 1)
        assert store.meta.get("never set", "x") == "x"
        try:
            with store.transaction():
                store.meta.set("app_version", "2.0")
                store.history.add_step(
                    session, route="/a", final_route="/a", outcome="page", status=200, detail="",
                    app_version="2.0", tokens=0, repeat=0, at=2.0,
                )  # fmt: skip
                raise KeyboardInterrupt
        except KeyboardInterrupt:
            pass
        assert (store.meta.get("app_version"), store.history.step_count()) == ("1.0", 1)
        # a reader reads the file each time: the writer is another process
        reader = ExplorerStore(tmp_path / "s", create=False, lock=False)
        try:
            assert len(_selects(reader)) == 3 and len(_selects(reader)) == 3
        finally:
            reader.close()
    finally:
        store.close()


def test_a_visit_and_its_structure_hash_are_written_without_reading_the_row_back(tmp_path):
    store = ExplorerStore(tmp_path / "s")
    try:
        visits = store.visits
        with store.transaction():
            assert visits.record("/a", "page", 200, "1.0", ["/b"], 1.0) is False
            assert visits.set_structure_hash("/a", "h1") is None
        assert visits.is_visited("/a")  # the copy the policies read is loaded
        statements: list[str] = []
        store.db.set_trace_callback(statements.append)
        with store.transaction():
            assert visits.record("/a", "page", 200, "1.1", ["/c"], 2.0) is True
            assert visits.set_structure_hash("/a", "h2") == "h1"
        store.db.set_trace_callback(None)
        assert not [s for s in statements if s.lstrip().upper().startswith("SELECT")], statements
        page = visits.page("/a")
        assert page is not None and (page.visits, page.tested_version, page.structure_hash) == (
            2,
            "1.1",
            "h2",
        )
        assert (page.first_visited_at, page.last_visited_at) == (1.0, 2.0)
        # a store opened afresh (no copy yet) reads the previous hash from the file
        store.close()
        store = ExplorerStore(tmp_path / "s")
        with store.transaction():
            assert store.visits.set_structure_hash("/a", "h3") == "h2"
    finally:
        store.close()


def test_observations_added_together_keep_their_order_and_step(tmp_path):
    store = ExplorerStore(tmp_path / "s")
    try:
        with store.transaction():
            store.notebook.add_observations(
                [("h: v", {"source": "headers"}), ("page text", {"step": 1})], 1, 3.0
            )
        kept = store.notebook.observations()
        assert [(o.text, o.step, o.at) for o in kept] == [("h: v", 1, 3.0), ("page text", 1, 3.0)]
        assert kept[0].id < kept[1].id and '"source": "headers"' in kept[0].provenance
    finally:
        store.close()


def test_the_writer_keeps_the_notes_until_it_writes_them_or_a_step_rolls_back(tmp_path):
    store = ExplorerStore(tmp_path / "s")
    try:
        notebook = store.notebook
        with store.transaction():
            notebook.add_note("first", 1, 1, 1.0)
        statements: list[str] = []
        store.db.set_trace_callback(statements.append)
        assert [n.text for n in notebook.notes()] == [n.text for n in notebook.notes()] == ["first"]
        assert sum("FROM notes" in s for s in statements) == 1  # read once, then the copy
        with store.transaction():
            notebook.add_note("hand-over", 1, 2, 2.0, author="harness")
        assert [n.text for n in notebook.notes()] == ["first", "hand-over"]
        try:
            with store.transaction():
                notebook.add_note("lost", 1, 3, 3.0)
                assert [n.text for n in notebook.notes()][-1] == "lost"
                raise KeyboardInterrupt
        except KeyboardInterrupt:
            pass
        assert [n.text for n in notebook.notes()] == ["first", "hand-over"]
        with store.transaction():
            notebook.expire(2.5)
        assert [n.text for n in notebook.notes()] == []
        store.db.set_trace_callback(None)
        reader = ExplorerStore(tmp_path / "s", create=False, lock=False)
        try:
            statements.clear()
            reader.db.set_trace_callback(statements.append)
            reader.notebook.notes(), reader.notebook.notes()
            assert sum("FROM notes" in s for s in statements) == 2  # a reader asks the file each time
        finally:
            reader.close()
    finally:
        store.close()


def test_a_pages_structure_hash_is_read_from_the_kept_visits(tmp_path):
    store = ExplorerStore(tmp_path / "s")
    try:
        with store.transaction():
            store.visits.record("/a", "page", 200, "1.0", [], 1.0)
            store.visits.set_structure_hash("/a", "h1")
            store.visits.record("/b", "http_error", 404, "1.0", [], 1.0)
        statements: list[str] = []
        store.db.set_trace_callback(statements.append)
        for _ in range(3):
            assert [store.visits.structure_hash_of(r) for r in ("/a", "/b", "/c")] == ["h1", None, None]
        store.db.set_trace_callback(None)
        assert len(statements) == 1  # the visited set read once, as the policies read it
    finally:
        store.close()
