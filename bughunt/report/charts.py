"""Progress over steps as inline SVG line charts, with session boundaries and bug discoveries.

Coverage (a share of the site's pages) is drawn only where the number of pages is known (the built-in
site); elsewhere the chart shows pages discovered (known from a visited page's links) and pages visited,
as counts. Step ticks are at round intervals and never collide.
"""

from __future__ import annotations

from html import escape
from typing import Any

W, H, LEFT, RIGHT, TOP, BOTTOM = 960, 280, 52, 20, 24, 40


def step_ticks(n: int, target: int = 12) -> list[int]:
    """Steps to label on an axis of steps 1..n: multiples of a round interval (1, 2, 5, 10, 20, 50…),
    plus the first and the last step unless that would sit closer than half an interval to a neighbour."""
    if n <= 0:
        return []
    interval = min(b * 10**p for b in (1, 2, 5) for p in range(9) if n / (b * 10**p) <= target)
    ticks = list(range(interval, n + 1, interval))
    if not ticks or ticks[0] - 1 >= interval / 2:
        ticks.insert(0, 1)
    if n - ticks[-1] >= interval / 2:
        ticks.append(n)
    return ticks


def discovery_curves(data: dict[str, Any]) -> tuple[list[int], list[int]]:
    """Pages discovered and pages visited after each step, as counts.

    A page is discovered when a page linking to it (in the remembered link table) is first visited,
    or when it is visited itself; visited = fetched successfully as a page."""
    links: dict[str, list[str]] = data.get("links", {})
    known: set[str] = set()
    visited: set[str] = set()
    discovered_curve, visited_curve = [], []
    for s in data.get("steps", []):
        route = s.get("final_route") or s["route"]
        known.add(s["route"])
        if s.get("outcome") == "page":
            visited.add(route)
            known.add(route)
            known.update(links.get(route, []))
        discovered_curve.append(len(known))
        visited_curve.append(len(visited))
    return discovered_curve, visited_curve


def coverage_svg(data: dict[str, Any]) -> str:
    steps: list[dict[str, Any]] = data.get("steps", [])
    if not steps:
        return '<p class="muted">No steps recorded yet.</p>'
    summary = data.get("summary") or {}
    if summary.get("coverage") is None and not data.get("builtin"):
        return _discovery_svg(data)
    curve: list[float] = list(data.get("coverage_curve") or [])
    if not curve:
        return '<p class="muted">No steps recorded yet.</p>'
    n = len(curve)
    plot_w, plot_h = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(step: float) -> float:
        return LEFT + (plot_w * (step - 1) / max(1, n - 1) if n > 1 else plot_w / 2)

    def y(value: float) -> float:
        return TOP + plot_h * (1 - value)

    out = [
        f'<svg class="chart" viewBox="0 0 {W} {H}" width="{W}" height="{H}" xmlns="http://www.w3.org/2000/svg" '
        'role="img" aria-label="Coverage over steps">'
    ]
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        out.append(
            f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" class="grid"/>'
            f'<text x="{LEFT - 8}" y="{y(tick) + 4:.1f}" class="axis" text-anchor="end">{tick:.0%}</text>'
        )
    out += _step_axis(n, x, plot_w)
    out += _session_lines(steps, x, plot_h)
    points = " ".join(f"{x(i + 1):.1f},{y(v):.1f}" for i, v in enumerate(curve))
    area = f"{x(1):.1f},{y(0):.1f} {points} {x(n):.1f},{y(0):.1f}"
    out.append(f'<polygon points="{area}" class="area"/><polyline points="{points}" class="line"/>')
    out += _markers(data, n, x, lambda step: y(curve[step - 1]), TOP + plot_h)
    out.append("</svg>")
    legend = (
        '<div class="legend"><span><i class="line" style="background:#2e7d32"></i>share of pages seen</span>'
        '<span><i class="dot"></i>new bug reported</span><span><i class="diamond"></i>bug found fixed</span><span><i class="tick"></i>repeat visit</span>'
        "<span>dashed line: a new session</span></div>"
    )
    return f'<div class="svg-scroll">{"".join(out)}</div>{legend}'


def _markers(data: dict[str, Any], n: int, x: Any, y_at: Any, baseline: float) -> list[str]:
    """Bug discoveries (dots), bugs found fixed (diamonds) and repeat visits (ticks) along a curve."""
    out: list[str] = []
    steps: list[dict[str, Any]] = data.get("steps", [])
    found: dict[int, list[str]] = {}
    for report in data.get("reports", []):
        if not report.get("duplicate"):
            found.setdefault(report["step"], []).append(f"{report['kind']} on {report['route']}")
    for step, what in sorted(found.items()):
        if 1 <= step <= n:
            out.append(
                f'<circle cx="{x(step):.1f}" cy="{y_at(step):.1f}" r="6" class="bug-dot">'
                f"<title>step {step}: {escape('; '.join(what))}</title></circle>"
            )
    for bug in data.get("bugs", []):
        step = bug.get("step") or 0
        if bug.get("status") == "fixed" and not bug.get("superseded_by") and 1 <= step <= n:
            out.append(
                f'<rect x="{x(step) - 5:.1f}" y="{y_at(step) - 5:.1f}" width="10" height="10" '
                f'class="fixed-dot" transform="rotate(45 {x(step):.1f} {y_at(step):.1f})">'
                f"<title>step {step}: {escape(str(bug.get('kind')))} on {escape(str(bug.get('route')))} "
                f"is fixed in {escape(_version(bug.get('version')))}</title></rect>"
            )
    for step, s in enumerate(steps, start=1):
        if s.get("repeat") and step <= n:
            out.append(
                f'<rect x="{x(step) - 2:.1f}" y="{baseline - 6}" width="4" height="6" class="repeat-tick"/>'
            )
    return out


