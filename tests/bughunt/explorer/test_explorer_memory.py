"""The harness's bug table: one live entry per fingerprint, supersession by status with version and
time, regressions, and the duplicate-report metric with and without a bug list."""

from __future__ import annotations

import sqlite3

import pytest

from bughunt.explorer.destructive_mode import is_suspected
from bughunt.explorer.engine import FetchResult
from bughunt.explorer.graph import ExplorationGraph, StepWrite
from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.versions import read_app_version
from bughunt.explorer.views import MemoryConfig, bug_entries, build_view, render_working_context
from bughunt.oracles import Finding
from bughunt.page import FetchedPage
from bughunt.sim.rng import mulberry32

PAGE_HTML = (
    "<html><body><main><p>Results</p><pre>KeyError: 'q'</pre></main><footer>v1.2</footer></body></html>"
)


def _page(route: str, status: int = 200, body: str = PAGE_HTML, headers: dict | None = None) -> FetchedPage:
    return FetchedPage(f"http://h{route}", route, status, headers or {}, "text/html", body, 1.0)


def _step(store, route, findings, version="1.2", now=100.0, dedupe=True, status=200):
    result = FetchResult(
        "page", route, f"http://h{route}", page=_page(route, status), final_route=route, status=status
    )
    return ExplorationGraph(store).write_step(
        StepWrite(
            1,
            route,
            result,
            route,
            now,
            links=["/"],
            findings=findings,
            version=version,
            tokens=10,
            dedupe=dedupe,
        )
    )


ERR = Finding("server_error", "/search/2", "HTTP 500 Internal Server Error: KeyError 'q'", {"url": "http://h/search/2", "status": 500, "excerpt": "KeyError"})  # fmt: skip


def _delete_link(suspected: bool) -> Finding:
    effect = "not opened (suspected)" if suspected else "gone from the page that listed it"
    evidence = {
        "url": "http://h/items",
        "target": "http://h/items/7/delete",
        "effect": effect,
        "observed": not suspected,
    }
    return Finding(
        "unconfirmed_destructive", "/items/7/delete", "destructive GET", evidence, suspected=suspected
    )


@pytest.fixture
def store(tmp_path):
    s = ExplorerStore(tmp_path / "s")
    s.history.start_session("frontier", "http://h", 30)
    yield s
    s.close()


def test_seen_again_is_not_reported_again(store):
    first = _step(store, "/search/2", [ERR], now=100)
    again = _step(store, "/search/2", [ERR], now=200)
    assert [f.fingerprint for f in first.new_bugs] == [ERR.fingerprint] and not again.new_bugs
    assert again.seen_again and again.repeat
    assert len(store.bug_table.all()) == 1 and store.bug_table.duplicate_reports() == 0


def test_without_a_bug_list_every_pass_reports_again(store):
    for t in (100, 200, 300):
        _step(store, "/search/2", [ERR], now=t, dedupe=False)
    assert store.bug_table.duplicate_reports() == 2
    assert len(store.bug_table.live()) == 1, "the harness's own table still holds one live entry"


def test_fixed_supersedes_open_and_a_regression_supersedes_fixed(store):
    _step(store, "/search/2", [ERR], version="1.2", now=100)
    fixed = _step(store, "/search/2", [], version="1.3", now=200)
    assert fixed.fixed == [ERR.fingerprint]
    back = _step(store, "/search/2", [ERR], version="1.4", now=300)
    assert back.new_bugs and store.bug_table.duplicate_reports() == 0, "a regression is news, not a duplicate"
    rows = store.bug_table.all()
    assert [(r.status, r.version) for r in rows] == [("open", "1.2"), ("fixed", "1.3"), ("open", "1.4")]
    assert rows[0].superseded_by == rows[1].id and rows[1].superseded_by == rows[2].id
    entries = bug_entries(store)
    assert entries[0]["superseded_by"]["status"] == "fixed" and entries[2]["superseded_by"] is None
    assert len(store.bug_table.live()) == 1


