"""End to end: the demo page in headless Chromium (Debian's package, driven by Playwright)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bughunt.cli import main
from bughunt.commands.demo_page import serving


@pytest.fixture(scope="module")
def page(browser):
    with serving() as url:
        pg = browser.new_page(viewport={"width": 1200, "height": 900})
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(url)
        pg.wait_for_selector("body[data-ready='1']")
        yield pg
        assert not errors, errors
        pg.close()


def test_step_through_a_run(page):
    page.select_option("#strategy", "random")
    page.fill("#seed", "1000")
    page.dispatch_event("#seed", "change")
    for _ in range(30):
        page.click("#step")
    assert page.inner_text("#f-step") == "30 / 30"
    # The seed's no-memory example: 12 of 24 pages seen, two duplicate bug reports.
    assert page.inner_text("#f-coverage").startswith("12 / 24")
    assert page.inner_text("#f-dups") == "2"
    assert page.locator("#nodes .node.current").count() == 1
    page.keyboard.press("r")  # keyboard reset
    assert page.inner_text("#f-step") == "0 / 30"


def test_batch_frontier_reads_published_figures(page):
    page.select_option("#strategy", "frontier")
    page.select_option("#capacity", "")
    page.click("#batch")
    assert page.inner_text("#batch-diff") == "+45.1"
    assert page.inner_text("#batch-ci") == "[+44.0, +46.1]"
    assert page.inner_text("#batch-wins") == "200/200"


def test_exercise_is_graded_by_the_engine(page):
    page.check("input[name='ex1'][value='random']")
    page.click("[data-check='ex1']")
    assert page.inner_text("#ex1-verdict").startswith("Correct.")
    page.check("input[name='ex1'][value='fifo']")
    page.click("[data-check='ex1']")
    assert page.inner_text("#ex1-verdict").startswith("Not quite.")


def test_phone_sized_screen_has_no_horizontal_scroll(page):
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.set_viewport_size({"width": 1200, "height": 900})


# --export runs in-process (the command's own entry point runs in test_readme_commands and below, for --open)
def test_export_writes_a_static_site(tmp_path, capsys):
    assert main(["demo-page", "--export", str(tmp_path), "--json"]) == 0
    assert {p.name for p in tmp_path.iterdir()} == {"index.html", "sim.js", "app.js", "demo.js", "style.css"}
    assert "http" not in (tmp_path / "index.html").read_text().replace("http://www.w3.org", "")
    assert "exported" in capsys.readouterr().out


def test_the_exported_page_runs_when_opened_from_disk(tmp_path, browser, capsys):
    """file:// forbids ES-module imports: the page must load classic scripts only, and still compute."""
    assert main(["demo-page", "--export", str(tmp_path / "site"), "--json"]) == 0
    index = json.loads(capsys.readouterr().out)["index"]
    assert index.startswith("file://") and index.endswith("/site/index.html")
    html = (tmp_path / "site" / "index.html").read_text()
    assert 'type="module"' not in html
    pg = browser.new_page(viewport={"width": 1200, "height": 900})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        pg.goto(index)
        pg.wait_for_selector("body[data-ready='1']", timeout=10_000)
        assert not pg.is_visible("#not-ready")  # the "needs JavaScript" notice is gone once it runs
        pg.select_option("#strategy", "frontier")
        pg.select_option("#capacity", "")
        pg.click("#batch")
        assert pg.inner_text("#batch-diff") == "+45.1"
        assert pg.inner_text("#batch-ci") == "[+44.0, +46.1]"
        assert pg.locator("#nodes .node").count() == 24
    finally:
        pg.close()
    assert not errors, errors


def test_without_scripts_the_page_says_why_it_is_empty(tmp_path, browser):
    assert main(["demo-page", "--export", str(tmp_path)]) == 0
    ctx = browser.new_context(java_script_enabled=False)
    try:
        pg = ctx.new_page()
        pg.goto((tmp_path / "index.html").as_uri())
        assert pg.is_visible("#not-ready") and "needs JavaScript" in pg.inner_text("#not-ready")
    finally:
        ctx.close()


def test_open_says_where_the_page_is_when_no_browser_starts(tmp_path):
    env = {**os.environ, "BROWSER": "false"}  # webbrowser tries `false`, which fails, then gives up
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    out = subprocess.run(
        [sys.executable, "-m", "bughunt", "demo-page", "--export", str(tmp_path), "--open"],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert f"open {(tmp_path / 'index.html').as_uri()}" in out.stderr
