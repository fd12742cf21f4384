"""Ids a framework generates as it renders (React's useId, Radix, Headless UI, Vue, Angular, Ember…)
change from load to load: a selector anchored on one names another control, or none, at the next
load, and each row's copy of a control would be a kind of its own. A selector walks past them to a
stable anchor, and the structure of a page does not change with them."""

from __future__ import annotations

import random
import string

import pytest

from bughunt.dom import Node, Selectors, generated_id, parse_html, selector_shape, structure_hash
from bughunt.explorer.alike_controls import alike_sample

GENERATED = [
    "radix-_r_8_",
    "radix-_r_k_",
    "menu-button-_R_2ab_",
    ":r1:",
    "«r1»",
    "headlessui-menu-button-3",
    "mui-123",
    "reach-menu-button--1",
    "v-0-1",
    "mat-input-12",
    "cdk-overlay-0",
    "ember123",
    "__BVID__12",
    "id-123e4567-e89b-12d3-a456-426614174000",
    "record_dWBRl",  # an app's own name with a random suffix ("record_" + randomString(5))
    "record_revxU",
    "field-k3j9x",  # Math.random().toString(36)
    "record_7AAVJ",
    "more-formatting-dropdown-btn-4176",  # a widget's parts numbered per instance at each render
    "more-formatting-dropdown-popover-283",
    "mode-toggle-markdown-6308",
    "more-formatting-dropdown-btn-23",  # as often a short number
    "dropdown-12",
]
STABLE = [
    "main", "post-42", "tr-6d1a9f", "user_r_name", "sidebar", "v-app", "mat-toolbar", "app", "tag-input",
    "post_title", "id_first_name", "checkbox_0", "user_ID", "col-md4", "navbarNav", "tr-6D1A9F", "nav_MAIN",
    "comment-1234", "tab-1", "menu-item-123", "user-menu", "post-1234-toggle",
]  # fmt: skip


@pytest.mark.parametrize("ident", GENERATED)
def test_a_frameworks_render_time_id_is_generated(ident: str) -> None:
    assert generated_id(ident)


@pytest.mark.parametrize("ident", STABLE)
def test_an_authors_id_is_not_generated(ident: str) -> None:
    assert not generated_id(ident)


def _load(description_of: dict[int, str | None]) -> str:
    """One load of a list whose row menus' ids are React 19 useIds, numbered anew on every load."""
    rng = random.Random()
    rows = []
    for number, description in description_of.items():
        made_up = "".join(rng.choice(string.ascii_lowercase) for _ in range(2))
        cell = f"<span>{description}</span>" if description else '<span class="italic">No description</span>'
        rows.append(
            f'<tr><td>Item {number} <button class="copy">Copy ID</button></td><td>{cell}</td><td>'
            f'<button id="radix-_r_{made_up}_" aria-haspopup="menu">⋮</button></td></tr>'
        )
    return f'<div id="app"><table><tbody>{"".join(rows)}</tbody></table></div>'


def _triggers(root: Node) -> list[Node]:
    return [n for n in root.iter() if n.tag == "button" and "aria-haspopup" in n.attrs]


DESCRIPTIONS: dict[int, str | None] = {1: "one", 2: "two", 3: "three", 4: None, 5: "five", 6: "six"}


def test_a_row_menus_selector_does_not_anchor_on_its_generated_id() -> None:
    first, second = parse_html(_load(DESCRIPTIONS)), parse_html(_load(DESCRIPTIONS))
    at_first = [Selectors().of(n) for n in _triggers(first)]
    at_second = [Selectors().of(n) for n in _triggers(second)]
    # the same control is named alike on the next load, from the stable anchor above it
    assert at_first == at_second
    assert at_first[0] == "#app > table > tbody > tr:nth-of-type(1) > td:nth-of-type(3) > button"
    # every row's menu is one kind of control, and the page's structure does not change per load
    assert len({selector_shape(s) for s in at_first}) == 1
    # a button of another column (a Copy button beside the item's name) is another kind of control
    copy = next(n for n in first.iter() if n.get("class") == "copy")
    assert selector_shape(Selectors().of(copy)) != selector_shape(at_first[0])
    assert structure_hash(first) == structure_hash(second)


def test_the_copies_clicked_include_a_row_that_shows_a_missing_field() -> None:
    root = parse_html(_load(DESCRIPTIONS))
    picked = alike_sample(_triggers(root))
    rows = [Selectors().of(n).split(" > ")[3] for n in picked]
    # the first row, and the row without a description (shown in another style): not rows 1 and 2
    assert rows == ["tr:nth-of-type(1)", "tr:nth-of-type(4)"]


def test_copies_in_rows_alike_are_the_first_two() -> None:
    root = parse_html(_load({n: f"item {n}" for n in range(1, 7)}))
    picked = alike_sample(_triggers(root))
    assert [Selectors().of(n).split(" > ")[3] for n in picked] == ["tr:nth-of-type(1)", "tr:nth-of-type(2)"]


def _toolbar(number: int) -> Node:
    """One render of an editor's toolbar whose "more" button and its popover carry a number drawn anew."""
    return parse_html(
        '<div id="editor"><div class="toolbar"><button aria-label="Bold">B</button>'
        f'<button aria-label="More formatting" id="more-dropdown-btn-{number}"'
        f' aria-controls="more-dropdown-popover-{number}">…</button>'
        f'<div id="more-dropdown-popover-{number}" role="menu"></div></div></div>'
    )


def test_a_widgets_per_render_number_is_no_anchor() -> None:
    first, second = _toolbar(4176), _toolbar(283)
    [a] = [n for n in first.iter() if n.get("aria-label") == "More formatting"]
    [b] = [n for n in second.iter() if n.get("aria-label") == "More formatting"]
    # two renders of one state name the one control alike: it is offered once, not once per load
    assert Selectors().of(a) == Selectors().of(b) == "#editor > div > button:nth-of-type(2)"
    assert structure_hash(first) == structure_hash(second)
