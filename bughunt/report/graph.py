"""The site map as an inline SVG: pages in columns by link distance from the start, the remembered
links faint, the walked path drawn over them step by step, one colour and one layer per session.

Labels are the full route, wrapped at `/`, `?`, `&`, `-` boundaries over up to three lines (the node
grows to fit; a longer route is shortened in the middle and is whole in the tooltip). Each session's
walk is its own layer, shown or hidden with the checkboxes above the map — plain CSS, no script.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from html import escape
from typing import Any

from bughunt.sim.bfs import breadth_first

COL_W, ROW_H, NODE_W, NODE_H, PAD = 236, 40, 184, 26, 24
LABEL_CHARS = 19  # per line, in the 12 px monospace font, leaving room for the "#step" badge
LABEL_LINES = 3
LINE_H = 13
MAX_NODES = 160
MAX_ROWS = 24
SESSION_COLOURS = ("#2e7d32", "#1565c0", "#ef6c00", "#6a1b9a", "#00838f", "#ad1457")


@dataclass(frozen=True, slots=True)
class Placed:
    route: str
    x: float
    y: float
    depth: int
    reachable: bool = True
    h: float = NODE_H


def label_lines(route: str, width: int = LABEL_CHARS, max_lines: int = LABEL_LINES) -> list[str]:
    """The route over up to `max_lines` lines of `width`, broken after `/ ? & - =` where possible;
    a route longer than that keeps its start and end with `…` between (the tooltip has it whole)."""
    if len(route) <= width:
        return [route]
    if len(route) > width * max_lines:
        keep = width * max_lines - 1
        route = route[: keep - keep // 3] + "…" + route[len(route) - keep // 3 :]
    lines: list[str] = []
    rest = route
    while rest:
        if len(rest) <= width:
            lines.append(rest)
            break
        cut = max((rest.rfind(c, 1, width) for c in "/?&-="), default=-1)
        cut = cut if cut > width // 3 else width
        lines.append(rest[:cut])
        rest = rest[cut:]
    return lines[:max_lines]


def node_height(route: str) -> float:
    return NODE_H + (len(label_lines(route)) - 1) * LINE_H


def layout(start: str | None, links: dict[str, list[str]], visited: list[str]) -> tuple[list[Placed], int]:
    """Columns by breadth-first distance from `start`; pages reached no other way go last.

    Visited pages are placed before merely known ones, so a cap on a large site drops the
    unvisited pages first. Returns the placed pages and how many were left out.
    """
    depth: dict[str, int] = {}
    if start is not None:
        for there, here in breadth_first(start, lambda page: links.get(page, [])):
            depth[there] = 0 if there == start else depth[here] + 1
    order = list(dict.fromkeys([*([start] if start else []), *visited, *depth]))
    known = list(dict.fromkeys([*order, *links, *(d for ds in links.values() for d in ds)]))
    kept = [r for r in known if r in set(visited) or r == start][:MAX_NODES]
    kept += [r for r in known if r not in kept][: max(0, MAX_NODES - len(kept))]
    last = max(depth.values(), default=-1) + 1
    columns: dict[int, list[str]] = {}
    for route in sorted(kept, key=lambda r: (depth.get(r, last), known.index(r))):
        columns.setdefault(depth.get(route, last), []).append(route)
    placed: list[Placed] = []
    col = 0
    for key in sorted(columns):
        routes = columns[key]
        # A very tall column (a page linking to hundreds) wraps into several, same distance.
        for start_row in range(0, len(routes), MAX_ROWS):
            y: float = PAD + 22
            for route in routes[start_row : start_row + MAX_ROWS]:
                h = node_height(route)
                placed.append(Placed(route, PAD + 70 + col * COL_W, y, key, route in depth, h))
                y += h + ROW_H - NODE_H
            col += 1
    return placed, len(known) - len(kept)


def _curve(a: Placed, b: Placed, bend: float = 0.0) -> str:
    """Forward moves leave right and enter left; backward ones leave left and enter right, bowing
    down; moves within a column bow out to the left, so no line runs through a node's label."""
    mid_a, mid_b = a.y + a.h / 2, b.y + b.h / 2
    if b.depth > a.depth:
        x1, x2 = a.x + NODE_W, b.x
        mx, my = (x1 + x2) / 2, (mid_a + mid_b) / 2 + bend
    elif b.depth < a.depth:
        x1, x2 = a.x, b.x + NODE_W
        mx, my = (x1 + x2) / 2, max(mid_a, mid_b) + 30 + bend
    else:
        x1 = x2 = a.x
        mx, my = a.x - 30 - abs(mid_a - mid_b) * 0.25 - bend, (mid_a + mid_b) / 2
    return f"M{x1:.1f},{mid_a:.1f} Q{mx:.1f},{my:.1f} {x2:.1f},{mid_b:.1f}"


