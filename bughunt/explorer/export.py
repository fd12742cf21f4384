"""Read a whole exploration out of a store, for the report and for `bughunt memory`.

`load_exploration(store_dir)` is the one loader other parts use (the HTML report reads it); it
opens the store read-only in spirit (no writes) and returns plain JSON-ready data.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bughunt.sim.results import coverage_curve

from .bugview import logins_of
from .store import ExplorerStore, Session
from .summary import BUILTIN_ROUTES, clicks_left, session_clicks, summary
from .templates import route_shape, templates
from .views import bug_entries, iso, render_working_context, visited_route


def load_exploration(store_dir: str | Path) -> dict[str, Any]:
    """Everything a report needs, as plain data:

    - `summary`: the `explore --json` object (whole exploration);
    - `base_url`, `app_version`, `builtin` (bool), `start_route`;
    - `engine` (http/browser, the last session's), `login` (the kinds of login used: form, cookie,
      header, storage-state; never a value) and `account` (a form login's username, or None);
    - `sessions`: [{"name", "policy", "budget", "started_at", "ended_at", "status", "stop_reason",
      "stop_detail", "clicks", "clicks_left", "fetches"}] — `status` is the stop reason (contract 4:
      budget, done, site_unreachable, interrupted, login_lost; "running" for a session killed with -9,
      "completed" in stores older than the stop reasons), `stop_reason` the same under its own name;
    - `steps`: [{"n", "session", "route", "final_route", "outcome", "status", "detail", "app_version",
      "tokens", "repeat", "retest", "at"}] in order — the path walked;
    - `coverage_curve`: fraction of pages seen after each step (denominator: 24 on the built-in site,
      else the number of pages known — visited or linked — at the end);
    - `pages`: [{"route", "outcome", "status", "visits", "tested_version", "needs_retest", "template"}]
      — `template` is the page type (`bughunt.explorer.templates`: URL shape refined by DOM structure),
      for grouping pages;
    - `model_reported`: bugs only the llm policy reported (no oracle backs them): shown apart, never
      counted (contract 6);
    - `links`: {route: [routes]} — the remembered site map;
    - `bugs`: every entry, live and superseded, with `id`, `message`, `evidence` (request, url, status,
      ...; the page text the oracle quoted — excerpt, heading, code — is under `quarantined_text`, as
      "key: value" lines, because page text is kept only as quarantined data), `step`, and the
      `bughunt memory` keys;
    - `reports`: [{"step", "fingerprint", "route", "kind", "duplicate"}].
    """
    store = ExplorerStore(store_dir, create=False, lock=False)
    try:
        sessions = {s.id: s for s in store.history.sessions()}
        clicks = session_clicks(store)
        step_rows = store.history.steps()
        steps = [
            {
                "n": s.n,
                "session": sessions[s.session_id].name if s.session_id in sessions else None,
                "route": s.route,
                "final_route": s.final_route,
                "outcome": s.outcome,
                "status": s.status,
                "detail": s.detail,
                "app_version": s.app_version,
                "tokens": s.tokens,
                "repeat": s.repeat,
                "retest": s.retest,
                "at": iso(s.at),
            }
            for s in step_rows
        ]
        links = store.link_table.all()
        builtin = store.meta.get("builtin") == "1"
        known = set(links) | {d for ds in links.values() for d in ds}
        denominator = len(BUILTIN_ROUTES) if builtin else max(1, len(known))
        visited = [visited_route(s) for s in step_rows]
        curve = [
            round(c, 4) for c in coverage_curve(visited, denominator, BUILTIN_ROUTES if builtin else None)
        ]
        page_templates = templates(store.visits.structure_hashes())
        entries = bug_entries(store)
        for entry, row in zip(entries, store.bug_table.all(), strict=True):
            entry.update(id=row.id, message=row.message, evidence=json.loads(row.evidence), step=row.step)
        return {
            "summary": summary(store),
            "base_url": store.meta.get("base_url"),
            "app_version": store.meta.get("app_version"),
            "builtin": builtin,
            "engine": store.meta.get("engine"),
            "login": store.meta.get("login"),
            "account": _last_account(store),
            "start_route": steps[0]["route"] if steps else None,
            "sessions": [_session_entry(s, clicks[s.id]) for s in sessions.values()],
            "steps": steps,
            "coverage_curve": curve,
            "pages": [
                {
                    "route": p.route,
                    "outcome": p.outcome,
                    "status": p.status,
                    "visits": p.visits,
                    "tested_version": p.tested_version,
                    "needs_retest": p.needs_retest,
                    "template": page_templates.get(p.route) or route_shape(p.route),
                }
                for p in store.visits.pages()
            ],
            "links": links,
            "bugs": entries,
            "model_reported": [m.entry() for m in store.bug_table.model_reports()],
            "reports": [
                {
                    "step": r.step,
                    "fingerprint": r.fingerprint,
                    "route": r.route,
                    "kind": r.kind,
                    "duplicate": r.duplicate,
                }
                for r in store.bug_table.reports()
            ],
        }
    finally:
        store.close()


def _last_account(store: ExplorerStore) -> str | None:
    """The username the last session logged in with (a name, never a secret), or None."""
    logins = logins_of(store)
    return logins[-1][1].username if logins else None


def _session_entry(s: Session, clicks: int) -> dict[str, Any]:
    return {
        "name": s.name,
        "policy": s.policy,
        "budget": s.budget,
        "started_at": iso(s.started_at),
        "ended_at": iso(s.ended_at),
        "status": s.status,
        "stop_reason": s.status,
        "stop_detail": s.stop_detail,
        "clicks": clicks,
        "clicks_left": clicks_left(s.budget, clicks),
        "fetches": s.fetches,
    }


def memory_snapshot(
    store_dir: str | Path, agent_archival: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The `bughunt memory --json` object."""
    store = ExplorerStore(store_dir, create=False, lock=False)
    try:
        position = store.meta.get("position")
        archival = [
            {
                "text": o.text,
                "quarantined": o.quarantined,
                "provenance": json.loads(o.provenance),
            }
            for o in store.notebook.observations()
        ]
        archival.extend(agent_archival or [])
        return {
            "visited": store.visits.visited(),
            "links": store.link_table.all(),
            "bugs": bug_entries(store),
            "working_context": render_working_context(store, position),
            "notes": [n.text for n in store.notebook.notes()],
            "model_reported": [m.entry() for m in store.bug_table.model_reports()],
            "archival": archival,
        }
    finally:
        store.close()
