"""`ViewIndex` reads the walk's steps a batch at a time and keeps the same families as reading them
all at once (`ViewFamilies.of`), also when a later step makes a page clicked earlier a view."""

from __future__ import annotations

from bughunt.explorer.templates import CLICK_MARK
from bughunt.explorer.view_families import ViewFamilies, ViewIndex

CLICKS = {
    f"/app{CLICK_MARK}1": ("/app#/items?sort=title", "th:nth-child(1)"),
    f"/app{CLICK_MARK}2": ("/app#/items?sort=date", "th:nth-child(2)"),
    f"/app{CLICK_MARK}3": ("/app#/items?sort=created", "th:nth-child(1)"),
    f"/app{CLICK_MARK}4": ("/app#/items?sort=title", "th:nth-child(3)"),
}
STEPS = [
    (f"/app{CLICK_MARK}1", "/app#/items?sort=title", "page"),  # a click staying on its view
    (f"/app{CLICK_MARK}2", "/app#/items?sort=date", "page"),
    (f"/app{CLICK_MARK}3", "/app#/items?sort=title", "page"),  # `sort=created` sorts to a view: joins
    (f"/app{CLICK_MARK}4", "/app#/items?sort=size", "page"),
    ("/about", "/about", "page"),
]


def _placed(selector: str) -> str:
    return selector


def test_read_in_batches_is_read_at_once():
    whole = ViewFamilies.of(STEPS, CLICKS.get, _placed)
    for cut in range(len(STEPS) + 1):
        index = ViewIndex()
        index.add(STEPS[:cut], CLICKS.get, _placed)
        index.add(STEPS[cut:], CLICKS.get, _placed)
        assert index.families == whole, cut
    assert whole.roots and whole.tried_elsewhere("/app#/items?sort=created", "th:nth-child(1)", _placed)
