"""A process manager's web page runs its operations on GET links (supervisord's: `?processname=web&action=stop`,
`?action=stopall`, `?action=clearlog`, each acting at once and answering with the list again): the walk never
sends one, with or without --allow-destructive, and the page that offers them says so (suspected, unopened).
Walked before this, the explorer stopped and restarted every process of a real supervisord and cleared
their logs, while its report said destructive actions were not opened."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from urllib.parse import parse_qsl, urlsplit

import pytest

from bughunt.oracles.destructive_words import destructive_action, names_operation
from tests.support.loopback import QuietHandler, serving

PROCESSES = ["web", "worker", "mailer"]


def _row(name: str) -> str:
    ops = "".join(
        f' <a href="index.html?processname={name}&amp;action={op}">{op}</a>'
        for op in ("restart", "stop", "clearlog")
    )
    return f'<tr><td><a href="tail.html?processname={name}">{name}</a></td><td>{ops}</td></tr>'


class Handler(QuietHandler):
    acted: list[str] = []
    lock = threading.Lock()

    def do_GET(self) -> None:  # noqa: N802 — the http.server API
        parts = urlsplit(self.path)
        asked = dict(parse_qsl(parts.query))
        if "action" in asked and asked["action"] != "refresh":
            with self.lock:
                type(self).acted.append(self.path)
        if parts.path in ("/", "/index.html"):
            body = (
                '<a href="index.html?action=refresh">Refresh</a> <a href="index.html?action=restartall">Restart all</a>'
                ' <a href="index.html?action=stopall">Stop all</a>'
                "<table>" + "".join(_row(p) for p in PROCESSES) + "</table>"
            )
        elif parts.path == "/tail.html" and asked.get("processname") in PROCESSES:
            body = f"<h1>{asked['processname']}</h1><pre>started\nrunning</pre>"
        else:
            self.send_error(404)
            return
        self.reply(
            200, f"<!doctype html><html><head><title>Supervisor</title></head><body>{body}</body></html>"
        )


@pytest.fixture
def site() -> Iterator[str]:
    Handler.acted = []
    with serving(Handler) as url:
        yield url + "/"


def test_an_action_keys_operation_is_destructive_and_a_path_word_is_not() -> None:
    assert [names_operation(v) for v in ("stop", "stopall", "clearlog", "clear_cache", "restartAll")] == [
        True
    ] * 5
    assert [names_operation(v) for v in ("clear", "reset", "refresh", "stopped", "tail")] == [False] * 5
    assert destructive_action("http://h/index.html?processname=web&action=stop") is not None
    assert destructive_action("http://h/stop/42") is None  # a bus stop
    assert destructive_action("http://h/search?action=clear") is None  # a filter emptied


@pytest.mark.parametrize("allow", [False, True])
def test_the_walk_sends_no_operation_and_says_so(site, tmp_path, cli_json, allow: bool) -> None:
    argv = [
        "explore",
        "--url",
        site,
        "--store",
        str(tmp_path / "s"),
        "--budget",
        "20",
        "--ignore-robots",
        "--json",
    ]
    data = cli_json(*argv, *(["--allow-destructive"] if allow else []))
    assert any(r.startswith("/tail.html") for r in data["pages_visited"]), data["pages_visited"]
    if not allow:
        assert Handler.acted == [], Handler.acted  # not one request of them reached the server
        suspected = {
            b["route"] for b in data["bugs"] if b["kind"] == "unconfirmed_destructive" and b["suspected"]
        }
        assert any("action=" in r for r in suspected), suspected  # one report per control template
    else:
        # opened after the walk, once per control template, and judged by what they did
        assert "/index.html?action=stopall" not in data["pages_visited"]
