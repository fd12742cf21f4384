"""A list paged by an offset under a key named as a page size, known by what its pager's links do (issue 25,
PostfixAdmin): `?limit=0`, `?limit=10`, `?limit=20` are the rows a page starts at, not rows shown. The pager
writes its links as name ranges ("da-gr") and a "Next Page" picture, so no reading of words or key names
says it pages. Read as a page size, the second page was a longer view of a list seen already, never taken,
and its repeated row (the last of page 1 opening page 2, an off-by-one OFFSET) never judged.

The site is made up (a mail admin's domain overviews), none of the corpus's code."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar
from urllib.parse import parse_qs

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from tests.support.loopback import QuietHandler, serving

DOMAINS = ("north.example", "south.example", "east.example")
ROWS = 10
NAMES = [f"{w}{n}" for w in ("anna", "ben", "dora", "egon") for n in range(9)]  # 36 mailboxes


def _page(title: str, body: str) -> str:
    return f"<html><head><title>{title}</title></head><body>{body}</body></html>"


class _MailAdmin(QuietHandler):
    buggy: ClassVar[bool] = True

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path, _, query = self.path.partition("?")
        args = {k: v[0] for k, v in parse_qs(query).items()}
        if path == "/robots.txt":
            return self.reply(404, "", "text/plain")
        menu = "".join(f'<li><a href="/list.php?domain={d}">{d}</a></li>' for d in DOMAINS)
        if path == "/main.php":
            return self.reply(200, _page("Overview", f"<h1>Domains</h1><ul>{menu}</ul>"))
        if path == "/edit.php" and "mailbox" in args:
            box = args["mailbox"]
            form = f'<form method="post" action="/edit.php"><input name="name" value="{box}"><button>Save</button></form>'
            return self.reply(200, _page("Edit mailbox", f"<nav><ul>{menu}</ul></nav><h1>{box}</h1>{form}"))
        if path == "/list.php" and args.get("domain") in DOMAINS:
            return self.reply(
                200, _page("Mailboxes", self._overview(args["domain"], int(args.get("limit", 0))))
            )
        return self.reply(404, _page("Not found", "<h1>Not found</h1>"))

    def _overview(self, domain: str, start: int) -> str:
        # the planted off-by-one: every later page starts one row early (OFFSET limit - 1)
        first = max(0, start - 1) if self.buggy else start
        rows = "".join(
            f'<tr><td>{n}@{domain}</td><td><a href="/edit.php?mailbox={n}@{domain}">edit</a></td></tr>'
            for n in NAMES[first : first + ROWS]
        )
        pages = [
            f'<a href="?limit={at}&amp;domain={domain}">{NAMES[at][:2]}-{NAMES[min(at + ROWS, len(NAMES)) - 1][:2]}</a>'
            for at in range(0, len(NAMES), ROWS)
            if at != start
        ]
        on = (
            f'<a href="?limit={start + ROWS}&amp;domain={domain}"><img src="/arrow-r.png" alt="Next Page"></a>'
            if start + ROWS < len(NAMES)
            else ""
        )
        menu = "".join(f'<li><a href="/list.php?domain={d}">{d}</a></li>' for d in DOMAINS)
        return (
            f"<nav><ul>{menu}</ul></nav><h1>{domain}</h1>"
            f'<div class="nav_bar"><b>:: Mailboxes</b> {" ".join(pages)} {on}</div>'
            f'<table id="mailbox_table"><tr><th>Email</th><th></th></tr>{rows}</table>'
        )


def _walk(tmp_path: Path, budget: int) -> tuple[list[str], list[str]]:
    with serving(_MailAdmin) as base:
        store = ExplorerStore(tmp_path / "s")
        try:
            engine = HttpEngine(base + "/main.php", respect_robots=False)
            with make_policy("planner", store=store) as policy:
                Explorer(store, engine, policy, SessionConfig(budget=budget)).run()  # type: ignore[arg-type]
            routes = [s.route for s in store.history.steps()]
            bugs = [b.kind for b in store.bug_table.live()]
        finally:
            store.close()
    return routes, bugs


def test_the_walk_takes_an_offset_pagers_second_page_and_judges_its_repeated_row(tmp_path: Path) -> None:
    _MailAdmin.buggy = True
    routes, bugs = _walk(tmp_path, 6)
    second = [r for r in routes if r.startswith("/list.php?limit=10&")]
    assert second, routes  # taken from the first page it is offered on, before the rows' edit pages
    assert routes.index(second[0]) == 2, routes
    assert "duplicate_pagination" in bugs


def test_the_same_list_paged_right_reports_nothing(tmp_path: Path) -> None:
    _MailAdmin.buggy = False
    routes, bugs = _walk(tmp_path, 6)
    assert any(r.startswith("/list.php?limit=10&") for r in routes), routes
    assert bugs == [], bugs
