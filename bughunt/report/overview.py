"""The report's first section: every live bug in one table, each row linking to its card, with
filters by kind, status and session.

The filters are a few lines of inline script over `data-*` attributes that the table rows and the bug
cards both carry; without scripts every row and card stays shown (the page degrades to a plain table).
"""

from __future__ import annotations

from html import escape
from typing import Any

__all__ = ["FILTER_SCRIPT", "bug_facets", "bugs_overview", "facet_attributes", "live_bugs"]

# Hides rows and cards whose data-kind/status/session differ from a chosen filter. Only our own
# attribute values (harness words) are compared; nothing the site sent is evaluated.
FILTER_SCRIPT = """
(function(){
  var box=document.getElementById('bug-filters'); if(!box) return;
  var selects=box.querySelectorAll('select');
  function apply(){
    var want={}; selects.forEach(function(s){ if(s.value) want[s.name]=s.value; });
    var shown=0;
    document.querySelectorAll('[data-bug]').forEach(function(el){
      var ok=Object.keys(want).every(function(k){ return el.dataset[k]===want[k]; });
      el.hidden=!ok; if(ok && el.tagName==='TR') shown++;
    });
    var count=document.getElementById('bug-filter-count'); if(count) count.textContent=shown;
  }
  selects.forEach(function(s){ s.addEventListener('change', apply); });
})();
"""


def live_bugs(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Live entries (not superseded), open ones first, then in the order they were found."""
    live = [b for b in data.get("bugs", []) if not b.get("superseded_by")]
    live.sort(key=lambda b: (b.get("status") != "open", b.get("step") or 0))
    return live


def is_lead(bug: dict[str, Any]) -> bool:
    """An open bug only suspected, never opened (`ReportedBug.gates`): shown apart from the open bugs."""
    from bughunt.explorer.destructive_mode import is_suspected

    return bug.get("status") == "open" and is_suspected(bug.get("evidence") or {})


LEAD_BADGE = '<span class="status lead" title="a destructive link seen, never opened">lead: not opened</span>'


def _session_of(data: dict[str, Any]) -> dict[int, str]:
    return {int(s["n"]): str(s.get("session")) for s in data.get("steps", []) if s.get("n") is not None}


def bug_facets(
    bug: dict[str, Any], data: dict[str, Any], sessions: dict[int, str] | None = None
) -> dict[str, str]:
    """The values a bug is filtered by: kind, status, and the session that first found it."""
    sessions = _session_of(data) if sessions is None else sessions
    first = _first_step(bug, data)
    return {
        "kind": str(bug.get("kind")),
        "status": str(bug.get("status")),
        "session": sessions.get(first, "") if first is not None else "",
    }


def facet_attributes(facets: dict[str, str]) -> str:
    return " data-bug" + "".join(f' data-{k}="{escape(v)}"' for k, v in facets.items())


def _first_step(bug: dict[str, Any], data: dict[str, Any]) -> int | None:
    fp = bug.get("fingerprint")
    steps = [int(r["step"]) for r in data.get("reports", []) if r.get("fingerprint") == fp and r.get("step")]
    if bug.get("step"):
        steps.append(int(bug["step"]))
    return min(steps) if steps else None


def _select(name: str, values: list[str]) -> str:
    options = "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in values)
    return f'<label>{escape(name)} <select name="{escape(name)}"><option value="">all</option>{options}</select></label>'


def bugs_overview(data: dict[str, Any], statuses: dict[str, list[tuple[str, str, Any]]]) -> str:
    """The table of bugs (kind, severity, route, first seen, status per app version), each row linking
    to the bug's card; `statuses` maps a fingerprint to its (version, status, step) list."""
    bugs = live_bugs(data)
    if not bugs:
        return '<p class="muted">No bugs found.</p>'
    sessions = _session_of(data)
    rows = []
    facets_seen: dict[str, set[str]] = {"kind": set(), "status": set(), "session": set()}
    for bug in bugs:
        facets = bug_facets(bug, data, sessions)
        for k, v in facets.items():
            if v:
                facets_seen[k].add(v)
        fp = escape(str(bug.get("fingerprint")))
        first = _first_step(bug, data)
        seen = (
            f"step {first}" + (f" ({escape(facets['session'])})" if facets["session"] else "")
            if first
            else ""
        )
        per_version = ", ".join(
            f"<span class='status {escape(st)}'>{escape(st)}</span> {escape(v)}"
            for v, st, _ in statuses.get(str(bug.get("fingerprint")), [])
        )
        severity = escape(str(bug.get("severity") or ""))
        rows.append(
            f"<tr{facet_attributes(facets)}><td><a href='#bug-{fp}'>{escape(str(bug.get('kind')))}</a></td>"
            f"<td>{severity}</td><td><code>{escape(str(bug.get('route')))}</code></td><td>{seen}</td>"
            f"<td>{per_version or escape(str(bug.get('status')))}{' ' + LEAD_BADGE if is_lead(bug) else ''}</td></tr>"
        )
    filters = "".join(_select(k, sorted(v)) for k, v in facets_seen.items() if len(v) > 1)
    leads = sum(is_lead(b) for b in bugs)
    open_count = sum(b.get("status") == "open" for b in bugs) - leads
    lead_words = f", {leads} lead{'s' if leads != 1 else ''}" if leads else ""
    head = (
        f'<p class="sub">{len(bugs)} bug{"s" if len(bugs) != 1 else ""}, {open_count} open{lead_words} · '
        f'showing <span id="bug-filter-count">{len(bugs)}</span></p>'
    )
    box = f'<div id="bug-filters" class="filters">{filters}</div>' if filters else ""
    return (
        f"{head}{box}<table class='bug-table'><thead><tr><th>kind</th><th>severity</th><th>route</th>"
        f"<th>first seen</th><th>status per app version</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
