"""Lists paged under one key name, carrying as many items over the page boundary, are one bug on any
route only when they page one kind of record (`pagination._record_form`): a site's one slicing helper
pages its posts on every list, but a code host's index of projects and a project's log of commits,
both `?start=`, are two loops — two bugs, each to be reported on its own. Imaginary routes and markup."""

from __future__ import annotations

from collections.abc import Callable

from bughunt.explorer.inspection import same_root_cause
from bughunt.oracles import ORACLES, Finding
from bughunt.page import FetchedPage
from tests.bughunt.oracles.test_oracles_root_causes import as_bug, missing, page
from tests.support.pages import Fetcher

PER_PAGE = 4


def listing(
    path: str, start: int, first: int, href: Callable[[int], str] | None, table: str = 'class="list"'
) -> FetchedPage:
    """Rows `first`.. of a list at offset `start` (the pager's first page is the bare address); rows of
    text alone without `href`."""
    rows = "".join(
        f'<tr><td><a href="{href(n)}">Entry number {n} of the list</a></td></tr>'
        if href is not None
        else f"<tr><td>Job number {n} waiting in line</td></tr>"
        for n in range(first, first + PER_PAGE)
    )
    pager = "".join(
        f'<a href="{path}{f"?start={s}" if s else ""}">[{s // PER_PAGE + 1}]</a>'
        for s in (0, PER_PAGE, 2 * PER_PAGE)
        if s != start
    )
    query = f"?start={start}" if start else ""
    return page(path + query, f'<main><table {table}>{rows}</table><div class="pager">{pager}</div></main>')


def carried_one(path: str, href: Callable[[int], str] | None, table: str = 'class="list"') -> Finding:
    """Page 2 of the list at `path` opens with page 1's last row."""
    first, second = listing(path, 0, 1, href, table), listing(path, PER_PAGE, PER_PAGE, href, table)
    [found] = ORACLES["duplicate_pagination"](second, Fetcher(first, second, missing=missing))
    return found


def project(n: int) -> str:
    return f"/project{'abcdefgh'[n % 8]}{n}/"


def commit(n: int) -> str:
    return f"/atlas/commit/?id={n:012x}f00d"


def test_a_project_index_and_a_commit_log_sharing_a_key_are_two_bugs() -> None:
    index, log = carried_one("/", project), carried_one("/atlas/log/", commit)
    assert index.evidence["list_key"] == log.evidence["list_key"]  # one table's look on both pages
    assert same_root_cause([log], [as_bug(index)]) == [log]


def test_lists_of_one_kind_of_record_under_one_key_stay_one_bug_on_any_route() -> None:
    front = carried_one("/", lambda n: f"/post/note-number-{n}")
    tagged = carried_one("/tag/python/", lambda n: f"/post/entry-{n}")  # other words, one depth
    [joined] = same_root_cause([tagged], [as_bug(front)])
    assert joined.fingerprint == front.fingerprint


def test_rows_named_by_their_text_are_one_kind_only_in_lists_drawn_alike() -> None:
    # No permalink says what the rows are: a queue's jobs and a key browser's raw values, both text,
    # are two kinds when two templates draw them; one template's rows on two routes are one.
    queue = carried_one("/queues/mail", None, 'class="jobs"')
    keys = carried_one("/stats/keys/mail", None)
    assert same_root_cause([keys], [as_bug(queue)]) == [keys]
    failed = carried_one("/failed", None, 'class="jobs"')
    [joined] = same_root_cause([failed], [as_bug(queue)])
    assert joined.fingerprint == queue.fingerprint
