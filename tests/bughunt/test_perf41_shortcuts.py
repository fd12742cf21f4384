"""Shortcuts of Session 41's pass (issue 28, the steady cost a step): each answers what the plain
definition it replaces answers."""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path

from bughunt import fingerprint
from bughunt.dom import Node, parse_html
from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.store.rows import Observation, Step, row_as, rows_as
from bughunt.oracles.list_finding import (
    _CUSTOM_ELEMENT,
    _linked_heading,
    component_host,
    find_lists,
    item_runs,
    item_signature,
    list_items,
)

_TAG_CHARS = "ab-_.9"


def test_a_component_host_is_what_the_custom_element_pattern_matches() -> None:
    rnd = random.Random(41)
    tags = ["div", "app-card", "x-", "-a", "a-b-c", "sl_card", "a.b-c", "9-a", "todo-item", "my-Item"]
    tags += ["".join(rnd.choice(_TAG_CHARS) for _ in range(rnd.randint(1, 6))) for _ in range(2000)]
    for tag in tags:
        assert component_host(Node(tag)) is bool(_CUSTOM_ELEMENT.match(tag)), tag


def test_a_segments_words_are_split_as_the_plain_split_splits_them() -> None:
    rnd = random.Random(41)
    for _ in range(2000):
        segment = "".join(rnd.choice("ab1-_.x9/") for _ in range(rnd.randint(0, 12)))
        assert fingerprint._WORD_BREAK.split(segment) == re.split(r"[-_.]", segment), segment


def test_the_moves_after_a_step_are_those_steps_route_final_route_and_outcome(tmp_path: Path) -> None:
    store = ExplorerStore(tmp_path / "s")
    try:
        session, _ = store.history.start_session("planner", "http://x/", 3)
        with store.transaction():
            for n, (route, final, outcome) in enumerate(
                [("/", "/", "page"), ("/a", "/b", "page"), ("/c", None, "error"), ("/d", "/d", "fragment")], 1
            ):
                store.history.add_step(
                    session, route=route, final_route=final, outcome=outcome, status=200, detail="",
                    app_version="1.0", tokens=n, repeat=0, at=float(n),
                )  # fmt: skip
        for after in range(5):
            expected = [
                (s.n, s.route, s.final_route, s.outcome) for s in store.history.steps() if s.n > after
            ]
            assert store.history.moves_after(after) == expected
    finally:
        store.close()


def test_a_row_becomes_its_record_flags_as_bools_unknown_columns_left_and_missing_ones_defaulted() -> None:
    db = sqlite3.connect(":memory:")
    db.row_factory = sqlite3.Row
    row = db.execute(
        "SELECT 3 AS id, 'hello' AS text, '{}' AS provenance, 1 AS quarantined, NULL AS step,"
        " 1.5 AS at, 2.5 AS last_used_at, 'x' AS unknown"
    ).fetchone()
    made = row_as(Observation, row)
    fields = (made.id, made.text, made.provenance, made.quarantined, made.step, made.at, made.last_used_at)
    assert fields == (3, "hello", "{}", True, None, 1.5, 2.5)
    assert made.quarantined is True
    step = db.execute(
        "SELECT 7 AS n, 1 AS session_id, '/a' AS route, NULL AS final_route, 'page' AS outcome,"
        " 200 AS status, '' AS detail, NULL AS app_version, 4 AS tokens, 0 AS repeat, 2 AS retest,"
        " NULL AS elapsed_ms, 9.0 AS at"
    ).fetchall()
    (read,) = rows_as(Step, step)
    assert (read.n, read.repeat, read.retest, read.tokens) == (7, False, True, 4)


_LIST_MARKUP_TAGS = (
    "div",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "table",
    "tr",
    "td",
    "p",
    "a",
    "h3",
    "section",
)


def _random_lists(rnd: random.Random) -> str:
    parts = []
    for _ in range(rnd.randint(0, 90)):
        tag = rnd.choice(_LIST_MARKUP_TAGS)
        r = rnd.random()
        if r < 0.4:
            parts.append(f'<{tag} class="c{rnd.randint(0, 2)}">')
        elif r < 0.7:
            parts.append(f"</{tag}>")
        elif r < 0.8:
            parts.append(rnd.choice(("x", " ", '<a href="/a">a</a>', "<br>", "12")))
        else:
            parts.append(f"<{tag}>x</{tag}>")
    return "".join(parts)


def test_the_lists_found_are_those_of_every_element_asked() -> None:
    rnd = random.Random(41)
    for _ in range(400):
        root = parse_html(_random_lists(rnd))
        plain = [(node, items) for node in root.iter() if (items := list_items(node)) is not None]
        assert find_lists.__wrapped__(root) == plain


def _plain_item_runs(root: Node) -> list[tuple[Node, str, list[Node]]]:
    runs: list[tuple[Node, str, list[Node]]] = []
    for node in root.iter():
        if node.tag in ("ul", "ol", "table"):
            items = list_items(node)
            if items:
                runs.append((node, "tr" if node.tag == "table" else "li", items))
            continue
        if node.tag in ("head", "html", "#document", "select", "tr", "p"):
            continue
        groups: dict[str, list[Node]] = {}
        for child in node.elements:
            if sig := item_signature(child) or _linked_heading(child):
                groups.setdefault(sig, []).append(child)
        runs += [(node, sig, items) for sig, items in groups.items() if len(items) >= 2]
    return runs


def test_the_item_runs_found_are_those_of_every_element_asked() -> None:
    rnd = random.Random(41)
    for _ in range(400):
        root = parse_html(_random_lists(rnd))
        assert item_runs.__wrapped__(root) == _plain_item_runs(root)
