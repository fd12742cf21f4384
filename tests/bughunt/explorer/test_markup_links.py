"""A record whose stored text holds markup is opened from the list that shows it (issue 25,
`bughunt.explorer.markup_links`): a tracker's list escapes an issue's subject pasted with a
`<script>` in it, the issue's own page prints it raw in its heading. The issue is one instance of a
page type the walk samples with the first rows; its row's text makes it the one to open, so the
walk opens it right after the list and the stored script is reported. Plain subjects mark nothing."""

from __future__ import annotations

import html
import json
from collections.abc import Iterator

import pytest

from bughunt.cli import main
from bughunt.explorer.markup_links import shows_markup
from tests.support.loopback import QuietHandler, serving

_PASTED = 17
_ISSUES = range(1, 25)


def _subject(n: int) -> str:
    return (
        "Console shows <script>alert('pasted')</script> on load"
        if n == _PASTED
        else f"Search ignores accents #{n}"
    )


def _nav() -> str:
    return '<ul class="menu"><li><a href="/">Home</a></li><li><a href="/issues">Issues</a></li><li><a href="/news">News</a></li></ul>'


def _list() -> str:
    rows = "".join(
        f'<tr><td class="id"><a href="/issues/{n}">{n}</a></td>'
        f'<td class="subject"><a href="/issues/{n}">{html.escape(_subject(n))}</a></td></tr>'
        for n in _ISSUES
    )
    return f'<h2>Issues</h2><table class="list issues">{rows}</table>'


def _issue(n: int) -> str:
    # the heading prints the subject unescaped (the planted bug); the rest of the page escapes it
    return (
        f'<h2>Bug #{n}</h2><div class="subject"><h3>{_subject(n)}</h3></div>'
        f'<p class="author">Added by <a href="/users/{n % 3 + 1}">someone</a></p>'
        f'<div class="description"><p>Steps to reproduce item {n}.</p></div>'
    )


class _Handler(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 — the http.server API
        path = self.path.partition("?")[0]
        if path == "/":
            body = "<h2>Home</h2><p>Welcome.</p>"
        elif path == "/issues":
            body = _list()
        elif path.startswith("/issues/") and path[8:].isdigit() and int(path[8:]) in _ISSUES:
            body = _issue(int(path[8:]))
        elif path in ("/news", "/users/1", "/users/2", "/users/3"):
            body = f"<h2>{path}</h2><p>Nothing here yet.</p>"
        else:
            self.send_error(404)
            return
        self.reply(
            200, f"<!doctype html><html><head><title>T</title></head><body>{_nav()}{body}</body></html>"
        )


@pytest.fixture
def site() -> Iterator[str]:
    with serving(_Handler) as url:
        yield url


def test_the_record_whose_listed_subject_shows_markup_is_opened_from_the_list(site, tmp_path, capsys):
    argv = ["explore", "--url", site + "/", "--store", str(tmp_path / "s"), "--budget", "6"]
    assert main([*argv, "--ignore-robots", "--policy", "planner", "--json"]) in (0, 3)
    out = json.loads(capsys.readouterr().out)
    visited = out["pages_visited"]
    listed = visited.index("/issues")
    assert visited[listed + 1] == f"/issues/{_PASTED}", visited
    assert "unescaped_script" in json.dumps(out["bugs"]), out["bugs"]


def test_only_elements_and_handlers_written_as_text_mark_a_link() -> None:
    assert shows_markup("Console shows <script>alert(1)</script> on load")
    assert shows_markup('copied from the log: <img src=x onerror="document.title=1"> see above')
    assert not shows_markup("Use <b>bold</b> and a < b comparisons")
    assert not shows_markup("Scripting the onload handler (#12)")
