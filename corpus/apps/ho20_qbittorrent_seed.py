"""Seed the corpus's qBittorrent (ours, not qBittorrent's): `ho20_qbittorrent_seed.py ROOT`.

ROOT is the checkout's Web UI folder (`src/webui/www`). A fresh profile `ROOT/.corpus-qbt/` each time, for Debian's qbittorrent-nox 4.5.2 serving the
checkout's own Web UI as its alternative UI (built into `.corpus-qbt/webui/`, below):

- the configuration: the Web UI on 127.0.0.1 with the user `admin` / `corpus-admin-pw` (PBKDF2, as
  qBittorrent stores it), the legal notice accepted, and everything that would reach past this
  machine off (DHT, local peer discovery, peer exchange, UPnP/NAT-PMP, peer country lookup, RSS
  refresh); the torrent port listens on 127.0.0.1 only;
- 42 torrents made here (bencoded by hand, fixed dates and piece data, so every seed gives the same
  hashes), 26 of them with their data on disk (they check to complete), in four categories with
  sub-folders and five tags, some with two tags, trackers on 127.0.0.x ports nothing listens on,
  some trackerless, some with a comment (one comment pasted an `<img onerror>`), a few made by a tool that
  writes no "created by"; all added paused, then a handful resumed.

The torrents go in through qBittorrent's own Web API: the seed starts qbittorrent-nox once on a free
loopback port, adds them, waits until every one has checked, and shuts it down.
"""

from __future__ import annotations

import base64
import hashlib
import http.cookiejar
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

USER = "admin"
PASSWORD = "corpus-admin-pw"
PIECE = 16384
BASE_DATE = 1704067200  # 2024-01-01

CATEGORIES = {"linux-isos": "isos", "datasets": "data", "lectures": "video", "music": "audio"}
TAGS = ("archive", "keep", "nightly", "public-domain", "shared")

# name, category, tags, has data on disk, tracker hosts, comment, created by
TORRENTS: list[tuple[str, str, tuple[str, ...], bool, tuple[str, ...], str, str]] = []
DISTROS = ("debian", "fedora", "ubuntu", "arch", "alpine", "mint", "opensuse", "rocky", "alma", "void")
for i, d in enumerate(DISTROS):
    TORRENTS.append(
        (
            f"{d}-{12 + i % 3}.{i}-amd64-netinst.iso",
            "linux-isos",
            ("keep",) if i % 3 == 0 else (("nightly", "shared") if i % 3 == 1 else ()),
            i % 2 == 0,
            ("127.0.0.2",) if i % 4 else ("127.0.0.2", "127.0.0.3"),
            f"Official {d} image, see the project's release notes." if i % 2 else "",
            "mktorrent 1.1" if i != 7 else "",
        )
    )
for i, topic in enumerate(
    (
        "weather-stations",
        "census-blocks",
        "river-gauges",
        "bird-counts",
        "tide-tables",
        "air-quality",
        "traffic-counts",
        "library-loans",
        "bus-timetables",
        "tree-survey",
    )
):
    TORRENTS.append(
        (
            f"open-data-{topic}-{2015 + i}",
            "datasets",
            ("public-domain", "archive") if i % 2 else ("public-domain",),
            i % 3 != 0,
            () if i % 4 == 0 else ("127.0.0.3",),
            f"{topic.replace('-', ' ').title()} for {2015 + i}, CSV files by month." if i % 3 else "",
            "qBittorrent v4.5.2" if i != 4 else "",
        )
    )
for i, course in enumerate(
    (
        "algorithms",
        "compilers",
        "databases",
        "networks",
        "operating-systems",
        "linear-algebra",
        "statistics",
        "signals",
        "robotics",
        "cryptography",
        "graphics",
    )
):
    TORRENTS.append(
        (
            f"Lectures - {course.replace('-', ' ').title()} ({2019 + i % 4})",
            "lectures",
            ("shared",) if i % 2 else ("archive",),
            i % 2 == 0,
            ("127.0.0.4",),
            (
                "Recorded lectures <img src=x onerror=alert(document.domain)> mirror of the course page"
                if course == "networks"
                else f"All {10 + i} lectures of the {course.replace('-', ' ')} course."
            ),
            "mktorrent 1.1",
        )
    )
for i, album in enumerate(
    (
        "Goldberg Variations",
        "The Well-Tempered Clavier",
        "Brandenburg Concertos",
        "Cello Suites",
        "Four Seasons",
        "Water Music",
        "Messiah",
        "Requiem",
        "Symphony No 9",
        "Nocturnes",
        "Gymnopedies",
    )
):
    TORRENTS.append(
        (
            f"{album} - public domain recording (FLAC)",
            "music" if i % 4 else "",
            ("public-domain",) if i % 3 == 0 else (),
            i % 3 != 1,
            () if i % 5 == 0 else ("127.0.0.2",),
            "",
            "Transmission 3.00" if i % 2 else "",
        )
    )

ON_DISK = sum(1 for spec in TORRENTS if spec[3])
RESUMED = {0, 2, 11, 22, 24}  # indexes resumed after adding (complete ones seed, stalled, on loopback)


