"""Shortcuts of the ninth pass over the step's path (issue 28): each answers what the plain definition
it replaces answers, tested on random input against that definition."""

from __future__ import annotations

import random
import sqlite3
from typing import Any

import pytest

from bughunt.dom import Node, parse_html
from bughunt.explorer.secrets import REDACTED, Scrubber, _forms
from bughunt.explorer.store.scrubbing import ScrubbingConnection
from bughunt.oracles.lists import item_signature, list_items
from bughunt.sim import template_sampling
from bughunt.sim.planner import Planner
from bughunt.sim.record_views import names_a_record
from bughunt.sim.template_sampling import QueryViews, _view
from tests.support.scrubbing import scrubbed_as_defined

_TEMPLATE_PARTS = ("", "/", "a", "doku.php", "index.php", "<n>", "<slug>", "list", "x-y")
_QUERY_KEYS = ("page", "p", "page_posts", "sort", "genre", "do", "q", "offset")
_QUERY_VALUES = ("", "<n>", "<slug>", "show", "title", "1")


def _random_template(rnd: random.Random) -> str:
    path = "/" + "/".join(rnd.choice(_TEMPLATE_PARTS) for _ in range(rnd.randint(0, 3)))
    if rnd.random() < 0.6:
        pairs = [
            f"{rnd.choice(_QUERY_KEYS)}{'=' if rnd.random() < 0.9 else ''}{rnd.choice(_QUERY_VALUES)}"
            for _ in range(rnd.randint(0, 3))
        ]
        path += "?" + "&".join(pairs)
    return path


@pytest.mark.parametrize("seed", range(4))
def test_a_templates_view_kept_for_the_process_is_the_one_read_afresh(seed: int) -> None:
    rnd = random.Random(seed)
    template_sampling._view.cache_clear()
    templates = [_random_template(rnd) for _ in range(300)]
    for _ in range(3_000):  # asked again and again, in random order, as every choice asks
        template = rnd.choice(templates)
        assert _view(template) == _view.__wrapped__(template), template


@pytest.mark.parametrize("seed", range(4))
def test_the_views_of_visited_templates_read_with_the_kept_views_are_the_plain_ones(seed: int) -> None:
    rnd = random.Random(seed)
    plain = _view.__wrapped__
    for _ in range(200):
        covered = {_random_template(rnd): rnd.randint(0, 3) for _ in range(rnd.randint(0, 30))}
        views = QueryViews(covered)
        visited = [t for t, n in covered.items() if n > 0]
        assert views.seen == {plain(t) for t in visited}
        for template in [*covered, _random_template(rnd)]:
            seen = covered.get(template, 0)
            assert views.level(template, seen, 2) == _level_as_defined(views, template, seen, 2)


def _level_as_defined(views: QueryViews, template: str, seen: int, samples: int) -> int | None:
    path, keys = _view.__wrapped__(template)
    viewed = ("?" in template or bool(keys)) and views.per_path[path] >= template_sampling.QUERY_VIEWS
    # a new view naming one record under a key no visited view of the path carried is a record's page
    record = names_a_record(template, keys, [k for p, k in views.seen if p == path])
    if viewed and (
        ((path, keys) not in views.seen and not record)
        or ((path, keys) in views.seen and keys and seen >= samples)
    ):
        return 2
    kinds = template_sampling.kind_keys(template)
    if seen == 0 and any(views.kinds[key] >= template_sampling.TEMPLATE_SAMPLE for key in kinds):
        return 1
    return None


_TEXT_CHARS = "ab-_/%=+ .\u00e9\0"


def _random_secrets(rnd: random.Random) -> list[str]:
    # up to 12 secrets: past `_CHECKED_FORMS` forms the scrubber scans with its pattern instead
    return [
        "".join(rnd.choice(_TEXT_CHARS) for _ in range(rnd.randint(2, 9))) for _ in range(rnd.randint(0, 12))
    ]


def _random_text(rnd: random.Random, secrets: list[str]) -> str:
    pieces = [rnd.choice((*secrets, "x", "/", "%2F", " ", "ab", "\0")) for _ in range(rnd.randint(0, 6))]
    text = "".join(pieces)
    start = rnd.randint(0, len(text))
    return text[start : start + rnd.randint(0, 30)]  # a secret cut anywhere, or whole


