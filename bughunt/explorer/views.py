"""What the policy is allowed to see of the structured memory, and how it is rendered into a prompt.

The store is the harness's complete record; the policy sees a view of it shaped by the memory
components under test (visit record on/off, link table on/off, capacity and eviction), built with the
simulator's `Memory` so the real explorer and the simulator forget in exactly the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bughunt.sim.memory import Eviction, Memory, NoMemory
from bughunt.sim.rng import Rng

from .bugview import bug_views
from .harness import is_failure
from .store import ExplorerStore, Step


@dataclass(frozen=True, slots=True)
class MemoryConfig:
    """Memory components the policy gets (the explorer's ablation axes)."""

    visited: bool = True
    link_table: bool = True
    bug_list: bool = True
    capacity: int | None = None
    eviction: Eviction = "fifo"


class NoLinksView:
    """A visit record without its link table: remembers *that* a page was seen, not where it leads."""

    __slots__ = ("inner",)

    def __init__(self, inner: Memory[str]) -> None:
        self.inner = inner

    def __contains__(self, node: object) -> bool:
        return node in self.inner

    def links(self, node: str) -> Sequence[str]:
        return ()


class DueView:
    """Remembered links, with the pages due for retest looking unknown: the nearest one is the goal."""

    __slots__ = ("table", "due")

    def __init__(self, table: dict[str, list[str]], due: set[str]) -> None:
        self.table = table
        self.due = due

    def __contains__(self, node: object) -> bool:
        return node in self.table and node not in self.due

    def links(self, node: str) -> Sequence[str]:
        return self.table.get(node, ())


View = Memory[str] | NoMemory[str] | NoLinksView


def build_view(store: ExplorerStore, config: MemoryConfig, rnd: Rng) -> View:
    """The policy's memory, replayed from the store in visit order (so eviction order is reproduced).

    Build it once per session and keep it current with `remember`: eviction draws then happen once
    per write, exactly as in the simulator."""
    if not config.visited:
        return NoMemory()
    mem: Memory[str] = Memory(config.capacity, config.eviction, rnd)
    view: View = mem if config.link_table else NoLinksView(mem)
    table = store.link_table.all()
    for step in store.history.steps():
        if is_failure(step.outcome, step.status):
            continue  # a failed fetch is not a visit: the page is still to be explored
        final = step.final_route or step.route
        remember(view, step.route, final, step.outcome, table.get(final, ()))
    return view


def remember(view: View, requested: str, final: str, outcome: str, links: Sequence[str]) -> None:
    """Write one step into the policy's view."""
    mem = view.inner if isinstance(view, NoLinksView) else view
    if isinstance(mem, NoMemory):
        return
    if outcome == "page":
        if final != requested:
            # The link redirected: remember that it leads to the final page, so it is not re-clicked.
            mem.write(requested, (final,))
        mem.write(final, tuple(links))
    else:
        mem.write(requested, ())


def render_working_context(
    store: ExplorerStore, position: str | None, config: MemoryConfig | None = None
) -> str:
    """The structured-memory block injected into every prompt. Built from harness-written state only:
    routes, counts, fingerprints and notes that passed the filter — never raw page text."""
    config = config or MemoryConfig()
    version = store.meta.get("app_version") or "unknown"
    lines = [f"app_version: {version}", f"current_page: {position or '(not started)'}"]
    if config.visited:
        visited = store.visits.visited()
        table = store.link_table.all() if config.link_table else {}
        if config.capacity is not None:
            visited = visited[-config.capacity :]
        lines.append(f"visited ({len(visited)}): {', '.join(visited)}")
        known = {d for ds in table.values() for d in ds}
        frontier = sorted(known - set(store.visits.visited()))
        lines.append(f"known_unvisited ({len(frontier)}): {', '.join(frontier)}")
        due = store.visits.needs_retest()
        if due:
            lines.append(f"needs_retest ({len(due)}): {', '.join(due)}")
        if config.link_table:
            for src in visited:
                if table.get(src):
                    lines.append(f"links {src} -> {', '.join(table[src])}")
    if config.bug_list:
        for bug in store.bug_table.live():
            lines.append(
                f"bug [{bug.status} @ {bug.version}"
                + (f", seen again @ {bug.last_seen_version}" if bug.last_seen_version else "")
                + f"] {bug.route} {bug.kind} fp={bug.fingerprint}"
            )
    for note in store.notebook.notes():
        # The harness's hand-over is its own word; a model's note passed the gate but is unverified,
        # and is never rendered like a harness note.
        who = "harness note" if note.author == "harness" else "agent note (unverified)"
        lines.append(f"{who}: {note.text}")
    return "\n".join(lines)


def iso(ts: float | None) -> str | None:
    return None if ts is None else datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds")


def bug_entries(store: ExplorerStore) -> list[dict[str, Any]]:
    """Every bug entry, live and superseded, as `bughunt memory` prints it. `superseded_by` names the
    entry that replaced this one (its status, app version and time), or is null for the live entry.
    `occurrences` lists every route the fingerprint was seen on (first and last step, how often); the
    other keys are the bug view (`bughunt.explorer.bugview`: severity, URL, request, evidence, click path…)."""
    rows = store.bug_table.all()
    by_id = {b.id: b for b in rows}
    details = bug_views(store, rows)
    occurrences = store.bug_table.occurrences()
    out = []
    for b, detail in zip(rows, details, strict=True):
        succ = by_id.get(b.superseded_by) if b.superseded_by is not None else None
        out.append(
            {
                "fingerprint": b.fingerprint,
                "route": b.route,
                "kind": b.kind,
                "status": b.status,
                "version": b.version,
                "seen_at": iso(b.seen_at),
                "occurrences": [o.entry() for o in occurrences.get(b.fingerprint, [])],
                "superseded_by": None
                if succ is None
                else {"status": succ.status, "version": succ.version, "seen_at": iso(succ.seen_at)},
                **detail,
            }
        )
    return out


def visited_route(step: Step) -> str | None:
    """The route a step landed on (after redirects), or None when it reached no page: the coverage
    curve's node for that step (`bughunt.sim.results.coverage_curve`)."""
    if step.outcome != "page":
        return None
    return str(step.final_route or step.route)
