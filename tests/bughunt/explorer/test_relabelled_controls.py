"""A click state's control that stands where the fresh load has another saying something else
(`facts.read_page`, `state_controls.listed_controls`): in the items of a list it is another record a
script drew in place (the Archive's first mail where the Inbox's was), made on the state; elsewhere —
a form's field, a code block that copies the text it shows — it is the load's control showing another
value, clicked from the load as before (on PocketBase every settings panel's field looked new, and the
walk spent its budget two to six clicks deep in them). And a group opened that unfolds a form shows
the form's fields, clicked where the form is, not made on the state."""

from __future__ import annotations

from bughunt.explorer.browser import BrowserEngine
from bughunt.explorer.facts import read_page
from bughunt.page import FetchedPage

ORIGIN = "http://mail.test"


def _page(folder: str, rows: list[str], clicked_from: FetchedPage | None = None) -> FetchedPage:
    body = (
        f'<h1>{folder}</h1><button onclick="go()">Archive</button>'
        '<table class="mails">'
        + "".join(f'<tr onclick="open_mail()"><td>{subject}</td></tr>' for subject in rows)
        + "</table>"
        f'<div class="code" onclick="copy()">Copy {{"folder": "{folder}", "count": "{len(rows)} mails"}}</div>'
        f'<form><button type="button" onclick="t()">Notify on {folder}</button><input name="q"></form>'
    )
    html = f"<!doctype html><html><head><title>Mail</title></head><body>{body}</body></html>"
    made = (clicked_from, "Archive") if clicked_from is not None else None
    return FetchedPage(ORIGIN + "/", "/", 200, {}, "text/html", html, 1.0, clicked_from=made)


def test_another_record_in_a_list_is_the_state_s_a_field_showing_another_value_is_the_load_s() -> None:
    engine = BrowserEngine(ORIGIN + "/", respect_robots=False)
    inbox = _page("Inbox", ["Lunch on Friday", "Old invoice"])
    loaded = {selector: route for route, _, selector in read_page(inbox, engine).clicks}
    archive = _page("Archive", ["Tax return", "Holiday plans"], clicked_from=inbox)
    state = "/#click-archive"
    on_state = read_page(archive, engine, state=(state, "html > body > button")).clicks
    made_on = {selector: page for _, page, selector in on_state}
    rows = [s for s in made_on if "tr" in s]
    assert len(rows) == 2 and all(made_on[s] == state for s in rows), on_state
    others = [s for s in made_on if s not in rows and s != "html > body > button"]
    assert len(others) == 2, on_state  # the code block and the form's toggle
    for selector in others:
        assert made_on[selector] == "/", (selector, on_state)
        route = next(r for r, _, s in on_state if s == selector)
        assert route == loaded[selector]  # the same click state the load offers


def _grouped(shown: str, clicked_from: FetchedPage | None = None) -> FetchedPage:
    html = (
        "<!doctype html><html><head><title>Settings</title></head><body><h1>Settings</h1>"
        f'<button aria-expanded="{"true" if shown else "false"}" onclick="o()">Rate limits</button>'
        f"<div>{shown}</div></body></html>"
    )
    made = (clicked_from, "Rate limits") if clicked_from is not None else None
    return FetchedPage(ORIGIN + "/", "/", 200, {}, "text/html", html, 1.0, clicked_from=made)


def test_a_group_that_unfolds_a_form_shows_the_form_s_fields_a_group_of_content_its_own() -> None:
    engine = BrowserEngine(ORIGIN + "/", respect_robots=False)
    folded = _grouped("")
    state = ("/#click-limits", "html > body > button")
    form = '<form><button type="button" onclick="a()">Add rule</button><input name="max"><button>Save</button></form>'
    fields = read_page(_grouped(form, clicked_from=folded), engine, state=state).clicks
    assert not [c for c in fields if c[1] == state[0]], fields  # the form's: not made on the state
    content = '<ul class="kids"><li><span onclick="p()">Pin one</span></li><li><span onclick="p()">Pin two</span></li></ul>'
    own = read_page(_grouped(content, clicked_from=folded), engine, state=state).clicks
    assert len([c for c in own if c[1] == state[0]]) == 2, own  # what a group of content shows: the state's
