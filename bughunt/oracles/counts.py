"""A displayed count that disagrees with the list it labels ("Favorites (3)" above two items).

A label is a short element whose whole text is a count: `Label (N)`, `Label [N]` or `N label`.
The list it labels is the element right after it, or the run of same-structure items that starts
right after it in one container (a heading over a flat loop: see `labelled_list`); when nothing
right after it is a list, the one content list of the label's own section (`count_sections`: a
header bar of controls, a form wrapper or a filter form between them make no difference). Counts
inside list items (a "3 comments" badge on a preview) label something not shown, so they are skipped. A total above a
paginated list legitimately exceeds one page: it is compared with the items of all its pages when
the pagers lead to at most `MAX_PAGES` others (fetched), else skipped; an item a faulty pager
repeats on two pages is one item. A list whose range line states its total ("1 to 10 of 37") is
compared with that total instead, however it is paged. A pager that leads to no
other page (« 1 » with disabled arrows) pages nothing: the list is complete. Durations ("3 min
read") are not counts.

The readings live in modules named for what they do: `count_labels` (parsing counts and range
lines, finding the labels), `counted_list` (the list a label counts), `count_ranges` (a range line's
list and total), `count_pages` (a counted list over all its pages), `count_filters` (a clicked
filter's count and the list it redrew), `count_targets` (a count on this
page of the list another page shows, compared with the total that page states), `count_summary` (a
line of counts under a table, its rows first); this module keeps the oracle.
The names other modules import from here stay importable.
"""

from __future__ import annotations

from bughunt.dom import Node
from bughunt.fingerprint import fingerprint as make_fingerprint
from bughunt.fingerprint import route_shape
from bughunt.oracles.base import DEFAULT_CONFIG, Fetch, Finding, OracleConfig, evidence, page_shape, quoted
from bughunt.oracles.count_badges import badge_mismatches
from bughunt.oracles.count_feet import foot_mismatches
from bughunt.oracles.count_filters import check_filter_count
from bughunt.oracles.count_groups import group_mismatches
from bughunt.oracles.count_headings import heading_mismatches
from bughunt.oracles.count_identity import label_key
from bughunt.oracles.count_labels import KEPT_CHARS as KEPT_CHARS
from bughunt.oracles.count_labels import LABEL_CHARS as LABEL_CHARS
from bughunt.oracles.count_labels import parse_count
from bughunt.oracles.count_labels import parse_range as parse_range
from bughunt.oracles.count_links import anchored_mismatch, linked_mismatch
from bughunt.oracles.count_pages import MAX_PAGES as MAX_PAGES
from bughunt.oracles.count_pages import _all_pages, _distinct, _keys, _labelled, _listed, ends_list
from bughunt.oracles.count_ranges import RANGE_LEVELS as RANGE_LEVELS
from bughunt.oracles.count_ranges import _range_total, range_mismatches
from bughunt.oracles.count_rows import row_counts, spread
from bughunt.oracles.count_summary import summary_mismatches
from bughunt.oracles.count_targets import Claim, contradicted
from bughunt.oracles.count_usage import usage_mismatches
from bughunt.oracles.count_views import view_mismatch
from bughunt.oracles.counted_list import BOX_CHARS as BOX_CHARS
from bughunt.oracles.counted_list import _with_nested, current_tab_bar
from bughunt.oracles.counted_list import labelled_list as labelled_list
from bughunt.oracles.lists import find_lists, has_pagination, holds_link, is_pager, item_facts
from bughunt.oracles.pager_empty import offered_empty_page
from bughunt.oracles.reading import names_later_page
from bughunt.oracles.view_widgets import widget_key
from bughunt.page import FetchedPage, base_url
from bughunt.urls import route_of


def _counted_elsewhere(page: FetchedPage, items: list[Node], shown: int) -> bool:
    """Whether the labelled list is prose (items without a link: a report's description in bullets)
    while a list of records apart from it (every item linked, pagers left out) holds exactly `shown`
    items: then the label counts that one. A list holding `items` (a grouped table's whole rows under
    a group heading that counts them all) is the same list, not another; asked only on a mismatch."""
    memo, base = item_facts(page), base_url(page)
    if any(holds_link(item, memo, base) for item in items):
        return False
    own = {id(i) for i in items}
    return any(
        len(other) == shown
        and all(holds_link(o, memo, base) for o in other)
        and not own & {id(n) for o in other for n in o.iter()}
        for c, other in find_lists(page.document)
        if not is_pager(c, other)
    )


