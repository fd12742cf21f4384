"""What the policy is allowed to see of the structured memory, and how it is rendered into a prompt.

The store is the harness's complete record; the policy sees a view of it shaped by the memory
components under test (visit record on/off, link table on/off, capacity and eviction), built with the
simulator's `Memory` so the real explorer and the simulator forget in exactly the same way.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

from bughunt.sim.memory import Eviction, Memory, NoMemory
from bughunt.sim.rng import Rng

from .bugview import bug_views
from .harness import is_failure
from .store import ExplorerStore, Step


class MemoryConfig(NamedTuple):
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
    """Remembered links, with the pages due for retest looking unknown: the nearest one is the goal.

    A page is known when it has links in the table or was `visited`: a visited page that offers no
    links (a dialog's content served as a fragment, a page with nothing to click) has no row, and read
    as unknown it was the walk's goal again after every fetch — a fragment does not move the explorer,
    so the walk stepped onto the same dialog on every click left."""

    __slots__ = ("table", "due", "visited")

    def __init__(
        self, table: dict[str, list[str]], due: set[str], visited: Callable[[str], bool] = lambda _: False
    ) -> None:
        self.table = table
        self.due = due
        self.visited = visited

    def __contains__(self, node: object) -> bool:
        if node in self.due:
            return False
        return node in self.table or (isinstance(node, str) and self.visited(node))

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
    lines = _header(store, position)
    if config.visited:
        visited = store.visits.visited()
        table = store.link_table.table() if config.link_table else {}
        if config.capacity is not None:
            visited = visited[-config.capacity :]
        lines.append(f"visited ({len(visited)}): {', '.join(visited)}")
        known = {d for ds in table.values() for d in ds}
        frontier = sorted(known - set(store.visits.visited()))
        lines.append(f"known_unvisited ({len(frontier)}): {', '.join(frontier)}")
        due = store.visits.needs_retest()
        if due:
            lines.append(_due_line(due))
        if config.link_table:
            for src in visited:
                if table.get(src):
                    lines.append(_links_line(src, table[src]))
    lines += _trailer(store, config)
    return "\n".join(lines)


def _header(store: ExplorerStore, position: str | None) -> list[str]:
    version = store.meta.get("app_version") or "unknown"
    return [f"app_version: {version}", f"current_page: {position or '(not started)'}"]


def _due_line(due: Sequence[str]) -> str:
    return f"needs_retest ({len(due)}): {', '.join(due)}"


def _links_line(src: str, links: Sequence[str]) -> str:
    return f"links {src} -> {', '.join(links)}"


def _trailer(store: ExplorerStore, config: MemoryConfig) -> list[str]:
    """The bug lines and the notes: what follows the remembered pages."""
    lines = []
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
    return lines


class ContextIndex:
    """What the working context holds of the remembered pages, kept up to date on write rather than
    read from the whole store at every step: the routes known but not visited (in order), and the
    context's token count as a sum of parts.

    The store's in-memory copies tell it which routes each write touched (`store.changes`); it
    brings itself up to date when next asked, and starts afresh from the store when the copies were
    dropped (a rolled-back step, a write of many rows). The count is exact — what `count` gives for
    the rendered text — because `count` is `TokenCounter.count_lines`, which counts a text piece by
    piece: the text is cut where the encoding's pre-tokenizer cuts (before each line, between the
    items of a comma-separated list), and the pieces of a list of routes are one per route. So a
    step costs what it changed, plus the few pieces at the ends of each list, never the whole
    memory. A memory of limited capacity (an ablation) is rendered and counted whole."""

    def __init__(self, store: ExplorerStore, config: MemoryConfig, count: Callable[[str], int]) -> None:
        self.store, self.config, self.count = store, config, count
        self._generation = -1
        self._pending: set[str] = set()
        self._unvisited: list[str] = []
        """Routes linked from a remembered page and not visited, in order."""
        self._unvisited_set: set[str] = set()
        self._parts: _Parts | None = None
        self._tail: tuple[tuple[str, ...], int] = ((), 0)
        """The last bug and note lines counted, and their tokens: the same lines step after step."""
        store.changes.watchers.add(self)

    def touched(self, routes: Iterable[str]) -> None:
        self._pending.update(routes)

    def unvisited(self) -> Sequence[str]:
        """Routes linked from a remembered page and not visited (known_unvisited), in order."""
        self._update()
        return self._unvisited

    def text(self, position: str | None) -> str:
        return render_working_context(self.store, position, self.config)

    def tokens(self, position: str | None) -> int:
        """`count(self.text(position))`, from the parts kept up to date."""
        config = self.config
        self._update()
        if config.capacity is not None or not config.visited:
            return self.count(self.text(position))
        parts = self._parts
        if parts is None:
            parts = self._parts = _Parts(self)
        if not parts.exact:
            return self.count(self.text(position))
        store, count = self.store, self.count
        head = _header(store, position)
        due = store.visits.needs_retest()
        tail = _trailer(store, config)
        links_last = parts.lines_sum > 0 and not tail
        total = sum(count(line + "\n") for line in head)
        visits = store.visits
        ends = visits.first_and_last()
        total += parts.listed(f"visited ({parts.visited_count}): ", ends, parts.visited_sum, "\n")
        u = self._unvisited if config.link_table else ()
        ends = (u[0], u[-1]) if u else None
        more = bool(due or parts.lines_sum or tail)
        total += parts.listed(
            f"known_unvisited ({len(u)}): ", ends, parts.unvisited_sum, "\n" if more else ""
        )
        if due:
            total += count(_due_line(due) + ("\n" if parts.lines_sum or tail else ""))
        total += parts.lines_sum
        if links_last:
            # the last links line ends the text: counted without its newline
            last = next(r for r in visits.latest() if r in parts.lines)
            total += count(_links_line(last, store.link_table.table()[last])) - parts.lines[last]
        return total + self._tail_tokens(tail)

    def _tail_tokens(self, tail: list[str]) -> int:
        """Tokens of the trailer's lines, each but the last with its newline."""
        lines, n = self._tail
        if lines != tuple(tail):
            count = self.count
            n = sum(count(line + ("\n" if i < len(tail) - 1 else "")) for i, line in enumerate(tail))
            self._tail = (tuple(tail), n)
        return n

    def _update(self) -> None:
        store = self.store
        if self._generation != store.changes.generation:
            self._pending.clear()
            table = store.link_table.table()
            visits = store.visits
            self._unvisited_set = {d for ds in table.values() for d in ds if not visits.is_visited(d)}
            self._unvisited = sorted(self._unvisited_set)
            self._parts = None
            self._generation = store.changes.generation
            return
        if not self._pending:
            return
        pending, self._pending = self._pending, set()
        links, visits, parts = store.link_table, store.visits, self._parts
        for r in pending:
            unvisited = links.is_linked(r) and not visits.is_visited(r)
            if unvisited != (r in self._unvisited_set):
                if unvisited:
                    self._unvisited_set.add(r)
                    bisect.insort(self._unvisited, r)
                else:
                    self._unvisited_set.discard(r)
                    del self._unvisited[bisect.bisect_left(self._unvisited, r)]
            if parts is not None:
                parts.update(r)


