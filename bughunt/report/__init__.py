"""The exploration report: one self-contained HTML page (inline CSS and SVG, no network).

`write_report(store_dir, out)` reads a session store with the explorer's `load_exploration` and
writes the page; `render_report(data)` turns that data into HTML. Page text quoted as evidence is
shown escaped, as data, never as markup.
"""

from __future__ import annotations

import base64
import json
import re
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from typing import Any

from bughunt.report.charts import coverage_svg, tokens_svg
from bughunt.report.graph import site_map_svg
from bughunt.report.overview import (
    FILTER_SCRIPT,
    LEAD_BADGE,
    bug_facets,
    bugs_overview,
    facet_attributes,
    is_lead,
    live_bugs,
)
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
        texts = {o.id: o.text for o in store.notebook.observations()}
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
    """Write `text` atomically, readable by others (a report is shared): no `.tmp` leftovers, no
    half-written file, `out` unchanged on failure."""
    from memgpt_lite.storage.directory import atomic_write_text

    return atomic_write_text(out, text, mode=0o644)


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
    css = "value" if len(str(value)) <= 7 else "value long"  # words (a stop reason) get a smaller font
    return f'<div class="tile"{title}><div class="{css}">{escape(str(value))}</div><div class="label">{escape(label)}</div></div>'


STOP_REASONS = {
    "budget": "the click budget was spent",
    "done": "nothing left that memory knows of",
    "site_unreachable": "the site stopped answering",
    "interrupted": "interrupted (Ctrl-C or a signal)",
    "login_lost": "the login wall came back and logging in again failed",
    "completed": "completed (a store from before stop reasons were kept)",
    "running": "still running, or ended without a word (killed)",
}


def session_clicks(data: dict[str, Any]) -> dict[str, int]:
    """Clicks per session, as the exploration counted them (`bughunt.explorer.summary.session_clicks`)."""
    return {str(s.get("name")): int(s.get("clicks") or 0) for s in data.get("sessions", [])}


def counts(data: dict[str, Any]) -> dict[str, Any]:
    """The report's counts, in the CLI's vocabulary: clicks (all sessions), pages visited, pages known,
    and the last session's fetches when the store records them."""
    s = data.get("summary") or {}
    c = s.get("counts") or {}
    return {
        "clicks": sum(session_clicks(data).values()),
        "fetches": c.get("fetches"),
        "pages_visited": c.get("pages_visited"),
        "pages_known": c.get("pages_known"),
    }


def _uses_model(data: dict[str, Any]) -> bool:
    return any(x.get("policy") == "llm" for x in data.get("sessions", []))


def _summary(data: dict[str, Any]) -> str:
    s = data.get("summary") or {}
    n = counts(data)
    bugs = [b for b in data.get("bugs", []) if not b.get("superseded_by")]
    leads = sum(is_lead(b) for b in bugs)
    open_bugs = sum(b.get("status") == "open" for b in bugs) - leads
    coverage = s.get("coverage")
    sessions = data.get("sessions", [])
    tiles = [
        _tile(
            "clicks",
            n["clicks"],
            "budget spent over all sessions (the landing on the start page is not a click)",
        ),
        _tile(
            "pages visited",
            n["pages_visited"],
            "distinct pages fetched successfully (walls, errors, failures are not visits)",
        ),
        _tile(
            "pages known",
            n["pages_known"],
            "distinct pages memory knows: visited, or linked from a visited page",
        ),
    ]
    if coverage is not None:  # only where the site's page count is known
        from bughunt.explorer.summary import BUILTIN_ROUTES

        total = len(BUILTIN_ROUTES)
        site = round(coverage * total)
        others = (n["pages_visited"] or 0) - site
        tiles.append(
            _tile(
                "coverage",
                f"{coverage:.0%}",
                f"{site} of the built-in site's {total} pages visited"
                + (
                    f"; the other {others} visited pages are not among them (e.g. a search result)"
                    if others > 0
                    else ""
                ),
            )
        )
    tiles += [
        _tile("open bugs", open_bugs, "open bugs a CI gate counts (leads are apart)"),
        *(
            [
                _tile(
                    "leads", leads, "suspected destructive links, not opened: to look at, no gate counts them"
                )
            ]
            if leads
            else []
        ),
        _tile("fixed bugs", sum(b.get("status") == "fixed" for b in bugs)),
        _tile("duplicate reports", s.get("duplicate_reports", 0)),
        _tile("repeat visits", s.get("repeat_visits", 0), "clicks onto a page already visited"),
        _tile(
            "repeat clicks",
            s.get("repeat_clicks", 0),
            "clicks to a state already visited that found nothing new (the CLI's repeat_clicks)",
        ),
    ]
    if _uses_model(data):  # tokens are what a model was sent; strategy policies send nothing
        tiles.append(
            _tile("tokens", f"{s.get('tokens', 0):,}", "prompt tokens the llm policy sent (last session)")
        )
    if sessions:
        last = sessions[-1]
        reason = str(last.get("status"))
        tiles.append(_tile("stopped because", reason, STOP_REASONS.get(reason, "")))
    return f'<div class="tiles">{"".join(tiles)}</div>'


