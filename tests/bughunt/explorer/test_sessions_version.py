"""Version change: pages tested under 1.2 become due, bug pages are re-tested first along the shortest
tour the remembered site map allows, and the Search page 2 bug moves out of "open" (superseded)."""

from __future__ import annotations

from pathlib import Path

from bughunt import site
from bughunt.explorer.retest import plan_tour
from bughunt.explorer.store import ExplorerStore
from bughunt.webapp import running_site

BUG_ROUTES = {site.PAGES[b.page].route for b in site.BUGS}


def _explored_under_12(cli_json, url: str, store_dir: Path) -> Path:
    """A store after a 45-click frontier session on version 1.2 (it finds all six bugs)."""
    cli_json(
        "explore", "--url", url, "--store", str(store_dir), "--budget", "45", "--policy", "frontier", "--json"
    )
    return store_dir


def test_version_change_retests_bug_pages_first_along_the_shortest_tour(site_12, tmp_path, cli_json):
    store_dir = _explored_under_12(cli_json, site_12, tmp_path / "v")
    store = ExplorerStore(store_dir)
    bug_routes = [b.route for b in store.bug_table.live()]
    assert set(bug_routes) == BUG_ROUTES, "a 45-click frontier run finds all six"
    links, position = store.link_table.all(), store.meta.get("position")
    store.close()
    expected_tour = plan_tour(links, position, bug_routes)
    assert len(plan_tour(links, "/", bug_routes)) == 15, "the tour from Home over the remembered map"
    with running_site(app_version="1.3") as moved:
        data = cli_json("resume", "--store", str(store_dir), "--url", moved, "--budget", "60", "--json")
    assert data["app_version"] == "1.3"
    by_route = {b["route"]: b for b in data["bugs"]}
    assert by_route["/search/2"]["status"] == "fixed"
    assert all(by_route[r]["status"] == "open" for r in BUG_ROUTES - {"/search/2"})
    store = ExplorerStore(store_dir)
    s2 = [s for s in store.history.steps() if s.session_id == 2]
    walked = [s.route for s in s2]
    assert walked[: len(expected_tour)] == expected_tour, "bug pages first, along the planned tour"
    assert BUG_ROUTES - {position} <= set(walked[: len(expected_tour)])
    retested = {s.final_route for s in s2 if s.app_version == "1.3"}
    tested_12 = {s.final_route for s in store.history.steps() if s.session_id == 1 and s.outcome == "page"}
    assert tested_12 <= retested, "every page tested under 1.2 was re-tested under 1.3"
    assert not store.visits.needs_retest()
    history = [b for b in store.bug_table.all() if b.route == "/search/2"]
    assert [h.status for h in history] == ["open", "fixed"]
    assert history[0].superseded_by == history[1].id and history[1].superseded_by is None
    assert history[0].version == "1.2" and history[1].version == "1.3"
    still_open = [b for b in store.bug_table.live() if b.status == "open"]
    assert len(still_open) == 5 and all(b.last_seen_version == "1.3" for b in still_open)
    store.close()
    mem = cli_json("memory", "--store", str(store_dir), "--json")
    old = next(b for b in mem["bugs"] if b["route"] == "/search/2" and b["status"] == "open")
    assert old["superseded_by"]["status"] == "fixed" and old["superseded_by"]["version"] == "1.3"


def test_from_home_the_bug_pages_are_retested_in_15_clicks(site_12, tmp_path, cli_json):
    store_dir = _explored_under_12(cli_json, site_12, tmp_path / "h")
    store = ExplorerStore(store_dir)
    with store.transaction():
        store.meta.set("position", "/")  # the last session ended on Home
    store.close()
    with running_site(app_version="1.3") as moved:
        cli_json("resume", "--store", str(store_dir), "--url", moved, "--budget", "15", "--json")
    store = ExplorerStore(store_dir)
    walked = [s.route for s in store.history.steps() if s.session_id == 2]
    store.close()
    assert len(walked) == 15 and BUG_ROUTES <= set(walked)
