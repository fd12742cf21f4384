"""Parsing without recursion or quadratic time, and a bounded number of oracle requests per step."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from bughunt.actions import extract_actions
from bughunt.dom import MAX_DEPTH, parse_html
from bughunt.explorer.http_engine import MAX_ORACLE_FETCHES, HttpEngine
from bughunt.oracles import inspect_page
from bughunt.page import FetchedPage
from bughunt.urls import route_of
from tests.support.loopback import QuietHandler, serving


def page(body: str, url: str = "http://a.test/p") -> FetchedPage:
    return FetchedPage(url, route_of(url), 200, {}, "text/html", body, 0.0)


def depth_of(root) -> int:
    deepest, stack = 0, [(root, 0)]
    while stack:
        node, d = stack.pop()
        deepest = max(deepest, d)
        stack.extend((c, d + 1) for c in node.elements)
    return deepest


@pytest.mark.parametrize("n", [1_000, 100_000])
def test_a_deeply_nested_page_parses_and_every_oracle_runs(n):
    body = "<div>" * n + '<a href="/deep">deep</a><pre class="traceback">Traceback x</pre>' + "</div>" * n
    p = page(body)
    started = time.perf_counter()
    doc = p.document
    assert depth_of(doc) <= MAX_DEPTH + 2
    assert "deep" in doc.text() and p.structure_hash
    assert [a.target for a in extract_actions(p)] == ["http://a.test/deep"]
    inspect_page(p)  # every oracle walks the tree: none may recurse
    assert time.perf_counter() - started < 30


@pytest.mark.parametrize(
    "body",
    [
        "<span>" * 30_000 + "</i>" * 30_000,  # the standard's tree building: O(open elements) per end tag
        "<p>" + "<b>" * 30_000 + "x",
        "</div>" * 100_000,
        "<a>" * 100_000,
        "<" * 300_000 + "a" * 10,
        "<a " * 200_000,
    ],
    ids=["deep-then-stray", "unclosed", "stray", "unclosed-links", "lone-brackets", "unclosed-tags"],
)
def test_hostile_markup_parses_in_linear_time(body):
    started = time.perf_counter()
    parse_html(body)
    assert time.perf_counter() - started < 20.0  # quadratic takes minutes (measured: 90 s+ before)


def test_the_tree_is_the_standard_one():
    doc = parse_html(
        "<div><p>one<p>two</span><ul><li>a<li>b</ul><table><tr><td>x</table><script>if (a < b) {}</script>"
    )
    assert [p.text() for p in doc.find_all("p")] == ["one", "two"]
    assert [n.tag for n in doc.find_all("tbody", "tr", "td")] == ["tbody", "tr", "td"]
    assert doc.find_all("script")[0].raw_text() == "if (a < b) {}"
    script_line = parse_html("<p>a</p>\n\n<script>\nx()</script>").find_all("script")[0].line
    assert script_line == 3


class _Counting(QuietHandler):
    hits: list[str] = []

    def do_GET(self) -> None:  # noqa: N802
        type(self).hits.append(self.path)
        if self.path == "/robots.txt":
            self.send_response(404)
            self.end_headers()
            return
        if self.path == "/many-forms":
            forms = "".join(
                f'<form method="post" action="/item/{i}/save" data-resource="/item/{i}">'
                f'<input name="title" value="t{i}"><input name="tags" value=""></form>'
                for i in range(300)
            )
            body = f"<html><body>{forms}</body></html>"
        else:
            body = "<html><body><p class='tags'>python</p></body></html>"
        self.reply(200, body, "text/html")


@pytest.fixture
def counting_site() -> Iterator[str]:
    _Counting.hits = []
    with serving(_Counting) as url:
        yield url


def test_a_page_with_300_forms_makes_at_most_the_capped_oracle_requests(counting_site):
    fetcher = HttpEngine(counting_site + "/", timeout=5)
    result = fetcher.fetch("/many-forms")
    assert result.outcome == "page" and result.page is not None
    inspect_page(result.page, fetcher.fetch_page)
    oracle_hits = [h for h in _Counting.hits if h.startswith("/item/")]
    assert 1 <= len(oracle_hits) <= MAX_ORACLE_FETCHES == 8
    # The next step has its own allowance.
    fetcher.fetch("/many-forms")
    inspect_page(fetcher.fetch("/many-forms").page, fetcher.fetch_page)
    assert len([h for h in _Counting.hits if h.startswith("/item/")]) <= 2 * MAX_ORACLE_FETCHES


class _Deep(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/robots.txt":
            self.send_response(404)
            self.end_headers()
            return
        n = 1_000 if self.path == "/" else 30_000
        inner = '<a href="/b">b</a><a href="/c">c</a>' if self.path == "/" else "<p>end</p>"
        self.reply(200, f"<html><body>{'<div><span>' * n}{inner}{'</i>' * n}</body></html>", "text/html")


def test_explore_and_resume_a_deeply_nested_site_over_http(tmp_path, capsys):
    import json

    from bughunt.cli import main

    store = str(tmp_path / "store")
    with serving(_Deep) as base:
        url = base + "/"
        started = time.perf_counter()
        assert main(["explore", "--url", url, "--store", store, "--budget", "2", "--json"]) == 0
        first = json.loads(capsys.readouterr().out)
        assert main(["resume", "--store", store, "--budget", "2", "--json"]) == 0
        capsys.readouterr()
        assert time.perf_counter() - started < 30
    assert {"/", "/b"} <= set(first["pages_visited"]) or {"/", "/c"} <= set(first["pages_visited"])