class _Parts:
    """The token counts of the working context's parts that grow with memory: one piece per route
    of the visited and known_unvisited lists (`" <route>,"`), one per links line (with its newline)."""

    def __init__(self, index: ContextIndex) -> None:
        self.index = index
        self.count = index.count
        self.exact = True
        self.pieces: dict[str, int] = {}
        self.visited: dict[str, int] = {}
        self.visited_sum = 0
        self.unvisited: dict[str, int] = {}
        self.unvisited_sum = 0
        self.lines: dict[str, int] = {}
        self.lines_sum = 0
        self.counted: dict[str, Sequence[str]] = {}
        """Route → the list of links its line was counted from (`lines`)."""
        store = index.store
        for r in store.visits.visited():
            self.update(r)
        for r in index._unvisited:
            self.update(r)

    @property
    def visited_count(self) -> int:
        return len(self.visited)

    def piece(self, route: str) -> int:
        n = self.pieces.get(route)
        if n is None:
            if not route or route[0].isspace():
                # the list would not be cut before it: count the whole text instead
                self.exact = False
            n = self.pieces[route] = self.count(f" {route},")
        return n

    def update(self, r: str) -> None:
        index = self.index
        store = index.store
        visited = store.visits.is_visited(r)
        self.visited_sum += self._place(self.visited, r, visited)
        self.unvisited_sum += self._place(
            self.unvisited, r, index.config.link_table and r in index._unvisited_set
        )
        links = store.link_table.table().get(r) if index.config.link_table and visited else None
        if not links:
            self.lines_sum -= self.lines.pop(r, 0)
            self.counted.pop(r, None)
        elif self.counted.get(r) is not links:
            # A route is touched when a page linking to it is written; its own line changes only
            # when its list does (the link table replaces a page's list, never edits it in place).
            n = self.count(_links_line(r, links) + "\n")
            self.lines_sum += n - self.lines.get(r, 0)
            self.lines[r], self.counted[r] = n, links

    def _place(self, pieces: dict[str, int], r: str, listed: bool) -> int:
        """Put `r`'s piece in `pieces` or take it out, as `listed` says; what their sum changed by."""
        if listed == (r in pieces):
            return 0
        if listed:
            pieces[r] = self.piece(r)
            return pieces[r]
        return -pieces.pop(r)

    def listed(self, head: str, ends: tuple[str, str] | None, total: int, tail: str) -> int:
        """Tokens of `head` + the routes joined by ", " + `tail`, from the sum of their pieces: the
        first piece carries the head, the last the tail instead of a comma."""
        if ends is None:
            return self.count(head + tail)
        first, last = ends
        if first == last:
            return self.count(head + first + tail)
        p = self.pieces
        return total - p[first] - p[last] + self.count(f"{head}{first},") + self.count(f" {last}{tail}")


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
