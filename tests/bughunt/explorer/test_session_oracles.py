"""What an exploring session gives its oracles beyond the page itself: the routes memory knows."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from bughunt.cli import main
from tests.support.loopback import QuietHandler, serving

SLUG = "tuning-queries-q7k2"
PAGES = {
    "/": f'<h1>Blog</h1><a href="/article/{SLUG}">Tuning queries</a> <a href="/about">About</a>',
    "/about": "<p>About us</p>",
    f"/article/{SLUG}": (
        f'<h1>Tuning queries</h1><ul class="tag-list"><li>sql</li><li>perf</li></ul>'
        f'<a href="/editor/{SLUG}">Edit</a>'
    ),
    # The editor has no link back to its article, and its identifier is a slug, not `/<kind>/<id>`:
    # only a route memory already knows leads from the form to the resource it edits.
    f"/editor/{SLUG}": (
        f'<form method="post" action="/editor/{SLUG}"><input name="title" value="Tuning queries">'
        '<input type="hidden" name="tags" value=""><button>Save</button></form>'
    ),
}


class Handler(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 — the http.server API
        body = PAGES.get(self.path.split("?")[0])
        if body is None:
            self.send_error(404)
            return
        self.reply(200, f"<!doctype html><html><body>{body}</body></html>")


@pytest.fixture
def site() -> Iterator[str]:
    with serving(Handler) as url:
        yield url + "/"


def test_an_edit_form_with_no_link_back_is_compared_with_the_resource_memory_knows(site, tmp_path, capsys):
    argv = [
        "explore",
        "--url",
        site,
        "--store",
        str(tmp_path / "s"),
        "--budget",
        "6",
        "--ignore-robots",
        "--json",
    ]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert f"/editor/{SLUG}" in data["pages_visited"]
    assert [(b["route"], b["kind"]) for b in data["bugs"]] == [(f"/editor/{SLUG}", "form_drops_value")]
