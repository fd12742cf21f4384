"""Seed a fresh OctoPrint base folder for the corpus: settings that keep it offline and skip the
first-run wizards, an admin and 34 more accounts (the users list pages 10 at a time), 60 machine-code
files in a few folders, and 27 rendered timelapses (the timelapse list pages 10 at a time).

Then it starts the server once on a free loopback port, logs in and asks for the main page, so that
OctoPrint bundles its scripts and style sheets (webassets) from this build's sources before the corpus
starts it (a first page otherwise takes tens of seconds on a busy machine); the bundles are kept
(devel.webassets.clean_on_startup off) and the server stopped.

Usage: ho18_octoprint_seed.py ROOT  (run with the app's venv python; the base folder is ROOT/.corpus-octo)
"""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import yaml
from octoprint.access.users import UserManager

ADMIN = ("admin", "corpus-admin-pw")
FIRST = [
    "ada",
    "brook",
    "cyd",
    "dana",
    "eli",
    "fern",
    "gus",
    "hana",
    "ivo",
    "jade",
    "kai",
    "lena",
    "milo",
    "nora",
    "otto",
    "pia",
    "quin",
    "rosa",
    "sami",
    "tova",
    "umar",
    "vera",
    "wren",
    "xena",
    "yuri",
    "zoe",
    "arlo",
    "bea",
    "cato",
    "dita",
    "emil",
    "flo",
    "gert",
    "hugo",
]
PARTS = [
    "bracket",
    "gear",
    "hinge",
    "knob",
    "clip",
    "spool-holder",
    "fan-duct",
    "cable-chain",
    "vase",
    "benchy",
    "calibration-cube",
    "phone-stand",
    "hook",
    "lid",
    "box",
    "spacer",
    "pulley",
    "mount",
    "cover",
    "handle",
]


def main(root: Path) -> None:
    base = root / ".corpus-octo"
    if base.exists():
        shutil.rmtree(base)
    (base / "uploads").mkdir(parents=True)
    (base / "timelapse" / "tmp").mkdir(parents=True)
    config = {
        "server": {
            "firstRun": False,
            "secretKey": "corpus-not-secret-key-0123456789abcdef",
            "onlineCheck": {"enabled": False},
            "pluginBlacklist": {"enabled": False},
            "seenWizards": {},
            "pythonEolCheck": {"enabled": False},
        },
        "gcodeAnalysis": {"runAt": "never"},
        "devel": {"webassets": {"clean_on_startup": False}},
        "accessControl": {"salt": "corpus-salt"},
        "serial": {"autoconnect": False},
        "printerProfiles": {"default": "_default"},
        # the plugins that talk to other hosts (update checks, plugin repository, announcements,
        # usage tracking, error reports, zeroconf) stay off: the corpus runs on loopback only
        "plugins": {
            "_disabled": [
                "announcements",
                "softwareupdate",
                "pluginmanager",
                "tracking",
                "errortracking",
                "discovery",
                "achievements",
                "file_check",
                "firmware_check",
                "pi_support",
            ],
        },
    }
    (base / "config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")

    pw_admin = UserManager.create_password_hash(ADMIN[1])
    pw_user = UserManager.create_password_hash("corpus-user-pw")
    users: dict[str, object] = {"_version": 2}
    users[ADMIN[0]] = {
        "password": pw_admin,
        "active": True,
        "groups": ["admins", "users"],
        "permissions": [],
        "apikey": None,
        "settings": {},
        "roles": ["user", "admin"],
    }
    for i, name in enumerate(FIRST):
        users[name] = {
            "password": pw_user,
            "active": i % 7 != 3,
            "groups": ["users"],
            "permissions": [],
            "apikey": None,
            "settings": {},
            "roles": ["user"],
        }
    (base / "users.yaml").write_text(yaml.safe_dump(users), encoding="utf-8")

    now = time.time()
    gcode = "; corpus seed\nG28\nG1 X10 Y10 Z0.2 F1500\nG1 X60 Y10 E5\nG1 X60 Y60 E10\nM84\n"
    folders = ["", "", "functional", "decor", "calibration"]
    n = 0
    for i, part in enumerate(PARTS):
        for j, variant in enumerate(["v1", "v2", "pla-0.2mm"]):
            folder = folders[(i + j) % len(folders)]
            target = base / "uploads" / folder
            target.mkdir(parents=True, exist_ok=True)
            path = target / f"{part}-{variant}.gcode"
            path.write_text(gcode * (1 + (i * 3 + j) % 7), encoding="utf-8")
            stamp = now - 3600 * (n + 1)
            os.utime(path, (stamp, stamp))
            n += 1
    # a file name pasted from a slicer's job title: markup in a name must stay text
    odd = base / "uploads" / "<img src=x onerror=alert(1)>-lid.gcode"
    odd.write_text(gcode, encoding="utf-8")

    for i in range(27):
        part = PARTS[i % len(PARTS)]
        movie = base / "timelapse" / f"{part}_{20260101 + i}{i % 10:02d}1200.mp4"
        movie.write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(1024 * (i + 1)))
        stamp = now - 86400 * (i + 1)
        os.utime(movie, (stamp, stamp))
    odd_movie = base / "timelapse" / "<img src=x onerror=alert(2)>_20260301120000.mp4"
    odd_movie.write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(2048))

    warm_up(base)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def warm_up(base: Path) -> None:
    """Start the server once, log in, fetch / (which builds the asset bundles), stop it."""
    port = _free_port()
    octoprint = Path(sys.executable).with_name("octoprint")
    argv = [
        str(octoprint),
        "serve",
        "--iknowwhatimdoing",
        "--basedir",
        str(base),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]
    log = (base / "warm-up.log").open("wb")
    server = subprocess.Popen(
        argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    try:
        deadline = time.monotonic() + 300
        while True:
            if server.poll() is not None:
                raise SystemExit(f"octoprint exited {server.returncode} during the warm-up (see {log.name})")
            try:
                opener.open(url + "/login/", timeout=5).read()
                break
            except (urllib.error.URLError, http.client.HTTPException, OSError):
                if time.monotonic() > deadline:
                    raise SystemExit("octoprint did not answer in 300 s during the warm-up") from None
                time.sleep(0.5)
        csrf = next(c.value for c in jar if c.name.startswith("csrf_token"))
        body = json.dumps({"user": ADMIN[0], "pass": ADMIN[1], "remember": False}).encode()
        request = urllib.request.Request(
            url + "/api/login",
            data=body,
            method="POST",
            headers={"Content-Type": "application/json", "X-CSRF-Token": csrf},
        )
        opener.open(request, timeout=60).read()
        page = opener.open(url + "/", timeout=300).read().decode("utf-8", "replace")
        for marker in ("packed_libs.js", "packed_core.js"):
            if marker not in page:
                raise SystemExit(f"the warm-up page has no {marker}")
        for bundle in (
            "packed_libs.js",
            "packed_client.js",
            "packed_core.js",
            "packed_libs.css",
            "packed_core.css",
        ):
            opener.open(f"{url}/static/webassets/{bundle}", timeout=300).read()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
