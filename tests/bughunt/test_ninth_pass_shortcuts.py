"""Shortcuts of the ninth pass over the step's path (issue 28): each answers what the plain definition
it replaces answers, tested on random input against that definition."""

from __future__ import annotations

import random

import pytest

from bughunt.sim import template_sampling
from bughunt.sim.template_sampling import QueryViews, _view

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
    if viewed and ((path, keys) not in views.seen or (keys and seen >= samples)):
        return 2
    kinds = template_sampling.kind_keys(template)
    if seen == 0 and any(views.kinds[key] >= template_sampling.TEMPLATE_SAMPLE for key in kinds):
        return 1
    return None
