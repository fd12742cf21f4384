"""The exploration report: one self-contained HTML page (inline CSS and SVG, no network).

`write_report(store_dir, out)` reads a session store with the explorer's `load_exploration` and
writes the page; `render_report(data)` turns that data into HTML. Page text quoted as evidence is
shown escaped, as data, never as markup.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from typing import Any

from bughunt.report.charts import coverage_svg, tokens_svg
from bughunt.report.graph import site_map_svg
from bughunt.report.style import CSS

__all__ = ["load_report_data", "render_report", "save_html", "write_atomic", "write_report"]

_KEY_LINE = re.compile(r"^([a-z_]{2,30}): ?(.*)$")
_SHOWN_FIRST = ("request", "status", "content_type", "elapsed_ms")


def load_report_data(store_dir: str | Path) -> dict[str, Any]:
    """The explorer's exploration data, with each bug's quoted page text attached for display."""
    from bughunt.explorer.export import load_exploration
    from bughunt.explorer.store import ExplorerStore

    data = load_exploration(store_dir)
    store = ExplorerStore(store_dir, create=False, lock=False)
    try:
        texts = {o["id"]: o["text"] for o in store.observations()}
    finally:
        store.close()
    for bug in data.get("bugs", []):
        evidence = bug.get("evidence") or {}
        if "quarantined_text" not in evidence and evidence.get("quarantined_observation") in texts:
            evidence["quarantined_text"] = texts[evidence["quarantined_observation"]]
    return data


def write_report(store_dir: str | Path, out: str | Path) -> Path:
    return save_html(render_report(load_report_data(store_dir)), out)


def save_html(html: str, out: str | Path) -> Path:
    """Write atomically, so an interrupted write never leaves half a report behind."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    return write_atomic(out, html)


