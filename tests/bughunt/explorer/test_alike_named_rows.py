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


def _sections_clicked(extra: str = "") -> list[str]:
    sections = "".join(
        f'<section id="part-{w}"><h2>{w}</h2><p>Text.</p><div class="highlight-py"><div class="highlight">'
        f'<span class="copybutton" title="Hide the prompts and output">&gt;&gt;&gt;</span><pre>x = {n}</pre>'
        "</div></div></section>"
        for n, w in enumerate(["intro", "files", "errors", "dates", "math", "web", "tests", "speed"])
    )
    root = parse_html(f"<html><body>{extra}{sections}</body></html>")
    selectors = Selectors()
    candidates = {selectors.of(n): n for n in root.find_all("span", "button")}
    return [
        n.parent.parent.parent.get("id") or n.text()
        for g in alike_groups(candidates)
        for n in alike_sample(g)
    ]


def test_one_control_drawn_in_every_section_is_one_control() -> None:
    """A documentation page draws a copy button on every code block, each under a section id of its
    own: one control, a few clicked — not eight clicks of the budget."""
    clicked = _sections_clicked()
    assert len(clicked) <= MAX_ALIKE_KINDS, clicked
    # buttons that say different things stay apart, each clicked
    toolbar = '<div><button class="btn">Expand all</button><button class="btn">Collapse all</button></div>'
    assert {"Expand all", "Collapse all"} <= set(_sections_clicked(toolbar))


def _slug(title: str) -> str:
    return "-".join(title.lower().split())


def test_two_bars_of_icon_buttons_named_by_their_titles_are_each_clicked() -> None:
    """An icon toolbar at the top and a bar at the bottom (Transmission's web client, an ExtJS viewport's
    top and bottom toolbars), each button a bare `div` with an id and a title: one place, but each says a
    thing of its own — not copies in items. Taken for copies, only two of nine were offered (the
    inspector, the preferences and the compact view were never clicked)."""
    top = ["Open Torrent", "Start All", "Pause All", "Toggle Inspector"]
    bottom = ["Settings Menu", "Edit Preferences", "Alternative Speed Limits", "Compact View"]
    bar = '<div id="{}">{}</div>'.format
    icons = "".join
    page = (
        "<html><body>"
        + bar("toolbar", icons(f'<div id="tb-{_slug(t)}" title="{t}"></div>' for t in top))
        + bar("footer", icons(f'<div id="ft-{_slug(t)}" title="{t}"></div>' for t in bottom))
        + "</body></html>"
    )
    root = parse_html(page)
    selectors = Selectors()
    candidates = {selectors.of(n): n for n in root.find_all("div") if n.get("title")}
    clicked = [n.get("title") for group in alike_groups(candidates) for n in alike_sample(group)]
    assert sorted(clicked) == sorted(top + bottom)