@pytest.mark.parametrize("seed", range(4))
def test_a_text_holds_none_exactly_when_no_form_of_a_secret_is_in_it(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(300):
        secrets = _random_secrets(rnd)
        scrubber = Scrubber(secrets)
        forms = {f for s in secrets if len(s) >= 4 for f in _forms(s)}
        for _ in range(20):
            text = _random_text(rnd, secrets)
            assert scrubber.holds_none(text) == (not any(f in text for f in forms)), (secrets, text)


def _value(rnd: random.Random, secrets: list[str]) -> Any:
    return rnd.choice((None, 7, 2.5, b"\x00b", _random_text(rnd, secrets), _random_text(rnd, secrets)))


def _rows_as_written(rows: list[tuple[Any, ...]], secrets: list[str], many: bool) -> list[tuple[Any, ...]]:
    db = sqlite3.connect(":memory:", factory=ScrubbingConnection, isolation_level=None)
    db.scrubber = Scrubber(secrets)
    db.execute("CREATE TABLE t (a, b, c)")
    if many:
        db.executemany("INSERT INTO t VALUES (?,?,?)", iter(rows))  # any iterable, as before
    else:
        for row in rows:
            db.execute("INSERT INTO t VALUES (?,?,?)", row)
    written = db.execute("SELECT a, b, c FROM t ORDER BY rowid").fetchall()
    db.close()
    return written


@pytest.mark.parametrize("seed", range(4))
def test_the_rows_of_one_statement_are_written_as_each_scrubbed_alone(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(150):
        secrets = _random_secrets(rnd)
        rows = [tuple(_value(rnd, secrets) for _ in range(3)) for _ in range(rnd.randint(0, 12))]
        plain = [
            tuple(scrubbed_as_defined(secrets, v) if isinstance(v, str) else v for v in row) for row in rows
        ]
        assert _rows_as_written(rows, secrets, many=True) == plain, (secrets, rows)
        assert _rows_as_written(rows, secrets, many=False) == plain, (secrets, rows)


def test_rows_of_other_shapes_are_scrubbed_one_by_one() -> None:
    db = sqlite3.connect(":memory:", factory=ScrubbingConnection, isolation_level=None)
    db.scrubber = Scrubber(["hunter22"])
    db.execute("CREATE TABLE t (a, b)")
    db.executemany("INSERT INTO t VALUES (?,?)", [["hunter22 x", 1], ("y", True)])
    db.executemany("INSERT INTO t VALUES (:a, :b)", [{"a": "pw hunter22", "b": None}])
    db.execute("INSERT INTO t VALUES (:a, :b)", {"a": "hunter22", "b": "z"})
    written = db.execute("SELECT a, b FROM t ORDER BY rowid").fetchall()
    assert written == [(f"{REDACTED} x", 1), ("y", 1), (f"pw {REDACTED}", None), (REDACTED, "z")]


@pytest.mark.parametrize("seed", range(4))
def test_a_nodes_level_kept_per_template_for_a_choice_is_the_one_read_afresh(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(100):
        templates = [_random_template(rnd) for _ in range(rnd.randint(1, 12))]
        nodes = [f"/n/{i}" for i in range(30)]
        of = {q: rnd.choice([*templates, None]) for q in nodes}
        covered = {t: rnd.randint(0, 3) for t in templates if rnd.random() < 0.7}
        views = QueryViews(covered)
        planner = Planner(
            probes=frozenset(rnd.sample(nodes, 3)),
            samples={t: rnd.randint(1, 3) for t in templates if rnd.random() < 0.3},
            saturated=frozenset(t for t in templates if rnd.random() < 0.2),
            variants=frozenset(rnd.sample(nodes, 2)),
            next_pages=frozenset(rnd.sample(nodes, 2)),
        )
        sampled = planner._sampled(of.get, covered, views)
        for _ in range(200):  # nodes asked again and again, in random order, as the searches ask
            q = rnd.choice(nodes)
            assert sampled(q) == _sampled_as_defined(planner, of[q], q, covered, views), (q, of[q])


def _sampled_as_defined(
    planner: Planner, t: str | None, q: str, covered: dict[str, int], views: QueryViews
) -> int:
    if q in planner.probes:
        if q in planner.spent:
            return 3
        # a form sending to a path no visited page has answers with a page type of its own
        return 0 if t is not None and not views.seen_path(t) else 1
    if q in planner.variants or q in planner.next_pages:
        return 0
    return 0 if t is None else planner._sampled_template(t, covered, views)


def _list_items_as_defined(node: Node, min_items: int = 2) -> list[Node] | None:
    """`list_items` for an element other than `ul`/`ol`/`dl`/`table`, as first written: its element
    children, all of one item signature, at least `min_items` of them."""
    children = node.elements
    if node.tag in ("head", "html", "#document", "select", "tr", "p") or len(children) < max(1, min_items):
        return None
    first = item_signature(children[0])
    if not first:
        return None
    if all(item_signature(c) == first for c in children):
        return children
    return None


def _random_list_page(rnd: random.Random) -> str:
    parts = []
    for _ in range(rnd.randint(1, 40)):
        tag = rnd.choice(("div", "li", "article", "section", "p", "span", "a", "tr", "ul"))
        attrs = rnd.choice(("", ' class="card"', ' class="row item"', ' id="post-7"', ' id="x"'))
        text = rnd.choice(("", "t", " ", "\n "))
        close = "" if rnd.random() < 0.4 else f"</{tag}>"
        parts.append(f"<{tag}{attrs}>{text}{close}")
    return "".join(parts)


@pytest.mark.parametrize("seed", range(4))
def test_the_items_of_a_container_are_those_of_the_plain_reading(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(300):
        doc = parse_html(_random_list_page(rnd))
        for node in doc.iter():
            if node.tag in ("ul", "ol", "dl", "table"):
                continue
            for min_items in (0, 1, 2, 3):
                assert list_items(node, min_items) == _list_items_as_defined(node, min_items), node.path()
