"""The link table (each page's links in page order) and the browser engine's click states.

A click (an element that acts without an address) is named by a harness-made route
`<page route>#click-<digest>`; `click_actions` says which page and element it is.
"""

from __future__ import annotations

import sqlite3


class LinkTable:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def all(self) -> dict[str, list[str]]:
        """route -> its links, in page order."""
        table: dict[str, list[str]] = {}
        for r in self.db.execute("SELECT src, dst FROM links ORDER BY src, pos"):
            table.setdefault(r["src"], []).append(r["dst"])
        return table

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

    def drop(self, routes: list[str]) -> None:
        self.db.executemany("DELETE FROM links WHERE src = ?", [(r,) for r in routes])

    def add_click(self, route: str, page: str, selector: str) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO click_actions(route, page, selector) VALUES (?,?,?)",
            (route, page, selector),
        )

    def click_of(self, route: str) -> tuple[str, str] | None:
        """(page route, CSS selector) of a click state's route, None when it is not one."""
        try:
            row = self.db.execute(
                "SELECT page, selector FROM click_actions WHERE route = ?", (route,)
            ).fetchone()
        except sqlite3.OperationalError:  # an old store opened read-only
            return None
        return (row["page"], row["selector"]) if row else None
