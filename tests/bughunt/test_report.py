"""`bughunt report`: a self-contained page with the site map, the walked path, coverage over steps and
every bug with its evidence; page text is shown escaped; bad stores give a clear error."""

from __future__ import annotations

import json
import re

import pytest

from bughunt.cli import main
from bughunt.report import parse_quoted, render_report
from bughunt.report.overview import FILTER_SCRIPT

STEP = {"session": "session-1", "outcome": "page", "status": 200, "detail": "", "app_version": "1.2",
        "tokens": 100, "repeat": False, "retest": False, "at": "2026-11-30T07:00:00+00:00"}  # fmt: skip


def only_own_script(html: str) -> bool:
    """The page's one script is the report's own bug filter; page text never becomes a script."""
    return html.count("<script") == 1 and f"<script>{FILTER_SCRIPT}</script>" in html


def synthetic() -> dict:
    routes = ["/", "/list", "/list/2", "/item", "/list"]
    steps = [{**STEP, "n": i + 1, "route": r, "final_route": r} for i, r in enumerate(routes)]
    steps[4] = {**steps[4], "session": "session-2", "app_version": "1.3", "repeat": True}
    evidence = {"request": "GET http://x.test/list/2", "status": 500,
                "quarantined_text": "excerpt: <script>alert(1)</script>\nsecond line\nrepeated: a, b"}  # fmt: skip
    old = {"fingerprint": "f1", "route": "/list/2", "kind": "server_error", "status": "open", "version": "1.2",
           "seen_at": "t1", "superseded_by": 2, "id": 1, "message": "HTTP 500 boom", "evidence": evidence, "step": 3}  # fmt: skip
    new = {
        **old,
        "status": "fixed",
        "version": "1.3",
        "superseded_by": None,
        "id": 2,
        "step": 5,
        "evidence": {},
    }
    return {
        "summary": {
            "steps": 5,
            "pages_visited": ["/", "/list", "/list/2", "/item"],
            "pages_known": 5,
            "counts": {"clicks": 4, "fetches": 5, "pages_visited": 4, "pages_known": 5},
            "coverage": None,
            "tokens": 400,
            "duplicate_reports": 0,
            "repeat_visits": 1,
        },  # fmt: skip
        "base_url": "http://x.test",
        "app_version": "1.3",
        "start_route": "/",
        "sessions": [
            {"name": "session-1", "policy": "frontier", "budget": 4, "status": "completed", "clicks": 4}
        ],
        "steps": steps,
        "coverage_curve": [0.2, 0.4, 0.6, 0.8, 0.8],
        "pages": [
            {
                "route": r,
                "outcome": "page",
                "status": 500 if r == "/list/2" else 200,
                "visits": 1,
                "tested_version": "1.2",
                "needs_retest": False,
            }
            for r in ("/", "/list", "/list/2", "/item")
        ],  # fmt: skip
        "links": {"/": ["/list", "/item", "/about"], "/list": ["/list/2"], "/list/2": ["/list"]},
        "bugs": [old, new],
        "reports": [
            {"step": 3, "fingerprint": "f1", "route": "/list/2", "kind": "server_error", "duplicate": False}
        ],
    }


def test_report_shows_map_path_coverage_and_bug_history():
    data = synthetic()
    data["sessions"][0]["policy"] = "llm"  # tokens mean something only where a model was sent prompts
    html = render_report(data)
    assert html.count("<svg") == 3 and only_own_script(html)  # map, pages over steps, tokens
    assert "<link" not in html and " src=" not in html  # self-contained: nothing fetched from anywhere
    for route in ("/", "/list", "/list/2", "/item", "/about"):
        assert f">{route}</text>" in html  # every known page is a node, visited or not
    assert 'class="node known"' in html  # /about was linked but never visited
    walks = re.findall(r'class="walk" stroke="([^"]+)"', html)
    # / → /list → /list/2 → /item in session 1, then /item → /list in session 2 (another colour)
    assert len(walks) == 4 and len(set(walks)) == 2
    assert "session-2 · v1.3" in html  # the session boundary on the coverage chart
    assert html.count('class="bug-dot"') == 1 and html.count('class="fixed-dot"') == 1
    assert "marked fixed at step 5" in html
    assert html.count('class="token-bar"') == 5 and "total 500" in html
    assert "All pages (4)" in html
    assert "History (superseded entries)" in html and 'class="status fixed"' in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;\nsecond line" in html  # quoted page text, escaped


