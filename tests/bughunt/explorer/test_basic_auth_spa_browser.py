"""A single-page app that logs in by HTTP authentication: its login form's script asks the API who the
user is with `Authorization: Basic`, keeps the credentials, and sends them with every API read after
(as management UIs over a REST API do). The explorer logs in, reads its views, and the password goes
nowhere but in that header to the site's own origin."""

from __future__ import annotations

import base64
import json
import threading
from pathlib import Path

import pytest

from bughunt.cli import main
from tests.support.loopback import QuietHandler, serving

USER, PASSWORD = "ann", "pw-7f3a-basic"
QUEUES = ("alpha", "beta", "gamma")

APP = """<!doctype html><html><head><title>broker</title></head><body><main id="app"></main><script>
const app = document.getElementById('app');
function api(path) {
  return fetch(path, {headers: {Authorization: sessionStorage.getItem('auth') || ''}})
    .then(r => { if (!r.ok) throw new Error('status ' + r.status); return r.json(); });
}
function login() {
  app.innerHTML = '<form id="f"><label>Username <input name="username"></label>' +
    '<label>Password <input name="password" type="password"></label><button>Log in</button></form>';
  document.getElementById('f').addEventListener('submit', ev => {
    ev.preventDefault();
    const f = ev.target;
    const auth = 'Basic ' + btoa(f.username.value + ':' + f.password.value);
    fetch('/api/whoami', {headers: {Authorization: auth}}).then(r => {
      if (!r.ok) { login(); return; }
      sessionStorage.setItem('auth', auth);
      location.hash = '#/queues';
      route();
    });
  });
}
function route() {
  if (!sessionStorage.getItem('auth')) { login(); return; }
  const m = location.hash.match(/^#\\/queues\\/(\\w+)$/);
  if (m) {
    api('/api/queues/' + m[1]).then(q => {
      app.innerHTML = '<h1>Queue ' + q.name + '</h1><p>Messages: ' + q.messages + '</p>' +
        '<a href="#/queues">All queues</a>';
    });
    return;
  }
  api('/api/queues').then(qs => {
    app.innerHTML = '<h1>Queues</h1><ul>' +
      qs.map(q => '<li><a href="#/queues/' + q + '">' + q + '</a></li>').join('') + '</ul>';
  });
}
window.addEventListener('hashchange', route);
route();
</script></body></html>"""


class _Broker(QuietHandler):
    seen: list[tuple[str, str]] = []
    lock = threading.Lock()

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        with self.lock:
            self.seen.append((self.path, self.headers.get("Authorization", "")))
        if self.path in ("/", "/login"):
            return self.reply(200, APP)
        if not self.path.startswith("/api/"):
            return self.reply(404, "no")
        expected = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        if self.headers.get("Authorization") != expected:
            return self.reply(401, json.dumps({"error": "not_authorised"}), "application/json")
        if self.path == "/api/whoami":
            return self.reply(200, json.dumps({"name": USER}), "application/json")
        if self.path == "/api/queues":
            return self.reply(200, json.dumps(list(QUEUES)), "application/json")
        name = self.path.rsplit("/", 1)[-1]
        if name in QUEUES:
            return self.reply(200, json.dumps({"name": name, "messages": 3}), "application/json")
        return self.reply(404, json.dumps({"error": "no queue"}), "application/json")


@pytest.mark.slow
def test_an_app_that_logs_in_by_basic_auth_is_explored_and_the_password_stays_in_its_header(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BH_TEST_PASSWORD", PASSWORD)
    handler = type("Broker", (_Broker,), {"seen": []})
    store = tmp_path / "s"
    with serving(handler) as base:
        argv = [
            "explore", "--url", base + "/", "--store", str(store), "--engine", "browser", "--budget", "6",
            "--timeout", "5", "--login-url", "/login", "--username", USER,
            "--password-env", "BH_TEST_PASSWORD", "--json",
        ]  # fmt: skip
        assert main(argv) in (0, 3), capsys.readouterr().err
    capsys.readouterr()
    reads = [path for path, auth in handler.seen if path.startswith("/api/queues/") and auth]
    assert reads, handler.seen  # logged in, and a queue's view read through the API
    # the password never in a URL, and nothing of it in the store
    assert not any(PASSWORD in path for path, _ in handler.seen)
    for file in store.rglob("*"):
        if file.is_file():
            assert PASSWORD.encode() not in file.read_bytes(), file
