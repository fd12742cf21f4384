"""Seed JupyterHub for the corpus: `python ho9_jupyterhub_seed.py ROOT`.

Starts the hub once on its own (a fresh SQLite database: the hub creates its schema, and the users
and groups ho9_jupyterhub_config.py loads), issues alice's tokens through its REST API with the seed
service's token, stops it, then adds alice's named servers as rows (starting them through the API
would spawn them). What is there afterwards:

- 70 users (alice, the admin the explorer logs in as, and 69 colleagues: four pages of 20 in the
  admin panel) and 26 groups (two pages), each with a few members and two or three properties
  (course code, room, term), from the config;
- alice's API tokens: six, three of them used since they were issued;
- alice's named servers: five, two of them used before (last activity set), three never started;
  one has a display name someone pasted markup into."""

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

root = Path(sys.argv[1]).resolve()
SEED_TOKEN = "corpus-seed-token-0123456789abcdef"
for stale in (
    "corpus-jupyterhub.sqlite",
    "corpus-jupyterhub.pid",
    "corpus-proxy.pid",
    "jupyterhub_cookie_secret",
):
    (root / stale).unlink(missing_ok=True)
subprocess.run(["rm", "-rf", str(root / "corpus-homes")], check=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


serve = Path(__file__).with_name("ho9_jupyterhub_serve.py")
# the admin panel's bundle first (a webpack run when the sources changed: minutes on a loaded machine)
subprocess.run([sys.executable, str(serve), str(root), "0", "--build-only"], check=True)
port = free_port()
base = f"http://127.0.0.1:{port}/hub/api"
hub = subprocess.Popen(
    [sys.executable, str(serve), str(root), str(port)],
    start_new_session=True,
    stdout=subprocess.DEVNULL,
    stderr=open(root / "corpus-seed-hub.log", "w"),
)


def api(method: str, path: str, body: object = None, token: str = SEED_TOKEN) -> object:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Authorization", f"token {token}")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=60) as answer:
        text = answer.read().decode()
    return json.loads(text) if text else None


try:
    for _ in range(240):
        try:
            api("GET", "/")
            break
        except (OSError, urllib.error.HTTPError):
            time.sleep(0.5)
    else:
        raise SystemExit("the hub did not come up for seeding; see corpus-seed-hub.log")

    notes = [
        "laptop sync",
        "grading script",
        "course dashboard",
        "backup job",
        "cli experiments",
        "calendar export",
    ]
    for index, note in enumerate(notes):
        issued = api("POST", "/users/alice/tokens", {"note": note, "expires_in": 90 * 86400})
        if index % 2 == 0:  # used since it was issued: the hub records its last activity
            api("GET", "/user", token=issued["token"])  # type: ignore[index]
finally:
    os.killpg(hub.pid, signal.SIGTERM)
    try:
        hub.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(hub.pid, signal.SIGKILL)
        hub.wait()

db = sqlite3.connect(root / "corpus-jupyterhub.sqlite")
alice = db.execute("SELECT id FROM users WHERE name='alice'").fetchone()[0]
now = time.time()
SERVERS = [
    ("analysis", "Analysis", now - 3 * 86400),
    ("teaching", "Teaching 2025", now - 20 * 86400),
    ("scratch", "Scratch", None),
    ("report", "Quarterly <script>alert('ho9-hub')</script> report", None),
    ("gpu-tests", "GPU tests", None),
]
for name, display, used in SERVERS:
    last = None if used is None else time.strftime("%Y-%m-%d %H:%M:%S.000000", time.gmtime(used))
    db.execute(
        "INSERT INTO spawners (user_id, server_id, state, name, display_name, started, last_activity, user_options)"
        " VALUES (?, NULL, '{}', ?, ?, NULL, ?, '{}')",
        (alice, name, display, last),
    )
db.commit()
db.close()
print("seeded JupyterHub: 70 users, 26 groups, 6 tokens, 5 named servers")