def test_two_live_entries_for_one_fingerprint_are_impossible(store):
    _step(store, "/search/2", [ERR])
    with pytest.raises(sqlite3.IntegrityError):
        store.db.execute(
            "INSERT INTO bugs(fingerprint, route, kind, message, evidence, status, version, seen_at)"
            " VALUES (?, '/x', 'server_error', 'm', '{}', 'open', '1.2', 0)",
            (ERR.fingerprint,),
        )


def test_page_text_in_evidence_is_quarantined(store):
    _step(store, "/search/2", [ERR])
    bug = store.bug_table.live()[0]
    assert "KeyError" not in bug.evidence and "quarantined_observation" in bug.evidence
    assert any("excerpt: KeyError" in o.text for o in store.notebook.observations())


def test_version_read_from_header_meta_or_footer():
    assert read_app_version(_page("/", headers={"X-App-Version": "2.0"})) == "2.0"
    assert read_app_version(_page("/", body='<meta name="app-version" content="3.1">')) == "3.1"
    assert (
        read_app_version(_page("/", body='<footer>Shop · version <span class="v">1.3</span></footer>'))
        == "1.3"
    )
    assert read_app_version(_page("/", body="<p>v9.9 outside the footer</p>")) is None


def test_views_follow_the_memory_components(store):
    for route in ("/", "/a", "/b"):
        _step(store, route, [])
    full = build_view(store, MemoryConfig(), mulberry32(1))
    assert "/a" in full and list(full.links("/a")) == ["/"]
    assert "/a" not in build_view(store, MemoryConfig(visited=False), mulberry32(1))
    no_links = build_view(store, MemoryConfig(link_table=False), mulberry32(1))
    assert "/a" in no_links and not no_links.links("/a")
    small = build_view(store, MemoryConfig(capacity=2), mulberry32(1))
    assert "/" not in small and "/b" in small, "fifo capacity evicts the oldest visit"
    assert "links /a -> /" in render_working_context(store, "/b")
    assert "links" not in render_working_context(store, "/b", MemoryConfig(link_table=False))


def test_a_store_from_before_a_column_existed_still_opens(tmp_path):
    old = sqlite3.connect(tmp_path / "bughunt.sqlite")
    old.executescript(
        "CREATE TABLE bugs (id INTEGER PRIMARY KEY, fingerprint TEXT NOT NULL, route TEXT NOT NULL,"
        " kind TEXT NOT NULL, message TEXT NOT NULL, evidence TEXT NOT NULL, status TEXT NOT NULL,"
        " version TEXT, seen_at REAL NOT NULL, step INTEGER, superseded_by INTEGER);"
        "INSERT INTO bugs VALUES (1, 'fp', '/x', 'server_error', 'm', '{}', 'open', '1.2', 5.0, 1, NULL);"
    )
    old.close()
    store = ExplorerStore(tmp_path)
    assert "bug [open @ 1.2] /x server_error fp=fp" in render_working_context(store, "/")
    store.close()


def test_a_suspected_bug_observed_later_carries_the_observation(store):
    """Suspected first (a session without --allow-destructive), opened and confirmed later: the live
    entry is the observed one, the suspected entry stays in its history; seen suspected again after
    that, it stays observed."""
    _step(store, "/items", [_delete_link(True)], now=100)
    assert is_suspected(store.bug_table.live()[0].evidence)
    # the address opened by the walk answered 200 with no confirmation step: no effect seen (a refusal
    # reads the same), so the suspicion stays
    refusal = {"url": "http://h/items/7/delete", "request": "GET http://h/items/7/delete", "observed": False}
    opened = Finding("unconfirmed_destructive", "/items/7/delete", "destructive GET", refusal)
    _step(store, "/items/7/delete", [opened], now=150)
    assert len(store.bug_table.all()) == 1 and is_suspected(store.bug_table.live()[0].evidence)
    confirmed = _step(store, "/items", [_delete_link(False)], now=200)
    assert not confirmed.new_bugs and confirmed.seen_again
    (live,) = store.bug_table.live()
    assert not is_suspected(live.evidence) and live.status == "open" and len(store.bug_table.all()) == 2
    _step(store, "/items", [_delete_link(True)], now=300)
    assert [is_suspected(b.evidence) for b in store.bug_table.live()] == [False]
