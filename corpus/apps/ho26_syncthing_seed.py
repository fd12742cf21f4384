"""Seed Syncthing 1.19 (held-out set 26): a fresh home with folders and remote devices, loopback only.

Usage: ho26_syncthing_seed.py ROOT. Makes ROOT/.corpus-st/home (keys and config.xml, by Syncthing's
own `generate`) and ROOT/.corpus-st/data (the folders' files). Everything that would reach past the
loopback is switched off in the config: global and local discovery, relays, NAT, usage reporting,
crash reporting, upgrade checks; remote devices have loopback addresses nobody listens on, so they
stay disconnected.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

_B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

DEVICES = [
    "laptop-alice",
    "desktop-office",
    "nas-basement",
    "phone-bob",
    "tablet-carol",
    "server-backup",
    "raspberry-pi",
    "laptop-dave",
    "workstation-eve",
    "phone-frank",
    "media-center",
    "old-macbook",
    "build-server",
    'kiosk <script>alert("device")</script>',
]
# (id, label, type, files, devices shared with (indexes into DEVICES))
FOLDERS = [
    ("docs-4xk2", "Documents", "sendreceive", 24, [0, 1, 2, 5]),
    ("photos-9qa1", "Photos", "sendreceive", 40, [0, 2, 3, 4]),
    ("camera-uploads", "Camera Uploads", "receiveonly", 37, [3]),
    ("music-lib", "", "sendonly", 15, [2, 10]),
    ("projects-7hz0", "Projects", "sendreceive", 18, [0, 7, 8, 12]),
    ("backup-cfg", "Config Backups", "sendreceive", 6, [5, 12]),
    ("notes-sh2", "Notes", "sendreceive", 11, [0, 3, 4, 9, 13]),
    ("scans-archive", "Scanned Letters", "receiveonly", 4, [1]),
]


def _luhn32(chunk: str) -> str:
    factor, total = 1, 0
    for ch in chunk:
        addend = factor * _B32.index(ch)
        factor = 1 if factor == 2 else 2
        total += addend // 32 + addend % 32
    return _B32[(32 - total % 32) % 32]


def device_id(seed: str) -> str:
    """A well-formed device ID (base32 of a SHA-256 with Syncthing's Luhn check characters)."""
    raw = ""
    digest = hashlib.sha256(seed.encode()).digest()
    bits = int.from_bytes(digest, "big") << 4  # 256 bits -> 52 base32 characters
    raw = "".join(_B32[(bits >> (5 * (51 - i))) & 31] for i in range(52))
    parts = [raw[i * 13 : (i + 1) * 13] for i in range(4)]
    full = "".join(p + _luhn32(p) for p in parts)
    return "-".join(full[i * 7 : (i + 1) * 7] for i in range(8))


def _set(options: ET.Element, name: str, value: str) -> None:
    node = options.find(name)
    if node is None:
        node = ET.SubElement(options, name)
    node.text = value


def _folder(cfg: ET.Element, template: ET.Element, spec: tuple, data: Path, own: str, ids: list[str]) -> None:
    fid, label, ftype, nfiles, shared = spec
    path = data / fid
    path.mkdir(parents=True)
    for n in range(1, nfiles + 1):
        ext = {"photos-9qa1": "jpg", "camera-uploads": "jpg", "music-lib": "mp3"}.get(fid, "txt")
        (path / f"{fid.split('-')[0]}-{n:03d}.{ext}").write_text(f"{fid} item {n}\n" * (n % 7 + 1))
    if ftype == "receiveonly":
        # a sub-folder added locally too: its directory is one more locally changed item
        (path / "added-here").mkdir()
        for n in range(1, 3):
            (path / "added-here" / f"extra-{n}.txt").write_text(f"added locally {n}\n")
    folder = ET.fromstring(ET.tostring(template))
    folder.set("id", fid)
    folder.set("label", label)
    folder.set("path", str(path))
    folder.set("type", ftype)
    folder.set("fsWatcherEnabled", "false")
    folder.set("rescanIntervalS", "3600" if fid != "backup-cfg" else "600")
    for dev in folder.findall("device"):
        folder.remove(dev)
    for did in [own, *(ids[i] for i in shared)]:
        dev = ET.Element("device", {"id": did, "introducedBy": ""})
        ET.SubElement(dev, "encryptionPassword").text = ""
        folder.insert(1, dev)
    if fid == "docs-4xk2":
        versioning = folder.find("versioning")
        versioning.set("type", "simple")
        ET.SubElement(versioning, "param", {"key": "keep", "val": "7"})
        ET.SubElement(versioning, "param", {"key": "cleanoutDays", "val": "30"})
    cfg.insert(0, folder)


def main(root: Path) -> None:
    base = root / ".corpus-st"
    if base.exists():
        shutil.rmtree(base)
    home, data = base / "home", base / "data"
    data.mkdir(parents=True)
    env = {**os.environ, "STNODEFAULTFOLDER": "1"}
    subprocess.run(
        ["syncthing", "generate", f"--home={home}", "--no-default-folder", "--skip-port-probing"],
        check=True,
        capture_output=True,
        env=env,
    )
    tree = ET.parse(home / "config.xml")
    cfg = tree.getroot()
    own_dev = cfg.find("device")
    own = own_dev.get("id")
    own_dev.set("name", "this-box")
    options = cfg.find("options")
    for name, value in {
        "listenAddress": "tcp://127.0.0.1:0",
        "globalAnnounceEnabled": "false",
        "localAnnounceEnabled": "false",
        "relaysEnabled": "false",
        "natEnabled": "false",
        "urAccepted": "-1",
        "urSeen": "3",
        "autoUpgradeIntervalH": "0",
        "crashReportingEnabled": "false",
        "startBrowser": "false",
        "stunServer": "",
        "reconnectionIntervalS": "3600",
        "unackedNotificationID": "",
    }.items():
        _set(options, name, value)
    template = cfg.find("defaults").find("folder")
    ids = [device_id(f"corpus-{name}") for name in DEVICES]
    for i, (name, did) in enumerate(zip(DEVICES, ids, strict=True)):
        dev = ET.fromstring(ET.tostring(own_dev))
        dev.set("id", did)
        dev.set("name", name)
        dev.set("introducer", "true" if name == "server-backup" else "false")
        dev.find("address").text = f"tcp://127.0.0.1:{1 + i}"
        if name == "nas-basement":
            ET.SubElement(dev, "address").text = "tcp://127.0.0.1:22999"
        cfg.insert(list(cfg).index(own_dev) + 1 + i, dev)
    for spec in reversed(FOLDERS):
        _folder(cfg, template, spec, data, own, ids)
    tree.write(home / "config.xml", encoding="unicode")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