def write_atomic(out: Path, text: str) -> Path:
    """Write `text` through a temporary file beside `out`; on any failure the temporary file is removed
    and `out` is left as it was (no `.tmp` leftovers, no half-written file)."""
    fd, name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    tmp = Path(name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        tmp.replace(out)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return out


def parse_quoted(text: str) -> dict[str, str]:
    """`key: value` lines (a value may run over several lines) into a dict."""
    fields: dict[str, str] = {}
    key = None
    for line in text.splitlines():
        match = _KEY_LINE.match(line)
        if match:
            key = match.group(1)
            fields[key] = match.group(2)
        elif key is not None:
            fields[key] += "\n" + line
    return fields if fields else {"text": text}


def _tile(label: str, value: Any, hint: str = "") -> str:
    title = f' title="{escape(hint)}"' if hint else ""
    return f'<div class="tile"{title}><div class="value">{escape(str(value))}</div><div class="label">{escape(label)}</div></div>'


def _summary(data: dict[str, Any]) -> str:
    s = data.get("summary") or {}
    bugs = [b for b in data.get("bugs", []) if not b.get("superseded_by")]
    open_bugs = sum(b.get("status") == "open" for b in bugs)
    coverage = s.get("coverage")
    tiles = [
        _tile(
            "pages fetched",
            len(data.get("steps", [])),
            "page requests over all sessions, each session's first page included (clicks = fetches - sessions)",
        ),
        _tile("pages visited", len(s.get("pages_visited", []))),
        _tile(
            "coverage",
            "n/a" if coverage is None else f"{coverage:.0%}",
            "unknown on sites without a page list",
        ),
        _tile("open bugs", open_bugs),
        _tile("fixed bugs", sum(b.get("status") == "fixed" for b in bugs)),
        _tile("duplicate reports", s.get("duplicate_reports", 0)),
        _tile("repeat visits", s.get("repeat_visits", 0)),
        _tile("tokens", f"{s.get('tokens', 0):,}"),
    ]
    return f'<div class="tiles">{"".join(tiles)}</div>'


def _sessions(data: dict[str, Any]) -> str:
    rows = "".join(
        f"<tr><td>{escape(str(x.get('name')))}</td><td>{escape(str(x.get('policy')))}</td>"
        f"<td>{escape(str(x.get('budget')))}</td><td>{escape(str(x.get('started_at') or ''))}</td>"
        f"<td>{escape(str(x.get('ended_at') or ''))}</td><td>{escape(str(x.get('status')))}</td></tr>"
        for x in data.get("sessions", [])
    )
    return (
        "<table><thead><tr><th>session</th><th>policy</th><th>budget</th><th>started</th><th>ended</th>"
        f"<th>status</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def _evidence(evidence: dict[str, Any]) -> str:
    facts = [k for k in _SHOWN_FIRST if k in evidence]
    facts += [
        k
        for k in evidence
        # previous_evidence (on a fixed entry) is shown under History, with the old entry
        if k not in facts
        and k not in ("quarantined_text", "quarantined_observation", "url", "previous_evidence")
    ]
    rows = "".join(
        f"<tr><th>{escape(k)}</th><td><code>{escape(_plain(evidence[k]))}</code></td></tr>" for k in facts
    )
    quoted = ""
    if evidence.get("quarantined_text"):
        parts = parse_quoted(str(evidence["quarantined_text"]))
        short_parts = {k: v for k, v in parts.items() if "\n" not in v and len(v) <= 120}
        rows += "".join(
            f'<tr class="from-page"><th>{escape(k)}</th><td><code>{escape(v)}</code></td></tr>'
            for k, v in short_parts.items()
        )
        blocks = "".join(
            f'<div class="quote"><div class="quote-key">{escape(k)}</div><pre>{escape(v)}</pre></div>'
            for k, v in parts.items()
            if k not in short_parts
        )
        quoted = f'<div class="quoted">{blocks}</div>' if blocks else ""
    note = (
        '<p class="muted">Rows in italics and the dark blocks are page text the oracle quoted: '
        "quarantined by the explorer, shown here escaped, as data.</p>"
        if evidence.get("quarantined_text")
        else ""
    )
    return f'<table class="evidence">{rows}</table>{quoted}{note}'


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(map(str, value))
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _bug_card(bug: dict[str, Any], history: list[dict[str, Any]]) -> str:
    status = str(bug.get("status"))
    older = ""
    if history:
        items = "".join(
            f"<li><span class='status {escape(str(h.get('status')))}'>{escape(str(h.get('status')))}</span> "
            f"in v{escape(str(h.get('version')))} at step {escape(str(h.get('step')))} ({escape(str(h.get('seen_at')))}) "
            f"— superseded<details{' open' if status != 'open' else ''}><summary>evidence</summary>"
            f"{_evidence(h.get('evidence') or {})}</details></li>"
            for h in history
        )
        older = f'<div class="history"><div class="muted">History (superseded entries)</div><ul>{items}</ul></div>'
    return (
        f'<article class="bug {escape(status)}" id="bug-{escape(str(bug.get("fingerprint")))}">'
        f'<header><span class="kind">{escape(str(bug.get("kind")))}</span>'
        f'<span class="route">{escape(str(bug.get("route")))}</span>'
        f'<span class="status {escape(status)}">{escape(status)}</span></header>'
        f'<p class="message">{escape(str(bug.get("message", "")))}</p>'
        f'<p class="meta">fingerprint <code>{escape(str(bug.get("fingerprint")))}</code> · app v'
        f"{escape(str(bug.get('version')))} · {'found' if status == 'open' else 'marked ' + escape(status)} at step "
        f"{escape(str(bug.get('step')))} · "
        f"{escape(str(bug.get('seen_at')))}</p>{_evidence(bug.get('evidence') or {})}{older}</article>"
    )


def _bugs(data: dict[str, Any]) -> str:
    bugs = data.get("bugs", [])
    live = [b for b in bugs if not b.get("superseded_by")]
    if not live:
        return '<p class="muted">No bugs found.</p>'
    history: dict[str, list[dict[str, Any]]] = {}
    for b in bugs:
        if b.get("superseded_by"):
            history.setdefault(str(b.get("fingerprint")), []).append(b)
    live.sort(key=lambda b: (b.get("status") != "open", b.get("step") or 0))
    return "".join(_bug_card(b, history.get(str(b.get("fingerprint")), [])) for b in live)


def _pages(data: dict[str, Any]) -> str:
    rows = "".join(
        f"<tr><td><code>{escape(str(p.get('route')))}</code></td><td>{escape(str(p.get('outcome')))}</td>"
        f"<td>{escape(str(p.get('status')))}</td><td>{escape(str(p.get('visits')))}</td>"
        f"<td>{escape(str(p.get('tested_version') or ''))}</td><td>{'yes' if p.get('needs_retest') else ''}</td></tr>"
        for p in data.get("pages", [])
    )
    return (
        f"<details><summary>All pages ({len(data.get('pages', []))})</summary><table><thead><tr><th>route</th>"
        "<th>outcome</th><th>HTTP</th><th>visits</th><th>tested in</th><th>needs retest</th></tr></thead>"
        f"<tbody>{rows}</tbody></table></details>"
    )


def _steps(data: dict[str, Any]) -> str:
    rows = []
    for s in data.get("steps", []):
        flags = " ".join(f for f, on in (("repeat", s.get("repeat")), ("retest", s.get("retest"))) if on)
        route = s["route"] + (
            f" → {s['final_route']}" if s.get("final_route") not in (None, s["route"]) else ""
        )
        rows.append(
            f"<tr><td>{s['n']}</td><td>{escape(str(s.get('session')))}</td><td><code>{escape(route)}</code></td>"
            f"<td>{escape(str(s.get('outcome')))}</td><td>{escape(str(s.get('status')))}</td>"
            f"<td>{escape(str(s.get('app_version') or ''))}</td><td>{s.get('tokens') or 0}</td>"
            f"<td>{escape(flags)}</td><td>{escape(str(s.get('detail') or ''))}</td></tr>"
        )
    return (
        "<details><summary>All steps</summary><table><thead><tr><th>#</th><th>session</th><th>route</th>"
        "<th>outcome</th><th>HTTP</th><th>version</th><th>tokens</th><th>flags</th><th>detail</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></details>"
    )


def render_report(data: dict[str, Any]) -> str:
    """The whole report page for one exploration (the `load_exploration` data)."""
    target = data.get("base_url") or "an unknown site"
    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>BugHunt report — {escape(target)}</title><style>{CSS}</style></head><body><main>"
        f'<h1>BugHunt report</h1><p class="sub">Exploration of <code>{escape(target)}</code>'
        f" · app version {escape(str(data.get('app_version') or 'unknown'))} · generated {generated}</p>"
        f"{_summary(data)}"
        f"<section><h2>Site map and the path walked</h2>{site_map_svg(data)}</section>"
        f"<section><h2>Coverage over steps</h2>{coverage_svg(data)}{tokens_svg(data)}</section>"
        f"<section><h2>Bugs</h2>{_bugs(data)}</section>"
        f"<section><h2>Sessions</h2>{_sessions(data)}{_pages(data)}{_steps(data)}</section>"
        "</main></body></html>\n"
    )