def _version(v: Any) -> str:
    return f"v{v}" if v not in (None, "") else "a version the site does not show"


def _step_axis(n: int, x: Any, plot_w: float) -> list[str]:
    out = [
        f'<text x="{x(step):.1f}" y="{H - BOTTOM + 16}" class="axis" text-anchor="middle">{step}</text>'
        for step in step_ticks(n)
    ]
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{H - 6}" class="axis" text-anchor="middle">step</text>')
    return out


def _session_lines(steps: list[dict[str, Any]], x: Any, plot_h: float) -> list[str]:
    out, previous = [], None
    for s in steps:
        if s.get("session") != previous and previous is not None:
            sx = x(s["n"] - 0.5)
            out.append(
                f'<line x1="{sx:.1f}" x2="{sx:.1f}" y1="{TOP}" y2="{TOP + plot_h}" class="session-line"/>'
                f'<text x="{sx + 4:.1f}" y="{TOP + 12}" class="axis">{escape(str(s.get("session")))}'
                f"{' · v' + escape(str(s['app_version'])) if s.get('app_version') else ''}</text>"
            )
        previous = s.get("session")
    return out


def _discovery_svg(data: dict[str, Any]) -> str:
    """Pages discovered vs pages visited over steps (no coverage: the site's page count is unknown)."""
    steps: list[dict[str, Any]] = data["steps"]
    discovered, visited = discovery_curves(data)
    n = len(steps)
    top_value = max(max(discovered), 1)
    plot_w, plot_h = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(step: float) -> float:
        return LEFT + (plot_w * (step - 1) / max(1, n - 1) if n > 1 else plot_w / 2)

    def y(value: float) -> float:
        return TOP + plot_h * (1 - value / top_value)

    out = [
        f'<svg class="chart" viewBox="0 0 {W} {H}" width="{W}" height="{H}" xmlns="http://www.w3.org/2000/svg" '
        'role="img" aria-label="Pages discovered and visited over steps">'
    ]
    for tick in sorted({0, round(top_value / 4), round(top_value / 2), round(3 * top_value / 4), top_value}):
        out.append(
            f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" class="grid"/>'
            f'<text x="{LEFT - 8}" y="{y(tick) + 4:.1f}" class="axis" text-anchor="end">{tick}</text>'
        )
    out += _step_axis(n, x, plot_w)
    out += _session_lines(steps, x, plot_h)
    for values, css in ((discovered, "line-known"), (visited, "line")):
        points = " ".join(f"{x(i + 1):.1f},{y(v):.1f}" for i, v in enumerate(values))
        out.append(f'<polyline points="{points}" class="{css}"/>')
    out += _markers(data, n, x, lambda step: y(visited[step - 1]), TOP + plot_h)
    out.append("</svg>")
    legend = (
        '<div class="legend"><span><i class="line" style="background:#2e7d32"></i>pages visited '
        f"({visited[-1]})</span>"
        f'<span><i class="line" style="background:#9aa5b1"></i>pages discovered ({discovered[-1]})</span>'
        '<span><i class="dot"></i>new bug reported</span><span><i class="diamond"></i>bug found fixed</span>'
        '<span><i class="tick"></i>repeat visit</span><span>dashed line: a new session</span></div>'
        '<p class="muted">No coverage curve: the number of pages this site has is unknown. A page counts as '
        "discovered once a visited page links to it.</p>"
    )
    return f'<div class="svg-scroll">{"".join(out)}</div>{legend}'


def tokens_svg(data: dict[str, Any]) -> str:
    """Tokens spent per step as bars (the prompt the policy sent; 0 for policies without a model)."""
    steps: list[dict[str, Any]] = data.get("steps", [])
    tokens = [int(s.get("tokens") or 0) for s in steps]
    if not tokens or not any(tokens):
        return ""
    h, top, bottom = 120, 14, 22
    plot_w, plot_h = W - LEFT - RIGHT, h - top - bottom
    peak = max(tokens)
    bar = plot_w / len(tokens)
    out = [
        f'<svg class="chart" viewBox="0 0 {W} {h}" width="{W}" height="{h}" xmlns="http://www.w3.org/2000/svg" '
        'role="img" aria-label="Tokens per step">',
        f'<text x="{LEFT - 8}" y="{top + 4}" class="axis" text-anchor="end">{peak:,}</text>'
        f'<text x="{LEFT - 8}" y="{top + plot_h}" class="axis" text-anchor="end">0</text>'
        f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{top + plot_h}" y2="{top + plot_h}" class="grid"/>',
    ]
    for i, (s, t) in enumerate(zip(steps, tokens, strict=True)):
        bh = plot_h * t / peak
        # Centred on the same x as the coverage chart's step, so the two read as one timeline.
        centre = LEFT + (plot_w * i / (len(tokens) - 1) if len(tokens) > 1 else plot_w / 2)
        out.append(
            f'<rect x="{centre - bar * 0.35:.1f}" y="{top + plot_h - bh:.1f}" width="{bar * 0.7:.1f}" '
            f'height="{bh:.1f}" class="token-bar"><title>step {s["n"]}: {t:,} tokens</title></rect>'
        )
    out.append(
        f'<text x="{LEFT + plot_w / 2}" y="{h - 4}" class="axis" text-anchor="middle">'
        f"tokens per step · total {sum(tokens):,}</text></svg>"
    )
    return f'<div class="svg-scroll">{"".join(out)}</div>'
