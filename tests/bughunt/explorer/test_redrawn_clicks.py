"""Clicks on a page that draws its controls anew on every render (`tests/support/redraw_spa.py`: new
nodes, same content, shuffled order, another container tag, a slide-in animation, a notification fixed
over the first controls). Each click lands on the control chosen — found again by what it is, the
notification put away by its close icon — and never on another; one that two elements match equally
is refused. Main's clicks went by structural selector alone: most failed (`hidden or disabled`: the
path named nothing; `TimeoutError`: covered) or clicked another control."""

from __future__ import annotations

import shutil

import pytest

from bughunt.explorer.click_target import resolve
from bughunt.explorer.clicking import click
from bughunt.explorer.engine import FetchResult
from bughunt.explorer.idle_controls import CLICK_FAILED
from tests.support.engines import browser_on
from tests.support.redraw_spa import NAMES, ROWS, RedrawSpa

TIMES = 4
pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")


def _meant(page, selector: str) -> str:
    """What the page reports clicking the control at `selector` of `page` does."""
    node = resolve(page.document, selector)
    assert node is not None and node.parent is not None
    label = node.text()
    return (
        label.removeprefix("Open ")
        if label.startswith("Open ")
        else "Remove " + node.parent.text().split()[0]
    )


def _in_list(page, selector: str) -> bool:
    node = resolve(page.document, selector)
    return node is not None and node.parent is not None and node.parent.tag == "li"


def test_each_click_lands_on_the_control_chosen_though_the_page_draws_it_anew() -> None:
    RedrawSpa.clicked.clear()
    with browser_on(RedrawSpa, respect_robots=False) as engine:
        result = engine.fetch("/")
        assert result.page is not None
        clicks = [
            a for a in engine.actions(result.page) if a.kind == "click" and _in_list(result.page, a.selector)
        ]
        meant = [_meant(result.page, a.selector) for a in clicks]
        # one of the names and one of the rows' Remove (the copies in a list's items are sampled)
        assert len(clicks) >= 2 and any(m.startswith("Remove ") for m in meant), meant
        assert set(meant) <= set(NAMES) | {"Remove " + r for r in ROWS}
        done = []
        for _ in range(TIMES):  # each perform loads the page again: a new order each time
            for action in clicks:
                before = len(RedrawSpa.clicked)
                got = engine.perform(action)
                done.append((got.outcome, got.detail, RedrawSpa.clicked[before:]))
        assert done == [("page", "", [m]) for m in meant] * TIMES


def test_a_control_two_elements_match_equally_is_refused_never_guessed() -> None:
    RedrawSpa.clicked.clear()
    with browser_on(RedrawSpa, respect_robots=False) as engine:
        result = engine.fetch("/")
        assert result.page is not None
        page = result.page
        remove = next(
            a
            for a in engine.actions(page)
            if a.kind == "click" and _meant(page, a.selector).startswith("Remove ")
        )
        row = _meant(page, remove.selector).removeprefix("Remove ")
        # The row drawn twice at the list's end, its first place gone: two controls are it equally.
        engine._page.evaluate(
            """(name) => {
              const row = [...document.querySelectorAll('li')].find((li) => li.textContent.startsWith(name));
              const list = row.parentElement;
              row.remove();
              list.append(row.cloneNode(true), row.cloneNode(true));
            }""",
            row,
        )
        got = click(engine, "/", remove.selector, page, remove.label)
        assert isinstance(got, FetchResult) and got.detail == f"{CLICK_FAILED} (not found: ambiguous)"
        assert RedrawSpa.clicked == []
