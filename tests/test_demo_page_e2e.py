"""End to end: the demo page in headless Chromium (Debian's package, driven by Playwright)."""

from __future__ import annotations

import subprocess
import sys

import pytest

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


def test_export_writes_a_static_site(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "bughunt", "demo-page", "--export", str(tmp_path), "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert {p.name for p in tmp_path.iterdir()} == {"index.html", "sim.js", "app.js", "style.css"}
    assert "http" not in (tmp_path / "index.html").read_text().replace("http://www.w3.org", "")
    assert "exported" in out.stdout