def site_map_svg(data: dict[str, Any]) -> str:
    steps: list[dict[str, Any]] = data.get("steps", [])
    links: dict[str, list[str]] = data.get("links", {})
    walked = [s.get("final_route") or s["route"] for s in steps]
    placed, omitted = layout(data.get("start_route"), links, walked)
    if not placed:
        return '<p class="muted">No pages yet.</p>'
    at = {p.route: p for p in placed}
    pages = {p["route"]: p for p in data.get("pages", [])}
    bug_state = _bug_state(data.get("bugs", []))
    first_step: dict[str, int] = {}
    for s, route in zip(steps, walked, strict=True):
        first_step.setdefault(route, s["n"])
    sessions = list(dict.fromkeys(s.get("session") for s in steps))
    width = max(p.x for p in placed) + NODE_W + PAD + 60
    height = max(p.y + p.h for p in placed) + PAD + 20
    out = [
        f'<svg class="sitemap" viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}" '
        'xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Site map with the walked path">',
        "<defs>"
        + "".join(
            f'<marker id="arrow{i}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
            f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{c}"/></marker>'
            for i, c in enumerate(SESSION_COLOURS)
        )
        + "</defs>",
    ]
    for x in sorted({p.x for p in placed}):
        column = [p for p in placed if p.x == x]
        d = column[0].depth
        if not any(p.reachable for p in column):
            label = "not linked from the start"
        else:
            label = "start" if d == 0 else f"{d} click{'s' if d > 1 else ''} away"
        out.append(f'<text x="{x}" y="{PAD}" class="col-label">{label}</text>')
    for src, dsts in links.items():
        for dst in dsts:
            if src in at and dst in at and src != dst:
                out.append(f'<path d="{_curve(at[src], at[dst])}" class="link"/>')
    moves: Counter[tuple[str, str, str | None]] = Counter()
    for i in range(1, len(steps)):
        a, b = walked[i - 1], steps[i]["route"]
        if a in at and b in at and a != b:
            moves[(a, b, steps[i].get("session"))] += 1
    layers: dict[int, list[str]] = {}
    for (a, b, session), count in moves.items():
        layer = sessions.index(session)
        colour_i = layer % len(SESSION_COLOURS)
        steps_here = [
            s["n"]
            for i, s in enumerate(steps)
            if i and walked[i - 1] == a and s["route"] == b and s.get("session") == session
        ]
        layers.setdefault(layer, []).append(
            f'<path d="{_curve(at[a], at[b], bend=8 * colour_i)}" class="walk" stroke="{SESSION_COLOURS[colour_i]}" '
            f'stroke-width="{min(1.6 + count, 6):.1f}" marker-end="url(#arrow{colour_i})">'
            f"<title>{escape(str(session))}: {escape(a)} → {escape(b)}, step{'s' if count > 1 else ''} "
            f"{', '.join(map(str, steps_here))}</title></path>"
        )
    for layer, paths in sorted(layers.items()):
        out.append(f'<g class="walk-layer layer-{layer}">{"".join(paths)}</g>')
    for p in placed:
        out.append(_node(p, pages.get(p.route), bug_state.get(p.route), first_step.get(p.route)))
    out.append("</svg>")
    # One checkbox per session, right before the map: unticking hides that session's walk (CSS only).
    toggles = "".join(
        f'<input type="checkbox" class="layer-toggle" id="map-layer-{i}" checked>'
        f'<label for="map-layer-{i}" class="layer-label"><i class="line" style="background:'
        f'{SESSION_COLOURS[i % len(SESSION_COLOURS)]}"></i>{escape(str(name))}</label>'
        for i, name in enumerate(sessions)
    )
    layer_css = "".join(
        f"#map-layer-{i}:not(:checked)~.svg-scroll .layer-{i}{{display:none}}" for i in range(len(sessions))
    )
    hint = '<span class="muted">walk of session (untick to hide):</span>' if sessions else ""
    legend = (
        '<div class="legend"><span><i class="sw sw-visited"></i>visited</span>'
        '<span><i class="sw sw-known"></i>known, not visited</span><span><i class="sw sw-bug"></i>open bug</span>'
        '<span><i class="sw sw-fixed"></i>bug fixed</span>'
        '<span><i class="sw sw-wall"></i>redirect / login wall / error</span>'
        "<span>#n = step of the first visit · hover a page or an arrow for details</span></div>"
    )
    note = f'<p class="muted">{omitted} more known pages not drawn.</p>' if omitted else ""
    # Fit to the page's width by default (a wide map used to run past the right edge); unticked, the
    # map keeps its natural size and scrolls inside its box.
    fit = (
        '<input type="checkbox" class="map-fit" id="map-fit" checked>'
        '<label for="map-fit" class="layer-label">fit to width (untick to zoom in and scroll)</label>'
    )
    return (
        f'<div class="map-layers"><style>{layer_css}</style>{hint}{toggles}{fit}'
        f'<div class="svg-scroll">{"".join(out)}</div></div>{legend}{note}'
    )


