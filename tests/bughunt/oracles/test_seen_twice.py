"""A state change on a GET opened after the walk is reported only when its effect is seen twice
(`bughunt.oracles.seen_twice`): a count that moved between the walk's load of the page and the
opening (something else changed it) is kept on a reload, but a second opening of a read-only view
does not move it again; a real counter steps again; a page that counts its own loads moves on the
reload as well. The site is a small task board of our own, answering like a query controller's
`?op=…&id=…` links."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from bughunt.oracles import ORACLES, OracleConfig
from bughunt.page import FetchedPage
from tests.support.pages import Site

ORIGIN = "http://board.test"

_page = Site(ORIGIN, "<html><body><main>", "</main></body></html>").page


class Board:
    """A board page with its open tasks, a vote tally and (optionally) a count of its own loads; a
    "Recount" link that only shows a report (`?op=recount&id=1`) and an "Upvote" link that adds a
    vote on a GET (`?op=upvote&id=1`). Both answer the board page."""

    def __init__(self, *, counts_loads: bool = False) -> None:
        self.open_tasks = 5
        self.votes = 2
        self.loads = 0
        self.counts_loads = counts_loads
        self.asked: list[str] = []

    def board(self) -> FetchedPage:
        self.loads += 1
        seen = f"<p>Seen {self.loads} times</p>" if self.counts_loads else ""
        body = (
            f"<h1>Board</h1><p>Open tasks: {self.open_tasks}</p>{seen}<p>Votes: {self.votes}</p>"
            '<a href="/board.php?op=recount&amp;id=1">Recount</a> '
            '<a href="/board.php?op=upvote&amp;id=1">Upvote</a>'
        )
        return _page(body, "/board.php")

    def __call__(self, url: str) -> FetchedPage:
        self.asked.append(url)
        op = parse_qs(urlsplit(url).query).get("op", [""])[0]
        if op == "upvote":
            self.votes += 1
        return self.board()


def _opened(page: FetchedPage, site: Board) -> list:
    config = OracleConfig(allow_destructive=True, opened_destructive={}, max_destructive=1)
    return ORACLES["unconfirmed_destructive"](page, site, config)


def test_a_count_another_change_moved_since_the_page_was_loaded_is_no_effect_of_a_view():
    site = Board()
    walked = site.board()
    site.open_tasks += 1  # something else (another opening, another user) moved a count since
    found = _opened(walked, site)
    assert [f for f in found if f.kind == "unsafe_get"] == []
    # the recount was opened a second time, and the board reloaded after each opening
    recounts = [u for u in site.asked if "op=recount" in u]
    assert len(recounts) == 2, site.asked


def test_a_real_counter_steps_again_and_is_reported():
    site = Board()
    walked = site.board()
    config = OracleConfig(allow_destructive=True, opened_destructive={}, max_destructive=2)
    found = ORACLES["unconfirmed_destructive"](walked, site, config)
    upvotes = [f for f in found if f.kind == "unsafe_get" and "op=upvote" in f.route]
    assert len(upvotes) == 1 and not upvotes[0].suspected
    assert site.votes == 4  # opened twice: the tally stepped again


def test_a_page_that_counts_its_own_loads_moves_on_the_reload_too():
    site = Board(counts_loads=True)
    walked = site.board()
    found = _opened(walked, site)
    assert [f for f in found if f.kind == "unsafe_get"] == []


def test_an_effect_that_could_not_be_seen_again_settles_nothing():
    # the board stops answering after the upvote and the page's reload: the reload that would show
    # the count kept fails, so nothing is reported and the template is left for another record
    class Failing(Board):
        def __call__(self, url: str) -> FetchedPage:
            upvoted = [u for u in self.asked if "op=upvote" in u]
            if upvoted and len(self.asked) - self.asked.index(upvoted[0]) >= 2:
                raise OSError("the site stopped answering")
            return super().__call__(url)

    site = Failing()
    walked = site.board()
    ledger: dict = {}
    config = OracleConfig(allow_destructive=True, opened_destructive=ledger, max_destructive=2)
    found = ORACLES["unconfirmed_destructive"](walked, site, config)
    assert [f for f in found if f.kind == "unsafe_get"] == []
    assert site.votes == 3 and not any("upvote" in opened.url for opened in ledger.values())