def bencode(value: object) -> bytes:
    if isinstance(value, int):
        return b"i%de" % value
    if isinstance(value, str):
        value = value.encode()
    if isinstance(value, bytes):
        return b"%d:%s" % (len(value), value)
    if isinstance(value, list):
        return b"l" + b"".join(bencode(v) for v in value) + b"e"
    if isinstance(value, dict):
        items = sorted((k.encode() if isinstance(k, str) else k, v) for k, v in value.items())
        return b"d" + b"".join(bencode(k) + bencode(v) for k, v in items) + b"e"
    raise TypeError(type(value))


def file_data(name: str, n: int, size: int) -> bytes:
    block = hashlib.sha256(f"{name}/{n}".encode()).digest()
    return (block * (size // len(block) + 1))[:size]


def make_torrent(index: int, spec: tuple, downloads: Path) -> bytes:
    name, _category, _tags, on_disk, trackers, comment, created_by = spec
    multi = index % 3 == 1
    files = (
        [(f"part-{k + 1:02d}.dat", 20000 + 7919 * ((index + k) % 5)) for k in range(3)]
        if multi
        else [(name, 30000 + 4099 * (index % 7))]
    )
    blob = b"".join(file_data(name, k, size) for k, (_, size) in enumerate(files))
    pieces = b"".join(hashlib.sha1(blob[i : i + PIECE]).digest() for i in range(0, len(blob), PIECE))
    info: dict = {"name": name, "piece length": PIECE, "pieces": pieces}
    if multi:
        info["files"] = [{"length": size, "path": [fname]} for fname, size in files]
    else:
        info["length"] = files[0][1]
    meta: dict = {"info": info, "creation date": BASE_DATE + index * 86400}
    if trackers:
        meta["announce"] = f"http://{trackers[0]}:6969/announce"
        meta["announce-list"] = [[f"http://{host}:6969/announce"] for host in trackers]
    if comment:
        meta["comment"] = comment
    if created_by:
        meta["created by"] = created_by
    if on_disk:
        offset = 0
        for fname, size in files:
            target = downloads / name / fname if multi else downloads / fname
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(blob[offset : offset + size])
            offset += size
    return bencode(meta)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pbkdf2_setting(password: str) -> str:
    salt = hashlib.sha256(b"corpus-qbt-salt").digest()[:16]
    key = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, 100000)
    return f"@ByteArray({base64.b64encode(salt).decode()}:{base64.b64encode(key).decode()})"


TRANSLATABLE = re.compile(r"QBT_TR\((([^\)]|\)(?!QBT_TR))+)\)QBT_TR\[CONTEXT=([a-zA-Z_][a-zA-Z0-9_]*)\]")


def build_webui(source: Path, target: Path) -> None:
    """The checkout's Web UI as qBittorrent serves its built-in copy in English.

    qbittorrent-nox serves an alternative UI folder as it is, so its `QBT_TR(text)QBT_TR[CONTEXT=..]`
    markers, `${LANG}` and `${CACHEID}` are replaced here the way WebApplication::translateDocument
    does for the built-in UI with no translation loaded (the source text, quotes as entities).
    """
    for path in sorted(source.rglob("*")):
        rel = path.relative_to(source).parts
        if path.is_dir() or rel[0].startswith(".") or rel[0] in ("translations", "node_modules"):
            continue
        out = target / path.relative_to(source)
        out.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix in (".html", ".js", ".css"):
            text = path.read_text(encoding="utf-8")
            text = TRANSLATABLE.sub(lambda m: m.group(1).replace("'", "&#39;").replace('"', "&#34;"), text)
            out.write_text(text.replace("${LANG}", "en").replace("${CACHEID}", "corpus"), encoding="utf-8")
        else:
            shutil.copyfile(path, out)
    # qBittorrent answers a missing file of an alternative UI with 500 ("only regular file is
    # allowed") where its built-in copy answers 404; a crawler reads a robots.txt that answers 5xx as
    # "disallow everything" (RFC 9309) and a 404 as "allow everything": an allow-all robots.txt keeps
    # the meaning the built-in copy's 404 has
    (target / "public" / "robots.txt").write_text("User-agent: *\nAllow: /\n", encoding="utf-8")


def write_config(profile: Path, webui: Path, downloads: Path) -> None:
    config = profile / "qBittorrent" / "config"
    config.mkdir(parents=True)
    (config / "qBittorrent.conf").write_text(
        "\n".join(
            [
                "[LegalNotice]",
                "Accepted=true",
                "",
                "[BitTorrent]",
                f"Session\\DefaultSavePath={downloads}",
                "Session\\DHTEnabled=false",
                "Session\\LSDEnabled=false",
                "Session\\PeXEnabled=false",
                "Session\\Interface=lo",
                "Session\\InterfaceName=lo",
                "Session\\InterfaceAddress=127.0.0.1",
                "Session\\Port=0",
                "Session\\AnonymousModeEnabled=true",
                "Session\\QueueingSystemEnabled=false",
                "",
                "[Network]",
                "PortForwardingEnabled=false",
                "",
                "[RSS]",
                "AutoDownloader\\EnableProcessing=false",
                "Session\\EnableProcessing=false",
                "",
                "[Preferences]",
                "Connection\\ResolvePeerCountries=false",
                "General\\Locale=en",
                "WebUI\\Address=127.0.0.1",
                "WebUI\\AlternativeUIEnabled=true",
                f"WebUI\\RootFolder={webui}",
                "WebUI\\CSRFProtection=true",
                "WebUI\\HostHeaderValidation=false",
                "WebUI\\LocalHostAuth=true",
                "WebUI\\UseUPnP=false",
                f"WebUI\\Username={USER}",
                f'WebUI\\Password_PBKDF2="{pbkdf2_setting(PASSWORD)}"',
                "",
            ]
        ),
        encoding="utf-8",
    )


class Api:
    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def call(self, path: str, data: dict | None = None, files: dict | None = None) -> bytes:
        headers = {"Referer": self.base + "/"}
        body = None
        if files is not None:
            boundary = uuid.uuid4().hex
            parts = []
            for key, value in (data or {}).items():
                parts.append(
                    f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode()
                )
            for key, (fname, content) in files.items():
                parts.append(
                    f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"; filename="{fname}"\r\n'
                    "Content-Type: application/x-bittorrent\r\n\r\n".encode()
                    + content
                    + b"\r\n"
                )
            body = b"".join(parts) + f"--{boundary}--\r\n".encode()
            headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
        elif data is not None:
            body = urllib.parse.urlencode(data).encode()
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        with self.opener.open(request, timeout=30) as response:
            return response.read()


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    profile = root / ".corpus-qbt"
    if profile.exists():
        shutil.rmtree(profile)
    downloads = profile / "downloads"
    downloads.mkdir(parents=True)
    webui = profile / "webui"
    build_webui(root, webui)
    write_config(profile, webui, downloads)
    torrents = [
        (spec, make_torrent(i, spec, downloads / CATEGORIES[spec[1]] if spec[1] else downloads))
        for i, spec in enumerate(TORRENTS)
    ]

    port = free_port()
    server = subprocess.Popen(
        ["qbittorrent-nox", f"--profile={profile}", f"--webui-port={port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        api = Api(port)
        deadline = time.monotonic() + 60
        while True:
            try:
                if api.call("/api/v2/auth/login", {"username": USER, "password": PASSWORD}) == b"Ok.":
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("qbittorrent-nox did not come up for the seed")
            time.sleep(0.5)
        for category, folder in CATEGORIES.items():
            api.call(
                "/api/v2/torrents/createCategory", {"category": category, "savePath": str(downloads / folder)}
            )
        api.call("/api/v2/torrents/createTags", {"tags": ",".join(TAGS)})
        hashes = []
        for spec, content in torrents:
            name, category, tags, *_ = spec
            folder = downloads / CATEGORIES[category] if category else downloads
            fields = {"paused": "true", "root_folder": "true", "autoTMM": "false", "savepath": str(folder)}
            if category:
                fields["category"] = category
            if tags:
                fields["tags"] = ",".join(tags)
            api.call("/api/v2/torrents/add", fields, {"torrents": (f"{len(hashes)}.torrent", content)})
            info = bencode_info_hash(content)
            hashes.append(info)
        # paused torrents are not checked on their own: a recheck finds the data that is on disk
        time.sleep(1)
        api.call("/api/v2/torrents/recheck", {"hashes": "all"})
        time.sleep(1)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            rows = json.loads(api.call("/api/v2/torrents/info"))
            complete = sum(1 for r in rows if r["progress"] == 1)
            busy = any(r["state"].startswith("checking") or r["state"] == "queuedForChecking" for r in rows)
            if len(rows) == len(hashes) and complete == ON_DISK and not busy:
                break
            time.sleep(0.5)
        else:
            raise SystemExit("the seeded torrents did not finish checking")
        api.call("/api/v2/torrents/resume", {"hashes": "|".join(hashes[i] for i in sorted(RESUMED))})
        time.sleep(2)
        api.call("/api/v2/app/shutdown", {})
        server.wait(timeout=60)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, 15)
            server.wait(timeout=30)
    print(f"seeded {len(hashes)} torrents into {profile}")


def bencode_info_hash(content: bytes) -> str:
    # the info dict is bencoded last-but-nothing: find its span by decoding
    start = content.index(b"4:infod") + len(b"4:info")
    end = skip(content, start)
    return hashlib.sha1(content[start:end]).hexdigest()


def skip(data: bytes, i: int) -> int:
    c = data[i : i + 1]
    if c == b"i":
        return data.index(b"e", i) + 1
    if c in (b"l", b"d"):
        i += 1
        while data[i : i + 1] != b"e":
            i = skip(data, i)
        return i + 1
    colon = data.index(b":", i)
    return colon + 1 + int(data[i:colon])


if __name__ == "__main__":
    main()
