"""Bug oracles for any server-rendered site: each is a hook on every new state (`Oracle`: one fetched
page, a fetch of related pages, the run's settings → findings), one small module each.

`ORACLES` names them in the order they run; `inspect_page(page, fetch, config)` runs them all. None is keyed to a site's page names or routes; the
heuristics each one uses are in its module's docstring and in `docs/site-and-oracles.md`.
"""

from __future__ import annotations

from typing import NamedTuple

from bughunt.oracles.base import (
    DEFAULT_CONFIG,
    KINDS,
    Fetch,
    Finding,
    Oracle,
    OracleBudgetExceeded,
    OracleConfig,
    OracleFetch,
    evidence,
)
from bughunt.oracles.client_errors import check_client_errors
from bughunt.oracles.counts import check_count_mismatch
from bughunt.oracles.destructive import check_unconfirmed_destructive
from bughunt.oracles.forms import check_form_drops_value
from bughunt.oracles.pagination import check_duplicate_pagination
from bughunt.oracles.row_pages import check_row_pages
from bughunt.oracles.scripts import check_unescaped_script
from bughunt.oracles.server_error import check_server_error
from bughunt.oracles.unsafe_get import check_unsafe_get
from bughunt.page import FetchedPage
from memgpt_lite.log import logger

ORACLES: dict[str, Oracle] = {
    "server_error": check_server_error,
    "unescaped_script": check_unescaped_script,
    "duplicate_pagination": check_duplicate_pagination,
    "count_mismatch": check_count_mismatch,
    "form_drops_value": check_form_drops_value,
    "unconfirmed_destructive": check_unconfirmed_destructive,
    "client_error": check_client_errors,
    "unsafe_get": check_unsafe_get,
    "row_pages": check_row_pages,
}

__all__ = [
    "KINDS",
    "ORACLES",
    "Fetch",
    "FetchedPage",
    "Finding",
    "Oracle",
    "OracleBudgetExceeded",
    "OracleConfig",
    "OracleFetch",
    "evidence",
    "Judgement",
    "inspect_page",
    "judge_page",
    "same_origin_fetch",
]


def same_origin_fetch(
    page: FetchedPage, fetch: Fetch, limit: int = DEFAULT_CONFIG.max_requests
) -> OracleFetch:
    """Wrap `fetch` so oracles can only reach the page's own origin, each URL at most once, at most
    `limit` requests for this page (`OracleFetch`)."""
    return OracleFetch(page, fetch, limit)


class Judgement(NamedTuple):
    """What the oracles found on a page, and whether every one of them judged it: none failed and
    none was refused a page it asked for. Only a complete judgement says a bug it does not find again
    is gone (`harness`: "fixed" supersedes "open")."""

    findings: list[Finding]
    complete: bool


def inspect_page(
    page: FetchedPage, fetch: Fetch | None = None, config: OracleConfig | None = None
) -> list[Finding]:
    """Every finding on `page`, deduplicated by fingerprint, in oracle order.

    `fetch` (optional) lets an oracle open a related same-origin page: the previous page of a list,
    the resource an edit form edits; without it those oracles stay silent. All oracles of one page
    share `config.max_requests` fetches. An oracle that fails is logged and skipped, so one odd page
    never stops an exploration.
    """
    return judge_page(page, fetch, config).findings


def judge_page(
    page: FetchedPage, fetch: Fetch | None = None, config: OracleConfig | None = None
) -> Judgement:
    """`inspect_page`, saying also whether the judgement was complete (`Judgement`)."""
    config = config or DEFAULT_CONFIG
    guarded = same_origin_fetch(page, fetch, config.max_requests) if fetch is not None else None
    findings: dict[str, Finding] = {}
    complete = True
    for name, oracle in ORACLES.items():
        try:
            results = oracle(page, guarded, config)
        except Exception as err:  # noqa: BLE001 — an oracle bug must not end the session
            logger.warning("oracle {} failed on {}: {!r}", name, page.url, err)
            complete = False
            continue
        for finding in results:
            findings.setdefault(finding.fingerprint, finding)
    if guarded is not None and guarded.failures:
        complete = False
    return Judgement(list(findings.values()), complete)
