"""Two routes that are one template by what their pages are, not by their addresses.

`fingerprint.one_template` reads routes alone and never joins two first segments (`/followers/x`,
`/following/x` are two pages). But a site that names its tenants, projects or boards by a word in
its first segment (`/demo/`, `/flatmates/`: two projects of one budget app; `/acme/issues`,
`/globex/issues`) serves every one of them from one template, and a bug in it is found once per
tenant the walk met. Memory knows what each page was: its structure hash (tags, attribute names,
ids/classes; text ignored, repeated siblings collapsed, `dom.structure_hash`). Two routes whose
shapes differ in one plain word at any position, with the same query keys (their values are data), whose pages had the same
structure hash, are one template — the same rule `templates` applies to the walk's pages, here
for joining findings of one root cause (`inspection.same_root_cause`)."""

from __future__ import annotations

from collections.abc import Callable

from bughunt.fingerprint import route_shape
from bughunt.sim.route_keys import query_pairs


def structure_twin(a: str, b: str, hash_of: Callable[[str], str | None]) -> str | None:
    """The template routes `a` and `b` share when they differ in one plain path word (and query
    values) and their pages had one structure hash (`hash_of`), else None."""
    if a == b:
        return None
    (path_a, _, query_a), (path_b, _, query_b) = route_shape(a).partition("?"), route_shape(b).partition("?")
    query = _keys(query_a)
    if query != _keys(query_b):
        return None
    parts_a, parts_b = path_a.split("/"), path_b.split("/")
    if len(parts_a) != len(parts_b):
        return None
    differ = [i for i, (x, y) in enumerate(zip(parts_a, parts_b, strict=True)) if x != y]
    if len(differ) != 1:
        return None
    i = differ[0]
    if parts_a[i].startswith("<") or parts_b[i].startswith("<") or not parts_a[i] or not parts_b[i]:
        return None  # an identifier beside a word: a record and a form, not two values of one name
    mine = hash_of(a)
    if mine is None or mine != hash_of(b):
        return None
    parts_a[i] = "<slug>"
    return "/".join(parts_a) + (f"?{query}" if query else "")


def _keys(query: str) -> str:
    """A query by its keys, each value read as data (`search=Todos` → `search=<v>`; empty stays empty)."""
    return "&".join(f"{k}=<v>" if v else f"{k}=" for k, v in query_pairs(query, decoded=True))