def test_quoted_text_keeps_multi_line_values():
    quoted = "excerpt: <a>\nb: still the excerpt\nfield: tags"
    assert parse_quoted(quoted) == {"excerpt": "<a>\nb: still the excerpt", "field": "tags"}
    assert parse_quoted("<p>free text</p>") == {"text": "<p>free text</p>"}


def test_empty_exploration_renders():
    html = render_report({"steps": [], "links": {}, "bugs": []})
    assert "No pages yet." in html and "No steps recorded yet." in html and "No bugs found." in html


@pytest.mark.slow
def test_report_command_on_a_real_exploration(tmp_path, capsys):
    store, out = tmp_path / "store", tmp_path / "out" / "report.html"
    assert main(["explore", "--builtin-site", "--store", str(store), "--budget", "30", "--json"]) == 0
    explored = json.loads(capsys.readouterr().out)
    assert main(["report", "--store", str(store), "--out", str(out), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    html = out.read_text(encoding="utf-8")
    assert info["steps"] >= explored["steps"] and info["bugs"] == len(explored["bugs"]) >= 4
    for bug in explored["bugs"]:
        assert f'id="bug-{bug["fingerprint"]}"' in html
    assert only_own_script(html)  # the XSS evidence is quoted escaped, never live
    # requests relative to the site: the run's port died with it
    # the evidence table's requests are relative (the run's port died with it); the bug view beside it
    # gives the absolute URL and a curl line, as the issue asks
    assert "<td><code>GET /" in html and "<th>status</th>" in html


def test_report_command_refuses_a_folder_that_is_not_an_exploration(tmp_path, capsys):
    assert main(["report", "--store", str(tmp_path), "--out", str(tmp_path / "r.html")]) == 2
    assert "no BugHunt exploration here" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


def test_large_sites_wrap_tall_columns_and_place_unlinked_pages_last():
    from bughunt.report.graph import MAX_ROWS, layout

    links = {"/": [f"/p{i}" for i in range(60)]}
    placed, omitted = layout("/", links, ["/", "/p1", "/orphan"])
    assert omitted == 0 and len(placed) == 62
    columns = {p.x for p in placed if p.depth == 1}
    assert len(columns) == 3 and all(sum(p.x == x for p in placed) <= MAX_ROWS for x in columns)
    orphan = next(p for p in placed if p.route == "/orphan")
    assert not orphan.reachable and orphan.x == max(p.x for p in placed)
    html = render_report({"start_route": "/", "links": links, "steps": [], "bugs": [], "pages": []})
    assert html.count("1 click away") == 3 and "not linked from the start" not in html
    with_orphan = render_report(
        {"start_route": "/", "links": links, "steps": [{**STEP, "n": 1, "route": "/orphan"}]}
    )
    assert "not linked from the start" in with_orphan


def _tile_value(html: str, label: str) -> str:
    m = re.search(
        r'<div class="value(?: long)?">([^<]*)</div><div class="label">' + re.escape(label) + "</div>", html
    )
    assert m, label
    return m.group(1)


def test_report_vocabulary_tokens_versions_and_the_quarantine_note():
    data = synthetic()
    data["sessions"] = [
        {"name": "session-1", "policy": "frontier", "budget": 4, "status": "budget", "clicks": 3},
        {"name": "session-2", "policy": "frontier", "budget": 4, "status": "done", "clicks": 1},
    ]
    still_open = {"fingerprint": "f2", "route": "/list", "kind": "count_mismatch", "status": "open",
                  "version": "1.2", "seen_at": "t0", "superseded_by": None, "id": 3, "message": "3 vs 2",
                  "evidence": {"request": "GET http://x.test/list"}, "step": 2}  # fmt: skip
    data["bugs"].append(still_open)  # re-visited at step 5 in v1.3: still open there
    html = render_report(data)
    card = html[html.index('id="bug-f2"') :]
    assert "open</span> in v1.2 (step 2)" in card and "open</span> in v1.3 (step 5)" in card
    assert "<code>GET /list</code>" in card  # relative to the site
    assert _tile_value(html, "clicks") == "4"  # five steps, the first is the landing
    assert _tile_value(html, "pages visited") == "4" and _tile_value(html, "pages known") == "5"
    assert _tile_value(html, "stopped because") == "done"
    assert ">coverage<" not in html  # no page count on this site: no coverage tile, no coverage curve
    assert "Pages discovered and visited over steps" in html and "pages discovered (5)" in html
    assert ">tokens<" not in html and 'class="token-bar"' not in html  # no model, no tokens
    assert "<th>stop reason</th>" in html and "nothing left that memory knows of" in html
    assert "<td>3 / 4</td>" in html and "<td>1 / 4</td>" in html  # clicks / budget per session
    assert "vNone" not in html
    assert html.count("quarantined by the explorer") == 1
    assert (
        "status per app version" in html and "fixed</span> in v1.3" in html and "open</span> in v1.2" in html
    )


def test_sessions_are_toggleable_layers_and_long_routes_are_written_out():
    long = "/article/how-to-build-a-memory-for-agents-part-2"
    data = synthetic()
    data["links"]["/item"] = [long]
    data["steps"].append({**STEP, "n": 6, "route": long, "final_route": long, "session": "session-2"})
    html = render_report(data)
    assert html.count('class="layer-toggle"') == 2 and "#map-layer-1:not(:checked)" in html
    assert html.count('class="walk-layer layer-') == 2
    from bughunt.report.graph import label_lines

    lines = label_lines(long)
    assert len(lines) > 1 and "".join(lines) == long  # wrapped, nothing cut
    assert all(f">{line}</tspan>" in html for line in lines)


def test_step_ticks_never_crowd_the_last_step():
    from bughunt.report.charts import step_ticks

    for n in range(1, 400):
        ticks = step_ticks(n)
        gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
        assert ticks[-1] <= n and len(ticks) <= 14 and ticks == sorted(set(ticks))
        assert not gaps or min(gaps) >= max(gaps) / 2, (n, ticks)  # e.g. no "60" beside "61"


@pytest.mark.slow
def test_cli_json_and_report_agree_on_every_count(tmp_path, capsys):
    store, out = str(tmp_path / "store"), tmp_path / "r.html"
    runs = []
    for argv in (
        ["explore", "--builtin-site", "--store", store, "--budget", "12", "--json"],
        ["resume", "--store", store, "--budget", "10", "--json"],  # 22 of the 24 clicks the site needs
    ):
        assert main(argv) == 0
        runs.append(json.loads(capsys.readouterr().out))
    assert main(["report", "--store", store, "--out", str(out)]) == 0
    capsys.readouterr()
    html = out.read_text(encoding="utf-8")
    clicks = [r.get("clicks", r["steps"]) for r in runs]
    assert clicks == [12, 10]
    assert _tile_value(html, "clicks") == str(sum(clicks))
    last = runs[-1]
    assert _tile_value(html, "pages visited") == str(len(last["pages_visited"]))
    if "pages_known" in last:  # the session's contract-5 summary
        assert _tile_value(html, "pages known") == str(last["pages_known"])
    assert _tile_value(html, "coverage") == f"{last['coverage']:.0%}"
    assert "<td>12 / 12</td>" in html and "<td>10 / 10</td>" in html
    live_open = [b for b in last["bugs"] if b["status"] == "open"]
    leads = sum(b["suspected"] for b in live_open)
    assert leads, "the built-in site's GET delete is only suspected without --allow-destructive"
    assert _tile_value(html, "open bugs") == str(len(live_open) - leads)
    assert _tile_value(html, "leads") == str(leads)


def test_a_suspected_bug_is_a_lead_not_an_open_bug_a_gate_counts():
    data = synthetic()
    lead = {"fingerprint": "f3", "route": "/item/3/delete", "kind": "unconfirmed_destructive", "status": "open",
            "version": "1.3", "seen_at": "t2", "superseded_by": None, "id": 3, "message": "delete",
            "evidence": {"suspected": True}, "step": 4}  # fmt: skip
    data["bugs"].append(lead)
    html = render_report(data)
    assert _tile_value(html, "open bugs") == "0" and _tile_value(html, "leads") == "1"
    card = html[html.index('id="bug-f3"') :]
    assert "lead: not opened" in card[: card.index("</header>")]
    assert '<div class="label">leads</div>' not in render_report(synthetic())  # no lead, no tile


def test_report_leads_with_a_table_of_bugs_linking_each_card_with_filters():
    data = synthetic()
    data["bugs"].append(
        {"fingerprint": "f2", "route": "/item", "kind": "count_mismatch", "status": "open", "version": "1.3",
         "seen_at": "t2", "superseded_by": None, "id": 3, "message": "count", "evidence": {}, "step": 4}
    )  # fmt: skip
    html = render_report(data)
    assert html.index('id="bugs"') < html.index("Site map and the path walked")
    table = html[html.index("<table class='bug-table'>") : html.index("</table>", html.index("bug-table"))]
    for fp, kind in (("f1", "server_error"), ("f2", "count_mismatch")):
        assert f"href='#bug-{fp}'" in table and f'id="bug-{fp}"' in html
        assert html.count(f'data-kind="{kind}"') == 2  # its row and its card: one filter hides both
    assert 'select name="kind"' in html and 'select name="status"' in html  # two kinds, two statuses
    assert 'select name="session"' not in html  # one session: nothing to filter by


def test_report_header_names_the_engine_and_who_was_logged_in():
    data = synthetic()
    assert "engine http · not logged in" in render_report(data)
    data.update(engine="browser", login="form", account="demo")
    assert "engine browser · logged in as <code>demo</code>" in render_report(data)
    data.update(account=None, login="cookie+header")
    assert "logged in by cookie+header" in render_report(data)


def test_explore_refuses_a_report_file_bughunt_did_not_write_before_exploring(tmp_path, capsys):
    mine = tmp_path / "notes.html"
    mine.write_text("<html>my notes</html>", encoding="utf-8")
    store = tmp_path / "s"
    argv = ["explore", "--builtin-site", "--store", str(store), "--budget", "2"]
    assert main([*argv, "--report", str(mine)]) == 2
    assert "refusing to overwrite" in capsys.readouterr().err
    assert mine.read_text(encoding="utf-8") == "<html>my notes</html>" and not store.exists()
    ours = tmp_path / "report.html"
    assert main([*argv, "--report", str(ours)]) == 0
    assert (
        main(["report", "--store", str(store), "--out", str(ours)]) == 0
    )  # one rule: its own report is replaced
    assert main([*argv, "--report", str(ours)]) == 0


def test_report_json_counts_the_clicks_of_every_session(tmp_path, capsys):
    store, out = tmp_path / "s", tmp_path / "r.html"
    assert main(["explore", "--builtin-site", "--store", str(store), "--budget", "3", "--json"]) == 0
    assert main(["resume", "--store", str(store), "--budget", "4", "--json"]) == 0
    capsys.readouterr()
    assert main(["report", "--store", str(store), "--out", str(out), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["clicks"] == info["steps"] == 7 and info["sessions"] == 2
    assert '<div class="value">7</div><div class="label">clicks</div>' in out.read_text(encoding="utf-8")
