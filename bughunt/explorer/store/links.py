"""The link table (each page's links in page order) and the browser engine's click states.

A click (an element that acts without an address) is named by a harness-made route
`<page route>#click-<digest>`; `click_actions` says which page and element it is, and what the element
says (`explorer.control_words`: a verb or a digest of its label, never the label itself).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Mapping, Sequence

from .changes import Changes


class LinkTable:
    """The table, read once per process and then kept in step with this connection's writes (a policy
    reads it every step; reading it from SQLite each time grew with the site), with the pages that
    link to each route. `ExplorerStore.transaction` drops the copy when a transaction rolls back."""

    def __init__(self, db: sqlite3.Connection, changes: Changes | None = None) -> None:
        self.db = db
        self.changes = changes if changes is not None else Changes()
        self._table: dict[str, list[str]] | None = None
        self._into: dict[str, dict[str, None]] | None = None
        """route -> the pages linking to it (a page once, however often it links there)."""
        self._written: dict[str, int] = {}
        """route -> the connection's `Scrubber.added` when this connection last wrote its links."""

    def _load(self) -> tuple[dict[str, list[str]], dict[str, dict[str, None]]]:
        if self._table is None or self._into is None:
            table: dict[str, list[str]] = {}
            for r in self.db.execute("SELECT src, dst FROM links ORDER BY src, pos"):
                table.setdefault(r["src"], []).append(r["dst"])
            into: dict[str, dict[str, None]] = {}
            for src, dsts in table.items():
                for d in dsts:
                    into.setdefault(d, {})[src] = None
            self._table, self._into = table, into
        return self._table, self._into

    def all(self) -> dict[str, list[str]]:
        """route -> its links, in page order (routes in order, as SQLite sorts text): a copy."""
        table = self.table()
        # Python orders str by code point, as SQLite's BINARY collation orders their UTF-8 bytes.
        return {src: list(table[src]) for src in sorted(table)}

    def table(self) -> Mapping[str, Sequence[str]]:
        """route -> its links, in page order, routes in no particular order: the copy itself, not to be
        changed (for reads every step, where copying the whole table would grow with the site)."""
        return self._load()[0]

    def linking_to(self, route: str) -> Collection[str]:
        """The pages whose links include `route`, in no particular order (not to be changed)."""
        return self._load()[1].get(route, {}).keys()

    def is_linked(self, route: str) -> bool:
        """Whether a remembered page links to `route`."""
        return route in self._load()[1]

    def forget_copy(self) -> None:
        self._table = self._into = None
        self._written.clear()  # a rolled-back transaction may have undone those writes
        self.changes.dropped()

    def of(self, route: str) -> list[str]:
        return list(self.table().get(route, ()))

    def beside(self, route: str) -> set[str]:
        """Every route linked from a page that links to `route` (its siblings in a tag cloud or a list)."""
        rows = self.db.execute(
            "SELECT DISTINCT dst FROM links WHERE src IN (SELECT src FROM links WHERE dst = ?)", (route,)
        )
        return {r["dst"] for r in rows}

    def replace(self, route: str, links: list[str]) -> None:
        added = self._secrets_added()
        if (
            self._table is not None
            and self._written.get(route) == added
            and self._table.get(route, []) == links
        ):
            # A page visited again with the links it had: its rows are what this connection wrote,
            # scrubbed of the same secrets (a secret learned since would have them written again).
            return
        self.db.execute("DELETE FROM links WHERE src = ?", (route,))
        self.db.executemany(
            "INSERT INTO links(src, pos, dst) VALUES (?,?,?)", [(route, i, d) for i, d in enumerate(links)]
        )
        if self._table is not None:
            self._set(route, list(links))
            self._written[route] = added

    def _secrets_added(self) -> int:
        scrubber = getattr(self.db, "scrubber", None)
        return scrubber.added if scrubber is not None else 0

    def drop(self, routes: list[str]) -> None:
        self.db.executemany("DELETE FROM links WHERE src = ?", [(r,) for r in routes])
        if self._table is not None:
            for route in routes:
                self._set(route, [])
                self._written.pop(route, None)

    def _set(self, route: str, links: list[str]) -> None:
        table, into = self._load()
        old = table.pop(route, [])
        for d in old:
            srcs = into.get(d)
            if srcs is not None:
                srcs.pop(route, None)
                if not srcs:
                    del into[d]
        if links:
            table[route] = links
            for d in links:
                into.setdefault(d, {})[route] = None
        self.changes.touched((route, *old, *links))

    def add_click(self, route: str, page: str, selector: str, words: str = "") -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO click_actions(route, page, selector, words) VALUES (?,?,?,?)",
            (route, page, selector, words),
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

    def words_of(self, route: str) -> str:
        """What a click state's control says (`explorer.control_words`), "" when nothing is known."""
        try:
            row = self.db.execute("SELECT words FROM click_actions WHERE route = ?", (route,)).fetchone()
        except sqlite3.OperationalError:  # an old store opened read-only
            return ""
        return str(row["words"]) if row else ""
