"""The visited set (`pages`): which routes were fetched, with what outcome, under which version, and
which are due for re-test."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from .links import LinkTable
from .rows import Visit, row_as, rows_as

_IN_ORDER = "ORDER BY first_visited_at, rowid"


class Visits:
    def __init__(self, db: sqlite3.Connection, links: LinkTable) -> None:
        self.db = db
        self._links = links

    # -- reads -----------------------------------------------------------------------------------
    def visited(self) -> list[str]:
        """Every route of the visited set, in first-visit order."""
        return [r["route"] for r in self.db.execute(f"SELECT route FROM pages {_IN_ORDER}")]

    def explored(self) -> list[str]:
        """Routes fetched as real pages (not walls, skips or errors), in first-visit order."""
        return [
            r["route"] for r in self.db.execute(f"SELECT route FROM pages WHERE outcome = 'page' {_IN_ORDER}")
        ]

    def any_explored(self) -> bool:
        """Whether any route was read at all (a page, or a redirect to one)."""
        row = self.db.execute("SELECT 1 FROM pages WHERE outcome IN ('page', 'redirect') LIMIT 1").fetchone()
        return row is not None

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
        return [
            r["route"] for r in self.db.execute(f"SELECT route FROM pages WHERE needs_retest = 1 {_IN_ORDER}")
        ]

    def structure_hashes(self) -> dict[str, str | None]:
        """Route → structure hash of its last successful fetch (None when unknown)."""
        rows = self.db.execute("SELECT route, structure_hash FROM pages WHERE outcome = 'page'")
        return {r["route"]: r["structure_hash"] for r in rows}

    # -- writes (inside the store's `transaction()`) ---------------------------------------------
    def record(
        self, route: str, outcome: str, status: int | None, version: str | None, links: list[str] | None,
        now: float,
    ) -> bool:  # fmt: skip
        """Mark `route` visited (tested under `version`) and replace its links. Returns True for a revisit."""
        seen = self.db.execute("SELECT 1 FROM pages WHERE route = ?", (route,)).fetchone() is not None
        if not seen:
            self.db.execute(
                "INSERT INTO pages(route, outcome, status, first_visited_at, last_visited_at, last_used_at, visits,"
                " tested_version) VALUES (?,?,?,?,?,?,1,?)",
                (route, outcome, status, now, now, now, version),
            )
        else:
            self.db.execute(
                "UPDATE pages SET outcome = ?, status = ?, last_visited_at = ?, last_used_at = ?, visits = visits + 1,"
                " tested_version = ?, needs_retest = 0 WHERE route = ?",
                (outcome, status, now, now, version, route),
            )
        if links is not None:
            self._links.replace(route, links)
        return seen

    def forget(self, outcomes: Iterable[str], route: str | None = None) -> int:
        """Drop visits with these outcomes (all routes, or just `route`): they are tried again."""
        wanted = list(outcomes)
        sql = f"DELETE FROM pages WHERE outcome IN ({', '.join('?' * len(wanted))})"
        args: list[Any] = list(wanted)
        if route is not None:
            sql += " AND route = ?"
            args.append(route)
        return self.db.execute(sql, args).rowcount

    def set_structure_hash(self, route: str, digest: str | None) -> str | None:
        """Store the page's structure hash; returns the previous one."""
        row = self.db.execute("SELECT structure_hash FROM pages WHERE route = ?", (route,)).fetchone()
        self.db.execute("UPDATE pages SET structure_hash = ? WHERE route = ?", (digest, route))
        return row["structure_hash"] if row else None

    def mark_for_retest(self, version: str) -> int:
        """Version invalidation: every page tested under another version becomes "needs retest"."""
        cur = self.db.execute(
            "UPDATE pages SET needs_retest = 1 WHERE outcome = 'page' AND tested_version IS NOT ?", (version,)
        )
        return cur.rowcount

    def mark_all_for_retest(self) -> int:
        """Every remembered page is due (`resume --retest`)."""
        return self.db.execute("UPDATE pages SET needs_retest = 1 WHERE outcome = 'page'").rowcount

    def mark_route_for_retest(self, route: str) -> None:
        self.db.execute("UPDATE pages SET needs_retest = 1 WHERE route = ?", (route,))

    def expire(self, cutoff: float) -> int:
        """Forget pages (with their links) unused since `cutoff`; returns how many."""
        stale = [
            r["route"] for r in self.db.execute("SELECT route FROM pages WHERE last_used_at < ?", (cutoff,))
        ]
        self._links.drop(stale)
        return self.db.execute("DELETE FROM pages WHERE last_used_at < ?", (cutoff,)).rowcount
