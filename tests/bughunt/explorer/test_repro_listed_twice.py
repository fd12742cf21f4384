"""`bughunt repro` of a list that draws one record twice on one page (`oracles/listed_twice`): the
finding has no page before it, so its reproduction reads the one page — it fails while a record is drawn
twice and passes once each is drawn once (it used to refuse: "its evidence lacks previous_url")."""

from __future__ import annotations

import json
import subprocess
import sys
from http.server import BaseHTTPRequestHandler

from bughunt.cli import main
from tests.bughunt.explorer.test_bug_evidence import _run_repros
from tests.support.loopback import serving

MARKS = {3: "Garden planner", 7: "Conference notes", 9: "Bread at home", 12: "Night sky"}


class Marks(BaseHTTPRequestHandler):
    fixed = False

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path == "/":
            body = "<h1>Marks</h1><a href='/marks'>All marks</a>"
        elif self.path == "/marks":
            order = [3, 7, 9, 12] if Marks.fixed else [3, 7, 9, 7, 12]
            rows = "".join(
                f"<tr><td>{MARKS[n]}</td><td><a href='/marks/{n}'>open {MARKS[n]}</a></td></tr>"
                for n in order
            )
            body = f"<h1>All marks</h1><table><tr><th>Title</th><th>Link</th></tr>{rows}</table>"
        elif self.path.removeprefix("/marks/") in {str(n) for n in MARKS}:
            body = f"<h1>{MARKS[int(self.path.rsplit('/', 1)[1])]}</h1><a href='/marks'>back</a>"
        else:
            self.send_error(404)
            return
        data = f"<!doctype html><html><head><title>Marks</title></head><body>{body}</body></html>".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


def test_a_record_listed_twice_on_one_page_reproduces_and_the_fixed_list_passes(tmp_path):
    store, out = tmp_path / "store", tmp_path / "repro"
    out.mkdir()
    with serving(Marks) as base:
        Marks.fixed = False
        done = subprocess.run(
            [sys.executable, "-m", "bughunt.cli", "explore", "--url", base + "/", "--store", str(store),
             "--budget", "6", "--json"], capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        bugs = [b for b in json.loads(done.stdout)["bugs"] if b["kind"] == "duplicate_pagination"]
        assert [b["route"] for b in bugs] == ["/marks"]
        assert (
            main(
                ["repro", bugs[0]["fingerprint"], "--store", str(store), "--out", str(out / "test_listed.py")]
            )
            == 0
        )
        failed, passed, tail = _run_repros(out, base)
        assert (failed, passed) == (1, 0), tail
        Marks.fixed = True
        failed, passed, tail = _run_repros(out, base)
        assert (failed, passed) == (0, 1), tail
