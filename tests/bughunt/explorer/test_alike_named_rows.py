"""Copies of one control in the rows of a list whose ids name their record by a word (`#delete-teaching`,
`#delete-report`: distinct selectors, distinct shapes) are copies all the same — the same tag path and
classes, each in a row of its own — so a few are clicked, not every row's. A toolbar's buttons with
ids of their own side by side are distinct controls, each clicked."""

from __future__ import annotations

from bughunt.dom import Selectors, parse_html
from bughunt.explorer.alike_controls import MAX_ALIKE_KINDS, alike_groups, alike_sample

NAMES = ["analysis", "report", "scratch", "teaching", "gpu-tests"]
ROWS = "".join(
    f'<tr><td>{n}</td><td><button class="stop-server btn" id="stop-{n}">stop</button>'
    f'<button class="delete-server btn" id="delete-{n}">delete</button></td></tr>'
    for n in NAMES
)
PAGE = (
    '<html><body><div><button class="btn" id="start-all">Start all</button>'
    '<button class="btn" id="stop-all">Stop all</button></div>'
    f"<table><tbody>{ROWS}</tbody></table></body></html>"
)


def _clicked() -> list[str]:
    root = parse_html(PAGE)
    selectors = Selectors()
    candidates = {selectors.of(n): n for n in root.find_all("button")}
    return [n.get("id") for group in alike_groups(candidates) for n in alike_sample(group)]


def test_named_rows_delete_is_one_control_and_a_toolbars_buttons_are_two() -> None:
    clicked = _clicked()
    # the first rows, one of each kind at most (the rows' ids are part of their structure)
    deletes = [i for i in clicked if i.startswith("delete-")]
    stops = [i for i in clicked if i.startswith("stop-") and i != "stop-all"]
    assert deletes[:2] == ["delete-analysis", "delete-report"] and len(deletes) <= MAX_ALIKE_KINDS
    assert stops[:2] == ["stop-analysis", "stop-report"] and len(stops) <= MAX_ALIKE_KINDS
    assert {"start-all", "stop-all"} <= set(clicked)
