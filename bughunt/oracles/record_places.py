"""Where a list's row controls name their record: the path segment in which the addresses of one
control template differ from row to row.

A list draws one Delete (or Archive, Remove…) per row with one template; the rows' addresses differ in
the segment that names each row's record. Read lexically, that segment is a placeholder only when it
looks like one (a number, an id, a long slug: `segment_shape`): a record named by a short word or
two (`/admin/edit-content/about?delete=1` beside `/admin/edit-content/follow-bludit?delete=1` and
`…/a-morning-at-the-market?delete=1`) kept its name, and each such row was a control template — one
root cause reported once per record name (issue 25, corpus ho7_bludit). The page itself says which
segment is the record: two controls drawn alike whose addresses are the same but for one segment.
Applies to any list of row actions addressed by a record's name (wiki pages, tags, plugins, users by
login name), in any family.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from urllib.parse import urlsplit

from bughunt.sim.route_keys import query_pairs

MAX_COMPARED = 200
"""Controls of one look compared pairwise on one page (a long list's rows; bounded work)."""


def path_segments(url: str) -> list[str]:
    """The segments of `url`'s path, as the destructive oracle's shapes index them."""
    return urlsplit(url).path.strip("/").split("/")


def record_places(
    controls: Sequence[tuple[str, str]], names_action: Callable[[str], bool]
) -> dict[str, frozenset[int]]:
    """For each control `(url, markup)`, the positions of its path segments (`path_segments`) that
    name its record: another control of the same markup and the same query keys has an address equal
    to it but for that one segment, below the collection (never the first segment), and neither
    value names an action (`/delete-post/5`, `/delete-user/5` are two actions, not two records)."""
    groups: dict[tuple[str, tuple[str, ...], int], list[tuple[str, list[str]]]] = {}
    for url, markup in controls:
        segments = path_segments(url)
        keys = tuple(sorted({k for k, _ in query_pairs(urlsplit(url).query, decoded=True)}))
        groups.setdefault((markup, keys, len(segments)), []).append((url, segments))
    places: dict[str, set[int]] = {}
    for members in groups.values():
        members = members[:MAX_COMPARED]
        for i, (url_a, a) in enumerate(members):
            for url_b, b in members[i + 1 :]:
                differ = [j for j, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
                if len(differ) != 1 or differ[0] < 1:
                    continue
                j = differ[0]
                if not a[j] or not b[j] or names_action(a[j]) or names_action(b[j]):
                    continue
                places.setdefault(url_a, set()).add(j)
                places.setdefault(url_b, set()).add(j)
    return {url: frozenset(found) for url, found in places.items()}
