"""A record editor per record (`/edit/1`, `/edit/2`, …) whose form holds the same toggles: a folded
"Advanced" section and a button opening a helper dialog (`type="button"`: they change what the form
would send, nothing on the server). Clicked on one record's form they are learned (`form_field`, by
shape and words) and not clicked again on the others'; a control of the page outside the form, that
shows each record's own words, still is; the form's submit is no toggle."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bughunt.dom import parse_html
from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.form_toggles import form_toggle, submits
from bughunt.explorer.graph import ExplorationGraph
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from bughunt.page import FetchedPage
from tests.support.engines import browser_on
from tests.support.loopback import QuietHandler

RECORDS = range(1, 7)
FORM = (
    '<form method="post" action="/save/{n}"><input name="name" value="Monitor {n}">'
    """<button type="button" id="adv" onclick="document.getElementById('more').innerHTML = """
    """'<label>Retries</label><input name=retries><label>Timeout</label><input name=timeout>'">Advanced</button>"""
    """<div id="more"></div>"""
    """<button type="button" id="notify" onclick="document.getElementById('dlg').innerHTML = """
    """'<label>Webhook address</label><input name=hook>'">Setup notification</button><div id="dlg"></div>"""
    "<button>Save</button></form>"
)
NOTES = (
    """<span id="notes" onclick="document.getElementById('n').innerHTML = """
    """'<ul><li>Checked by {who}</li><li>Paused at {n}:00</li></ul>'">History</span><div id="n"></div>"""
)


def _page(n: int) -> str:
    links = "".join(f'<li><a href="/edit/{r}">Monitor {r}</a></li>' for r in RECORDS)
    return (
        f"<!doctype html><html><head><title>Edit {n}</title></head><body><h1>Edit monitor {n}</h1>"
        f"<ul>{links}</ul>{FORM.format(n=n)}{NOTES.format(n=n, who=['ann', 'bob', 'cy', 'dee', 'ed', 'flo'][n - 1])}"
        "</body></html>"
    )


class _Site(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802
        path = self.path.split("?")[0]
        if path == "/":
            self.reply(200, _page(1))
        elif path.startswith("/edit/") and path[6:].isdigit() and int(path[6:]) in RECORDS:
            self.reply(200, _page(int(path[6:])))
        else:
            self.reply(404, "<!doctype html><title>no</title><p>no</p>")


def test_a_form_s_own_controls_are_told_from_its_submit_and_from_the_page_s() -> None:
    page = FetchedPage("http://x.test/", "/", 200, {}, "text/html", _page(1), 1.0)
    assert form_toggle(page, "#adv") and form_toggle(page, "#notify")
    assert not form_toggle(page, "#notes")  # outside the form
    save = next(n for n in parse_html(_page(1)).iter() if n.tag == "button" and n.text() == "Save")
    assert submits(save)


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")
def test_a_form_s_toggles_are_clicked_on_one_record_s_form_and_the_page_s_own_control_on_each(
    tmp_path: Path,
) -> None:
    store = ExplorerStore(tmp_path / "s")
    try:
        with browser_on(_Site, respect_robots=False) as engine:
            with make_policy("planner", store=store) as policy:
                Explorer(store, engine, policy, SessionConfig(budget=40, retries=0)).run()
        graph = ExplorationGraph(store)
        made = [graph.click_of(s.route) for s in store.history.steps() if "#click-" in s.route]
        clicked = [c[1] for c in made if c is not None]
        for toggle in ("#adv", "#notify"):
            assert sum(s.endswith(toggle) for s in clicked) == 1, made
        assert "form_field" in graph.idle_controls().values()
        assert sum(s.endswith("#notes") for s in clicked) >= 3, made  # each record's own history
    finally:
        store.close()
