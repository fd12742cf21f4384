"""A body the session read is not parsed and read again under another URL (issue 28, perf33): a list's
`?page=1` and its first page, a page an oracle fetched and the step that loads it later, share one
parse and every reading of the tree alone (`page.KeptTrees`, `page.tree_reading`). Counted in parses
and readings, never in time."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import bughunt.page as page_module
from bughunt.dom import Node
from bughunt.explorer.http_engine import HttpEngine
from bughunt.oracles.count_targets import has_cells
from bughunt.oracles.pager_reading import pager_nodes
from bughunt.page import FetchedPage, KeptTrees, tree_reading
from bughunt.tree_facts import tree_facts
from tests.support.loopback import QuietHandler, serving

LIST = (
    "<!doctype html><html><body><h1>Posts</h1><table><tr><td>1</td></tr></table>"
    '<ul class="items"><li><a href="/post/1">One</a></li><li><a href="/post/2">Two</a></li></ul>'
    '<nav class="pagination"><a href="/list?page=2">2</a></nav></body></html>'
)
OTHER = '<!doctype html><html><body><h1>Post</h1><a href="/list">All posts</a></body></html>'


def _page(path: str, body: str = LIST, content_type: str = "text/html") -> FetchedPage:
    url = f"http://site.test{path}"
    return FetchedPage(url, path, 200, {}, content_type, body, 1.0)


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts `FetchedPage` parses, in order."""
    seen: list[str] = []
    parse = page_module.parse_html

    def counted(text: str) -> Node:
        seen.append(text)
        return parse(text)

    monkeypatch.setattr(page_module, "parse_html", counted)
    return seen


def test_a_body_read_under_one_url_is_not_parsed_again_under_another(parses: list[str]) -> None:
    kept = KeptTrees()
    first, again = _page("/list"), _page("/list?page=1")
    kept.share(first)
    facts = tree_facts(first)
    shown, digest = first.visible_text, first.structure_hash
    kept.share(again)
    assert again.document is first.document and tree_facts(again) is facts
    assert (again.visible_text, again.structure_hash) == (shown, digest)
    assert parses == [LIST] and kept.shared == 1
    # what depends on the URL stays the page's own
    assert again.url != first.url and again.base == again.url


def test_readings_of_the_tree_alone_are_shared_and_others_are_not(parses: list[str]) -> None:
    kept = KeptTrees()
    first, again = _page("/list"), _page("/list?page=1")
    for p in (first, again):
        kept.share(p)
    asked: list[str] = []

    def by_url(p: FetchedPage) -> str:
        asked.append(p.url)
        return p.url

    assert pager_nodes(first) == pager_nodes(again) and has_cells(first) == has_cells(again)
    assert first.derived(by_url) != again.derived(by_url) and len(asked) == 2  # not declared: per page
    counted: list[str] = []

    @tree_reading
    def headings(p: FetchedPage) -> int:
        counted.append(p.url)
        return len(p.document.find_all("h1"))

    assert first.derived(headings) == again.derived(headings) == 1
    assert counted == [first.url]  # declared a reading of the tree: once for both pages
    assert parses == [LIST]


def test_another_body_or_a_page_not_html_reads_its_own(parses: list[str]) -> None:
    kept = KeptTrees()
    pages = [_page("/list"), _page("/post/1", OTHER), _page("/feed", LIST, "application/rss+xml")]
    for p in pages:
        kept.share(p)
        p.document  # noqa: B018 — parsed here
    assert parses == [LIST, OTHER, ""]  # a response that is not HTML has an empty tree, as before
    assert pages[2].document.elements == [] and kept.shared == 0


def test_the_kept_trees_are_bounded(parses: list[str]) -> None:
    kept = KeptTrees(pages=2, chars=10_000)
    bodies = [f"<p>{n}</p>" for n in range(3)]
    for n, body in enumerate(bodies):
        p = _page(f"/n/{n}", body)
        kept.share(p)
        p.document  # noqa: B018
    late = _page("/again/0", bodies[0])  # the oldest was dropped: parsed again
    kept.share(late)
    late.document  # noqa: B018
    assert parses == [*bodies, bodies[0]]
    large = _page("/large", "<p>" + "x" * 3_000 + "</p>")  # more than a quarter of the characters kept
    kept.share(large)
    twin = _page("/large?again=1", large.body)
    kept.share(twin)
    assert twin.document is not large.document


class _Handler(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 — the http.server API
        self.reply(200, LIST if self.path.startswith("/list") else OTHER)


@pytest.fixture
def site() -> Iterator[str]:
    with serving(_Handler) as url:
        yield url


def test_the_engine_shares_the_trees_of_what_it_loads(site: str, parses: list[str]) -> None:
    engine = HttpEngine(site + "/", respect_robots=False)
    first = engine.fetch("/list").page
    assert first is not None and first.document.tag == "#document"
    engine.request(site + "/list", method="POST", data={"a": "b"})  # a write: no page is reused, ...
    again = engine.fetch("/list?page=1").page
    assert again is not None and again.document is first.document  # ... but a body is what it is
    assert parses == [LIST]


def test_a_page_reads_one_tree_whichever_lends_it(site: str) -> None:
    """A page loaded again under its URL takes the last page's readings (`LoadedPages`) even when its
    body's kept trees were dropped: its tree, its tree facts and its actions' elements are one tree's."""
    engine = HttpEngine(site + "/", respect_robots=False)
    engine._trees = KeptTrees(pages=1)
    first = engine.fetch("/list").page
    assert first is not None
    tree_facts(first)
    engine.fetch("/post/1")  # another body: the list's tree is dropped from the kept ones
    again = engine.fetch("/list").page
    assert again is not None and again.document is first.document
    assert tree_facts(again).order[0] is again.document
    loose = FetchedPage(first.url, first.route, 200, {}, first.content_type, first.body, 1.0)
    loose.__dict__["_tree"] = page_module.TreeReadings(LIST)  # another reading of the same body
    assert not loose.share_readings(first)  # nothing read off the first page's tree is taken
    assert tree_facts(loose).order[0] is loose.document is not first.document
