"""A GET that redirected back to the page it was clicked on (an Activate/Deactivate toggle answered by
the list again, Post/Redirect/Get without the POST) loaded that page anew: its list is the server's
state after the action, not a batch a "More" click appended in place. Compared as appended, the list of
plugins an admin toggles — rows moving between their active and inactive parts, more of them each time
— read as a list repeating its items, a `duplicate_pagination` on the clean build of a CMS. A click in
place that appends the last post shown again still fires (`test_oracles_corpus_rules`)."""

from __future__ import annotations

from dataclasses import replace

from bughunt.oracles.pagination import check_duplicate_pagination
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site("http://app.test", "<html><head><title>t</title></head><body><main>", "</main></body></html>")


def plugins(rows: list[tuple[str, str]]) -> FetchedPage:
    cells = "".join(
        f'<tr class="item"><td><div class="name">{name}</div><div><a href="/admin/{verb.lower()}/{name}">{verb}</a>'
        f"</div></td><td>Plugin {name}.</td></tr>"
        for name, verb in rows
    )
    return SITE.page(f'<table class="table"><tbody>{cells}</tbody></table>', "/admin/plugins")


BEFORE = [("About", "Deactivate"), ("Search", "Activate"), ("Tags", "Activate")]
AFTER = [*BEFORE, ("About", "Deactivate")]  # a row shown twice: read as appended, a repeat


def test_a_list_shown_again_after_a_get_redirected_back_is_no_appended_batch() -> None:
    before = plugins(BEFORE)
    toggled = replace(
        plugins(AFTER),
        clicked_from=(before, "Deactivate"),
        redirects=("http://app.test/admin/deactivate/About",),
    )
    assert check_duplicate_pagination(toggled, None) == []


def test_the_same_list_grown_by_a_click_in_place_is_still_judged() -> None:
    before = plugins(BEFORE)
    grown = replace(plugins(AFTER), clicked_from=(before, "More"))
    assert [f.kind for f in check_duplicate_pagination(grown, None)] == ["duplicate_pagination"]
