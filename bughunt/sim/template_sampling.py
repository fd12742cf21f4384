"""How many visited instances of a page type the planner wants (`TEMPLATE_SAMPLE`), and when another view
of a path or another section's page of one kind is the same state again (`QueryViews`, `kind_keys`).

Cut from `planner` (a pure move): the levels its choice ranks candidates by."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import lru_cache

from .pager_links import is_page_key, is_size_key
from .record_views import names_a_record
from .route_keys import query_parts
from .route_shapes import action_page, front_controller

TEMPLATE_SAMPLE = 2
"""Visited instances of a template (route shape, DOM structure) before the planner prefers other
templates: one covers it, a second samples its data (a list that breaks only past its first page)."""


QUERY_VIEWS = 3
"""Visited views of one path (the path alone, `?genre=<slug>`, `?sortBy=<slug>&sort=<slug>`: its
query keys, a page number aside) after which another view, or another filter value of one, is the
same state again (`sampled` 2), not a page type to sample: a list's sort, filter and page-size keys
combine into dozens of key sets, each a "new" shape, while the list's records and their own pages
wait. The pages of a visited view stay wanted as instances (page 3 after page 2: the data changes)."""


@lru_cache(maxsize=8192)
def _view(template: str) -> tuple[str, frozenset[str]]:
    """A template's path and the query keys that choose what its list shows (a page number aside:
    `?genre=<slug>&page=<n>` is the `genre` view, on another page). A pure function of the string,
    kept like `kind_keys`: every choice reads the view of every visited template again."""
    path, _, query = template.partition("?")
    pairs = [pair.partition("=") for pair in query_parts(query)]
    if front_controller(path) or any(action_page(path, k, v) for k, _, v in pairs):
        # A front controller's page type is its path (`/doku.php?do=search`), its other keys the view;
        # so is a directory's with its action key's word (`/admin/?action=manage_users`, `route_shape`).
        words = [f"{k}={v}" for k, _, v in pairs if v and not v.startswith("<")]
        path += "?" + "&".join(words) if words else ""
        pairs = [(k, eq, v) for k, eq, v in pairs if not v or v.startswith("<")]
    return path, frozenset(k for k, _, _ in pairs if not is_page_key(k))


@lru_cache(maxsize=8192)
def _size_keys(template: str) -> frozenset[str]:
    """The keys of `template` that set how many rows its list shows: a number under a size key
    (`?revcount=<n>`, `?per_page=<n>`)."""
    _, _, query = template.partition("?")
    pairs = [pair.partition("=") for pair in query_parts(query)]
    return frozenset(k for k, _, v in pairs if v == "<n>" and is_size_key(k))


@lru_cache(maxsize=8192)
def kind_keys(template: str) -> tuple[str, ...]:
    """The keys under which `template` is one kind of page with the same action of other sections:
    its path with one segment before the last that names a section (a word, a hyphenated word)
    replaced by `*`, when the last segment is a literal (`/feedings/add/` and `/sleep/add/` are both `/*/add/`; `/a/<n>/edit` and `/b/<n>/edit`
    both `/*/<n>/edit`). A path ending in a value (`/a/<n>`: a record) or of one segment (a section's
    own page) has none: records and sections are what differs; one section's form, edit or delete
    page is the others' again, with other field names."""
    path, sep, query = template.partition("?")
    parts = path.split("/")
    placed = [i for i, s in enumerate(parts) if s]
    if "#" in template or len(placed) < 2 or not _literal(parts[placed[-1]]):
        return ()
    keys = []
    for i in placed[:-1]:
        if _section(parts[i]):
            keys.append("/".join([*parts[:i], "*", *parts[i + 1 :]]) + sep + query)
    return tuple(keys)


def _literal(segment: str) -> bool:
    return "<" not in segment and not segment.isdigit()


def _section(segment: str) -> bool:
    """A segment a section may be named by: a word, or a hyphenated one (`tummy-time`, shaped `<slug>`)."""
    return _literal(segment) or segment == "<slug>"


class QueryViews:
    """What the visited templates show of each path: its views (`_view` of every visited template)
    and the kinds of page they are (`kind_keys`)."""

    __slots__ = ("seen", "per_path", "kinds", "keys_of")

    def __init__(self, covered: Mapping[str, int]) -> None:
        visited = [t for t, n in covered.items() if n > 0]
        self.seen = {_view(t) for t in visited}
        self.per_path = Counter(path for path, _ in self.seen)
        self.keys_of: dict[str, list[frozenset[str]]] = {}
        """Path → the key sets of its visited views (what `record_views.names_a_record` reads)."""
        for path, keys in self.seen:
            self.keys_of.setdefault(path, []).append(keys)
        self.kinds = Counter(key for t in visited for key in kind_keys(t))

    def seen_path(self, template: str) -> bool:
        """Whether a visited template has the path of `template` (in any view)."""
        return self.per_path[_view(template)[0]] > 0

    def level(self, template: str, seen: int, samples: int) -> int | None:
        """2 for a template of a path viewed `QUERY_VIEWS` ways already that is a new view of it, or
        one more filter value of a sampled view (the same records, chosen again), or a view of a path
        already viewed that only sets how many rows its list shows (`is_size_key`); 1 for a template
        not visited of a kind `TEMPLATE_SAMPLE` visited templates of other sections are (`kind_keys`:
        a third form of one kind waits, as a third instance of a template does, for the kinds of page
        not seen yet); else None. A new view that names one record under a key no visited view of
        the path carried is a record's page, not a view (`record_views`): sampled as any template."""
        path, keys = _view(template)
        sized = _size_keys(template)
        if sized and ((path, keys) in self.seen or (path, keys - sized) in self.seen):
            # A view seen before, longer or shorter ("less"/"more", a page-size menu): the same records
            # again, not a page type (a version-control browser's `?revcount=` links took 39 of 100 clicks).
            return 2
        viewed = ("?" in template or bool(keys)) and self.per_path[path] >= QUERY_VIEWS
        if viewed and (path, keys) not in self.seen:
            if not names_a_record(template, keys, self.keys_of.get(path, ())):
                return 2
        elif viewed and keys and seen >= samples:
            return 2
        if seen == 0 and any(self.kinds[key] >= TEMPLATE_SAMPLE for key in kind_keys(template)):
            return 1
        return None
