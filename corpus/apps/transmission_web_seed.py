"""Seed `transmission_web`: a fresh daemon folder with 35 small torrents, added over the daemon's RPC.

Usage: transmission_web_seed.py ROOT. Writes ROOT/.corpus-transmission (settings.json, the data the
torrents describe, the daemon's resume files): the daemon is started once on a free loopback port,
the torrents are added through `torrent-add` (some paused, some with their data missing so they stay
incomplete, some multi-file), and the daemon is stopped. Every tracker is a closed loopback port and
DHT, LPD, PEX, uTP and port forwarding are off: nothing leaves the machine. One torrent's name is a
pasted `<img onerror>` and one's comment
holds one (the list and the inspector must print them as text).
"""

from __future__ import annotations

import base64
import hashlib
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

ROOT = Path(sys.argv[1]).resolve()
CONF = ROOT / ".corpus-transmission"
DATA = CONF / "data"
PIECE = 16384
WORDS = (
    "ubuntu-server debian-netinst fedora-workstation arch-linux alpine-virt mint-cinnamon opensuse-leap "
    "freebsd-disc1 openbsd-install gentoo-minimal slackware-dvd manjaro-kde rocky-minimal alma-boot "
    "kali-live tails-amd64 void-musl nixos-plasma elementary-os zorin-core pop-os-nvidia mx-linux "
    "endeavour-os garuda-dragon solus-budgie clear-linux parrot-security qubes-os haiku-nightly "
    "reactos-boot kolibri-img trisquel-mini pureos-gnome devuan-daedalus"
).split()
PAYLOAD = "<img src=x onerror=\"alert('tr-xss')\">"
COMMENT_PAYLOAD = "Mirror notes <img src=x onerror=\"alert('tr-comment')\">"


def bencode(value: object, out: bytearray | None = None) -> bytes:
    """BitTorrent's encoding of `value` (ints, strings, bytes, lists, dicts with sorted keys)."""
    buf = bytearray() if out is None else out
    match value:
        case bool() | int():
            buf += f"i{int(value)}e".encode()
        case str() | bytes():
            raw = value.encode() if isinstance(value, str) else value
            buf += str(len(raw)).encode() + b":" + raw
        case list():
            buf += b"l"
            for item in value:
                bencode(item, buf)
            buf += b"e"
        case dict():
            buf += b"d"
            for key in sorted(value, key=lambda k: k.encode()):
                bencode(key, buf)
                bencode(value[key], buf)
            buf += b"e"
        case _:
            raise TypeError(type(value))
    return bytes(buf)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def make_torrent(index: int, name: str, multi: bool) -> bytes:
    """Write the data of torrent `index` under DATA and return its metainfo."""
    blobs: list[tuple[list[str], bytes]] = []
    count = 3 if multi else 1
    for k in range(count):
        body = hashlib.sha256(f"{name}-{k}".encode()).digest() * (200 + 37 * index + 11 * k)
        blobs.append(([f"part-{k + 1}.bin"] if multi else [], body))
    whole = b"".join(b for _, b in blobs)
    pieces = b"".join(hashlib.sha1(whole[i : i + PIECE]).digest() for i in range(0, len(whole), PIECE))
    info: dict[str, object] = {"name": name, "piece length": PIECE, "pieces": pieces}
    if multi:
        (DATA / name).mkdir(parents=True, exist_ok=True)
        for path, body in blobs:
            (DATA / name / path[0]).write_bytes(body)
        info["files"] = [{"length": len(b), "path": p} for p, b in blobs]
    else:
        (DATA / name).write_bytes(whole)
        info["length"] = len(whole)
    meta: dict[str, object] = {
        "announce": f"http://127.0.0.1:9/announce/{index}",
        "info": info,
        "created by": "corpus seed",
        "creation date": 1700000000 + index * 3600,
    }
    if index == 8:
        meta["comment"] = COMMENT_PAYLOAD
    elif index % 4 == 0:
        meta["comment"] = f"Release notes for {name}"
    return bencode(meta)


class Rpc:
    def __init__(self, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}/transmission/rpc"
        self.token = ""

    def __call__(self, method: str, **arguments: object) -> dict[str, object]:
        body = json.dumps({"method": method, "arguments": arguments}).encode()
        for _ in range(3):
            request = urllib.request.Request(self.url, data=body, method="POST")
            request.add_header("X-Transmission-Session-Id", self.token)
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    result: dict[str, object] = json.loads(answer.read())
                    return result
            except urllib.error.HTTPError as error:
                if error.code != 409:
                    raise
                self.token = error.headers["X-Transmission-Session-Id"]
        raise RuntimeError("no session id")


def settings(rpc_port: int) -> dict[str, object]:
    return {
        "download-dir": str(DATA),
        "incomplete-dir-enabled": False,
        "dht-enabled": False,
        "lpd-enabled": False,
        "pex-enabled": False,
        "utp-enabled": False,
        "port-forwarding-enabled": False,
        "peer-port-random-on-start": True,
        "peer-port-random-low": 49152,
        "peer-port-random-high": 65000,
        "bind-address-ipv4": "127.0.0.1",
        "bind-address-ipv6": "::1",
        "blocklist-enabled": False,
        "blocklist-url": "http://127.0.0.1:9/blocklist",
        "rpc-bind-address": "127.0.0.1",
        "rpc-port": rpc_port,
        "rpc-authentication-required": False,
        "rpc-whitelist-enabled": True,
        "rpc-whitelist": "127.0.0.1",
        "rpc-host-whitelist-enabled": False,
        "speed-limit-down": 250,
        "speed-limit-down-enabled": True,
        "seedRatioLimit": 2.5,
        "seedRatioLimited": True,
        "message-level": 1,
    }


def main() -> None:
    shutil.rmtree(CONF, ignore_errors=True)
    DATA.mkdir(parents=True)
    port = free_port()
    (CONF / "settings.json").write_text(json.dumps(settings(port), indent=1), encoding="utf-8")
    daemon = subprocess.Popen(
        ["transmission-daemon", "-f", "-g", str(CONF)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        rpc = Rpc(port)
        for _ in range(100):
            try:
                rpc("session-get")
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        names = WORDS[:35] + [PAYLOAD]
        for index, name in enumerate(names):
            meta = make_torrent(index, name, multi=index % 5 == 2)
            if index % 9 == 4:  # incomplete: the data was never there
                target = DATA / name
                shutil.rmtree(target) if target.is_dir() else target.unlink()
            answer = rpc(
                "torrent-add",
                metainfo=base64.b64encode(meta).decode(),
                paused=index % 3 == 1,
                **({"peer-limit": 40} if index % 6 == 0 else {}),
            )
            assert answer.get("result") == "success", answer
        time.sleep(3)  # let the daemon verify the data and write its resume files
        rpc("session-close")
        daemon.wait(timeout=20)
    finally:
        if daemon.poll() is None:
            os.killpg(daemon.pid, signal.SIGTERM)
            daemon.wait(timeout=10)
    print(f"seeded {len(names)} torrents in {CONF}")


if __name__ == "__main__":
    main()
