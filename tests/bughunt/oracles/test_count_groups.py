"""Lanes that each count their own cards with a bare number (`oracles/count_groups.py`): read only on a
click state whose page before showed every lane's number equal to its cards; a lane whose number then
disagrees with its cards is `count_mismatch`. Pages here are made up."""

from __future__ import annotations

from dataclasses import replace

from bughunt.oracles.count_groups import group_mismatches
from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage

ORIGIN = "http://board.test"


def _lane(name: str, count: int, cards: int) -> str:
    items = "".join(f"<div class='card'><p>{name} card {i}</p></div>" for i in range(cards))
    return (
        f"<section class='lane'><div class='head'><strong>{name}</strong><span>{count}</span></div>"
        f"<div class='cards'>{items}</div></section>"
    )


def _page(route: str, lanes: list[tuple[str, int, int]]) -> FetchedPage:
    body = (
        "<input placeholder='Search'><div class='lanes'>" + "".join(_lane(*lane) for lane in lanes) + "</div>"
    )
    html = f"<!doctype html><html><head><title>Board</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + route, route, 200, {}, "text/html", html, 1.0)


WHOLE = [("Todo", 5, 5), ("Doing", 3, 3), ("Shipped", 4, 4)]


def _after(lanes: list[tuple[str, int, int]], before: list[tuple[str, int, int]] = WHOLE) -> FetchedPage:
    return replace(_page("/#click-1", lanes), clicked_from=(_page("/", before), "Maple"))


def test_a_counter_left_at_the_whole_lane_beside_filtered_cards_disagrees() -> None:
    after = _after([("Todo", 5, 2), ("Doing", 3, 1), ("Shipped", 4, 4)])
    assert [(b.text(), shown, listed) for b, shown, listed in group_mismatches(after)] == [
        ("5", 5, 2),
        ("3", 3, 1),
    ]
    assert [f.kind for f in check_count_mismatch(after)] == ["count_mismatch"]


def test_counters_redrawn_with_their_lanes_agree() -> None:
    assert check_count_mismatch(_after([("Todo", 2, 2), ("Doing", 1, 1), ("Shipped", 0, 0)])) == []


def test_numbers_that_did_not_count_the_lanes_before_are_not_read() -> None:
    # before the click one lane's number already differed: the numbers count something else
    before = [("Todo", 9, 5), ("Doing", 3, 3), ("Shipped", 4, 4)]
    assert group_mismatches(_after([("Todo", 9, 2), ("Doing", 3, 1), ("Shipped", 4, 4)], before)) == []


def test_a_loaded_page_is_not_read() -> None:
    assert group_mismatches(_page("/", [("Todo", 5, 2), ("Doing", 3, 1), ("Shipped", 4, 4)])) == []


def test_one_group_proves_nothing() -> None:
    assert group_mismatches(_after([("Todo", 5, 2)], [("Todo", 5, 5)])) == []
