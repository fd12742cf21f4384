"""Fresh data for `deluge_web`: a config folder for the Deluge daemon and its web UI, 36 small torrents
made here from local files (no download, no tracker reachable), added through the daemon's own RPC.

Usage: deluge_web_seed.py ROOT. Runs with the app's virtualenv (libtorrent, Twisted) and imports the
checkout's `deluge` package (ROOT first on sys.path), so the daemon that adds the torrents is the one
under test. Writes ROOT/.corpus-deluge/: core.conf (DHT, LSD, UPnP, NAT-PMP, peer exchange and the
release check off; peers only on 127.0.0.1), web.conf (the web password corpus-admin-pw, no first-login
prompt, the one daemon as default so the page connects on login), hostlist.conf and auth (the
daemon's local account; `deluge_web_serve.py` writes the daemon's port at each start), data/ (the
torrents' files, complete, so the unpaused ones check and seed) and the daemon's saved state. Some
torrents are added paused, some carry per-torrent limits, one has an empty sub-folder (a zero-byte
file), and one's name is a pasted `<img onerror>`. Every tracker is a closed port on a loopback address.
"""

from __future__ import annotations

import hashlib
import random
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve()
sys.path.insert(0, str(ROOT))

import libtorrent as lt  # noqa: E402

CONF = ROOT / ".corpus-deluge"
DATA = CONF / "data"
TORRENTS = CONF / "seed-torrents"
PASSWORD = "corpus-admin-pw"
HOST_ID = "c0a9f5e1d2b34c8e9f00aa11bb22cc33"
LOCAL_PW = "corpus-localclient-0123456789abcdef"

