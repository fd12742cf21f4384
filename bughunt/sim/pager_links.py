"""What two URLs alone say about a link from one page to another: a list's page and offset keys
(`is_page_key`, `is_offset_key`) and its length (`is_size_key`), a link that belongs to the page it is on (`leads_on`) and the next page of a
numbered list (`next_page`).

Cut from `planner` (a pure move): the planner ranks a page's links by them, the explorer's facts and the
oracles' readings ask them too."""

from __future__ import annotations

import re
from functools import lru_cache

from .route_keys import query_pairs, query_parts
from .route_shapes import ROUTE_SHAPES_CACHED

PAGE_KEYS = frozenset({"page", "p", "pg", "pagenum", "page_number"})
"""Query parameters that name a page of a list (`?page=3`)."""

_PREFIXED_PAGE = re.compile(r"^page[_\-.](?!(?:size|count|length|limit|len)$)\w+$", re.I)
"""A page parameter named for one of several lists on a page (`?page_contacts=2`, `?page-comments=3`),
not the size of one (`page_size`)."""


@lru_cache(maxsize=8192)
def is_page_key(key: str) -> bool:
    """Whether a query parameter names a page of a list: one of `PAGE_KEYS`, or one prefixed for a
    list of its own (`page_<list>`, as sites with several paged lists on one page name them)."""
    return key.lower() in PAGE_KEYS or bool(_PREFIXED_PAGE.match(key))


OFFSET_KEYS = frozenset({"offset", "start", "first", "skip", "from", "startwith", "startindex", "startat"})
"""Query keys an offset pager counts rows with (`?offset=20`, DokuWiki's `?first=20`), not pages: the
next page has a higher value, by a page's length."""

_KEY_MARKS = re.compile(r"[@$:_\-]")


@lru_cache(maxsize=8192)
def is_offset_key(key: str) -> bool:
    """Whether a query parameter counts the rows a page starts at: one of `OFFSET_KEYS`, however the
    framework marks or joins it (Roundup's `@startwith`, OData's `$skip`, `start_index`)."""
    return _KEY_MARKS.sub("", key.lower()) in OFFSET_KEYS


SIZE_KEYS = frozenset({"limit", "per_page", "perpage", "page_size", "pagesize", "per", "size"})
"""Query keys naming how many rows a page shows (`?per_page=50`, `?limit=20`): the same list, longer or
shorter."""

_SIZE_WORD = re.compile(r"^[a-z]*?[_\-.]?(?:count|size|limit|length)$", re.I)
"""A key named as the number of rows of some list (`revcount`, `pageSize`, `items_limit`, `page-length`)."""


@lru_cache(maxsize=8192)
def is_size_key(key: str) -> bool:
    """Whether a query parameter sets how many rows a page of a list shows (one of `SIZE_KEYS`, or a key
    named as a count, size, limit or length of rows): another value shows the same list, longer or shorter
    — the "less" and "more" links of a list, and its page-size menu."""
    return key.lower() in SIZE_KEYS or (not is_page_key(key) and bool(_SIZE_WORD.match(key)))


def leads_on(here: str | None, there: str | None) -> bool:
    """Does the link to `there` belong to the page at `here`, judging by the two URLs alone?

    True for a sub-path (``/x/y`` → ``/x/y/comments``), the next page of a numbered list (``/x/2`` →
    ``/x/3``, or the same path with one number in the query one higher), another view of the same
    page (one more query parameter, ``/x/y`` → ``/x/y?tab=likes`` or ``?page=2``; a sibling tab of a
    resource, ``/x/7/likes`` → ``/x/7/followers``) and a path that carries the current page's last
    segment, its identifier (``/x/b`` → ``/edit/b``). Such a link is usually
    found only on this page, so leaving it for later costs a return trip. The root leads on to
    nothing in particular: every path extends it.
    """
    if here is None or there is None:
        return False
    here_path, _, here_query = here.partition("?")
    there_path, _, there_query = there.partition("?")
    a, b = _segments(here_path), _segments(there_path)
    if not a:
        return False
    if len(b) > len(a) and b[: len(a)] == a:
        return True
    if len(a) == len(b) and a[:-1] == b[:-1] and _next_number(a[-1], b[-1]):
        return True
    if len(a) == len(b) >= 3 and a[:-1] == b[:-1] and not a[-1].isdigit() and not b[-1].isdigit():
        # Another view of one resource (`/x/7/history` beside `/x/7/comments`: its tabs); under a
        # section alone (`/settings/a`, `/settings/b`) siblings are pages of their own.
        return True
    if a == b:
        # The same page with one more parameter is a view of it (a tab, a filter, the next page of
        # a list whose first page carries no number: `/x` → `/x?page=2`).
        x, y = query_pairs(here_query), query_pairs(there_query)
        return _next_query_page(here_query, there_query) or (len(y) == len(x) + 1 and all(p in y for p in x))
    return a[-1] in b


