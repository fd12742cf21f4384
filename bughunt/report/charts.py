"""Coverage over steps as an inline SVG line chart, with session boundaries and bug discoveries."""

from __future__ import annotations

from html import escape
from typing import Any

W, H, LEFT, RIGHT, TOP, BOTTOM = 960, 280, 52, 20, 24, 40


def coverage_svg(data: dict[str, Any]) -> str:
    curve: list[float] = list(data.get("coverage_curve") or [])
    steps: list[dict[str, Any]] = data.get("steps", [])
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
    every = max(1, round(n / 15))
    for step in range(1, n + 1):
        if step == 1 or step == n or step % every == 0:
            out.append(
                f'<text x="{x(step):.1f}" y="{H - BOTTOM + 16}" class="axis" text-anchor="middle">{step}</text>'
            )
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{H - 6}" class="axis" text-anchor="middle">step</text>')
    previous = None
    for s in steps:
        if s.get("session") != previous and previous is not None:
            sx = x(s["n"] - 0.5)
            out.append(
                f'<line x1="{sx:.1f}" x2="{sx:.1f}" y1="{TOP}" y2="{TOP + plot_h}" class="session-line"/>'
                f'<text x="{sx + 4:.1f}" y="{TOP + 12}" class="axis">{escape(str(s.get("session")))}'
                f"{' · v' + escape(str(s['app_version'])) if s.get('app_version') else ''}</text>"
            )
        previous = s.get("session")
    points = " ".join(f"{x(i + 1):.1f},{y(v):.1f}" for i, v in enumerate(curve))
    area = f"{x(1):.1f},{y(0):.1f} {points} {x(n):.1f},{y(0):.1f}"
    out.append(f'<polygon points="{area}" class="area"/><polyline points="{points}" class="line"/>')
    found: dict[int, list[str]] = {}
    for report in data.get("reports", []):
        if not report.get("duplicate"):
            found.setdefault(report["step"], []).append(f"{report['kind']} on {report['route']}")
    for step, what in sorted(found.items()):
        if 1 <= step <= n:
            out.append(
                f'<circle cx="{x(step):.1f}" cy="{y(curve[step - 1]):.1f}" r="6" class="bug-dot">'
                f"<title>step {step}: {escape('; '.join(what))}</title></circle>"
            )
    for bug in data.get("bugs", []):
        step = bug.get("step") or 0
        if bug.get("status") == "fixed" and not bug.get("superseded_by") and 1 <= step <= n:
            out.append(
                f'<rect x="{x(step) - 5:.1f}" y="{y(curve[step - 1]) - 5:.1f}" width="10" height="10" '
                f'class="fixed-dot" transform="rotate(45 {x(step):.1f} {y(curve[step - 1]):.1f})">'
                f"<title>step {step}: {escape(str(bug.get('kind')))} on {escape(str(bug.get('route')))} "
                f"is fixed in v{escape(str(bug.get('version')))}</title></rect>"
            )
    for step, s in enumerate(steps, start=1):
        if s.get("repeat") and step <= n:
            out.append(
                f'<rect x="{x(step) - 2:.1f}" y="{TOP + plot_h - 6}" width="4" height="6" class="repeat-tick"/>'
            )
    out.append("</svg>")
    legend = (
        '<div class="legend"><span><i class="line" style="background:#2e7d32"></i>share of pages seen</span>'
        '<span><i class="dot"></i>new bug reported</span><span><i class="diamond"></i>bug found fixed</span><span><i class="tick"></i>repeat visit</span>'
        "<span>dashed line: a new session</span></div>"
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