TITLES = [
    "Sintel (2010) 1080p",
    "Big Buck Bunny 60fps",
    "Elephants Dream",
    "Tears of Steel 4K",
    "Cosmos Laundromat",
    "Spring - Blender Open Movie",
    "Agent 327 Operation Barbershop",
    "Caminandes Llamigos",
    "Glass Half",
    "Hero - Grease Pencil",
    "Coffee Run",
    "Charge",
    "Wing It!",
    "Sprite Fright",
    "Debian 12.8 netinst amd64",
    "Ubuntu 24.04.1 desktop",
    "Fedora Workstation 41",
    "Arch Linux 2024.12.01",
    "Linux Mint 22 Cinnamon",
    "Tails 6.10",
    "Project Gutenberg - Moby Dick",
    "Project Gutenberg - Pride and Prejudice",
    "Project Gutenberg - Ulysses",
    "Internet Archive - Prelinger Reels",
    "NASA Apollo 11 Audio",
    "Wikipedia dump 2024-11 (enwiki abstracts)",
    "OpenStreetMap Monaco extract",
    "Creative Commons Jazz Sampler",
    "Free Music Archive - Ambient",
    "LibriVox - Sherlock Holmes",
    "Kdenlive tutorial pack",
    "Krita brushes bundle",
    "Godot demo projects",
    "Blender Studio textures",
    "Empty-Folder Pack",
    "<img src=x onerror=\"alert('deluge-xss')\">",
]
TRACKERS = ["http://127.0.0.1:9/announce", "http://127.0.0.2:9/announce", "udp://127.0.0.3:9/announce"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write_config(name: str, values: dict[str, object]) -> None:
    from deluge.config import Config

    config = Config(name, {}, config_dir=str(CONF))
    for key, value in values.items():
        config[key] = value
    config.save()


def make_torrent(index: int, title: str, rng: random.Random) -> Path:
    """Files under data/<folder>/, and the .torrent that describes them."""
    base = DATA / title
    base.mkdir(parents=True)
    sizes = [rng.randint(2000, 40000) for _ in range(1 + index % 4)]
    for n, size in enumerate(sizes):
        (base / f"part-{n}.bin").write_bytes(rng.randbytes(size))
    if title == "Empty-Folder Pack":
        (base / "extras").mkdir()
        (base / "extras" / "placeholder.txt").write_bytes(b"")
    fs = lt.file_storage()
    for path in sorted(base.rglob("*")):
        if path.is_file():
            fs.add_file(f"{title}/{path.relative_to(base)}", path.stat().st_size)
    ct = lt.create_torrent(fs, 16384)  # libtorrent 2.1 still takes a file_storage
    ct.add_tracker(TRACKERS[index % len(TRACKERS)])
    ct.set_comment(f"Corpus seed torrent {index}")
    lt.set_piece_hashes(ct, str(DATA))
    out = TORRENTS / f"{index:02d}.torrent"
    out.write_bytes(lt.bencode(ct.generate()))
    return out


def main() -> None:
    shutil.rmtree(CONF, ignore_errors=True)
    DATA.mkdir(parents=True)
    TORRENTS.mkdir(parents=True)
    rng = random.Random(32)
    files = [make_torrent(i, t, rng) for i, t in enumerate(TITLES)]
    salt = hashlib.sha1(b"corpus-salt").hexdigest()
    write_config(
        "core.conf",
        {
            "download_location": str(DATA),
            "move_completed_path": str(DATA),
            "torrentfiles_location": str(DATA),
            "dht": False,
            "lsd": False,
            "upnp": False,
            "natpmp": False,
            "utpex": False,
            "new_release_check": False,
            "send_info": False,
            "listen_interface": "127.0.0.1",
            "outgoing_interface": "",
            "random_port": True,
            "listen_random_port": None,
            "max_active_seeding": 6,
            "max_active_downloading": 3,
            "max_active_limit": 8,
            "geoip_db_location": "",
            "allow_remote": False,
        },
    )
    write_config(
        "web.conf",
        {
            "pwd_salt": salt,
            "pwd_sha1": hashlib.sha1((salt + PASSWORD).encode()).hexdigest(),
            "first_login": False,
            "default_daemon": HOST_ID,
            "interface": "127.0.0.1",
            "sidebar_show_zero": False,
        },
    )
    (CONF / "auth").write_text(f"localclient:{LOCAL_PW}:10\n")
    (CONF / "auth").chmod(0o600)
    port = free_port()
    write_config("hostlist.conf", {"hosts": [[HOST_ID, "127.0.0.1", port, "localclient", LOCAL_PW]]})
    add_torrents(files, port)


def add_torrents(files: list[Path], port: int) -> None:
    """Start the checkout's daemon, add each torrent through its RPC, then shut it down (it saves its
    state on the way out)."""
    code = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from deluge.core.daemon_entry import start_daemon; start_daemon()"
    daemon = subprocess.Popen(
        [
            sys.executable,
            "-c",
            code,
            "-d",
            "-c",
            str(CONF),
            "-p",
            str(port),
            "-i",
            "127.0.0.1",
            "-u",
            "127.0.0.1",
            "-L",
            "warning",
        ],
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and daemon.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.3)
        else:
            raise SystemExit("deluge_web_seed: the daemon did not start")
        run_client(files, port)
        daemon.wait(timeout=60)
    finally:
        if daemon.poll() is None:
            daemon.kill()


def run_client(files: list[Path], port: int) -> None:
    import base64

    from deluge.ui.client import client
    from twisted.internet import defer, reactor
    from twisted.python.failure import Failure

    failure: list[str] = []

    @defer.inlineCallbacks
    def seed() -> object:
        yield client.connect("127.0.0.1", port, "localclient", LOCAL_PW)
        for n, path in enumerate(files):
            options = {"add_paused": n % 3 == 1, "download_location": str(DATA)}
            if n % 5 == 0:
                options.update(
                    max_connections=40 + n,
                    max_upload_slots=3 + n % 4,
                    max_download_speed=float(100 * (n + 1)),
                )
            yield client.core.add_torrent_file(path.name, base64.b64encode(path.read_bytes()), options)
        # the daemon saves its state and goes; the answer to this call may never come
        client.daemon.shutdown()

    def done(result: object) -> None:
        if isinstance(result, Failure):
            failure.append(str(result.value))
        reactor.callLater(0.5, reactor.stop)

    reactor.callWhenRunning(lambda: seed().addBoth(done))
    reactor.run()
    if failure:
        raise SystemExit(f"deluge_web_seed: adding the torrents failed: {failure[0]}")


if __name__ == "__main__":
    main()
