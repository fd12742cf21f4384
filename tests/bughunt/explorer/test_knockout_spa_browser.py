"""A Knockout-style single-page app (`tests/support/knockout_spa.py`: the webmail of Knockout's tutorial,
its bindings, `foreach` lists re-rendered from JSON, a template swapped in place, hash routing): the walk
finds the four bugs planted two and three clicks deep, and a finding made on a view a click opened is
named by that view's address (`#Sent/21`), not by the page (`/`). Main's walk stopped `done` after 8
clicks, none found: the Inbox's idle click took the other folders with it, the Archive's rows were taken
for the Inbox's (same places), and the detailed layout's Preview actions were never offered."""

from __future__ import annotations

import shutil

import pytest

from tests.support.engines import explored_in_browser
from tests.support.knockout_spa import PLANTED, KnockoutSpa

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")


def test_a_knockout_webmail_is_walked_to_its_bugs_and_names_where_they_were(tmp_path) -> None:
    with explored_in_browser(KnockoutSpa, tmp_path / "s", 60) as (store, _engine):
        steps = store.history.steps()
        bugs = store.bug_table.live()
        said = " ".join(b.route + " " + b.message + " " + b.evidence for b in bugs)
        found = sorted(name for name, mark in PLANTED.items() if mark in said)
        session = store.history.sessions()[-1]
        walk = [(s.route, s.final_route, s.outcome) for s in steps]
        assert found == sorted(PLANTED), (session.status, session.clicks, walk)
        assert len(bugs) == len(PLANTED), [(b.kind, b.route, b.message) for b in bugs]
        thrown = [b for b in bugs if b.kind == "client_error"]
        assert [b.route for b in thrown] == ["/#Sent/21"], [(b.kind, b.route) for b in bugs]
