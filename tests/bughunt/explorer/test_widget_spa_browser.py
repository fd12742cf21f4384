"""A single-page app whose navigation no markup names (`tests/support/widget_spa.py`): sections are
`<span>`s with listeners that `pushState` a path, boards are `<div>` cards drawn in place with tabs that
are custom elements, people open as panels beside each other from `href="#"` links, reports are `<li>`s
whose list delegates their clicks, and the advanced settings sit behind a button in a shadow root. The
walk finds the four bugs planted three clicks deep; main's walk stopped `done` after 0 clicks, one view."""

from __future__ import annotations

import shutil

import pytest

from tests.support.engines import explored_in_browser
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
