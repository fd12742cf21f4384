"""The visited set (`pages`): which routes were fetched, with what outcome, under which version, and
which are due for re-test."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any

from bughunt.record_repr import field_repr
from bughunt.sim.route_keys import PageKey, has_token, page_key

from .links import LinkTable
from .rows import Visit, row_as, rows_as

_IN_ORDER = "ORDER BY first_visited_at, rowid"


@dataclass(repr=False, slots=True, eq=False)
class _Seen:
    """What a policy reads of one visit every step, kept in memory (`Visits`)."""

    __repr__ = field_repr

    outcome: str
    structure_hash: str | None
    needs_retest: bool
    first: tuple[float, int]
    """(first_visited_at, order of insertion): the table's order (first_visited_at, rowid)."""


class Visits:
    """The visited set. What a policy reads every step (which routes, in which order, their outcome,
    structure hash and re-test mark) is read once per process and then kept in step with this
    connection's writes, like the link table; a write of many rows at once drops the copy instead."""

    def __init__(self, db: sqlite3.Connection, links: LinkTable) -> None:
        self.db = db
        self._links = links
        self.changes = links.changes
        self._seen: dict[str, _Seen] | None = None
        self._due = 0
        self._order = 0
        self._hashes: dict[str, str | None] | None = None
        self.hash_log: list[str] = []
        """Routes whose entry in `page_hashes` was added, changed or taken out since `hash_epoch` last
        moved, in order: what a reader that keeps figures over the hashes (the planner's templates)
        reads instead of comparing them all at every step."""
        self.hash_epoch = 0
        """Moves when `page_hashes` changed in ways `hash_log` does not name (the copy dropped or re-sorted)."""
        self._token_pages: tuple[int, int, set[PageKey]] = (0, 0, set())
        """(id and size of the copy it was read from, the page keys of the visited routes that carry a
        request token): a visit appends to the copy, so only the routes added since are read."""

    def _load(self) -> dict[str, _Seen]:
        if self._seen is None:
            rows = self.db.execute(
                f"SELECT route, outcome, structure_hash, needs_retest, first_visited_at FROM pages {_IN_ORDER}"
            )
            seen = {
                r["route"]: _Seen(
                    r["outcome"],
                    r["structure_hash"],
                    bool(r["needs_retest"]),
                    (r["first_visited_at"] or 0.0, i),
                )
                for i, r in enumerate(rows)
            }
            self._seen, self._order = seen, len(seen)
            self._due = sum(s.needs_retest for s in seen.values())
        return self._seen

    def forget_copy(self) -> None:
        self._seen = None
        self._rehashed()
        self.changes.dropped()

    def _rehashed(self) -> None:
        self._hashes = None
        self.hash_epoch += 1
        self.hash_log.clear()

    def _dropped(self, rows: int) -> int:
        """A write of many rows at once: the copy is read again when next needed."""
        if rows:
            self.forget_copy()
        return rows

    # -- reads -----------------------------------------------------------------------------------
    def visited(self) -> list[str]:
        """Every route of the visited set, in first-visit order."""
        return list(self._load())

    def is_visited(self, route: str) -> bool:
        return route in self._load()

    def is_seen_page(self, route: str) -> bool:
        """Visited, or another route that is the same page but for a request token's value
        (`route_keys.page_key`): a link re-drawn with a fresh token on every load is a page seen."""
        seen = self._load()
        if route in seen:
            return True
        if not has_token(route):
            return False
        ident, size, keys = self._token_pages
        if ident != id(seen) or size > len(seen):
            size, keys = 0, set()  # another copy (reloaded or re-sorted): read it whole
        if size < len(seen):
            keys |= {page_key(r) for r in islice(seen, size, None) if has_token(r)}
            self._token_pages = (id(seen), len(seen), keys)
        return page_key(route) in keys

    def explored(self) -> list[str]:
        """Routes fetched as real pages (not walls, skips or errors), in first-visit order."""
        return [r for r, s in self._load().items() if s.outcome == "page"]

    def is_explored(self, route: str) -> bool:
        s = self._load().get(route)
        return s is not None and s.outcome == "page"

    def first_and_last(self) -> tuple[str, str] | None:
        """The first and the last route of the visited set (None when empty)."""
        seen = self._load()
        return (next(iter(seen)), next(reversed(seen))) if seen else None

    def latest(self) -> Iterator[str]:
        """The visited set, last visited first."""
        return reversed(self._load())

    def any_explored(self) -> bool:
        """Whether any route was read at all (a page, or a redirect to one)."""
        row = self.db.execute("SELECT 1 FROM pages WHERE outcome IN ('page', 'redirect') LIMIT 1").fetchone()
        return row is not None

    def structure_hash_of(self, route: str) -> str | None:
        """The structure hash `route` was last written with (None when unknown or not visited), from
        the copy: asked at every step, where `page` would read and build the whole row."""
        s = self._load().get(route)
        return s.structure_hash if s is not None else None

    def page(self, route: str) -> Visit | None:
        row = self.db.execute("SELECT * FROM pages WHERE route = ?", (route,)).fetchone()
        return row_as(Visit, row) if row else None

    def pages(self) -> list[Visit]:
        return rows_as(Visit, self.db.execute(f"SELECT * FROM pages {_IN_ORDER}"))

    def skipped(self) -> dict[str, list[str]]:
        """Visited routes that gave no page, by outcome (login walls, non-HTML, HTTP errors, timeouts)."""
        out: dict[str, list[str]] = {}
        for r in self.db.execute(
            "SELECT route, outcome FROM pages WHERE outcome NOT IN ('page', 'redirect')"
        ):
            out.setdefault(r["outcome"], []).append(r["route"])
        return out

    def needs_retest(self) -> list[str]:
        seen = self._load()
        return [r for r, s in seen.items() if s.needs_retest] if self._due else []

    def due_pages(self) -> list[str]:
        """`needs_retest`, less the addresses of a page already re-tested under another request token
        (`route_keys.page_key`): a toggle remembered under three tokens is one page to re-test, not three."""
        due = self.needs_retest()
        if not any(has_token(r) for r in due):
            return due
        done = {page_key(r) for r, s in self._load().items() if not s.needs_retest and has_token(r)}
        return [r for r in due if not has_token(r) or page_key(r) not in done]

    def structure_hashes(self) -> dict[str, str | None]:
        """Route → structure hash of its last successful fetch (None when unknown), in first-visit order."""
        return dict(self.page_hashes())

    def page_hashes(self) -> Mapping[str, str | None]:
        """`structure_hashes` itself, kept in step with the writes, not to be changed (read at every
        choice, where a copy would grow with memory)."""
        if self._hashes is None:
            self._hashes = {r: s.structure_hash for r, s in self._load().items() if s.outcome == "page"}
        return self._hashes

    # -- writes (inside the store's `transaction()`) ---------------------------------------------
    def record(
        self, route: str, outcome: str, status: int | None, version: str | None, links: list[str] | None,
        now: float,
    ) -> bool:  # fmt: skip
        """Mark `route` visited (tested under `version`) and replace its links. Returns True for a revisit."""
        # one statement a step instead of a look and a write: a first visit is the row's first count
        (visits,) = self.db.execute(
            "INSERT INTO pages(route, outcome, status, first_visited_at, last_visited_at, last_used_at, visits,"
            " tested_version) VALUES (?,?,?,?,?,?,1,?) ON CONFLICT(route) DO UPDATE SET"
            " outcome = excluded.outcome, status = excluded.status, last_visited_at = excluded.last_visited_at,"
            " last_used_at = excluded.last_used_at, visits = visits + 1,"
            " tested_version = excluded.tested_version, needs_retest = 0 RETURNING visits",
            (route, outcome, status, now, now, now, version),
        ).fetchone()
        seen = int(visits) > 1
        if self._seen is not None:
            self._visit(route, outcome, now)
        if links is not None:
            self._links.replace(route, links)
        return seen

    def _visit(self, route: str, outcome: str, now: float) -> None:
        seen = self._load()
        s = seen.get(route)
        if s is not None:
            if s.outcome != outcome:
                # a page that now fails (or a wall that now loads): it left `explored` or joined it
                if "page" in (s.outcome, outcome):
                    self._hashes = None
                    self.hash_log.append(route)
                s.outcome = outcome
                self.changes.touched((route,))
            if s.needs_retest:
                s.needs_retest = False
                self._due -= 1
            return
        first = (now, self._order)
        self._order += 1
        last = next(reversed(seen.values()), None)
        seen[route] = _Seen(outcome, None, False, first)
        if outcome == "page":
            if self._hashes is not None:
                self._hashes[route] = None
            self.hash_log.append(route)
        if last is not None and first < last.first:
            # a clock that went back: the table's order is by first-visit time
            self._seen = dict(sorted(seen.items(), key=lambda kv: kv[1].first))
            self._rehashed()
        self.changes.touched((route,))

    def forget(self, outcomes: Iterable[str], route: str | None = None) -> int:
        """Drop visits with these outcomes (all routes, or just `route`): they are tried again."""
        wanted = list(outcomes)
        sql = f"DELETE FROM pages WHERE outcome IN ({', '.join('?' * len(wanted))})"
        args: list[Any] = list(wanted)
        if route is not None:
            sql += " AND route = ?"
            args.append(route)
        return self._dropped(self.db.execute(sql, args).rowcount)

    def set_structure_hash(self, route: str, digest: str | None) -> str | None:
        """Store the page's structure hash; returns the previous one (from the copy kept in step with
        this connection's writes when it holds the route: one statement a step, not two)."""
        s = self._seen.get(route) if self._seen is not None else None
        if s is not None:
            before = s.structure_hash
        else:
            row = self.db.execute("SELECT structure_hash FROM pages WHERE route = ?", (route,)).fetchone()
            before = row["structure_hash"] if row else None
        self.db.execute("UPDATE pages SET structure_hash = ? WHERE route = ?", (digest, route))
        if s is not None:
            if s.outcome == "page" and s.structure_hash != digest:
                self.hash_log.append(route)
                if self._hashes is not None:
                    self._hashes[route] = digest
            s.structure_hash = digest
        return before

    def mark_for_retest(self, version: str) -> int:
        """Version invalidation: every page tested under another version becomes "needs retest"."""
        cur = self.db.execute(
            "UPDATE pages SET needs_retest = 1 WHERE outcome = 'page' AND tested_version IS NOT ?", (version,)
        )
        return self._dropped(cur.rowcount)

    def mark_all_for_retest(self) -> int:
        """Every remembered page is due (`resume --retest`)."""
        return self._dropped(
            self.db.execute("UPDATE pages SET needs_retest = 1 WHERE outcome = 'page'").rowcount
        )

    def mark_route_for_retest(self, route: str) -> None:
        self.db.execute("UPDATE pages SET needs_retest = 1 WHERE route = ?", (route,))
        s = self._seen.get(route) if self._seen is not None else None
        if s is not None and not s.needs_retest:
            s.needs_retest = True
            self._due += 1

    def expire(self, cutoff: float) -> int:
        """Forget pages (with their links) unused since `cutoff`; returns how many."""
        stale = [
            r["route"] for r in self.db.execute("SELECT route FROM pages WHERE last_used_at < ?", (cutoff,))
        ]
        self._links.drop(stale)
        return self._dropped(self.db.execute("DELETE FROM pages WHERE last_used_at < ?", (cutoff,)).rowcount)
