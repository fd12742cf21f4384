"""One account of an exploration, computed once (`ExplorationSummary`) and rendered by the CLI text,
`--json`, `bughunt memory` and the report alike — one vocabulary of counts:

- `clicks`: budget spent in the session (the landing on the start page is not a click); `clicks_left`
  what the budget had left when it stopped;
- `fetches`: requests/page loads of the session, oracle fetches and retries included;
- `pages_visited`: distinct routes loaded as pages (walls, HTTP errors, redirects, skipped and failed
  loads are not visits);
- `pages_known`: distinct routes memory knows (visited, or linked from a remembered page);
- `stop_reason` (+ `stop_detail`): why the session ended (`STOP_REASONS`);
- `repeat_visits`: clicks onto a route already visited; `repeat_clicks`: clicks to a state already
  visited that found nothing new (`repeat_clicks`).

Clicks, fetches and tokens are the session's (the last one when no result is given); pages, bugs,
duplicates and repeats are the whole exploration's, so sessions add up.

`tokens` are what a model was sent: the `llm` policy's prompts, 0 for the strategy policies (planner,
frontier, ...), which send nothing. `context_tokens` is what every policy's working context weighed at
its choices (how the ablations score memory), so a planner run shows it without claiming a model cost.

JSON format 2 (`"format": 2`) adds `format`; every key of format 1 is kept, `steps` as the old name of
`clicks` (the same number).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from bughunt import site as builtin_site
from bughunt.record_repr import field_repr

from . import destructive_mode
from .bugview import bug_views, path_text
from .config import STOP_REASONS
from .control_words import said_shape
from .graph import CLICK_MARK, ExplorationGraph
from .harness import StepOutcome
from .idle_controls import control_shape
from .store import ExplorerStore
from .templates import safe_route

SUMMARY_FORMAT = 2
MODEL_POLICIES = frozenset({"llm"})
"""Policies that send prompts to a model: the only ones whose `tokens` are a cost."""
BUILTIN_ROUTES = frozenset(p.route for p in builtin_site.PAGES)


@dataclass(repr=False, slots=True, eq=False)
class SessionResult:
    """What `Explorer.run` returns: the session's own counts and every step's outcome."""

    __repr__ = field_repr

    session: str
    session_id: int
    clicks: int
    tokens: int
    stop_reason: str
    """One of `STOP_REASONS`."""
    outcomes: list[StepOutcome]
    budget: int = 0
    fetches: int = 0
    detail: str = ""
    """Harness-written detail of the stop reason (routes and counts only)."""

    @property
    def clicks_left(self) -> int:
        return clicks_left(self.budget, self.clicks)


def clicks_left(budget: int, clicks: int) -> int:
    return max(0, budget - clicks)


def session_clicks(store: ExplorerStore) -> dict[int, int]:
    """Clicks of every session, by id: as the session recorded them when it ended, else (killed, or a
    store from before clicks were kept) its steps, less the landing on the start page (step 1)."""
    counted: dict[int, int] = {}
    for step in store.history.steps():
        counted[step.session_id] = counted.get(step.session_id, 0) + (step.n != 1)
    return {
        s.id: s.clicks if s.clicks is not None else counted.get(s.id, 0) for s in store.history.sessions()
    }


class BugLine(NamedTuple):
    fingerprint: str
    route: str
    kind: str
    status: str
    suspected: bool


class ExplorationSummary(NamedTuple):
    session: str | None
    app_version: str | None
    clicks: int
    clicks_left: int
    fetches: int
    tokens: int
    """Tokens sent to a model (the llm policy); 0 for a policy that sends none."""
    context_tokens: int
    """The working context's tokens at each choice, summed (every policy is scored the same way)."""
    policy: str | None
    stop_reason: str | None
    stop_detail: str
    pages_visited: list[str]
    pages_known: int
    coverage: float | None
    """Share of the built-in site's pages visited (None for any other site)."""
    bugs: list[BugLine]
    bug_details: list[dict[str, Any]]
    """The bug view (`bughunt.explorer.bugview`) of each of `bugs`, in order."""
    destructive: dict[str, Any]
    model_reported: list[dict[str, Any]]
    duplicate_reports: int
    repeat_visits: int
    repeat_clicks: int
    """Clicks to a state already visited that found nothing new (`repeat_clicks`)."""

    @classmethod
    def of(cls, store: ExplorerStore, result: SessionResult | None = None) -> ExplorationSummary:
        live = store.bug_table.live()
        visited = store.visits.explored()
        links = store.link_table.all()
        known = set(visited) | {d for ds in links.values() for d in ds}
        builtin = store.meta.get("builtin") == "1"
        sessions = store.history.sessions()
        last = sessions[-1] if sessions else None
        name: str | None
        reason: str | None
        if result is not None:
            name, clicks, tokens, reason = result.session, result.clicks, result.tokens, result.stop_reason
            budget, fetches, detail = result.budget, result.fetches, result.detail
            last = next((s for s in reversed(sessions) if s.id == result.session_id), last)
        else:
            name = last.name if last else None
            steps = store.history.steps(last.id) if last else []
            clicks = session_clicks(store).get(last.id, 0) if last else 0
            tokens = int(sum(s.tokens for s in steps))
            reason = last.status if last else None
            budget = last.budget if last else 0
            fetches = last.fetches if last is not None and last.fetches is not None else len(steps)
            detail = last.stop_detail if last is not None else ""
        policy = last.policy if last else None
        return cls(
            session=name,
            app_version=store.meta.get("app_version"),
            clicks=clicks,
            clicks_left=clicks_left(budget, clicks),
            fetches=fetches,
            tokens=tokens if policy in MODEL_POLICIES else 0,
            context_tokens=tokens,
            policy=policy,
            stop_reason=reason,
            stop_detail=detail,
            pages_visited=visited,
            pages_known=len(known),
            coverage=len(set(visited) & BUILTIN_ROUTES) / len(BUILTIN_ROUTES) if builtin else None,
            bugs=[
                BugLine(b.fingerprint, b.route, b.kind, b.status, destructive_mode.is_suspected(b.evidence))
                for b in live
            ],
            bug_details=bug_views(store, live),
            destructive=destructive_mode.summary_keys(store, name),
            model_reported=[m.entry() for m in store.bug_table.model_reports()],
            duplicate_reports=store.bug_table.duplicate_reports(),
            repeat_visits=store.history.repeat_visits(),
            repeat_clicks=repeat_clicks(store),
        )

    def as_json(self) -> dict[str, Any]:
        """The `explore`/`resume --json` object (format `SUMMARY_FORMAT`)."""
        return {
            "format": SUMMARY_FORMAT,
            "session": self.session,
            "app_version": self.app_version,
            "steps": self.clicks,
            "clicks": self.clicks,
            "clicks_left": self.clicks_left,
            "fetches": self.fetches,
            "tokens": self.tokens,
            "context_tokens": self.context_tokens,
            "policy": self.policy,
            "stop_reason": self.stop_reason,
            "stop_detail": self.stop_detail,
            "pages_visited": self.pages_visited,
            "pages_known": self.pages_known,
            "counts": {
                "clicks": self.clicks,
                "fetches": self.fetches,
                "pages_visited": len(self.pages_visited),
                "pages_known": self.pages_known,
            },
            "coverage": self.coverage,
            "bugs": [
                {
                    "fingerprint": b.fingerprint,
                    "route": b.route,
                    "kind": b.kind,
                    "status": b.status,
                    "suspected": b.suspected,
                    **detail,
                }
                for b, detail in zip(self.bugs, self.bug_details, strict=True)
            ],  # fmt: skip
            **self.destructive,
            "model_reported": self.model_reported,
            "duplicate_reports": self.duplicate_reports,
            "repeat_visits": self.repeat_visits,
            "repeat_clicks": self.repeat_clicks,
        }

    def lines(self) -> list[str]:
        """The text `explore`/`resume` print (same counts, same words as `--json`)."""
        if self.coverage is None:
            cov = "n/a (unknown site)"
        else:  # pages visited may count a page outside the site's list (a search result): say which is which
            site = round(self.coverage * len(BUILTIN_ROUTES))
            cov = f"{self.coverage:.0%} ({site}/{len(BUILTIN_ROUTES)} site pages)"
        reason = self.stop_reason
        why = STOP_REASONS.get(reason or "", reason or "?")
        detail = self.stop_detail or ""
        sent = f"{self.tokens} tokens, " if self.policy in MODEL_POLICIES else ""
        lines = [
            f"{self.session}: {self.clicks} clicks, {self.fetches} fetches, {sent}"
            f"app version {self.app_version or 'unknown'}",
            f"stopped: {reason} ({why}{'; ' + detail if detail and detail != why else ''}); "
            f"{self.clicks_left} clicks left",
            f"pages visited: {len(self.pages_visited)}  pages known: {self.pages_known}  coverage: {cov}  "
            f"repeat visits: {self.repeat_visits}  repeat clicks: {self.repeat_clicks}",
            f"bugs ({len(self.bugs)}, duplicate reports: {self.duplicate_reports}):",
        ]
        for b, view in zip(self.bugs, self.bug_details, strict=True):
            lines.append(
                f"  [{b.status}{', suspected' if b.suspected else ''}] {b.route:<28} {b.kind:<24} {b.fingerprint}"
            )
            lines += [f"      {line}" for line in bug_lines(view)]
        if self.destructive.get("allow_destructive"):
            lines.append(f"{self.destructive['destructive_actions']} (--allow-destructive)")
        elif any(
            b.suspected and b.kind == "unconfirmed_destructive" for b in self.bugs
        ) or self.destructive.get("destructive_walked"):
            lines.append(
                f"{self.destructive['destructive_actions']} (--allow-destructive opens them); {destructive_mode.LEADS}"
            )
        elif any(b.suspected for b in self.bugs):
            lines.append(destructive_mode.LEADS)
        if self.model_reported:
            lines.append(
                f"reported by the model, not confirmed by any oracle ({len(self.model_reported)}, not counted):"
            )
            lines += [f"  [model_reported] {m['route']:<28} {m['kind']}" for m in self.model_reported]
        return lines


