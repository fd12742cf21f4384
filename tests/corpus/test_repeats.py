"""`python -m corpus run --repeat N`: each build explored N times, one row showing timing — a planted bug
counts found only if every repeat found it, a report counts as a false positive if any repeat made
it, and both other readings are kept beside them. The application is a fake one made on the spot (a
git repository holding a few lines of `http.server`) whose seed counts its runs: a page answers 500
in odd runs only, as a report that depends on timing does. Loopback only, no network."""

from __future__ import annotations

import json
import subprocess
from dataclasses import asdict
from pathlib import Path

from corpus.repeats import merge
from corpus.run import Run, _table, main, run_app
from corpus.spec import load

SERVER = """import sys
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

BUGGY = False
RUN = int((Path(__file__).parent / "run.txt").read_text())


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        links = '<a href="/flaky">flaky</a> <a href="/broken">broken</a> <a href="/about">about</a>'
        pages = {"/": links, "/about": "<p>about</p>", "/flaky": "<p>fine</p>", "/broken": "<p>fine</p>"}
        status = 200 if self.path in pages else 404
        if self.path == "/flaky" and RUN % 2 == 1:
            status = 500  # odd runs only: a report that depends on the run
        if self.path == "/broken" and BUGGY:
            status = 500
        body = f"<html><body><h1>{self.path}</h1>{pages.get(self.path, '')}</body></html>".encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
"""

SEED = """import sys
from pathlib import Path

count = Path(sys.argv[1]) / "run.txt"
count.write_text(str(int(count.read_text()) + 1 if count.exists() else 1))
"""


def _app(tmp_path: Path) -> Path:
    """The fake application's repository, its mirror, and its app file; returns the app file."""
    origin = tmp_path / "origin"
    origin.mkdir()
    (origin / "server.py").write_text(SERVER, encoding="utf-8")
    (origin / "seed.py").write_text(SEED, encoding="utf-8")
    (origin / ".gitignore").write_text("run.txt\n", encoding="utf-8")
    git = ["git", "-C", str(origin), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git[:3], "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "app"], check=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout
    mirror = tmp_path / "mirror" / "t+flaky"
    mirror.mkdir(parents=True)
    subprocess.run(["git", "clone", "-q", "--bare", str(origin), str(mirror / "repo")], check=True)
    spec = tmp_path / "flaky.toml"
    spec.write_text(
        f"""name = "flaky"
family = "test"
repo = "t/flaky"
commit = "{commit.strip()}"
licence = "test"
engine = "http"
setup = []
seed = ["{{python}} {{root}}/seed.py {{root}}"]
start = "{{python}} {{root}}/server.py {{port}}"

[[bugs]]
id = "broken-500"
kind = "server_error"
route = "/broken"
depth = 1
what = "the broken page answers 500"
[[bugs.inject]]
file = "server.py"
find = "BUGGY = False"
replace = "BUGGY = True"
""",
        encoding="utf-8",
    )
    return spec


def test_repeats_show_a_report_made_in_one_run_of_two(tmp_path: Path) -> None:
    app = load(_app(tmp_path))
    rows = run_app(
        app,
        tmp_path / "work",
        tmp_path / "mirror",
        False,
        [5],
        ["clean", "buggy"],
        None,
        False,
        True,
        repeat=2,
    )
    clean, buggy = rows
    assert [r.error for r in rows] == [None, None]
    assert (clean.build, clean.repeat, len(clean.repeats)) == ("clean", 2, 2)
    # the flaky 500 showed in the first run of each build (odd seeds: 1 and 3), not in the second
    assert [(r["kind"], r["route"], r["runs"]) for r in clean.false_positives_union] == [
        ("server_error", "/flaky", 1)
    ]
    assert clean.false_positives == clean.false_positives_union and clean.false_positives_intersection == []
    assert [len(r["false_positives"]) for r in clean.repeats] == [1, 0]
    # the planted bug was found in both runs: found in every repeat, and so in any
    assert set(buggy.found) == set(buggy.found_intersection) == set(buggy.found_union) == {"broken-500"}
    assert buggy.missed == [] and [f["route"] for f in buggy.false_positives] == ["/flaky"]
    assert buggy.wall_s == round(sum(r["wall_s"] for r in buggy.repeats), 1)
    # the table says both readings; its JSON reads back into rows (`corpus table`)
    saved = tmp_path / "runs.json"
    saved.write_text(json.dumps([asdict(r) for r in rows]), encoding="utf-8")
    reread = [Run(**row) for row in json.loads(saved.read_text(encoding="utf-8"))]
    assert reread == rows
    assert main(["table", str(saved)]) == 0
    cells = [c for column in _table(rows).columns for c in column._cells]
    assert any("1 in any run (0 in every one): server_error /flaky (1/2)" in c for c in cells)
    assert any("1/1 in every one of 2 runs" in c for c in cells)


def test_one_run_keeps_the_rows_it_had_with_both_readings_equal(tmp_path: Path) -> None:
    app = load(_app(tmp_path))
    (row,) = run_app(app, tmp_path / "work", tmp_path / "mirror", False, [5], ["clean"], None, False, True)
    assert row.repeat == 1 and row.repeats == []
    assert [f["route"] for f in row.false_positives] == ["/flaky"]  # the first seed: an odd run
    assert row.false_positives_union == row.false_positives_intersection == row.false_positives


def test_one_report_of_two_runs_is_one_whatever_request_token_it_carries() -> None:
    def row(token: str) -> Run:
        fp = {"kind": "unsafe_get", "route": f"/?action=share&id=17&csrf_token={token}", "click": 9}
        return Run("a", "f", "c", "clean", 100, "http", false_positives=[fp])

    merged = merge([row("x1"), row("y2")])
    assert [(f["route"], f["runs"]) for f in merged.false_positives] == [
        ("/?action=share&id=17&csrf_token=x1", 2)
    ]
    assert len(merged.false_positives_intersection) == 1


def test_a_repeat_below_one_is_refused(capsys) -> None:
    assert main(["run", "--apps", "contact_app", "--repeat", "0"]) == 2
    assert "--repeat must be a positive number" in capsys.readouterr().err


def test_repeats_list_the_upstream_reports_of_any_run() -> None:
    """A report an `[[upstream]]` entry explains is kept apart in every repeat's row and in the merged
    one (any run's, by kind and route), never among the false positives."""

    def row(routes: list[str]) -> Run:
        run = Run("a", "f", "c" * 40, "clean", 30, "http")
        run.upstream = [
            {"kind": "count_mismatch", "route": r, "click": 3, "upstream": "up-1"} for r in routes
        ]
        return run

    merged = merge([row(["/q?start=20"]), row(["/q?start=20", "/failed?start=40"])])
    assert [(u["route"], u["runs"]) for u in merged.upstream] == [("/q?start=20", 2), ("/failed?start=40", 1)]
    assert merged.false_positives == [] and all("upstream" in r for r in merged.repeats)
