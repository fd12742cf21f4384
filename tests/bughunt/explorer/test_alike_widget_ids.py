"""A widget toolkit numbers every element it draws (`ext-gen44`): ids with digits, which read as record
ids, so a toolbar's buttons all had the one shape `#<id>` and only two were clicked. Buttons that each
say a thing of their own on anchors of different kinds are controls of their own; a grid's cells under
one numbered body, and a Delete in every numbered row, are still copies."""

from __future__ import annotations

from bughunt.dom import Selectors, parse_html
from bughunt.explorer.alike_controls import MAX_ALIKE_CLICKS, MAX_ALIKE_KINDS, alike_groups, alike_sample

WORDS = ["Add", "Remove", "Pause", "Resume", "Up", "Down", "Preferences", "Connections", "Help", "Logout"]
"""More than a menu's eight (`alike_controls.MAX_MENU`): a toolkit's bar."""
TOOLBAR = "".join(
    f'<td><table class="x-btn"><tbody><tr><td><em><button type="button" id="ext-gen{40 + i}" '
    f'class="x-btn-text icon-{w.lower()}">{w}</button></em></td></tr></tbody></table></td>'
    for i, w in enumerate(WORDS)
)
TOOLS = "".join(
    f'<div class="x-tool x-tool-{w}" id="ext-gen{90 + i}">&#160;</div>'
    for i, w in enumerate(["west", "south"])
)
ROWS = "".join(
    f'<div class="row" id="row-{n}"><span>Item {n}</span><button class="del">Delete</button></div>'
    for n in range(8)
)
GRID = "".join(f'<tr><td><span class="cell">Torrent {n}</span></td></tr>' for n in range(9))
PAGE = (
    f"<html><body><table><tbody><tr>{TOOLBAR}</tr></tbody></table>{TOOLS}{ROWS}"
    f'<div id="ext-gen96"><table><tbody>{GRID}</tbody></table></div></body></html>'
)


def _clicked() -> list[str]:
    root = parse_html(PAGE)
    selectors = Selectors()
    nodes = root.find_all("button") + root.find_all("span") + root.find_all("div")
    wanted = [n for n in nodes if n.tag == "button" or {"cell", "x-tool"} & set(n.classes)]
    candidates = {selectors.of(n): n for n in wanted}
    groups = alike_groups(candidates)
    return [" ".join(n.text().split()) or n.get("id") for group in groups for n in alike_sample(group)]


def test_a_toolbars_numbered_buttons_are_each_clicked_and_copies_stay_copies() -> None:
    clicked = _clicked()
    assert set(WORDS) | {"ext-gen90", "ext-gen91"} <= set(clicked)  # the bar, and both panels' tools
    assert 1 <= clicked.count("Delete") <= MAX_ALIKE_KINDS
    assert 1 <= sum(c.startswith("Torrent") for c in clicked) <= max(MAX_ALIKE_CLICKS, MAX_ALIKE_KINDS)
