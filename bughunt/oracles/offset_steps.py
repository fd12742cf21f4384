"""An offset pager known by what its own links do, not by its key's name.

`reading.is_offset_key` knows an offset by its name (`offset`, `start`, `first`); a key named as a page
size (`limit`, `size`) or a framework's own (`pos`, `fDisplay`) may count rows all the same: PostfixAdmin
pages its lists by `?limit=0`, `?limit=10`, `?limit=20` (rows skipped, not rows shown), phpMyAdmin by
`?pos=0,25,50`, Solr front ends and Roundcube-style mail lists by `start`. The page's own links say it:
the links to the same route differing from the page's URL in one key K alone carry whole numbers which,
with the page's own value (0 where the page lacks K: the list's first page), are **three or more
multiples of one step s ≥ 2, s apart around the page's own value** (0, 10, 20, 30) — a pager's
neighbours. A page-size menu is not: its sizes are not one step apart (10, 25, 50, 100), or its links
say the number they put in K ("50", "20 items", "Show 100"); a page without K sits at 0 only when
its links lead to every later page (10, 20, 30), a menu's choices beside a default skip some (5, 10,
20, 50); a page-number pager steps by 1 and is the named
readings' (`?page=`). A windowed pager with a gap (0, 10, 20, …, 90) still has its run around the page.

The page before is then the link with the page's value minus s (the first page: K = 0 or no K), the
page after the link with its value plus s. Families: PHP admins' hand-written pagers (PostfixAdmin's
`limit`, phpMyAdmin's `pos`), Solr/Lucene front ends' `start`, Roundcube-like and Django-admin-like
lists under an offset of their own name, WordPress-era `?paged=` stays a page number (steps by 1).
"""

from __future__ import annotations

import re
from typing import NamedTuple
from urllib.parse import urlsplit

from bughunt.oracles.link_targets import targets
from bughunt.oracles.offset_first import first_page_of_offset
from bughunt.oracles.reading import is_page_key, resolve
from bughunt.page import FetchedPage, base_url
from bughunt.sim.route_keys import query_pairs

_WHOLE = re.compile(r"^\d{1,7}$")
_NUMBERS = re.compile(r"\d+")
MIN_VALUES = 3
"""Values one step apart (the page's own among them) that make a pager: two are any pair of numbers."""


class OffsetPager(NamedTuple):
    """A key the page's links step by `step` rows; where the page is in it (`here`: None when the page's
    own URL is not one of the pager's, a bare list address that shows some default list) and the URLs
    of the pages around it."""

    key: str
    step: int
    here: int | None
    previous: str | None
    following: str | None
    pages: tuple[str, ...] = ()
    """Every page of the list the links lead to (the pager's own links)."""


def offset_pagers(page: FetchedPage) -> tuple[OffsetPager, ...]:
    """The keys the page's own links page its lists by as offsets (see the module's docstring)."""
    return page.derived(_offset_pagers)


def _offset_pagers(page: FetchedPage) -> tuple[OffsetPager, ...]:
    if not page.is_html:
        return ()
    parts = urlsplit(page.url)
    own = dict(query_pairs(parts.query, decoded=True))
    base = base_url(page)
    # (key, the rest of the query) → value → (the link's URL, whether the link is written as that number)
    groups: dict[tuple[str, frozenset[tuple[str, str]]], dict[int, tuple[str, bool]]] = {}
    # the same route without the key, by the rest of its query: the list's first page (`_keyless_first`)
    keyless: dict[frozenset[tuple[str, str]], str] = {}
    for node, href in targets(page.document):
        url = resolve(base, href)
        if url is None:
            continue
        there = urlsplit(url)
        if there.netloc != parts.netloc or there.path != parts.path:
            continue
        pairs = query_pairs(there.query, decoded=True)
        query = dict(pairs)
        if len(query) != len(pairs):
            continue  # a repeated key: not a pager's URL
        keyless.setdefault(frozenset(pairs), url.split("#", 1)[0])
        text = " ".join(node.text().split())
        for key, value in pairs:
            if is_page_key(key) or not _WHOLE.match(value.strip()):
                continue
            rest = frozenset((k, v) for k, v in pairs if k != key)
            seen = groups.setdefault((key, rest), {})
            old = seen.get(int(value))
            written = value.strip() in _NUMBERS.findall(text)
            seen[int(value)] = (
                old[0] if old else url.split("#", 1)[0],
                (old[1] if old else False) or written,
            )
    found = []
    mine = frozenset(own.items())
    for (key, rest), seen in groups.items():
        if any(written for _, written in seen.values()):
            continue
        _keyless_first(seen, keyless.get(rest), key in own)
        place = own.get(key, "0").strip()
        # the page is in this pager when its query is the pager's but for the key
        known = frozenset((k, v) for k, v in mine if k != key) == rest and _WHOLE.match(place)
        here = int(place) if known else None
        step = _step(here, set(seen))
        if step is None:
            continue
        if known and key not in own and set(seen) != set(range(step, max(seen) + 1, step)):
            # a page without the key sits at 0 only if its links lead to every page after it (0, 10,
            # 20, 30): a size menu's choices beside the default size skip some (5, 10, 20, 50)
            continue
        pages = tuple(url for url, _ in seen.values())
        if here is None:
            found.append(OffsetPager(key, step, None, None, None, pages))
            continue
        before = seen.get(here - step, (None, False))[0] if here - step > 0 else _first(seen, page.url, key)
        after = seen.get(here + step, (None, False))[0]
        found.append(OffsetPager(key, step, here, before if here > 0 else None, after, pages))
    return tuple(found)


def _keyless_first(seen: dict[int, tuple[str, bool]], first: str | None, keyed: bool) -> None:
    """Count a link to the route without the key as the list's first page (offset 0), on a page that
    carries the key. A pager whose first page's address has no offset (`[1]` → `/`, `[2]` → `/?o=10`,
    `[3]` → `/?o=20`) links its later pages with the key and its first page without: on page 2 of
    three the links with the key are only the page's own and the last, two values, short of
    `MIN_VALUES` — the first page is the third. On a page without the key the page itself is 0."""
    if keyed and first is not None and 0 not in seen:
        seen[0] = (first, False)


def _step(here: int | None, values: set[int]) -> int | None:
    """The step s of an offset pager: `MIN_VALUES` or more of `values` (and `here`, the page's own,
    when known) all multiples of s ≥ 2, one run s apart through `here` (through the lowest value when
    the page's own is not known); None for any other set of numbers."""
    every = sorted(values | ({here} if here is not None else set()))
    gaps = [b - a for a, b in zip(every, every[1:], strict=False)]
    if not gaps:
        return None
    step = min(gaps)
    if step < 2 or any(v % step for v in every):
        return None
    runs = [here] if here is not None else every
    for at in runs:
        run, low, high = 1, at, at
        while low - step in every:
            low, run = low - step, run + 1
        while high + step in every:
            high, run = high + step, run + 1
        if run >= MIN_VALUES:
            return step
    return None


def _first(seen: dict[int, tuple[str, bool]], url: str, key: str) -> str | None:
    """The list's first page: the link with `key` at 0, else the page's URL without `key`."""
    return seen[0][0] if 0 in seen else first_page_of_offset(url, key.__eq__)