def repeat_clicks(store: ExplorerStore) -> int:
    """Clicks (of every session — the landing on the start page and the steps after a session's budget,
    which open deferred actions, are none) that reached a state already
    visited and found nothing new — no bug entry was written at that step. A state already visited is
    a route visited before, or a click state that left its page's DOM structure as it was, or whose
    control was learned to leave the page as it was (a dropdown, a collapse: `idle_controls`; a refused
    write's control, by its shape and what it says: `control_words`)."""
    found = {b.step for b in store.bug_table.all() if b.step is not None}
    hashes = store.visits.structure_hashes()
    in_place = {
        shape for shape, why in ExplorationGraph(store).idle_controls().items() if why == "same_state"
    }
    clicks = session_clicks(store)
    seen: dict[int, int] = {}
    count = 0
    for step in store.history.steps():
        if step.n == 1:
            continue
        # a session's clicks come first; the steps after them open the deferred actions and reload the
        # pages that listed them to judge the effect (`Explorer._open_deferred`): no click, no repeat
        seen[step.session_id] = seen.get(step.session_id, 0) + 1
        if seen[step.session_id] > clicks.get(step.session_id, 0) or step.n in found:
            continue
        again = step.repeat
        click = store.link_table.click_of(step.route) if CLICK_MARK in step.route else None
        if not again and click is not None:
            state = hashes.get(step.final_route or step.route)
            shape = control_shape(step.route, *click)
            again = (
                (state is not None and state == hashes.get(click[0]))
                or shape in in_place
                or said_shape(shape, store.link_table.words_of(step.route)) in in_place
            )
        count += again
    return count


