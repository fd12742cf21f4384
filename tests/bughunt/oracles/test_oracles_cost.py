"""What the oracles read once per page gives the answers a fresh reading gives (issue 28: cheaper, not
different), and no oracle's cost grows with memory or with the findings memory holds."""

from __future__ import annotations

from typing import Any

import pytest

from bughunt.dom import Node
from bughunt.explorer import inspection
from bughunt.oracles import OracleConfig, form_pages
from bughunt.oracles.count_labels import _count_labels, parse_count
from bughunt.oracles.item_identity import identities, item_facts
from bughunt.oracles.list_finding import _PAGER_TEXT, find_lists, is_pager
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://app.test"


def page(body: str, path: str = "/") -> FetchedPage:
    html = f"<html><head><title>t</title></head><body>{body}</body></html>"
    url = ORIGIN + path
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


LABELS = """
<h2>Comments (3)</h2><ul><li>a</li><li>b</li></ul>
<div><span>Followers</span> <b>(2)</b><script>var n = 12;</script></div>
<p>12 articles<template><i>99 hidden</i></template></p>
<div class="stats"><span>3 comments</span><span>Likes (4)</span></div>
<div>Tags [7] and far more words than any label holds, so long that no count is read here at all</div>
<section><h3>Replies (2)</h3><h3>Views (9)</h3><em>5 posts</em></section>
<ol><li>1 item<span>(ignored)</span></li></ol>
"""


def _naive_labels(doc: Node) -> list[tuple[Node, str, int]]:
    """The count labels as every element's own `short_text` reads them (the reading before issue 28)."""
    found = []
    for node in doc.iter():
        if node.tag in ("script", "style", "title", "option", "#document", "html", "body"):
            continue
        text = node.short_text(60)
        parsed = parse_count(text) if text is not None else None
        if parsed and not any(parse_count(c.text()) for c in node.elements):
            found.append((node, *parsed))
    return found


def test_count_labels_read_bottom_up_are_those_each_element_reads_alone() -> None:
    p = page(LABELS)
    got = _count_labels(p)
    assert got == _naive_labels(p.document)
    assert {(noun, n) for _, noun, n in got} >= {
        ("Comments", 3),
        ("articles", 12),
        ("Likes", 4),
        ("posts", 5),
    }


POSTS = """
<div class="feed">
  <div class="post"><a href="/u/ann">ann</a><p>First words</p><a href="/post/7#comments">0 Comments</a></div>
  <div class="post"><a href="/u/ann">ann</a><p>Other words</p><a href="/post/8">0 Comments</a></div>
  <div class="post"><h3><a href="/post/9">Titled</a></h3><a href="/post/9/edit">Edit</a></div>
  <div class="post"><p>No link, a unique text</p></div>
  <div class="post"><button>Load more</button></div>
</div>
"""


def test_identities_kept_per_page_are_those_read_afresh() -> None:
    p = page(POSTS)
    items = next(items for container, items in find_lists(p.document) if container.get("class") == "feed")
    fresh = identities(items, p.base)
    memo = item_facts(p)
    assert identities(items, p.base, memo) == fresh
    assert len(memo) == len(items)
    # a second list holding some of the same items reads them from the memo, with the same answers
    assert identities(items[:2], p.base, memo) == identities(items[:2], p.base)
    assert fresh[:3] == [{f"href:{ORIGIN}/post/7"}, {f"href:{ORIGIN}/post/8"}, {f"href:{ORIGIN}/post/9"}]
    assert fresh[4] == set()  # the "Load more" row is the list's control


@pytest.mark.parametrize(
    "texts",
    [
        ["1", "2", "3", "Next"],
        ["a", "b", "1"],
        ["1", "a"],
        ["a", "1"],
        ["« Prev", "a", "b", "c"],
        ["a"],
        ["2"],
    ],
)
def test_a_pager_decided_early_is_the_one_all_its_items_decide(texts: list[str]) -> None:
    p = page("<div>" + "".join(f'<span class="x">{t}</span>' for t in texts) + "</div>")
    container = next(n for n in p.document.iter() if n.tag == "div")
    items = container.elements
    every = sum(bool(_PAGER_TEXT.match(i.text())) for i in items) * 2 >= len(items)
    assert is_pager(container, items) is every


