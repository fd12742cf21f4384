"""An application mounted below the root and routed by its query (`/app/?c=feeds&a=edit&id=3`, the folder's
`index.php`) is a front controller as it would be at the root (issue 25, `route_shapes.front_controller`):
its controller and action words name the page type, so a list's edit pages are a page type of their own,
not more instances of whatever other `?c=…&a=…&id=…` page was opened first."""

from __future__ import annotations

from bughunt.planning import planner_strategy
from bughunt.sim.memory import Memory
from bughunt.sim.rng import mulberry32
from bughunt.sim.route_shapes import front_controller, route_shape

SEEDS = range(1000, 1012)


def test_a_folders_index_routes_by_its_query_as_the_root_does() -> None:
    assert front_controller("/app/") and front_controller("/") and front_controller("/doku.php")
    assert not front_controller("/app")
    assert route_shape("/app/?c=feeds&a=edit&id=3") == "/app/?a=edit&c=feeds&id=<n>"
    assert route_shape("/app/?c=feeds&a=edit&id=3") != route_shape("/app/?c=config&a=query&id=4")
    assert route_shape("/items/?size=25&page=2") == "/items/?page=<n>&size=<n>"


def test_a_lists_edit_pages_are_not_instances_of_another_controllers_record_page() -> None:
    # Two record pages of other controllers (`?c=config&a=query&id=4`, `?c=users&a=show&id=2`) were
    # opened; on the feeds list, its rows' edit pages are a page type not seen yet, taken before one
    # more `?c=` page (linked from two pages, where each edit link is linked from one).
    mem = Memory()
    edits = tuple(f"/app/?c=feeds&a=edit&id={i}" for i in range(1, 7))
    records = ("/app/?c=config&a=query&id=4", "/app/?c=users&a=show&id=2")
    mem.write("/app/", (*records, "/app/?c=feeds", "/app/?c=stats"))
    for r in records:
        mem.write(r, ("/app/",))
    here = (*edits, "/app/?c=stats", "/app/")
    mem.write("/app/?c=feeds", here)
    chosen = {planner_strategy("/app/?c=feeds", here, mem, mulberry32(s)) for s in SEEDS}
    assert chosen and chosen <= set(edits), chosen