def next_page(here: str | None, there: str | None) -> bool:
    """Is `there` the next page of the numbered list at `here` (``/x/2`` → ``/x/3``, ``?page=2`` →
    ``?page=3``, ``/x`` → ``/x?page=2``), judging by the URLs alone?"""
    if here is None or there is None:
        return False
    here_path, _, here_query = here.partition("?")
    there_path, _, there_query = there.partition("?")
    a, b = _segments(here_path), _segments(there_path)
    if a and len(a) == len(b) and a[:-1] == b[:-1] and _next_number(a[-1], b[-1]):
        return True
    if a != b:
        return False
    x, y = query_pairs(here_query), query_pairs(there_query)
    if len(y) == len(x) + 1 and all(p in y for p in x):
        # the first page carries no number: the second says 2, or an offset past the first rows
        ((key, value),) = [p for p in y if p not in x]
        return value == "2" or (is_offset_key(key) and value.isdigit() and int(value) > 0)
    return _next_query_page(here_query, there_query)


_INTEGER = re.compile(r"^-?\d+$")


def numbered_from_first(here: str | None, there: str | None) -> bool:
    """Is `there` the page at `here` with one or more whole numbers added to its query and nothing else
    changed (``/forum`` → ``/forum?x=25&n=25``)? What a list's first page, which carries no number,
    links its later pages by, whatever the keys are called; the link's words say whether it is one."""
    if here is None or there is None:
        return False
    here_path, _, here_query = here.partition("?")
    there_path, _, there_query = there.partition("?")
    if here_path != there_path:
        return False
    x, y = query_pairs(here_query), query_pairs(there_query)
    keys = {k for k, _ in x}
    added = [v for k, v in y if k not in keys]
    return (
        bool(added)
        and all(p in y for p in x)
        and all(v.isdigit() for v in added)
        and len(y) == len(x) + len(added)
    )


@lru_cache(maxsize=ROUTE_SHAPES_CACHED)
def _segments(path: str) -> tuple[str, ...]:
    # asked of the current page's path for every link a choice weighs (`leads_on`), and again each
    # time a link is weighed from another page
    return tuple(s for s in path.split("#")[0].split("/") if s)


def _next_number(a: str, b: str) -> bool:
    return a.isdigit() and b.isdigit() and int(b) == int(a) + 1


def _next_query_page(here: str, there: str) -> bool:
    """The same query but for one numeric value one higher (``?page=2`` → ``?page=3``), or an offset
    higher (``?first=20`` → ``?first=40``)."""
    x, y = query_parts(here), query_parts(there)
    if len(x) != len(y):
        return False
    diffs = [(p, q) for p, q in zip(x, y, strict=True) if p != q]
    if len(diffs) != 1:
        return False
    (p, q) = diffs[0]
    pk, _, pv = p.partition("=")
    qk, _, qv = q.partition("=")
    if pk != qk:
        return False
    if is_offset_key(pk) and _INTEGER.match(pv) and qv.isdigit():
        return int(qv) > int(pv)
    return _next_number(pv, qv)


MIDDLE_PAGE = 3
"""The first page number past a list's first two: a list that breaks past its first page shows it on
the second, and the count oracles fetch the pages after it themselves (`oracles.count_pages`); the
walk reads page 2 and the last page its pager offers (`planner._ranks`), the pages between wait."""


@lru_cache(maxsize=8192)
def page_number(route: str | None) -> int | None:
    """Which page of its list `route` opens, by its query alone: the whole number under a page key
    (`?page=4`: 4), or under an offset key 1 for none skipped and 2 for any later rows (`?start=40`: at
    least the second page — its length is not in the URL). None for a route without either: a list's
    first page, or no list."""
    if route is None:
        return None
    for key, value in query_pairs(route.partition("?")[2]):
        if value.isdigit():
            if is_page_key(key):
                return int(value)
            if is_offset_key(key):
                return 1 if int(value) == 0 else 2
    return None


def page_of(here: str | None, there: str | None) -> int | None:
    """The page number `there` opens of the list at `here`: the same path and query but for one whole
    number under a key named as a page (`?page=4`, `here` carrying a page number or not); None for any
    other link."""
    if here is None or there is None:
        return None
    here_path, _, here_query = here.partition("?")
    there_path, _, there_query = there.partition("?")
    if "#" in there_path or here_path.split("#")[0] != there_path:
        return None
    rest_here = sorted(p for p in query_pairs(here_query) if not is_page_key(p[0]))
    pairs = query_pairs(there_query)
    numbers = [v for k, v in pairs if is_page_key(k)]
    if len(numbers) != 1 or not numbers[0].isdigit():
        return None
    if sorted(p for p in pairs if not is_page_key(p[0])) != rest_here:
        return None
    return int(numbers[0])
