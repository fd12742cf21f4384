"""A walk over a list paged by a query key no word list names (`?batch=N`, its pager drawn as glyphs
"◂" / "▸" outside any vocabulary): the planner takes page 2 as the list's next page by its URL, and the
pagination oracle compares it with page 1 by what the page's links do (issue 25)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from bughunt.cli import main
from tests.support.loopback import QuietHandler, serving


def _rows(first: int) -> str:
    return "".join(
        f'<tr><td><a href="/entry/{i}">Entry number {i}</a></td><td>{i * 3} units</td></tr>'
        for i in range(first, first + 5)
    )


def _bar(n: int) -> str:
    back = '<a href="/ledger">◂</a>' if n == 2 else f'<a href="/ledger?batch={n - 1}">◂</a>'
    return f'<div class="bar">{back}<a href="/ledger?batch={n + 1}">▸</a></div>'


def _pages(overlap: bool) -> dict[str, str]:
    second = 5 if overlap else 6  # the faulty slice starts one row early: entry 5 on both pages
    return {
        "/": '<h1>Home</h1><a href="/ledger">Ledger</a>',
        "/ledger": f'<h1>Ledger</h1><table>{_rows(1)}</table><div class="bar"><a href="/ledger?batch=2">▸</a></div>',
        "/ledger?batch=2": f"<h1>Ledger</h1><table>{_rows(second)}</table>{_bar(2)}",
        "/ledger?batch=3": f'<h1>Ledger</h1><table>{_rows(second + 5)}</table><div class="bar"><a href="/ledger?batch=2">◂</a></div>',
    }


def _handler(pages: dict[str, str]) -> type[QuietHandler]:
    class Handler(QuietHandler):
        def do_GET(self) -> None:  # noqa: N802 — the http.server API
            if self.path.startswith("/entry/"):
                self.reply(
                    200, f"<!doctype html><html><body><h1>{self.path}</h1><a href='/'>Home</a></body></html>"
                )
                return
            body = pages.get(self.path)
            if body is None:
                self.send_error(404)
                return
            self.reply(200, f"<!doctype html><html><body>{body}</body></html>")

    return Handler


@pytest.fixture(params=[True, False], ids=["overlap", "correct"])
def site(request: pytest.FixtureRequest) -> Iterator[tuple[str, bool]]:
    with serving(_handler(_pages(request.param))) as url:
        yield url, request.param


def test_a_list_paged_by_an_unnamed_key_is_walked_and_compared(site, tmp_path, capsys):
    url, overlap = site
    argv = ["explore", "--url", url + "/", "--store", str(tmp_path / "s"), "--budget", "5", "--ignore-robots"]
    assert main([*argv, "--policy", "frontier", "--json"]) in (0, 3)
    data = json.loads(capsys.readouterr().out)
    assert any("batch=2" in p for p in data["pages_visited"]), data["pages_visited"]
    found = [b["kind"] for b in data["bugs"] if b["kind"] == "duplicate_pagination"]
    assert found == (["duplicate_pagination"] if overlap else [])