def _destructive(data: dict[str, Any]) -> str:
    """Whether any session opened destructive actions (`--allow-destructive`): then the site was
    changed by the exploration, and the report says so first."""
    s = data.get("summary") or {}
    opened = s.get("destructive_sessions") or []
    if opened:
        names = ", ".join(escape(str(n)) for n in opened)
        return (
            '<p class="sub"><strong>Destructive actions were opened: disposable environment</strong> '
            f"(--allow-destructive in session {names}); confirmed ones were judged by their effect.</p>"
        )
    walked = [str(r) for r in s.get("destructive_walked") or []]
    followed = (
        f" The walk followed {len(walked)} account page(s) whose address reads destructive (on a site that"
        f" asks first, the page that asks): {escape(', '.join(walked))}."
        if walked
        else ""
    )
    return (
        '<p class="sub">Destructive actions were not opened (off by default): suspected ones are '
        f"reported unconfirmed, as leads to look at that no CI gate counts.{followed}</p>"
    )


def _sessions(data: dict[str, Any]) -> str:
    clicks = session_clicks(data)
    rows = "".join(
        f"<tr><td>{escape(str(x.get('name')))}</td><td>{escape(str(x.get('policy')))}</td>"
        f"<td>{clicks.get(str(x.get('name')), 0)} / {escape(str(x.get('budget')))}</td>"
        f"<td>{escape(str(x.get('started_at') or ''))}</td><td>{escape(str(x.get('ended_at') or ''))}</td>"
        f"<td><span class='reason'>{escape(str(x.get('status')))}</span> "
        f"<span class='muted'>{escape(STOP_REASONS.get(str(x.get('status')), ''))}</span></td></tr>"
        for x in data.get("sessions", [])
    )
    return (
        "<table><thead><tr><th>session</th><th>policy</th><th>clicks / budget</th><th>started</th><th>ended</th>"
        f"<th>stop reason</th></tr></thead><tbody>{rows}</tbody></table>"
    )


_LOOPBACK_ORIGIN = re.compile(r"https?://(?:127\.0\.0\.1|localhost|\[::1\]):\d+")


def _relative(value: str, base: str | None, builtin: bool = False) -> str:
    """`GET http://127.0.0.1:PORT/x` → `GET /x`: the run's port is gone, the route is what matters.
    The built-in site gets a new loopback port every session, so there any loopback origin goes."""
    if builtin:
        return _LOOPBACK_ORIGIN.sub("", value)
    if not base:
        return value
    root = base.rstrip("/")
    return value.replace(root + "/", "/").replace(root, "/")


