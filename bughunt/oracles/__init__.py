"""Bug oracles for any server-rendered site: each looks at one fetched page and reports findings.

`inspect_page(page, fetch)` runs them all. None is keyed to a site's page names or routes; the
heuristics each one uses are in its module's docstring and in `docs/site-and-oracles.md`.
"""

from __future__ import annotations

from collections.abc import Callable

from loguru import logger

from bughunt.html import FetchedPage, same_origin
from bughunt.oracles.base import KINDS, Fetch, Finding, evidence
from bughunt.oracles.client_errors import check_client_errors
from bughunt.oracles.counts import check_count_mismatch
from bughunt.oracles.destructive import check_unconfirmed_destructive
from bughunt.oracles.forms import check_form_drops_value
from bughunt.oracles.pagination import check_duplicate_pagination
from bughunt.oracles.scripts import check_unescaped_script
from bughunt.oracles.server_error import check_server_error

Oracle = Callable[[FetchedPage, Fetch | None], list[Finding]]

ORACLES: dict[str, Oracle] = {
    "server_error": check_server_error,
    "unescaped_script": check_unescaped_script,
    "duplicate_pagination": check_duplicate_pagination,
    "count_mismatch": check_count_mismatch,
    "form_drops_value": check_form_drops_value,
    "unconfirmed_destructive": check_unconfirmed_destructive,
    "client_error": check_client_errors,
}

__all__ = [
    "KINDS",
    "ORACLES",
    "Fetch",
    "FetchedPage",
    "Finding",
    "evidence",
    "inspect_page",
    "same_origin_fetch",
]


def same_origin_fetch(page: FetchedPage, fetch: Fetch) -> Fetch:
    """Wrap `fetch` so oracles can only reach the page's own origin, each URL at most once.

    A cross-origin URL raises `PermissionError` (an `OSError`, which oracles treat as "could not
    fetch" and skip)."""
    cache: dict[str, FetchedPage] = {page.url: page}

    def guarded(url: str) -> FetchedPage:
        if not same_origin(url, page.url):
            raise PermissionError(f"oracles may only fetch the page's own origin, not {url}")
        if url not in cache:
            cache[url] = fetch(url)
        return cache[url]

    return guarded


def inspect_page(page: FetchedPage, fetch: Fetch | None = None) -> list[Finding]:
    """Every finding on `page`, deduplicated by fingerprint, in oracle order.

    `fetch` (optional) lets an oracle open a related same-origin page: the previous page of a list,
    the resource an edit form edits. Without it those two oracles stay silent. An oracle that fails
    is logged and skipped, so one odd page never stops an exploration.
    """
    guarded = same_origin_fetch(page, fetch) if fetch is not None else None
    findings: dict[str, Finding] = {}
    for name, oracle in ORACLES.items():
        try:
            results = oracle(page, guarded)
        except Exception as err:  # noqa: BLE001 — an oracle bug must not end the session
            logger.warning("oracle {} failed on {}: {!r}", name, page.url, err)
            continue
        for finding in results:
            findings.setdefault(finding.fingerprint, finding)
    return list(findings.values())
