"""The exploration graph over the store (Crawljax's `StateFlowGraph` idea): states (pages and click
states), transitions (the link table), bugs with their occurrences, and sessions — read as typed rows,
written once per step.

`write_step` is the one place a step reaches the store: the version a page stated, the click states it
offered, the step itself, the visit and its links, the bug table, quarantined page text, re-test marks
and the re-test walk — **one transaction**, so a process killed at any point of a step leaves either the
whole step or none of it (`tests/bughunt/explorer/test_step_atomicity.py` kills it at every write).
Nothing else in the loop writes during a step; sessions start and end in transactions of their own.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from bughunt.dom import selector_shape
from bughunt.oracles import Finding
from bughunt.record_repr import field_repr
from memgpt_lite.log import logger

from . import destructive_mode, retest
from .engine import FetchResult
from .harness import ALL_KINDS, FAILURES, StepOutcome, record_step
from .store import Bug, ExplorerStore
from .templates import CLICK_MARK as CLICK_MARK  # re-exported: how the states kept here are named
from .versions import VersionWrites
from .view_families import ViewIndex

MAX_CHAIN = 6
"""Clicks one state may take from its page's load: a state made on a state that clicks reached (the
third page of a list a script pages) is replayed as the whole sequence, every time it is loaded, so
the sequence is bounded (a list's seventh page at most)."""
IDLE_KEY = "idle_controls"
"""Meta key of the controls learned to lead nowhere new (`idle_controls`): JSON, shape → lesson."""
IDLE_LESSONS = frozenset(
    ("same_state", "shown_before", "unclickable", "round_trip", "toggle", "state_change", "form_field")
)


@dataclass(repr=False, slots=True, eq=False)
class StepWrite:
    """Everything one step changes in memory, gathered before anything is written."""

    __repr__ = field_repr

    session_id: int
    target: str
    """The route the step set out to load (the head of a re-test walk, when one is planned)."""
    result: FetchResult
    position: str
    """Where the explorer stands after the step."""
    now: float
    links: Sequence[str] = ()
    findings: Sequence[Finding] = ()
    version: str | None = None
    tokens: int = 0
    retest: bool = False
    dedupe: bool = True
    structure_hash: str | None = None
    failed: bool = False
    clicks: Sequence[tuple[str, str, str]] = ()
    """(click state's route, its page, the element's selector) for the page's new click states."""
    click_words: Mapping[str, str] = field(default_factory=dict)
    """Click state's route → what its control says (`control_words`), kept with the click state."""
    version_writes: VersionWrites = field(default_factory=VersionWrites)
    drop_walk: bool = False
    """The choice found the planned re-test walk no longer matches the site."""
    idle: Sequence[tuple[str, str]] = ()
    """(control shape, lesson) of controls the step showed lead nowhere new (`idle_controls`)."""
    came_by: tuple[str, str] | None = None
    """(kind, label) of the link the step followed, as a page offered it (the label is page text)."""
    judged: frozenset[str] = ALL_KINDS
    """The kinds of bug whose checks judged the page in full (`harness._supersede`)."""


class ExplorationGraph:
    """Typed reads of the exploration, and its writes (one transaction per step)."""

    def __init__(self, store: ExplorerStore) -> None:
        self.store = store
        self._idle: tuple[str | None, dict[str, str]] = (None, {})
        """The idle-controls table as last decoded, with the text it was decoded from."""
        self.view_index = ViewIndex()
        """Views of one page, read a step at a time (`idle_controls.view_families`)."""

    # -- states and transitions --------------------------------------------------------------------
    @property
    def app_version(self) -> str | None:
        return self.store.meta.get("app_version")

    @property
    def position(self) -> str | None:
        return self.store.meta.get("position")

    def links_of(self, route: str) -> list[str]:
        return self.store.link_table.of(route)

    def link_table(self) -> dict[str, list[str]]:
        """Every remembered page's links, in page order (pages in route order)."""
        return self.store.link_table.all()

    def click_of(self, route: str) -> tuple[str, str] | None:
        """(page route, selector) of a click state, None for an address."""
        return self.store.link_table.click_of(route) if CLICK_MARK in route else None

    def click_chain(self, route: str) -> tuple[str, tuple[str, ...]] | None:
        """(the address it starts from, the selectors clicked there in order) of a click state: one
        click, or the sequence that reached the state it was made on, then its own; None for an
        address."""
        selectors: list[str] = []
        while len(selectors) <= MAX_CHAIN and (click := self.click_of(route)) is not None:
            route, selector = click
            selectors.append(selector)
        if not selectors:
            return None
        # a broken or over-long chain (no store writes one) starts from its page's own load
        return route.split(CLICK_MARK)[0], tuple(reversed(selectors))

    def idle_controls(self) -> dict[str, str]:
        """Control shape → lesson (`bughunt.explorer.idle_controls`) of every control learned to lead
        nowhere new: none of them is a way onward."""
        raw = self.store.meta.get(IDLE_KEY)
        if raw != self._idle[0]:  # decoded once per change, not once per read (every step reads it)
            self._idle = (raw, _idle_table(raw))
        return dict(self._idle[1])

    def is_visited(self, route: str) -> bool:
        return self.store.visits.is_visited(route)

    def is_explored(self, route: str) -> bool:
        """Whether `route` was loaded as a page (`explored`)."""
        return self.store.visits.is_explored(route)

    def landing(self, route: str) -> str:
        """Where a click on `route` lands, as memory knows it: the page a remembered redirect led to
        (`/` answering with the start page at `/home`), when that page was loaded; else `route`."""
        if self.is_explored(route) or not self.is_visited(route):
            return route
        visit = self.store.visits.page(route)
        if visit is None or visit.outcome != "redirect":
            return route
        links = self.links_of(route)
        return links[0] if len(links) == 1 and self.is_explored(links[0]) else route

    def is_known(self, route: str) -> bool:
        """Whether `route` is in `known()`."""
        return self.store.visits.is_explored(route) or self.store.link_table.is_linked(route)

    def is_state(self, route: str) -> bool:
        """Whether `route` was loaded (a page, a wall, an error: anything but a failed fetch)."""
        return self.store.visits.page(route) is not None

    def visited(self) -> list[str]:
        return self.store.visits.visited()

    def explored(self) -> list[str]:
        """Routes loaded as pages, in first-visit order."""
        return self.store.visits.explored()

    def structure_hashes(self) -> dict[str, str | None]:
        return self.store.visits.structure_hashes()

    def due(self) -> list[str]:
        """Pages due for re-test (one address per page: `Visits.due_pages`)."""
        return self.store.visits.due_pages()

    def known(self) -> list[str]:
        """Every route memory knows: explored, or linked from a remembered page (click states too)."""
        known = dict.fromkeys(self.explored())
        known.update(dict.fromkeys(self.linked()))
        return list(known)

    def known_pages(self) -> list[str]:
        """Every route memory knows that is an address (click states left out)."""
        return [r for r in self.known() if CLICK_MARK not in r]

    def linking_to(self, route: str) -> list[str]:
        """Remembered pages (addresses) that link to `route`, in route order; a click state that led
        there (a profile's "Edit" button navigating to the form) stands for the page it was made on."""
        pages = set()
        for src in self.store.link_table.linking_to(route):
            if CLICK_MARK not in src:
                pages.add(src)
            elif (click := self.click_of(src)) is not None and CLICK_MARK not in click[0]:
                pages.add(click[0])
        return sorted(pages)

    def linked(self) -> list[str]:
        """Routes linked from a remembered page, in link-table order."""
        table = self.store.link_table.table()
        return list(dict.fromkeys(d for src in sorted(table) for d in table[src]))

    # -- bugs and sessions -------------------------------------------------------------------------
    def live_bugs(self) -> list[Bug]:
        return self.store.bug_table.live()

    def bugs(self) -> list[Bug]:
        return self.store.bug_table.all()

    def bug_routes(self, fingerprints: Iterable[str], limit: int) -> dict[str, list[str]]:
        """The first `limit` routes each of these bugs was seen on, by fingerprint."""
        return {fp: self.store.bug_table.occurrence_routes(fp, limit) for fp in fingerprints}

    def open_bug_routes(self) -> list[str]:
        return list(dict.fromkeys(b.route for b in self.live_bugs() if b.status == "open"))

    def open_bugs(self) -> int:
        return sum(b.status == "open" for b in self.live_bugs())

    def step_count(self) -> int:
        return self.store.history.step_count()

    # -- writes ------------------------------------------------------------------------------------
    def start_session(
        self, policy: str, base_url: str, budget: int, *, builtin: bool, destructive: bool,
        expire_before: float | None,
    ) -> tuple[int, str]:  # fmt: skip
        """A new running session (its own transaction), and what a session start settles: the base URL,
        failed fetches of old stores forgotten (they are tried again), expired memories dropped."""
        store = self.store
        session_id, name = store.history.start_session(policy, base_url, budget)
        with store.transaction():
            store.meta.set("base_url", base_url)
            if builtin:
                store.meta.set("builtin", "1")
            if destructive:
                destructive_mode.remember_session(store, name)
            # Failed fetches were once stored as visits; they are not, so old stores retry them too.
            store.visits.forget(FAILURES)
            if expire_before is not None:
                forgotten = store.expire(expire_before)
                logger.info("expired memories unused before {}: {}", expire_before, forgotten)
        return session_id, name

    def end_session(
        self, session_id: int, status: str, *, clicks: int, fetches: int, detail: str, hand_over: str,
        now: float, drop_walk: bool = False,
    ) -> None:  # fmt: skip
        """Close the session with its stop reason and counts, and leave the harness's hand-over note
        (and drop a re-test walk the last choice found stale, when no step followed to write it)."""
        store = self.store
        store.history.end_session(session_id, status, clicks=clicks, fetches=fetches, detail=detail)
        with store.transaction():
            if drop_walk:
                retest.drop_walk(store)
            store.notebook.add_note(hand_over, session_id, store.history.step_count(), now, author="harness")

    def write_step(self, w: StepWrite) -> StepOutcome:
        """Write one step — everything it changed — in one transaction. Returns what changed."""
        store = self.store
        with store.transaction():
            if w.drop_walk:
                retest.drop_walk(store)
            self._write_version(w.version_writes, w.now)
            for route, page, selector in w.clicks:
                store.link_table.add_click(route, page, selector, w.click_words.get(route, ""))
            if w.idle:
                table = self.idle_controls()
                table.update(dict(w.idle))
                store.meta.set(IDLE_KEY, json.dumps(table, sort_keys=True))
            out = record_step(
                store,
                session_id=w.session_id,
                result=w.result,
                links=w.links,
                findings=w.findings,
                version=w.version,
                tokens=w.tokens,
                retest=w.retest,
                dedupe=w.dedupe,
                now=w.now,
                position=w.position,
                structure_hash=w.structure_hash,
                failed=w.failed,
                came_by=w.came_by,
                judged=w.judged,
            )
            due = retest.structure_changed(store, out.route, out.previous_hash) if out.previous_hash else 0
            retest.advance_walk(store, w.target)
        if out.previous_hash is not None:
            logger.info(
                "{}: DOM structure changed since its last visit; {} pages due for retest", out.route, due
            )
        return out

    def write_version(self, writes: VersionWrites, now: float) -> None:
        """What a page stated about the version outside a step (the resume probe)."""
        if writes:
            with self.store.transaction():
                self._write_version(writes, now)

    def mark_due(self, route: str) -> None:
        with self.store.transaction():
            self.store.visits.mark_route_for_retest(route)

    def force_retest(self, position: str) -> None:
        with self.store.transaction():
            retest.force(self.store, position)

    def _write_version(self, writes: VersionWrites, now: float) -> None:
        store = self.store
        if writes.refused is not None:
            text, provenance = writes.refused
            store.notebook.add_observation(text, provenance, store.history.step_count(), now)
        if writes.first is not None:
            store.meta.set("app_version", writes.first)
        if writes.flap:
            store.meta.set("version_flaps", str(int(store.meta.get("version_flaps") or 0) + 1))
        if writes.changed is not None:
            retest.invalidate(store, *writes.changed)


def _idle_table(raw: str | None) -> dict[str, str]:
    try:
        table = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    if not isinstance(table, dict):
        return {}
    # Shaped again: a store that learned before record ids were masked keeps its lessons.
    return {_reshaped(k): v for k, v in ((str(k), str(v)) for k, v in table.items()) if v in IDLE_LESSONS}


def _reshaped(key: str) -> str:
    if key.startswith("click@ "):
        # a toolkit's numbered widget is in its place by its own id (`idle_controls.placed_shape`)
        if selector_shape(key[7:]) == "#<id>":
            return key
        return f"click@ {selector_shape(key[7:], positions=True)}"
    if key.startswith("click "):
        return f"click {selector_shape(key[6:])}"
    return key