def check_count_mismatch(
    page: FetchedPage, fetch: Fetch | None = None, config: OracleConfig = DEFAULT_CONFIG
) -> list[Finding]:
    """At most one finding per page: the message is a template; each mismatch (its label, the
    count shown, the items listed) is evidence."""
    if not page.is_html or page.status >= 400:
        return []
    mismatches: list[tuple[Node, int, int]] = []
    walked: dict[str, list[FetchedPage]] = {}
    for label, noun, shown, items in _labelled(page):
        if items is None or shown == len(items) or shown == _with_nested(items):
            continue
        listed = len(items)
        total = _range_total(page, items)
        if total is not None:
            # the list's range line states its whole total: what the count says too, however the
            # list is paged (a script's pager leads to no address to walk)
            if shown != total:
                mismatches.append((label, shown, total))
            continue
        # whether the list is paged matters only for a count it disagrees with: asked then
        # a page that names a later page of its list (`?page=1` of a script-less pager drawn as
        # arrows only) shows the rows left, never all: it too is compared only walked whole
        if shown > listed and (has_pagination(page) or names_later_page(page.url)):
            # Part of the list: compared only once every page of it is walked.
            if noun not in walked:
                walked[noun] = _all_pages(page, fetch, ends_list(noun)) or []
            if not walked[noun]:
                continue
            counted = [_listed(other, noun) for other in walked[noun]]
            if any(c is None for c in counted):
                continue
            listed += sum(c[0] for c in counted if c is not None)
            nested = _with_nested(items) + sum(c[1] for c in counted if c is not None)
            distinct = _distinct(_keys(items, page) + [k for c in counted if c is not None for k in c[2]])
            if shown in (listed, nested, distinct):
                continue
        elif current_tab_bar(label) is not None:
            # a tab's count may count more than the view under it shows (every record of the model
            # the tab is for, the unread of an inbox): it is taken for the list's total only where
            # the app pages the list by it (the paged branch above), never over one page
            continue
        elif _counted_elsewhere(page, items, shown):
            # another list on the page holds exactly that many items: the label counts that one (a
            # report's "(53 matches)" heading over its description's bullets and then its 53-row table)
            continue
        mismatches.append((label, shown, listed))
    mismatches += range_mismatches(page)
    if not mismatches:
        mismatches = (
            heading_mismatches(page, lambda: _all_pages(page, fetch))
            or linked_mismatch(page, parse_count, lambda: _all_pages(page, fetch))
            or anchored_mismatch(page, parse_count)
        )
    if not mismatches and (claim := contradicted(page, fetch, spread(row_counts(page)))) is not None:
        if claim[0].record:
            return [_linked_finding(page, *claim, RECORD_MESSAGE, "record_url")]
        if claim[0].named:
            return [_linked_finding(page, *claim, ROW_MESSAGE, "list_url")]
        mismatches = [(claim[0].node, claim[0].shown, claim[1])]
    if not mismatches:
        mismatches = (
            badge_mismatches(page)
            or foot_mismatches(page)
            or summary_mismatches(page)
            or usage_mismatches(page)
            or group_mismatches(page)
        )
    if not mismatches:
        # no count label disagrees: a clicked filter's count and the list it redrew (`count_filters`),
        # the pager's own count, a page it offers that lists nothing
        if filtered := check_filter_count(page):
            return filtered
        if (viewed := view_mismatch(page, fetch)) is not None:
            return [viewed]
        return [found] if (found := offered_empty_page(page, fetch)) is not None else []
    label, shown, listed = mismatches[0]
    message = "a displayed count disagrees with the number of items in the list it labels"
    return [
        Finding(
            "count_mismatch",
            page.route,
            message,
            evidence(
                page,
                label.text(),
                label=quoted(m[0].text() for m in mismatches),
                shown=shown,
                listed=listed,
                mismatches=len(mismatches),
                # one count widget of a single-page document wrong in two views (`view_widgets`)
                widget_key=widget_key(page.url, (m[0] for m in mismatches)),
                # one template's count label wrong on its views of one family of routes (`count_identity`)
                label_key=label_key(label),
            ),
            shape=page_shape(page),
        )
    ]


RECORD_MESSAGE = "a list's count of a record's items disagrees with the count the record's own page states"
ROW_MESSAGE = "a summary table's count of a list disagrees with the total the list's own page states"


def _linked_finding(page: FetchedPage, claim: Claim, total: int, message: str, url_key: str) -> Finding:
    """A count the page it links to contradicts: a list card's count its record's page states
    (`count_records`, `RECORD_MESSAGE`), a summary table row's count its list's page totals
    (`count_rows`, `ROW_MESSAGE`). One card or table template is drawn on several pages (a front
    page and a tag's page; a dashboard's overview, its queues page and their polling fragment): the
    bug is fingerprinted on the linked pages' route shape, so those pages report it once."""
    shape = route_shape(route_of(claim.url))
    return Finding(
        "count_mismatch",
        page.route,
        message,
        evidence(
            page,
            claim.node.text(),
            label=quoted([claim.node.text()]),
            shown=claim.shown,
            listed=total,
            mismatches=1,
            **{url_key: claim.url},
        ),
        fingerprint=make_fingerprint(shape, "count_mismatch", message),
        shape=page_shape(page),
    )