def _bug_state(bugs: list[dict[str, Any]]) -> dict[str, str]:
    state: dict[str, str] = {}
    for bug in bugs:
        if bug.get("superseded_by"):
            continue
        if bug.get("status") == "open" or state.get(bug["route"]) != "open":
            state[bug["route"]] = "bug" if bug.get("status") == "open" else "fixed"
    return state


def _node(p: Placed, page: dict[str, Any] | None, bug: str | None, step: int | None) -> str:
    if page is None:
        css = "known"
    elif page.get("outcome") not in (None, "page") or (page.get("status") or 200) >= 400:
        css = "wall"
    else:
        css = "visited"
    if bug:
        css += f" {bug}"
    lines = label_lines(p.route)
    tip = p.route
    if page is not None:
        tip += f" — {page.get('outcome')}, HTTP {page.get('status')}, {page.get('visits', 0)} visit(s)"
        if page.get("needs_retest"):
            tip += ", needs retest"
    badge = (
        f'<text x="{p.x + NODE_W - 4}" y="{p.y + NODE_H / 2 + 4}" class="step-no">#{step}</text>'
        if step
        else ""
    )
    if len(lines) == 1:
        text = f'<text x="{p.x + 8}" y="{p.y + NODE_H / 2 + 4}">{escape(lines[0])}</text>'
    else:
        spans = "".join(
            f'<tspan x="{p.x + 8}" y="{p.y + NODE_H / 2 + 4 + i * LINE_H}">{escape(line)}</tspan>'
            for i, line in enumerate(lines)
        )
        text = f'<text class="wrapped" aria-label="{escape(p.route)}">{spans}</text>'
    return (
        f'<g class="node {css}"><title>{escape(tip)}</title>'
        f'<rect x="{p.x}" y="{p.y}" width="{NODE_W}" height="{p.h}" rx="6"/>{text}{badge}</g>'
    )
