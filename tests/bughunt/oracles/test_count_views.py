"""A list page's link to a view of its own collection, labelled with how many records the view holds
("View archive (3)" in the list's title bar, to the list's address with `?archived=1`), and the view,
opened, listing another number of them at the list's place: the two disagree (issue 25, Heimdall's
"View trash (5)" over a trash of three). Made-up recipe box, generic markup."""

from __future__ import annotations

from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site("http://recipes.test", "<html><head><title>Recipes</title></head><body>", "</body></html>")
LIVE = ["Lentil soup", "Rye bread", "Plum cake", "Green curry"]
ARCHIVED = ["Old stew", "Fig jam", "Barley salad"]


def _table(names: list[str], first: int) -> str:
    rows = "".join(
        f"<tr><td>{name}</td><td><a href='/recipes/{first + n}/edit'>Edit</a></td></tr>"
        for n, name in enumerate(names)
    )
    return f"<table class='list'><thead><tr><th>Name</th><th></th></tr></thead><tbody>{rows}</tbody></table>"


def listing(label: str, place: str = "section") -> FetchedPage:
    link = f"<a href='/recipes?archived=1'>{label}</a>"
    bar = f"<nav>{link}</nav>" if place == "nav" else f"<header><h2>Recipes</h2>{link}</header>"
    return SITE.page(f"<main><section>{bar}{_table(LIVE, 1)}</section></main>", "/recipes")


def view(names: list[str]) -> FetchedPage:
    return SITE.page(
        f"<main><section><header><h2>Archived recipes</h2></header>{_table(names, 20)}</section></main>",
        "/recipes?archived=1",
    )


def test_a_views_count_above_the_records_it_lists_disagrees():
    (finding,) = check_count_mismatch(view(ARCHIVED), SITE.fetcher(listing("View archive (5)")))
    assert finding.kind == "count_mismatch"
    assert (finding.evidence["shown"], finding.evidence["listed"]) == (5, 3)
    assert finding.evidence["label"] == "View archive (5)"


def test_the_count_the_view_lists_is_silent():
    assert check_count_mismatch(view(ARCHIVED), SITE.fetcher(listing("View archive (3)"))) == []


def test_a_count_in_the_pages_menu_is_no_claim_on_the_view():
    assert check_count_mismatch(view(ARCHIVED), SITE.fetcher(listing("Archive (5)", place="nav"))) == []


def test_an_actions_count_is_no_views():
    assert check_count_mismatch(view(ARCHIVED), SITE.fetcher(listing("Delete all (5)"))) == []


class _Session:
    """A fetch answering from the session's copy of the list (`__call__`) or anew (`again`)."""

    def __init__(self, kept: FetchedPage, fresh: FetchedPage) -> None:
        self.kept, self.fresh, self.anew = kept, fresh, 0

    def __call__(self, url: str) -> FetchedPage:
        return self.kept

    def again(self, url: str) -> FetchedPage:
        self.anew += 1
        return self.fresh


def test_the_list_is_read_anew_only_to_confirm_a_disagreement():
    agreeing = _Session(listing("View archive (3)"), listing("View archive (5)"))
    assert check_count_mismatch(view(ARCHIVED), agreeing) == [] and agreeing.anew == 0
    # the walk archived a recipe since it loaded the list: the fresh list's count agrees
    stale = _Session(listing("View archive (2)"), listing("View archive (3)"))
    assert check_count_mismatch(view(ARCHIVED), stale) == [] and stale.anew == 1
    wrong = _Session(listing("View archive (5)"), listing("View archive (5)"))
    (finding,) = check_count_mismatch(view(ARCHIVED), wrong)
    assert finding.evidence["shown"] == 5 and wrong.anew == 1
