"""Two ways a walk spent its clicks on a version-control browser of server-rendered lists (issue 25, held-out
set 17): its lists' "less"/"more" links (`?revcount=10`, `?revcount=40`: the same list, shorter or longer)
took 39 of 100 clicks, each a "new" page type; and the search box on every page was never sent, its
results page (linked from no page) waiting behind every page's own links.

A view of a path already seen that only sets how many rows its list shows is the same records again
(`template_sampling.QueryViews.level` 2, `pager_links.is_size_key`); a GET form sending to a path no
visited page has is a page type of its own, opened as soon as it is wanted (`Planner` probes).

The site is a small change log of our own: a list of changes with less/more links, each change's page,
and a search box on every page sending to `/search`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest

from bughunt.cli import main
from bughunt.sim.pager_links import is_size_key
from bughunt.sim.template_sampling import QueryViews
from tests.support.loopback import QuietHandler, serving

_SEARCH = '<form class="search" action="/search"><input name="q" type="text" value=""></form>'
_CHANGES = 6


def _change_list(length: int) -> str:
    rows = "".join(
        f'<tr><td><a href="/change/{n}">Change {n} to the parser</a></td><td>alice</td></tr>'
        for n in range(1, min(length, _CHANGES) + 1)
    )
    pager = f'<a href="/changes?revcount={max(1, length // 2)}">less</a> <a href="/changes?revcount={length * 2}">more</a>'
    return f"<h1>Changes</h1><p>{pager}</p><table>{rows}</table>"


class _Handler(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 — the http.server API
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        if parts.path == "/":
            body = '<h1>Home</h1><p><a href="/changes">Changes</a> <a href="/about">About</a></p>'
        elif parts.path == "/changes":
            body = _change_list(int(query.get("revcount", ["10"])[0]))
        elif parts.path.startswith("/change/"):
            n = parts.path.rpartition("/")[2]
            body = f'<h1>Change {n}</h1><p><a href="/changes">all changes</a> <a href="/change/{n}/diff">diff</a></p>'
        elif parts.path == "/search":
            words = query.get("q", [""])[0]
            body = f"<h1>Results for {words}</h1>{_change_list(3)}"
        elif parts.path == "/about" or parts.path.endswith("/diff"):
            body = "<h1>About</h1><p>A change log.</p>"
        else:
            self.send_error(404)
            return
        self.reply(200, f"<!doctype html><html><body>{_SEARCH}{body}</body></html>")


@pytest.fixture
def site() -> Iterator[str]:
    with serving(_Handler) as url:
        yield url


def _walk(site: str, tmp_path, capsys, budget: int) -> list[str]:
    argv = ["explore", "--url", site + "/", "--store", str(tmp_path / "s"), "--budget", str(budget)]
    assert main([*argv, "--ignore-robots", "--policy", "planner", "--json"]) in (0, 3)
    return json.loads(capsys.readouterr().out)["pages_visited"]


def test_a_lists_other_lengths_wait_behind_its_records(site, tmp_path, capsys):
    visited = _walk(site, tmp_path, capsys, 12)
    lengths = [i for i, p in enumerate(visited) if "revcount=" in p]
    changes = [i for i, p in enumerate(visited) if p.startswith("/change/") and "/diff" not in p]
    assert len(changes) >= 3, visited
    assert not lengths or min(lengths) > max(changes), visited


def test_the_search_box_on_every_page_is_sent_early(site, tmp_path, capsys):
    visited = _walk(site, tmp_path, capsys, 6)
    assert any(p.startswith("/search?q=") for p in visited[:3]), visited


def test_size_keys_are_named_as_how_many_rows():
    for key in ("revcount", "limit", "per_page", "pageSize", "page_size", "items-limit", "length", "count"):
        assert is_size_key(key), key
    for key in ("page", "p", "q", "rev", "sort", "offset", "pages"):
        assert not is_size_key(key), key


def test_another_length_of_a_seen_view_is_the_same_state_again():
    views = QueryViews({"/changes": 1, "/log?author=<slug>": 1})
    assert views.level("/changes?revcount=<n>", 0, 2) == 2
    assert views.level("/log?author=<slug>&limit=<n>", 0, 2) == 2
    # a new view with a length is still a new view (a filter never seen)
    assert views.level("/log?branch=<slug>&limit=<n>", 0, 2) is None
    # a length key with a word is no length
    assert views.level("/changes?revcount=<slug>", 0, 2) is None
