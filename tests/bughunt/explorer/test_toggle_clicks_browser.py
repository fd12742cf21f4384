"""A script control that flips a view option by navigating (a "group by" checkbox whose click sets
`window.location` to the page's own URL with one query value flipped), served on loopback: once a
click of it led back to the page the same control was clicked on (A → B → A) it is learned as a
toggle and not clicked on the other lists' pages; before, every view of every list offered it again
and each click led to a view of that list reached already (corpus ho10_isso: 36 of 100 clicks)."""

from __future__ import annotations

import re
import shutil
from urllib.parse import parse_qs, urlsplit

import pytest

from bughunt.explorer.graph import ExplorationGraph
from tests.support.engines import explored_in_browser
from tests.support.loopback import QuietHandler

pytestmark = [
    pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed"),
    pytest.mark.slow,
]

KINDS = ("books", "films", "songs", "games", "poems", "plays")


class _Lists(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        parts = urlsplit(self.path)
        if parts.path == "/":
            links = "".join(f'<li><a href="/list?kind={k}">{k.title()}</a></li>' for k in KINDS)
            return self.reply(
                200,
                f"<html><head><title>Lists</title></head><body><h1>Lists</h1><ul>{links}</ul></body></html>",
            )
        if parts.path != "/list":
            return self.reply(404, "<html><body>no</body></html>")
        query = parse_qs(parts.query)
        kind = query.get("kind", ["books"])[0]
        grouped = query.get("group", ["0"])[0] == "1"
        flipped = f"?kind={kind}&group={0 if grouped else 1}"
        checked = " checked" if grouped else ""
        rows = "".join(
            f"<li>{kind} {n}{' (group ' + str(n % 2) + ')' if grouped else ''}</li>" for n in range(1, 4)
        )
        body = (
            f"<h1>{kind.title()}</h1><p><a href='/'>All lists</a></p>"
            f"<div class='filters'>Group: <input type='checkbox'{checked} "
            f"onclick=\"window.location='{flipped}'\"></div><ul class='rows'>{rows}</ul>"
        )
        self.reply(200, f"<html><head><title>{kind}</title></head><body>{body}</body></html>")


def test_a_checkbox_that_navigates_back_and_forth_is_learned_as_a_toggle(tmp_path):
    with explored_in_browser(_Lists, tmp_path / "s", 30) as (store, _engine):
        graph = ExplorationGraph(store)
        learned = graph.idle_controls()
        assert any(
            why == "toggle" and shape.startswith("click@ ") and "input" in shape
            for shape, why in learned.items()
        ), learned
        clicked = [graph.click_of(s.route) for s in store.history.steps() if "#click-" in s.route]
        boxes = [c for c in clicked if c is not None and re.search(r"input", c[1])]
        # A → B → A' (`group=0` is another address than none) on one list, then on another A → B → A'
        # → B: the click back to a page the control was clicked on teaches; of six lists and their
        # eighteen views, the other four lists' boxes are never clicked.
        assert len(boxes) <= 5, "\n".join(f"{s.route} -> {s.final_route}" for s in store.history.steps())
        # Every list was still opened by its link.
        visited = store.visits.visited()
        assert all(f"/list?kind={k}" in visited for k in KINDS), visited