def _evidence(
    evidence: dict[str, Any], base: str | None = None, builtin: bool = False, kind: str | None = None
) -> str:
    facts = [k for k in _SHOWN_FIRST if k in evidence]
    facts += [
        k
        for k in evidence
        # previous_evidence (on a fixed entry) is shown under History, with the old entry
        if k not in facts
        and k not in ("quarantined_text", "quarantined_observation", "url", "previous_evidence")
        and k not in _IN_THE_VIEW
    ]
    rows = "".join(
        f"<tr><th>{escape(k)}</th><td><code>{escape(_relative(_plain(evidence[k]), base, builtin))}</code></td></tr>"
        for k in facts
    )
    quoted = ""
    if evidence.get("quarantined_text"):
        parts = parse_quoted(str(evidence["quarantined_text"]))
        if kind == "client_error":
            # the page's opening markup (styles, mostly) says nothing about a script's error
            parts.pop("excerpt", None)
        short_parts = {k: v for k, v in parts.items() if "\n" not in v and len(v) <= 120}
        rows += "".join(
            f'<tr class="from-page"><th>{escape(k)}</th><td><code>{escape(_relative(v, base, builtin))}</code></td></tr>'
            for k, v in short_parts.items()
        )
        blocks = "".join(
            f'<div class="quote"><div class="quote-key">{escape(k)}</div><pre>{escape(v)}</pre></div>'
            for k, v in parts.items()
            if k not in short_parts
        )
        quoted = f'<div class="quoted">{blocks}</div>' if blocks else ""
    return f'<table class="evidence">{rows}</table>{quoted}'


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(json.dumps(v, ensure_ascii=False) if isinstance(v, dict) else str(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _version(v: Any) -> str:
    return f"v{v}" if v not in (None, "") else "version unknown"


def version_statuses(
    bug: dict[str, Any], history: list[dict[str, Any]], data: dict[str, Any]
) -> list[tuple[str, str, Any]]:
    """(version, status, step) for each app version the bug's page was checked in, oldest first.

    From the bug's entries (live and superseded), its reports, and every later visit of its route in
    another version (a re-test that found it again writes no new entry: the bug list suppresses the
    duplicate, so the visit itself is the evidence that it is still open there)."""
    seen: dict[str, tuple[str, Any]] = {}
    for entry in sorted([*history, bug], key=lambda e: e.get("step") or 0):
        seen[_version(entry.get("version"))] = (str(entry.get("status")), entry.get("step"))
    step_version = {s["n"]: s.get("app_version") for s in data.get("steps", [])}
    for r in data.get("reports", []):
        if r.get("fingerprint") == bug.get("fingerprint"):
            seen.setdefault(
                _version(step_version.get(r.get("step"), bug.get("version"))), ("open", r.get("step"))
            )
    fixed_at = bug.get("step") if bug.get("status") == "fixed" else None
    first = min((e.get("step") or 0 for e in [*history, bug]), default=0)
    for s in data.get("steps", []):
        if (
            s["n"] <= first
            or s.get("outcome") != "page"
            or bug.get("route") not in (s["route"], s.get("final_route"))
        ):
            continue
        status = "fixed" if fixed_at is not None and s["n"] >= fixed_at else "open"
        seen.setdefault(_version(s.get("app_version")), (status, s["n"]))
    return sorted(((v, st, step) for v, (st, step) in seen.items()), key=lambda t: t[2] or 0)


def _bug_card(bug: dict[str, Any], history: list[dict[str, Any]], data: dict[str, Any]) -> str:
    status = str(bug.get("status"))
    base, builtin = data.get("base_url"), bool(data.get("builtin"))
    versions = "".join(
        f"<li><span class='status {escape(st)}'>{escape(st)}</span> in {escape(v)}"
        f"{f' (step {escape(str(step))})' if step else ''}</li>"
        for v, st, step in version_statuses(bug, history, data)
    )
    older = ""
    if history:
        items = "".join(
            f"<li><span class='status {escape(str(h.get('status')))}'>{escape(str(h.get('status')))}</span> "
            f"in {escape(_version(h.get('version')))} at step {escape(str(h.get('step')))} ({escape(str(h.get('seen_at')))}) "
            f"— superseded<details{' open' if status != 'open' else ''}><summary>evidence</summary>"
            f"{_evidence(h.get('evidence') or {}, base, builtin)}</details></li>"
            for h in history
        )
        older = f'<div class="history"><div class="muted">History (superseded entries)</div><ul>{items}</ul></div>'
    occ = bug.get("occurrences") or []
    where = ""
    if len(occ) > 1:
        items = "".join(
            f"<li><code>{escape(str(o.get('route')))}</code> · steps {escape(str(o.get('first_step')))}"
            f"–{escape(str(o.get('last_step')))} · seen {escape(str(o.get('count')))}×</li>"
            for o in occ
        )
        where = (
            f'<div class="occurrences"><span class="muted">one root cause, {len(occ)} occurrences:</span>'
            f"<ul>{items}</ul></div>"
        )
    return (
        f'<article class="bug {escape(status)}" id="bug-{escape(str(bug.get("fingerprint")))}"'
        f"{facet_attributes(bug_facets(bug, data))}>"
        f'<header><span class="kind">{escape(str(bug.get("kind")))}</span>'
        f'<span class="route">{escape(str(bug.get("route")))}</span>'
        f'<span class="status {escape(status)}">{escape(status)}</span>'
        f"{LEAD_BADGE if is_lead(bug) else ''}</header>"
        f'<p class="message">{escape(str(bug.get("message", "")))}</p>'
        f'<p class="meta">fingerprint <code>{escape(str(bug.get("fingerprint")))}</code> · '
        f"{'found' if status == 'open' else 'marked ' + escape(status)} at step "
        f"{escape(str(bug.get('step')))} · {escape(str(bug.get('seen_at')))}</p>"
        f"{where}{_view(bug)}"
        f'<div class="versions"><span class="muted">status per app version:</span><ul>{versions}</ul></div>'
        f"{_evidence(bug.get('evidence') or {}, base, builtin, str(bug.get('kind')))}{older}</article>"
    )


_IN_THE_VIEW = frozenset({"client_errors", "screenshot", "dom_snapshot"})
"""Evidence keys the bug view shows readably (`_view`), left out of the raw evidence table."""
MAX_EMBEDDED_PNG = 2_000_000
_FROM_PAGE = ' class="from-page"'


def _view(bug: dict[str, Any]) -> str:
    """The bug view (`bughunt.explorer.bugview`): what to act on. Page text in it is escaped and marked."""
    if "observed" not in bug:
        return ""
    obs, req = bug["observed"], bug["request"]
    rows = [
        ("severity", bug.get("severity", "") + (f" · {bug['cwe']}" if bug.get("cwe") else ""), False),
        ("URL", bug.get("url", ""), False),
        ("request", f"{req.get('method')} {req.get('url')} → HTTP {bug.get('response_status')}", False),
        ("headers", "; ".join(f"{k}: {v}" for k, v in (req.get("headers") or {}).items()), False),
        ("account", bug.get("account", ""), False),
        ("shown", obs.get("shown", ""), False),
        ("expected", obs.get("expected", ""), False),
        ("page text", (obs.get("page_text") or {}).get("detail") or "", True),
        ("element", (obs.get("page_text") or {}).get("element") or "", True),
        ("excerpt", (obs.get("page_text") or {}).get("excerpt") or "", True),
        ("curl", bug.get("curl", ""), False),
        ("reproduce", bug.get("reproduce", ""), False),
    ]
    table = "".join(
        f"<tr{_FROM_PAGE if page else ''}><th>{escape(k)}</th><td><code>{escape(str(v))}</code></td></tr>"
        for k, v, page in rows
        if v
    )
    steps = "".join(
        f"<li>{escape(a['action'])} "
        + (f"<code>{escape(str(a.get('selector')))}</code> on " if a["action"] == "click" else "")
        + f"<code>{escape(str(a.get('url') or a.get('on') or a.get('route')))}</code>"
        + (f' <span class="from-page">“{escape(a["label"]["text"])}”</span>' if a.get("label") else "")
        + "</li>"
        for a in bug.get("click_path") or []
    )
    shots = "".join(_screenshot(path) for path in bug.get("screenshots") or [])
    doms = "".join(
        f'<p class="muted">DOM snapshot (page content, untrusted): <code>{escape(p)}</code></p>'
        for p in bug.get("dom_snapshots") or []
    )
    return (
        f'<div class="bug-view"><table class="evidence">{table}</table>'
        f'<div class="click-path"><span class="muted">click path from the start page:</span><ol>{steps}</ol></div>'
        f"{shots}{doms}</div>"
    )


def _screenshot(path: str) -> str:
    """The failing state's screenshot, embedded (the report stays one file) and named by its path."""
    file = Path(path)
    try:
        data = file.read_bytes() if file.is_file() and file.stat().st_size <= MAX_EMBEDDED_PNG else b""
    except OSError:
        data = b""
    if not data.startswith(b"\x89PNG"):
        return f'<p class="muted">screenshot not readable: <code>{escape(path)}</code></p>'
    uri = "data:image/png;base64," + base64.b64encode(data).decode("ascii")
    return (
        f'<figure class="screenshot"><img src="{uri}" alt="screenshot of the failing state" '
        f'style="max-width:100%;border:1px solid #ccc"><figcaption><code>{escape(path)}</code></figcaption></figure>'
    )


QUARANTINE_NOTE = (
    '<p class="muted">In the evidence, rows in italics and the dark blocks are page text an oracle quoted: '
    "quarantined by the explorer (never trusted memory), shown here escaped, as data. Requests are shown "
    "relative to the site.</p>"
)


def _history(data: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Superseded entries by fingerprint (a fixed bug's older open entries)."""
    history: dict[str, list[dict[str, Any]]] = {}
    for b in data.get("bugs", []):
        if b.get("superseded_by"):
            history.setdefault(str(b.get("fingerprint")), []).append(b)
    return history


def _bugs(data: dict[str, Any]) -> str:
    bugs = data.get("bugs", [])
    live = live_bugs(data)
    if not live:
        return ""
    history = _history(data)
    quoted = any((b.get("evidence") or {}).get("quarantined_text") for b in bugs)
    cards = "".join(_bug_card(b, history.get(str(b.get("fingerprint")), []), data) for b in live)
    return (QUARANTINE_NOTE if quoted else "") + cards


def _templates(data: dict[str, Any]) -> str:
    """Pages grouped by template (route shape): which shapes the exploration met, how many instances
    of each it knows and visited — with every route written out."""
    from bughunt import planning

    shape_of = getattr(planning, "route_shape", None)
    if shape_of is None:  # an engine without route shapes: nothing to group by
        return ""
    links = data.get("links", {})
    visited = set((data.get("summary") or {}).get("pages_visited", []))
    known = list(dict.fromkeys([*visited, *links, *(d for ds in links.values() for d in ds)]))
    groups: dict[str, list[str]] = {}
    for route in known:
        groups.setdefault(shape_of(route), []).append(route)
    shared = {k: v for k, v in groups.items() if len(v) > 1}
    if not shared:
        return ""
    rows = "".join(
        f"<tr><td><code>{escape(shape)}</code></td><td>{sum(r in visited for r in routes)} / {len(routes)}</td>"
        f"<td>{' '.join(f'<code>{escape(r)}</code>' for r in sorted(routes))}</td></tr>"
        for shape, routes in sorted(shared.items(), key=lambda kv: -len(kv[1]))
    )
    return (
        f"<details open><summary>Pages by template ({len(shared)} templates with several pages; "
        f"{len(groups) - len(shared)} single pages)</summary><table><thead><tr><th>template</th>"
        f"<th>visited / known</th><th>pages</th></tr></thead><tbody>{rows}</tbody></table></details>"
    )


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
    model = _uses_model(data)
    rows = []
    for s in data.get("steps", []):
        flags = " ".join(f for f, on in (("repeat", s.get("repeat")), ("retest", s.get("retest"))) if on)
        route = s["route"] + (
            f" → {s['final_route']}" if s.get("final_route") not in (None, s["route"]) else ""
        )
        rows.append(
            f"<tr><td>{s['n']}</td><td>{escape(str(s.get('session')))}</td><td><code>{escape(route)}</code></td>"
            f"<td>{escape(str(s.get('outcome')))}</td><td>{escape(str(s.get('status')))}</td>"
            f"<td>{escape(str(s.get('app_version') or ''))}</td>"
            + (f"<td>{s.get('tokens') or 0}</td>" if model else "")
            + f"<td>{escape(flags)}</td><td>{escape(str(s.get('detail') or ''))}</td></tr>"
        )
    return (
        "<details><summary>All steps</summary><table><thead><tr><th>#</th><th>session</th><th>route</th>"
        f"<th>outcome</th><th>HTTP</th><th>version</th>{'<th>tokens</th>' if model else ''}<th>flags</th>"
        "<th>detail</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></details>"
    )


def render_report(data: dict[str, Any]) -> str:
    """The whole report page for one exploration (the `load_exploration` data)."""
    target = data.get("base_url") or "an unknown site"
    where = (
        "the built-in site (served in-process during the run; its port is gone now)"
        if data.get("builtin")
        else f"<code>{escape(target)}</code>"
    )
    version = data.get("app_version")
    version_text = (
        f"app version {escape(str(version))}" if version else "app version unknown (the site shows none)"
    )
    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    history = _history(data)
    statuses = {
        str(b.get("fingerprint")): version_statuses(b, history.get(str(b.get("fingerprint")), []), data)
        for b in live_bugs(data)
    }
    who = f" · engine {escape(str(data.get('engine') or 'http'))} · {_account(data)}"
    progress = (
        "Coverage over steps"
        if (data.get("summary") or {}).get("coverage") is not None
        else ("Pages discovered and visited over steps")
    )
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>BugHunt report — {escape('built-in site' if data.get('builtin') else target)}</title><style>{CSS}</style></head><body><main>"
        f'<h1>BugHunt report</h1><p class="sub">Exploration of {where}'
        f" · {version_text}{who} · generated {generated}</p>"
        f"{_destructive(data)}"
        f"{_summary(data)}"
        f'<section id="bugs"><h2>Bugs</h2>{bugs_overview(data, statuses)}{_bugs(data)}</section>'
        f"<section><h2>Site map and the path walked</h2>{site_map_svg(data)}{_templates(data)}</section>"
        f"<section><h2>{progress}</h2>{coverage_svg(data)}"
        f"{tokens_svg(data) if _uses_model(data) else ''}</section>"
        f"<section><h2>Sessions</h2>{_sessions(data)}{_pages(data)}{_steps(data)}</section>"
        f"<script>{FILTER_SCRIPT}</script></main></body></html>\n"
    )


def _account(data: dict[str, Any]) -> str:
    """Who the site saw: the username of a form login (a name, never a secret), else the kind of
    login (cookie, header, storage state), else logged out."""
    account, login = data.get("account"), data.get("login")
    if account:
        return f"logged in as <code>{escape(str(account))}</code>"
    if login and login != "none":
        return f"logged in by {escape(str(login))}"
    return "not logged in"
