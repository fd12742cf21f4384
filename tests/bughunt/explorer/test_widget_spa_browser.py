"""A single-page app whose navigation no markup names (`tests/support/widget_spa.py`): sections are
`<span>`s with listeners that `pushState` a path, boards are `<div>` cards drawn in place with tabs that
are custom elements, people open as panels beside each other from `href="#"` links, reports are `<li>`s
whose list delegates their clicks, and the advanced settings sit behind a button in a shadow root. The
walk finds the four bugs planted three clicks deep; main's walk stopped `done` after 0 clicks, one view.

A page of thousands of clickable spans and a listener that never returns is read and walked in bounded
time."""

from __future__ import annotations

import shutil
import time

import pytest

from bughunt.explorer.acting_elements import MAX_ACTING
from bughunt.focus_controls import ACTS_MARK
from tests.support.engines import browser_on, explored_in_browser
from tests.support.loopback import QuietHandler
from tests.support.widget_spa import PLANTED, WidgetSpa

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")


def test_views_no_markup_names_are_walked_to_the_bugs_three_clicks_deep(tmp_path) -> None:
    with explored_in_browser(WidgetSpa, tmp_path / "s", 60) as (store, _engine):
        steps = store.history.steps()
        views = {store.visits.structure_hash_of(s.route) for s in steps if s.outcome == "page"}
        bugs = store.bug_table.live()
        said = " ".join(b.route + " " + b.message + " " + b.evidence for b in bugs)
        found = sorted(name for name, mark in PLANTED.items() if mark in said)
        session = store.history.sessions()[-1]
        walk = [(s.route, s.final_route) for s in steps]
        assert found == sorted(PLANTED), (session.status, session.clicks, walk)
        assert len(views) >= 12, (len(views), walk)
        assert len(bugs) == len(PLANTED), [(b.kind, b.route, b.message) for b in bugs]


SPANS = 3000
HOSTILE_JS = (
    """
const box = document.getElementById('app');
for (let i = 0; i < """
    + str(SPANS)
    + """; i++) {
  const s = document.createElement('span');
  s.textContent = 'item ' + i;
  s.style.cursor = 'pointer';
  s.addEventListener('click', () => { s.textContent += '!'; });
  box.append(s);
}
const spin = document.createElement('div');
spin.textContent = 'Spin';
spin.addEventListener('click', () => { for (;;) {} });
document.body.prepend(spin);
"""
)


class _Hostile(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path == "/app.js":
            return self.reply(200, HOSTILE_JS, "application/javascript")
        if self.path == "/robots.txt":
            return self.reply(404, "", "text/plain")
        self.reply(
            200,
            '<html><head><title>H</title></head><body><div id="app"></div><script src="/app.js"></script></body></html>',
        )


def test_thousands_of_clickable_spans_are_marked_within_bounds() -> None:
    with browser_on(_Hostile) as engine:
        result = engine.fetch("/")
        assert result.page is not None
        assert 0 < result.page.body.count(ACTS_MARK) <= MAX_ACTING
        clicks = [a for a in engine.actions(result.page) if a.kind == "click"]
        assert 0 < len(clicks) <= 20, len(clicks)


def test_a_listener_that_never_returns_costs_one_step_of_the_walk(tmp_path) -> None:
    started = time.monotonic()
    with explored_in_browser(_Hostile, tmp_path / "s", 6) as (store, _engine):
        session = store.history.sessions()[-1]
        steps = store.history.steps()
        clicked = [(store.link_table.click_of(s.route) or ("", ""))[1] for s in steps]
        spun = [
            s for s, selector in zip(steps, clicked, strict=True) if selector.endswith("> div:nth-of-type(1)")
        ]
        assert session.status in ("budget", "done"), session
        # the blocked renderer is given up at the step's deadline: a failed click, the walk goes on
        assert len(spun) == 1 and spun[0].outcome == "blocked", list(
            zip(clicked, [s.outcome for s in steps], strict=True)
        )
    assert time.monotonic() - started < 150


PARTS_JS = """
for (const el of document.querySelectorAll('.acts')) { el.addEventListener('click', () => {}); }
"""


class _Parts(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path == "/app.js":
            return self.reply(200, PARTS_JS, "application/javascript")
        if self.path == "/robots.txt":
            return self.reply(404, "", "text/plain")
        self.reply(
            200,
            '<html><head><title>P</title></head><body><label>Name <i class="acts" id="help">?</i><input></label>'
            '<table><tr tabindex="0"><td><div class="acts" id="cell">row</div></td></tr></table>'
            '<span class="acts" id="alone">Open</span><script src="/app.js"></script></body></html>',
        )


def test_a_part_of_a_control_is_that_control_not_one_of_its_own() -> None:
    with browser_on(_Parts) as engine:
        result = engine.fetch("/")
        assert result.page is not None
        marked = {n.get("id") for n in result.page.document.iter() if ACTS_MARK in n.attrs}
        assert marked == {"alone"}, marked
