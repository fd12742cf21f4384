"""An "application shell" that reads everything by POST without a JSON-RPC envelope, as pixl-server apps,
Twirp/Connect services and PHP front controllers do: on load it restores its session (`POST
/api/user/resume_session`, a `text/plain` JSON body — a CORS-preflight workaround), reads its list of
jobs (`POST /api/app/get_jobs`) and its counters through a form-dispatched call (`POST /backend.php`,
`op=Stats&method=getCounters`), and its tree by a GET whose method is glued in lower case
(`?op=Categories&method=gettree&mode=2`). A job's row opens its details (`POST /api/app/get_job_details`);
one job's details throw while they render. Writes (`update_job`, `method=setpref`) must stay refused.

Main refused every one of those POSTs as writes and read the tree's GET as an action on record 2: the
shell drew "Network Error" and nothing else, and the walk ended `done` after one click (corpus
ho23_cronicle, ho21_ttrss)."""

from __future__ import annotations

import json
import shutil
from urllib.parse import parse_qs

import pytest

from tests.support.engines import explored_in_browser
from tests.support.loopback import ShellPages

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

SCRIPT = """
function api(cmd, params, done) {
  const x = new XMLHttpRequest();
  x.open('POST', '/api/' + cmd);
  x.setRequestHeader('Content-Type', 'text/plain');
  x.onload = function () { done(JSON.parse(x.responseText)); };
  x.onerror = function () { document.getElementById('msg').textContent = 'Network Error'; };
  params.session_id = 'sess-1';
  x.send(JSON.stringify(params));
}
function php(params, done) {
  const x = new XMLHttpRequest();
  x.open('POST', '/backend.php');
  x.setRequestHeader('Content-Type', 'application/x-www-form-urlencoded');
  x.onload = function () { done(JSON.parse(x.responseText)); };
  x.send(new URLSearchParams(params).toString());
}
function showJob(id) {
  api('app/get_job_details', {id: id}, function (r) {
    const job = r.job;
    document.getElementById('details').innerHTML = '<h2>Job ' + job.id + '</h2><p>CPU ' +
      job.cpu.total.toFixed(1) + '</p><button id="save">Save notes</button>';
    document.getElementById('save').addEventListener('click', function () {
      api('app/update_job', {id: id, notes: 'x'}, function () {});
    });
  });
}
api('user/resume_session', {}, function (r) {
  document.getElementById('user').textContent = r.username;
  api('app/get_jobs', {offset: 0}, function (a) {
    document.getElementById('jobs').innerHTML = a.rows.map(function (j) {
      return '<tr><td><span class="link" data-id="' + j.id + '">' + j.title + '</span></td><td>' + j.state +
        '</td></tr>';
    }).join('');
    document.querySelectorAll('#jobs .link').forEach(function (s) {
      s.addEventListener('mouseup', function () { showJob(s.getAttribute('data-id')); });
      s.style.cursor = 'pointer';
    });
  });
  php({op: 'Stats', method: 'getCounters'}, function (c) {
    document.getElementById('count').textContent = c.jobs + ' jobs';
  });
  fetch('/backend.php?op=Categories&method=gettree&mode=2').then(function (r) { return r.json(); }).then(function (t) {
    document.getElementById('tree').innerHTML = t.items.map(function (i) { return '<li>' + i + '</li>'; }).join('');
  });
  php({op: 'RPC', method: 'setpref', key: 'wide', value: '1'}, function () {});
});
"""

SHELL = (
    '<!doctype html><html><head><title>Jobs</title></head><body><p id="msg"></p>'
    '<p>Signed in as <span id="user"></span></p><ul id="tree"></ul><p id="count"></p>'
    '<table><tbody id="jobs"></tbody></table><div id="details"></div>'
    '<script src="/app.js"></script></body></html>'
)
JOBS = [{"id": n, "title": f"Nightly backup {n}", "state": "done"} for n in range(1, 5)]


class _Shell(ShellPages):
    calls: list[str] = []
    shell = SHELL
    script = SCRIPT

    def answer_get(self) -> None:
        if self.path.startswith("/backend.php?"):
            type(self).calls.append(parse_qs(self.path.split("?", 1)[1])["method"][0])
            return self.reply(200, json.dumps({"items": ["Sync", "Reports"]}), "application/json")
        return super().answer_get()

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path == "/backend.php":
            method = parse_qs(raw.decode())["method"][0]
            type(self).calls.append(method)
            return self.reply(200, json.dumps({"jobs": len(JOBS)}), "application/json")
        cmd = self.path.rsplit("/", 1)[-1]
        type(self).calls.append(cmd)
        params = json.loads(raw or b"{}")
        if cmd == "resume_session":
            answer: dict[str, object] = {"code": 0, "username": "admin"}
        elif cmd == "get_jobs":
            answer = {"code": 0, "rows": JOBS}
        elif cmd == "get_job_details":
            job: dict[str, object] = {"id": params["id"]}
            if params["id"] != "2":  # job 2 ended before its first CPU sample: no `cpu` record
                job["cpu"] = {"total": 12.5}
            answer = {"code": 0, "job": job}
        else:
            answer = {"code": 0}
        return self.reply(200, json.dumps(answer), "application/json")


def test_a_shell_reading_by_named_posts_draws_and_its_details_error_is_found(tmp_path) -> None:
    _Shell.calls = []
    with explored_in_browser(_Shell, tmp_path / "s", 14) as (store, _engine):
        bugs = store.bug_table.live()
        steps = [(s.route, s.outcome, s.detail) for s in store.history.steps()]
        kinds = [(b.kind, b.route, b.message) for b in bugs]
        # the session was restored and every read went through; no write did
        for read in ("resume_session", "get_jobs", "getCounters", "gettree", "get_job_details"):
            assert read in _Shell.calls, (read, _Shell.calls, steps)
        assert "update_job" not in _Shell.calls and "setpref" not in _Shell.calls, _Shell.calls
        # the job whose details throw was opened: its script error is found
        assert any(b.kind == "client_error" for b in bugs), (kinds, steps)
        assert len(steps) > 3, steps