def test_an_edit_page_does_not_parse_memory_routes_without_its_identifier(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[str] = []
    from bughunt.oracles.destructive_words import destructive_action as real

    def counted(url: str) -> str | None:
        asked.append(url)
        return real(url)

    monkeypatch.setattr(form_pages, "destructive_action", counted)
    known = [f"/item/{n}" for n in range(5000)] + ["/article/how-to-k2p9"]
    edit = page("<form method='post'><input name='title' value='x'></form>", "/editor/how-to-k2p9")
    urls = form_pages.by_identifier(edit, OracleConfig(known_routes=lambda: known))
    assert urls == [f"{ORIGIN}/article/how-to-k2p9"]
    assert len(asked) < 10  # the 5,000 routes without the identifier are passed over by text


class _Graph:
    """What `inspection.inspect` asks of memory, counting reads of its bugs."""

    app_version = "1"

    def __init__(self) -> None:
        self.bug_reads = 0
        self.route_reads = 0

    def known_pages(self) -> list[str]:
        return []

    def linking_to(self, route: str) -> list[str]:
        return []

    def is_state(self, route: str) -> bool:
        return False

    def live_bugs(self) -> list[Any]:
        self.bug_reads += 1
        return []

    def bug_routes(self, fingerprints: list[str], limit: int) -> dict[str, list[str]]:
        self.route_reads += 1
        return {}


class _Engine:
    def route_of(self, url: str) -> str | None:
        return route_of(url)

    def followable(self, route: str) -> bool:
        return True

    def reuse_page(self, url: str, version: str | None) -> FetchedPage | None:
        return None

    def fetch_page(self, url: str, referer: str | None = None) -> FetchedPage:
        raise OSError("offline")


def test_memory_bugs_are_read_only_for_a_finding_to_join() -> None:
    graph = _Graph()
    quiet = page("<p>nothing wrong here</p>")
    assert inspection.inspect(quiet, _Engine(), graph, allow_destructive=False).findings == []  # type: ignore[arg-type]
    assert graph.bug_reads == graph.route_reads == 0
    broken = FetchedPage(ORIGIN + "/x", "/x", 500, {}, "text/html", "<h1>Error</h1>", 1.0)
    found = inspection.inspect(broken, _Engine(), graph, allow_destructive=False).findings  # type: ignore[arg-type]
    assert [f.kind for f in found] == ["server_error"]
    assert graph.bug_reads == graph.route_reads == 1


def test_the_previous_page_address_is_read_once_per_page(monkeypatch: pytest.MonkeyPatch) -> None:
    # The pagination oracle and the count oracle's empty-page check both ask a list page for the
    # page before it: its links are read once, the second answer is the first.
    from bughunt.oracles import pagination

    read: list[FetchedPage] = []
    plain = pagination._previous_page_url

    def counted(p: FetchedPage) -> str | None:
        read.append(p)
        return plain(p)

    monkeypatch.setattr(pagination, "_previous_page_url", counted)
    body = '<ul><li><a href="/p/1">a</a></li><li><a href="/p/2">b</a></li></ul>'
    body += '<nav class="pagination"><a href="/list?page=1">1</a><a href="/list?page=3">3</a></nav>'
    p = page(body, "/list?page=2")
    assert pagination.previous_page_url(p) == ORIGIN + "/list?page=1"
    assert pagination.previous_page_url(p) == ORIGIN + "/list?page=1"
    assert read == [p]


@pytest.mark.parametrize(
    "urls",
    [
        [ORIGIN + "/post/1", ORIGIN + "/post/2?ref=x"],
        [ORIGIN + "/post/1?next=/l", ORIGIN + "/post/2?next=/l", None],
        [ORIGIN + "/p?id=1&back=%2Fl", ORIGIN + "/p?id=2&back=%2Fl"],
        [ORIGIN + "/p?id=1", ORIGIN + "/p?id=1&x=2"],
        [None, ORIGIN + "/post/7", ORIGIN + "/post/8"],
    ],
)
def test_permalinks_lose_only_the_pairs_all_of_them_carry(urls: list[str | None]) -> None:
    # The shortcut (a first permalink without pairs shares none) gives the plain definition's answer.
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    from bughunt.oracles.item_identity import _without_list_values

    present = [u for u in urls if u]
    queries = [dict(parse_qsl(urlsplit(u).query, keep_blank_values=True)) for u in present]
    shared = {k for k, v in queries[0].items() if all(q.get(k) == v for q in queries[1:])}
    plain: list[str | None] = []
    for url in urls:
        if url is None:
            plain.append(None)
            continue
        parts = urlsplit(url)
        pairs = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k not in shared]
        plain.append(urlunsplit(parts._replace(query=urlencode(pairs))) if shared else url)
    kept = [u for u in plain if u]
    assert _without_list_values(urls) == (plain if len(set(kept)) == len(kept) else urls)


def test_a_page_without_table_cells_is_not_walked_for_count_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    # A count cell and a row count are each a link inside a `td`: on a page with no cell at all, no
    # link is walked up to the root looking for one.
    from bughunt.oracles import count_rows, count_targets

    def walked(doc: Node) -> list[tuple[Node, str]]:
        raise AssertionError("the page's links were read")

    monkeypatch.setattr(count_rows, "targets", walked)
    monkeypatch.setattr(count_targets, "targets", walked)
    p = page('<ul><li><a href="/tag/1">12</a> <span>3</span></li><li><a href="/tag/2">7</a></li></ul>')
    assert count_rows.row_counts(p) == []
    assert count_targets.count_cells(p) == []
    assert count_targets.has_cells(page("<table><tr><th>n</th></tr></table>"))
