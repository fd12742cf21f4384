"""One root cause is one bug that lists its occurrences: every route of the template it was seen on,
with its first and last step — in `bughunt memory --json`, the export and the report."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import SCHEMA_VERSION, ExplorerStore
from bughunt.explorer.views import bug_entries
from bughunt.report import load_report_data, render_report
from tests.support.loopback import QuietHandler, serving

TAGS = ("python", "webdev", "rust")


class _Site(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/":
            links = "".join(f'<li><a href="/tag/{t}">{t}</a></li>' for t in TAGS)
            return self._send(200, f"<main><ul>{links}</ul><a href='/about'>About</a></main>")
        if self.path == "/about":
            return self._send(200, "<main><p>About us</p></main>")
        if self.path.startswith("/tag/"):
            tag = self.path.removeprefix("/tag/")
            # The same fault on every tag page; the debug text names the tag it failed on.
            return self._send(500, f"<h1>Server Error</h1><pre>KeyError: 'count' while listing {tag}</pre>")
        return self._send(404, "<h1>Not found</h1>")

    def _send(self, status: int, body: str) -> None:
        self.reply(status, f"<!doctype html><html><head><title>t</title></head><body>{body}</body></html>")


@pytest.fixture
def tag_site() -> Iterator[str]:
    with serving(_Site) as url:
        yield url + "/"


def _explore(url: str, store_dir) -> None:
    store = ExplorerStore(store_dir)
    try:
        with make_policy("frontier", store=store) as policy:
            Explorer(store, HttpEngine(url, delay=0.0, timeout=2.0), policy, SessionConfig(budget=10)).run()
    finally:
        store.close()


def test_one_fault_on_three_routes_of_a_template_is_one_bug_with_three_occurrences(tag_site, tmp_path):
    _explore(tag_site, tmp_path / "s")
    store = ExplorerStore(tmp_path / "s", create=False, lock=False)
    try:
        entries = bug_entries(store)
    finally:
        store.close()
    errors = [e for e in entries if e["kind"] == "server_error"]
    assert len(errors) == 1, errors
    occ = errors[0]["occurrences"]
    assert sorted(o["route"] for o in occ) == sorted(f"/tag/{t}" for t in TAGS)
    assert all(o["count"] == 1 and o["first_step"] == o["last_step"] for o in occ)
    assert len({o["first_step"] for o in occ}) == 3, "each occurrence keeps the step it was seen at"

    html = render_report(load_report_data(tmp_path / "s"))
    assert "3 occurrences" in html and all(f"/tag/{t}" in html for t in TAGS)


def test_a_store_from_before_occurrences_is_migrated_and_filled_from_its_bugs_and_reports(tag_site, tmp_path):
    _explore(tag_site, tmp_path / "s")
    db_path = tmp_path / "s" / "bughunt.sqlite"
    with sqlite3.connect(db_path) as db:  # as the previous layout (version 2) left it
        db.execute("DROP TABLE occurrences")
        db.execute("PRAGMA user_version = 2")
    old = ExplorerStore(tmp_path / "s", create=False, lock=False)
    try:
        assert all(e["occurrences"] == [] for e in bug_entries(old)), "read-only: nothing is migrated"
    finally:
        old.close()
    store = ExplorerStore(tmp_path / "s")  # a writer brings it forward
    try:
        errors = [e for e in bug_entries(store) if e["kind"] == "server_error"]
    finally:
        store.close()
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    # The old store named the bug's first route (its entry) and its reports: those are the occurrences.
    assert errors and errors[0]["occurrences"][0]["route"] == errors[0]["route"]
