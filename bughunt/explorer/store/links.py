"""The link table (each page's links in page order) and the browser engine's click states.

A click (an element that acts without an address) is named by a harness-made route
`<page route>#click-<digest>`; `click_actions` says which page and element it is.
"""

from __future__ import annotations

import sqlite3


class LinkTable:
    """The table, read once per process and then kept in step with this connection's writes (a policy
    reads the whole table every step; reading it from SQLite each time grew with the site).
    `ExplorerStore.transaction` drops the copy when a transaction rolls back."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self._table: dict[str, list[str]] | None = None

    def all(self) -> dict[str, list[str]]:
        """route -> its links, in page order (routes in order, as SQLite sorts text)."""
        if self._table is None:
            table: dict[str, list[str]] = {}
            for r in self.db.execute("SELECT src, dst FROM links ORDER BY src, pos"):
                table.setdefault(r["src"], []).append(r["dst"])
            self._table = table
        # Python orders str by code point, as SQLite's BINARY collation orders their UTF-8 bytes.
        return {src: list(self._table[src]) for src in sorted(self._table)}

    def forget_copy(self) -> None:
        self._table = None

    def of(self, route: str) -> list[str]:
        return [
            r["dst"] for r in self.db.execute("SELECT dst FROM links WHERE src = ? ORDER BY pos", (route,))
        ]

    def beside(self, route: str) -> set[str]:
        """Every route linked from a page that links to `route` (its siblings in a tag cloud or a list)."""
        rows = self.db.execute(
            "SELECT DISTINCT dst FROM links WHERE src IN (SELECT src FROM links WHERE dst = ?)", (route,)
        )
        return {r["dst"] for r in rows}

    def replace(self, route: str, links: list[str]) -> None:
        self.db.execute("DELETE FROM links WHERE src = ?", (route,))
        self.db.executemany(
            "INSERT INTO links(src, pos, dst) VALUES (?,?,?)", [(route, i, d) for i, d in enumerate(links)]
        )
        if self._table is not None:
            if links:
                self._table[route] = list(links)
            else:
                self._table.pop(route, None)

    def drop(self, routes: list[str]) -> None:
        self.db.executemany("DELETE FROM links WHERE src = ?", [(r,) for r in routes])
        if self._table is not None:
            for route in routes:
                self._table.pop(route, None)

    def add_click(self, route: str, page: str, selector: str) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO click_actions(route, page, selector) VALUES (?,?,?)",
            (route, page, selector),
        )

    def clicks(self) -> list[tuple[str, str, str]]:
        """Every click state: (route, page route, CSS selector)."""
        try:
            rows = self.db.execute(
                "SELECT route, page, selector FROM click_actions ORDER BY route"
            ).fetchall()
        except sqlite3.OperationalError:  # an old store opened read-only
            return []
        return [(r["route"], r["page"], r["selector"]) for r in rows]

    def click_of(self, route: str) -> tuple[str, str] | None:
        """(page route, CSS selector) of a click state's route, None when it is not one."""
        try:
            row = self.db.execute(
                "SELECT page, selector FROM click_actions WHERE route = ?", (route,)
            ).fetchone()
        except sqlite3.OperationalError:  # an old store opened read-only
            return None
        return (row["page"], row["selector"]) if row else None
