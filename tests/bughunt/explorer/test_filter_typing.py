"""A single-page list that filters as you type: a filter form with no action, no method and no submit
button, whose script reads the box after a pause and draws the filtered rows under "1-10 of N"
(react-admin's always-on filters). The explorer types into the box a word the column it filters
shows in some rows, and the filtered list is judged like any rendered list: a total that still counts
the whole table ("1-10 of 12" over 3 rows) is `count_mismatch`; the right total is clean (issue 25;
corpus ho13_aiohttp_admin, aa-count-unfiltered). Pages here are made up."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bughunt.explorer.filter_typing import FILL_MARK, filter_boxes
from bughunt.page import FetchedPage
from tests.support.engines import explored_in_browser
from tests.support.loopback import script_shell

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

APP_JS = """
const WHOLE = %s;
if (!location.hash) history.replaceState(null, '', '#/shelves');  // a hash-routed app's list view
const woods = ['Maple', 'Cedar', 'Birch', 'Walnut'];
const items = Array.from({length: 12}, (_, i) => ({id: i + 1, title: woods[i %% 4] + ' shelf ' + (i + 1), rack: 'R' + (i %% 3)}));
const app = document.getElementById('app');
app.innerHTML = '<h1>Shelves</h1><form><label for="f-title">Title</label><input id="f-title" name="title" type="text">'
  + '</form><div id="list"></div>';
