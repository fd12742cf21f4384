"""A site whose links separate query pairs with `;` (CGI.pm's style, gitweb's `?p=repo.git;a=commit;h=<sha>`;
HTML 4.01 §B.2.2 asked servers to accept it): every page is a `?p=` of one script, and what the page *is*
(`a=summary`, `a=tree`, `a=blob`) is the second pair. Read with `&` as the only separator, every page was
one page type (`?p=<slug>`): gitweb's walk (Debian's gitweb over this repository) ended `done` after 12 of
100 clicks with 581 pages known, and walks 100 clicks now. The walk below passes either way (this small
site does not make the planner give up); the shapes are what failed."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qsl, urlsplit

import pytest

from bughunt.sim.route_keys import query_pairs
from bughunt.sim.route_shapes import route_shape
from tests.support.loopback import QuietHandler, serving

PROJECT = "main.git"
FILES = [f"file{n}.c" for n in range(12)]


def _link(label: str, **pairs: str) -> str:
    return f'<a href="/repo.cgi?{";".join(f"{k}={v}" for k, v in pairs.items())}">{label}</a>'


SEARCH = (
    f'<form method="get" action="/repo.cgi"><input type="hidden" name="p" value="{PROJECT}">'
    '<input type="hidden" name="a" value="search"><input name="s"><button>Search</button></form>'
)


def _page(action: str, asked: dict[str, str]) -> str | None:
    if action == "summary":
        return f"<h1>{PROJECT}</h1>{_link('log', p=PROJECT, a='log')} {_link('tree', p=PROJECT, a='tree')}{SEARCH}"
    if action == "search":
        return "<h1>Search</h1><p>No match.</p>"
    if action == "log":
        return "<h1>Log</h1><ul>" + "".join(f"<li>commit {n}</li>" for n in range(5)) + "</ul>"
    if action == "tree":
        return "<h1>Tree</h1><ul>" + "".join(f"<li>{_link(f, p=PROJECT, a='blob', f=f)}</li>" for f in FILES)
    if action == "blob":
        name = asked.get("f", "")
        return f"<h1>{name}</h1><pre>int main(void);</pre>{_link('blame', p=PROJECT, a='blame', f=name)}"
    return None


class Handler(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 — the http.server API
        parts = urlsplit(self.path)
        # the script accepts both separators, as CGI.pm does
        asked = dict(parse_qsl(parts.query.replace(";", "&"), keep_blank_values=True))
        if parts.path != "/repo.cgi" or asked.get("p", PROJECT) != PROJECT:
            self.send_error(404)
            return
        if "p" not in asked:
            body: str | None = f"<h1>Projects</h1><ul><li>{_link(PROJECT, p=PROJECT, a='summary')}</li></ul>"
        elif asked.get("a") == "blame":  # planted: every file's blame fails
            self.reply(500, "<!doctype html><title>Error</title><h1>Internal Server Error</h1>")
            return
        else:
            body = _page(asked.get("a", "summary"), asked)
        if body is None:
            self.send_error(404)
            return
        self.reply(200, f"<!doctype html><html><head><title>repo</title></head><body>{body}</body></html>")


@pytest.fixture
def site() -> Iterator[str]:
    with serving(Handler) as url:
        yield url + "/repo.cgi"


def test_pairs_separated_by_semicolons_are_pairs() -> None:
    assert query_pairs("p=a.git;a=commit;h=3f2e") == [("p", "a.git"), ("a", "commit"), ("h", "3f2e")]
    assert query_pairs("p=a.git;a=blob&f=x+y", decoded=True) == [("p", "a.git"), ("a", "blob"), ("f", "x y")]
    assert query_pairs("q=a;b") == [("q", "a;b")]  # a `;` inside a value stays in it
    assert route_shape("/repo.cgi?p=a.git;a=tree") == route_shape("/repo.cgi?p=b.git&a=tree")
    assert route_shape("/repo.cgi?p=a.git;a=tree") != route_shape("/repo.cgi?p=a.git;a=log")


def test_a_site_of_semicolon_queries_is_walked_to_its_pages(site, tmp_path, cli_json) -> None:
    data = cli_json(
        "explore",
        "--url",
        site,
        "--store",
        str(tmp_path / "s"),
        "--budget",
        "40",
        "--ignore-robots",
        "--json",
    )
    # parsed here as the site does, not with the code under test
    actions = {dict(parse_qsl(urlsplit(r).query.replace(";", "&"))).get("a") for r in data["pages_visited"]}
    assert {"summary", "log", "tree", "blob", "blame"} <= actions, (
        data["stop_reason"],
        data["pages_visited"],
    )
    assert [(b["kind"], "a=blame" in b["route"]) for b in data["bugs"]] == [("server_error", True)], data[
        "bugs"
    ]
