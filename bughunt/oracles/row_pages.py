"""A row's own page that fails: the page of a listed record whose data has a gap answers 5xx.

A table of records shows each with its permalink (its own link to a page of a detail template,
`lists.identities`). The records the walk samples are the usual ones; the one a detail page breaks
on is the one with data missing — a cell empty, or printed "None", where the column's other rows
hold a value (a contact without a birthday whose page computes an age). On a page listing such a
row whose page the walk has not loaded (`OracleConfig.loaded`), the first such row with the most
gaps has its page fetched, once per page: a 5xx answer is a server error of that page (reported as
`server_error` reports it). Destructive-looking links are never followed.
"""

from __future__ import annotations

from bughunt.dom import Node
from bughunt.oracles.base import DEFAULT_CONFIG, Fetch, Finding, OracleConfig, fetch_or_none
from bughunt.oracles.destructive_words import deferred_action
from bughunt.oracles.lists import find_lists, identities, is_pager, item_facts
from bughunt.oracles.reading import missing_value
from bughunt.oracles.server_error import check_server_error
from bughunt.page import FetchedPage, base_url
from bughunt.urls import route_of, same_origin

MIN_ROWS = 3
"""Rows a table needs before one of them can stand out by a gap the others fill."""


def _cells(row: Node) -> list[Node]:
    return [c for c in row.elements if c.tag == "td"]


def _gaps(rows: list[Node]) -> list[int]:
    """For each row, its cells without a value in columns where another row has one (a cell of
    controls only — a checkbox, buttons — is no value either way)."""
    columns: dict[int, bool] = {}
    texts = [[c.text() for c in _cells(r)] for r in rows]
    for cells in texts:
        for j, text in enumerate(cells):
            columns[j] = columns.get(j, False) or not missing_value(text)
    return [
        sum(1 for j, text in enumerate(cells) if columns.get(j) and missing_value(text)) for cells in texts
    ]


def gap_row_page(page: FetchedPage, config: OracleConfig = DEFAULT_CONFIG) -> str | None:
    """The URL of the listed record's page to open: the first row with the most gaps, among rows
    whose permalink the walk has not loaded; None when no table row has a gap."""
    base, memo = base_url(page), item_facts(page)
    for container, rows in find_lists(page.document):
        if container.tag != "table" or len(rows) < MIN_ROWS or is_pager(container, rows):
            continue
        gaps = _gaps(rows)
        if not any(gaps):
            continue
        keys = identities(rows, base, memo)
        best: tuple[int, str] | None = None
        for gap, key in zip(gaps, keys, strict=True):
            url = next((k.removeprefix("href:") for k in key if k.startswith("href:")), None)
            if not gap or url is None or not same_origin(url, page.url) or deferred_action(url):
                continue
            if config.loaded is not None and config.loaded(route_of(url)):
                continue
            if best is None or gap > best[0]:
                best = (gap, url)
        if best is not None:
            return best[1]
    return None


def check_row_pages(
    page: FetchedPage, fetch: Fetch | None = None, config: OracleConfig = DEFAULT_CONFIG
) -> list[Finding]:
    if fetch is None or not page.is_html or page.status >= 400:
        return []
    url = gap_row_page(page, config)
    if url is None:
        return []
    row_page = fetch_or_none(fetch, url, "row page")
    if row_page is None:
        return []
    return check_server_error(row_page, None, config) if row_page.status >= 500 else []
