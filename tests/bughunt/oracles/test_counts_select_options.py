"""A count over an empty list beside a searchable select widget counts the list, not the widget's
options (issue 25, held-out set 17's clean build): a tag's dialog says "0 Monitors" over its empty list
of monitors, and below it an "Add a monitor" select whose options (an ARIA `listbox` inside a
`combobox`, drawn in the page though closed) list every monitor — no records the count counts.

The page is a small tag editor of our own, drawn as a Vue select widget draws it.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.page import FetchedPage
from tests.support.pages import Site

ORIGIN = "http://tags.test"
_page = Site(ORIGIN, "<html><body>", "</body></html>").page


def editor(roles: bool = True, shown: int = 0) -> FetchedPage:
    option, combobox, listbox = (
        (' role="option"', ' role="combobox"', ' role="listbox"') if roles else ("", "", "")
    )
    chosen = "".join(
        f'<a href="/dashboard/{n}" class="row"><span>Monitor {n}</span></a>' for n in range(shown)
    )
    options = "".join(
        f'<li class="multiselect__element"{option}><span class="multiselect__option"><span>Monitor {n} check</span></span></li>'
        for n in range(36)
    )
    body = (
        '<form><div class="modal-body"><div class="mb-3"><label for="name">Name</label><input id="name" value="ops"></div>'
        f'<div class="mb-3"><label for="tag-monitors" class="form-label">{shown} Monitors</label>'
        f'<div class="tag-monitors-list">{chosen}</div>'
        '<div class="pt-3"><label class="form-label">Add a monitor:</label>'
        f'<div class="multiselect"{combobox}><div class="multiselect__tags"><input class="multiselect__input"></div>'
        f'<div class="multiselect__content-wrapper" style="display: none;"><ul class="multiselect__content"{listbox}>{options}</ul></div>'
        "</div></div></div></div></form>"
    )
    return _page(body, "/settings/tags")


def kinds(page: FetchedPage) -> list[str]:
    return [f.kind for f in ORACLES["count_mismatch"](page)]


def test_a_select_widgets_options_are_no_list_a_count_counts():
    assert kinds(editor()) == []


def test_without_the_widgets_roles_the_options_still_read_as_the_section_list():
    # the same markup with no ARIA roles: nothing says these are a control's choices
    assert kinds(editor(roles=False)) == ["count_mismatch"]