function draw(q) {
  const rows = items.filter(r => r.title.toLowerCase().includes(q.toLowerCase()));
  const shown = rows.slice(0, 10);
  const total = WHOLE ? items.length : rows.length;
  document.getElementById('list').innerHTML = '<table><thead><tr><th>Id</th><th>Title</th><th>Rack</th></tr></thead><tbody>'
    + shown.map(r => '<tr><td>' + r.id + '</td><td>' + r.title + '</td><td>' + r.rack + '</td></tr>').join('')
    + '</tbody></table><p class="range">' + (shown.length ? 1 : 0) + '-' + Math.min(10, total) + ' of ' + total + '</p>';
}
let timer = null;
document.getElementById('f-title').addEventListener('input', e => {
  clearTimeout(timer);
  timer = setTimeout(() => { localStorage.setItem('q', e.target.value); location.hash = '#/shelves?q=' + encodeURIComponent(e.target.value); draw(e.target.value); }, 300);
});
draw(localStorage.getItem('q') || '');  // the app keeps the list's filter for the session
"""


@pytest.mark.parametrize("whole", [True, False])
def test_a_filter_box_is_typed_into_and_its_filtered_list_judged(tmp_path: Path, whole: bool) -> None:
    spa = script_shell(APP_JS % ("true" if whole else "false"))
    with explored_in_browser(spa, tmp_path / "s", 6) as (store, engine):
        found = [b for b in store.bug_table.live() if b.kind == "count_mismatch"]
        # the box was emptied after the filtered list was read: the list shows whole again
        again = engine.fetch("/#/shelves").page
        assert again is not None and len(again.document.find_all("tr")) == 11
        filled = [r for r in store.db.execute("SELECT selector FROM click_actions") if FILL_MARK in r[0]]
    assert filled, "the filter box was never typed into"
    assert filled[0][0].endswith(FILL_MARK + "Maple")  # a word three of the ten rows show
    assert len(found) == (1 if whole else 0), [(b.route, b.message) for b in found]


def test_a_form_with_a_submit_is_no_filter_box() -> None:
    rows = (
        "".join(f"<tr><td>{i}</td><td>Maple {i}</td></tr>" for i in range(4))
        + "<tr><td>9</td><td>Pine</td></tr>"
    )
    table = f"<table><thead><tr><th>Id</th><th>Title</th></tr></thead><tbody>{rows}</tbody></table>"
    box = '<label for="t">Title</label><input id="t" type="text">'

    def page(form: str) -> FetchedPage:
        html = f"<html><body>{form}{table}</body></html>"
        return FetchedPage("http://app.test/#/x", "/#/x", 200, {}, "text/html", html, 1.0)

    assert [v for _, v in filter_boxes(page(f"<form>{box}</form>"))] == ["Maple"]
    assert filter_boxes(page(f"<form>{box}<button>Search</button></form>")) == []
    assert filter_boxes(page(f'<form action="/find">{box}</form>')) == []
    assert filter_boxes(page(f'<form>{box}<input type="password"></form>')) == []


def test_the_box_whose_column_rows_share_a_word_is_the_one_typed_into() -> None:
    rows = "".join(
        f"<tr><td>Tree {n}</td><td>{town}</td></tr>" for n, town in enumerate(["Leeds", "Leeds", "York"])
    )
    table = f"<table><thead><tr><th>Name</th><th>Town</th></tr></thead><tbody>{rows}</tbody></table>"
    form = '<form><label for="n">Name</label><input id="n"><label for="t">Town</label><input id="t"></form>'
    html = f"<html><body>{form}{table}</body></html>"
    page = FetchedPage("http://app.test/#/x", "/#/x", 200, {}, "text/html", html, 1.0)
    assert [(box.get("id"), word) for box, word in filter_boxes(page)] == [("t", "Leeds")]


@pytest.mark.parametrize(
    "head",
    [
        "<tr><th>Name</th><th>Town</th></tr>",  # headings in the body's first row: no `thead`
        '<tr><th colspan="2">:: Trees</th></tr><tr><th>Name</th><th>Town</th></tr>',  # under a title row
        "<tr><td></td><th>Town</th></tr>",  # an empty corner over the names
    ],
)
def test_the_column_a_box_filters_is_read_under_the_tables_column_headings(head: str) -> None:
    # the same reading of a table's headings as the oracles' (`table_heads`): the Town box is the one
    # whose column rows share a word, not the first box with the list's most shown word
    rows = "".join(
        f"<tr><td>Tree {n}</td><td>{town}</td></tr>" for n, town in enumerate(["Leeds", "Leeds", "York"])
    )
    form = '<form><label for="n">Name</label><input id="n"><label for="t">Town</label><input id="t"></form>'
    html = f"<html><body>{form}<table>{head}{rows}</table></body></html>"
    page = FetchedPage("http://app.test/#/x", "/#/x", 200, {}, "text/html", html, 1.0)
    assert [(box.get("id"), word) for box, word in filter_boxes(page)] == [("t", "Leeds")]


BOARD = (
    "<div class='lanes'>"
    + "".join(
        f"<div class='card'><p>{w} shelf {i}</p></div>"
        for i, w in enumerate(["Maple", "Cedar", "Maple", "Birch"])
    )
    + "</div>"
)


def _board(box: str) -> FetchedPage:
    html = f"<html><head><title>Board</title></head><body><header>{box}</header>{BOARD}</body></html>"
    return FetchedPage("http://board.test/", "/", 200, {}, "text/html", html, 1.0)


@pytest.mark.parametrize(
    "box",
    [
        "<input type='text' placeholder='Search'>",
        "<input aria-label='Filter cards'>",
        "<input type='search'>",
    ],
)
def test_a_search_box_in_no_form_over_a_list_is_typed_into(box: str) -> None:
    assert [(n.tag, value) for n, value in filter_boxes(_board(box))] == [("input", "Maple")]


@pytest.mark.parametrize(
    "box",
    [
        "<input type='text' placeholder='Your name'>",
        "<form action='/find'><input type='text' placeholder='Search'><button>Go</button></form>",
    ],
)
def test_a_box_not_named_for_searching_or_in_a_form_is_not(box: str) -> None:
    assert filter_boxes(_board(box)) == []


@pytest.mark.parametrize(
    "dialog", ["<dialog open><h2>Card</h2><p>Notes</p></dialog>", "<div role='dialog'><h2>Card</h2></div>"]
)
def test_a_search_box_behind_an_open_dialog_is_not_typed_into(dialog: str) -> None:
    page = _board("<input type='text' placeholder='Search'>")
    shown = FetchedPage(
        page.url, page.route, 200, {}, "text/html", page.body.replace("</body>", dialog + "</body>"), 1.0
    )
    assert filter_boxes(shown) == []
