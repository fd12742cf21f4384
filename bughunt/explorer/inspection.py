"""The oracles on a loaded page, with what the explorer lends them: a fetch of related pages of the
site (through the engine, failures remembered for the step) and the routes memory knows (an edit form's
resource that the form does not link back to)."""

from __future__ import annotations

from collections.abc import Callable

from bughunt.oracles import Finding, OracleConfig, inspect_page
from bughunt.page import FetchedPage

from .engine import Engine
from .graph import ExplorationGraph


def inspect(
    page: FetchedPage, engine: Engine, graph: ExplorationGraph, *, allow_destructive: bool
) -> list[Finding]:
    config = OracleConfig(allow_destructive=allow_destructive, known_routes=graph.known_pages)
    return list(inspect_page(page, _oracle_fetch(engine), config))


def _oracle_fetch(engine: Engine) -> Callable[[str], FetchedPage]:
    # The oracles may look at related pages (the previous page of a list, the article behind a
    # form). Their `OracleFetch` keeps the pages of one step; only failures are kept here, so a
    # fetch the oracles ask for *again* (a page after a destructive action) is a fresh request.
    failed: dict[str, OSError] = {}

    def fetch(url: str) -> FetchedPage:
        if url in failed:
            raise failed[url]
        try:
            return engine.fetch_page(url)
        except OSError as exc:
            failed[url] = exc
            raise

    return fetch
