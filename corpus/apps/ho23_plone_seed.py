"""Seed for ho23_plone: a fresh Zope instance database holding one Plone Classic site.

Run by the checkout's virtualenv Python: `ho23_plone_seed.py ROOT`. Once per checkout it makes the Zope
instance (`mkwsgiinstance`, in ROOT/.corpus-plone, the WSGI port left to the start command) and, once per
distinct content script, a pristine database (`zconsole run` of ho23_plone_content.py: the site, users,
groups, content and redirects), kept as .corpus-plone/pristine-<digest>.fs; every seed then copies that
database in place, so each build starts from the same data in seconds.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CONTENT = HERE / "ho23_plone_content.py"
ZOPE_USER = "zope-root:corpus-zope-root-pw"  # the Zope root manager; the explorer logs in as a Plone user


def _instance(root: Path, bindir: Path) -> Path:
    inst = root / ".corpus-plone"
    if not (inst / "etc" / "zope.conf").is_file():
        shutil.rmtree(inst, ignore_errors=True)
        subprocess.run([str(bindir / "mkwsgiinstance"), "-d", str(inst), "-u", ZOPE_USER], check=True)
    ini = inst / "etc" / "zope.ini"
    text = ini.read_text()
    if "%(http_port)s" not in text:
        lines = ["port = %(http_port)s" if line.startswith("port =") else line for line in text.splitlines()]
        ini.write_text("\n".join(lines) + "\n")
    return inst


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    bindir = Path(sys.executable).parent
    inst = _instance(root, bindir)
    storage = inst / "var"
    digest = hashlib.sha256(CONTENT.read_bytes()).hexdigest()[:12]
    pristine = inst / f"pristine-{digest}.fs"
    for stale in storage.glob("Data.fs*"):
        stale.unlink()
    if not pristine.is_file():
        subprocess.run(
            [str(bindir / "zconsole"), "run", str(inst / "etc" / "zope.conf"), str(CONTENT)], check=True
        )
        shutil.copyfile(storage / "Data.fs", pristine)
        for stale in storage.glob("Data.fs*"):
            stale.unlink()
    shutil.copyfile(pristine, storage / "Data.fs")
    print(f"seeded {storage / 'Data.fs'} from {pristine.name}")


if __name__ == "__main__":
    main()