def bug_lines(view: dict[str, Any]) -> list[str]:
    """A bug view as indented text lines (the page text in them is shown as data, quoted)."""
    observed = view["observed"]
    cwe = f", {view['cwe']}" if view.get("cwe") else ""
    req = view["request"]
    lines = [
        f"{view['severity']}{cwe}: {req['method']} {req['url']} -> {view.get('response_status')} "
        f"(as {view['account']})",
        f"shown: {observed['shown']}",
        f"expected: {observed['expected']}",
    ]
    page = observed["page_text"]
    quoted = [page[k] for k in ("detail", "element", "excerpt") if page.get(k)]
    if quoted:
        lines.append("page text (untrusted): " + " | ".join(repr(q) for q in quoted))
    lines.append(f"path: {path_text(view['click_path'])}")
    if len(view.get("occurrence_urls") or []) > 1:
        lines.append(f"occurrences: {' '.join(view['occurrence_urls'])}")
    lines += [f"screenshot: {s}" for s in view.get("screenshots") or []]
    lines.append(f"curl: {view['curl']}")
    lines.append(f"reproduce: {view['reproduce']}")
    return lines


def summary(store: ExplorerStore, result: SessionResult | None = None) -> dict[str, Any]:
    """`ExplorationSummary.of(store, result).as_json()`: the `explore`/`resume --json` object."""
    return ExplorationSummary.of(store, result).as_json()


def hand_over(
    graph: ExplorationGraph, name: str, position: str | None, clicks: int, status: str, todo: list[str],
    failed: set[str],
) -> str:  # fmt: skip
    """The hand-over note for the next session, built only from harness facts — its own stop reason
    and counts, canonical routes, the checked version — never page text, so it can be trusted like
    the rest of the harness's state."""
    due = graph.due()
    open_bugs = graph.open_bug_routes()

    def routes(rs: list[str], limit: int = 12) -> str:
        shown = [r for r in (safe_route(x) for x in rs[:limit]) if r]
        return ", ".join(shown) + (", ..." if len(rs) > limit else "")

    return (
        f"hand-over after {name} ({status}, {clicks} clicks, app {graph.app_version or 'unknown'}): "
        f"stopped at {safe_route(position or '') or '?'}; {len(graph.explored())} pages visited; "
        f"{len(todo)} known but unvisited{': ' + routes(todo) if todo else ''}; "
        f"{len(failed)} failed to load; {len(due)} due for retest; "
        f"open bugs on {routes(open_bugs) or 'none'}"
    )
