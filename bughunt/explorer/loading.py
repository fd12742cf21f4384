"""Loading a target: a route is fetched, a click state's route is the click done on its page (after
the clicks that reached the state it was made on), and a failed load is retried with exponential
backoff (bounded: `retries` extra attempts). A failure that persists is returned as such: the loop
does not count it a visit."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from urllib.parse import urlsplit

from bughunt.actions import Action
from bughunt.oracles.unsafe_get import state_change
from bughunt.page import FetchedPage
from memgpt_lite.log import logger

from .engine import Engine, FetchResult
from .graph import ExplorationGraph
from .harness import is_failure


def load(
    engine: Engine, graph: ExplorationGraph, target: str, retries: int, backoff_s: float,
    sleep: Callable[[float], None], referer: str | None = None,
) -> FetchResult:  # fmt: skip
    """`referer`: the address of the page whose link `target` is (`Engine.fetch`), for a route's load."""
    result = _load(engine, graph, target, referer)
    for attempt in range(retries):
        if not is_failure(result.outcome, result.status):
            break
        wait = backoff_s * 2**attempt
        logger.info("{} failed ({}); retrying in {:.2g}s", target, result.outcome, wait)
        sleep(wait)
        result = _load(engine, graph, target, referer)
    return result


def _load(engine: Engine, graph: ExplorationGraph, target: str, referer: str | None) -> FetchResult:
    # A click that leaves the URL as it was is a state of its own (route + structure: it is stored
    # under the click's route); one that navigates leads to the new URL, like a redirect.
    chain = graph.click_chain(target)
    if chain is None:
        return engine.fetch(target, referer)
    page_route, selectors = chain
    result = engine.perform(Action("click", engine.url_of(page_route), "", selectors[-1], selectors[:-1]))
    if result.outcome == "page" and (result.final_route or result.route) == page_route:
        return replace(result, route=target, final_route=target)
    return replace(result, route=target)


def clicked_back(result: FetchResult, position: str, before: FetchedPage | None, label: str) -> FetchResult:
    """A GET clicked on `position` that redirected back to it (or answered on its path at an address
    naming a state verb: `?like=1`) left a new state of that page: the page after keeps the page before (`FetchedPage.clicked_from`), so the oracles can see what the request
    changed (`bughunt.oracles.unsafe_get`), as they do for a click in place in the browser."""
    page = result.page
    if (
        result.outcome != "page"
        or page is None
        or before is None
        or page.clicked_from is not None
        or result.route == position
    ):
        return result
    final = result.final_route or result.route
    back = bool(page.redirects) and final == position
    # `?like=1` on the page's own path, answered in place: a state of the page too.
    flipped = (
        not page.redirects
        and urlsplit(final).path == urlsplit(position).path
        and state_change(page.url) is not None
    )
    if not (back or flipped):
        return result
    return replace(result, page=replace(page, clicked_from=(before, label)))
