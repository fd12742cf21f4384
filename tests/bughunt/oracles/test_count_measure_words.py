"""Numbers that are no count of a list: a recipe's yield over its ingredients ("6 servings" above three
ingredient lines) and a table's page-size menu ("Rows per page: 5" under an empty table). Made-up
pages, generic markup."""

from __future__ import annotations

import pytest

from bughunt.oracles.count_labels import parse_count
from bughunt.oracles.counts import check_count_mismatch
from tests.support.pages import Site

SITE = Site("http://cook.test", "<html><head><title>Cook</title></head><body>", "</body></html>")


@pytest.mark.parametrize(
    "text", ["6 servings", "Serves 4 portions", "Rows per page: 5", "10 per page", "Items per page (25)"]
)
def test_a_yield_or_a_page_size_is_no_count(text: str) -> None:
    assert parse_count(text) is None


@pytest.mark.parametrize("text", ["3 items", "Ingredients (3)", "Rows: 4"])
def test_counts_stay_counts(text: str) -> None:
    assert parse_count(text) is not None


def test_a_recipe_yield_above_its_ingredients_is_silent() -> None:
    page = SITE.page(
        "<section><h2>Ingredients</h2><div><p>6 servings</p></div>"
        "<ul><li>1 cup lentils</li><li>2 carrots</li><li>1 onion</li></ul></section>",
        "/recipes/lentil-soup-for-two",
    )
    assert check_count_mismatch(page, SITE.fetcher()) == []


def test_a_page_size_menu_under_an_empty_table_is_silent() -> None:
    page = SITE.page(
        "<table><thead><tr><th>Url</th><th>Tags</th></tr></thead><tbody></tbody></table>"
        "<div class='footer'><div>Rows per page: 5</div><div>–</div></div>",
        "/import/bulk",
    )
    assert check_count_mismatch(page, SITE.fetcher()) == []
