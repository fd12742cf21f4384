"""Seed PluXml (held-out set 28): a fresh blog installed by the app's own installer, then filled.

Usage: ho28_pluxml_seed.py ROOT. Empties ROOT/data (PluXml keeps everything there as XML files),
runs install.php on a short-lived `php -S` (admin alice / corpus-alice-pw), writes the
categories, a second author (bob / corpus-bob-pw, a writer), 38 articles in four categories with
tags and dated over the year, and comments straight into the XML files the app reads (text escaped
as PluXml escapes it when it stores a comment; some comments offline, awaiting moderation). One
visitor comment is posted through the article's own comment form, so it is stored the way the
build under test stores it. install.php is deleted afterwards, as the app asks its admin to do.
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import http.cookiejar
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ADMIN_PASSWORD = "corpus-alice-pw"  # noqa: S105 - throwaway account of a disposable build
WRITER_PASSWORD = "corpus-bob-pw"  # noqa: S105 - throwaway account of a disposable build

CATEGORIES = [
    ("001", "News", "news", "Announcements and notes from the team."),
    ("002", "Travel", "travel", "Trips, trains and long walks."),
    ("003", "Recipes", "recipes", "What we cooked this season."),
    ("004", "Photography", "photography", "Cameras, film and light."),
]
TOPICS = {
    "001": ["Release notes", "Server move", "New theme", "Spring update", "Community call", "Roadmap"],
    "002": ["Lisbon by tram", "Night train to Vienna", "Hiking the Jura", "Porto weekend", "Lake Annecy"],
    "003": ["Lentil soup", "Sourdough basics", "Plum tart", "Green curry", "Ratatouille"],
    "004": ["Film grain", "Golden hour", "Street portraits", "Old lenses"],
}
TAGS = ["pluxml", "notes", "europe", "food", "howto", "photo", "weekend", "tips"]
VISITORS = ["Marie", "Jonas", "Ines", "Pavel", "Chloe", "Tomas", "Lea", "Omar"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _opener() -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


def _get(opener: urllib.request.OpenerDirector, url: str) -> str:
    request = urllib.request.Request(url, headers={"Accept-Language": "en"})
    with opener.open(request, timeout=30) as response:
        return response.read().decode("utf-8", "replace")


def _post(opener: urllib.request.OpenerDirector, url: str, fields: dict[str, str]) -> None:
    data = urllib.parse.urlencode(fields).encode()
    request = urllib.request.Request(url, data=data, headers={"Accept-Language": "en"})
    with opener.open(request, timeout=30) as response:
        response.read()


def _wait(base: str) -> None:
    for _ in range(100):
        try:
            with urllib.request.urlopen(base + "/install.php", timeout=5):  # noqa: S310 - loopback
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("php -S did not answer")


def _install(base: str) -> None:
    opener = _opener()
    page = _get(opener, base + "/install.php")
    token = re.search(r'name="token" value="([^"]+)"', page)
    if token is None:
        raise SystemExit("install.php shows no form token")
    fields = {
        "token": token.group(1),
        "default_lang": "en",
        "data": "1",
        "name": "Alice",
        "login": "alice",
        "password1": ADMIN_PASSWORD,
        "password2": ADMIN_PASSWORD,
        "email": "alice@example.com",
        "timezone": "UTC",
        "install": "Install",
    }
    _post(opener, base + "/install.php", fields)


def _set_params(conf: Path, values: dict[str, str]) -> None:
    path = conf / "parametres.xml"
    text = path.read_text(encoding="utf-8")
    for name, value in values.items():
        text, count = re.subn(
            rf'(<parametre name="{name}">)(?:<!\[CDATA\[[^\]]*\]\]>|[^<]*)(</parametre>)',
            rf"\g<1>{value}\g<2>",
            text,
        )
        if count != 1:
            raise SystemExit(f"parametres.xml has no single {name}")
    path.write_text(text, encoding="utf-8")


def _categories(conf: Path) -> None:
    rows = []
    for number, name, url, description in CATEGORIES:
        rows.append(
            f'\t<categorie number="{number}" active="1" homepage="1" tri="desc" bypage="5" menu="oui" '
            f'url="{url}" template="categorie.php">\n'
            f"\t\t<name><![CDATA[{name}]]></name>\n"
            f"\t\t<description><![CDATA[{description}]]></description>\n"
            "\t\t<meta_description></meta_description>\n\t\t<meta_keywords></meta_keywords>\n"
            "\t\t<title_htmltag></title_htmltag>\n\t\t<thumbnail></thumbnail>\n"
            "\t\t<thumbnail_title></thumbnail_title>\n\t\t<thumbnail_alt></thumbnail_alt>\n"
            "\t</categorie>\n"
        )
    body = '<?xml version="1.0" encoding="UTF-8"?>\n<document>\n' + "".join(rows) + "</document>"
    (conf / "categories.xml").write_text(body, encoding="utf-8")


def _add_writer(conf: Path) -> None:
    salt = "CorpusSalt"
    digest = hashlib.sha1((salt + hashlib.md5(WRITER_PASSWORD.encode()).hexdigest()).encode())  # noqa: S324 - the app's own scheme
    user = (
        '\t<user number="002" active="1" profil="4" delete="0">\n'
        "\t\t<login><![CDATA[bob]]></login>\n\t\t<name><![CDATA[Bob]]></name>\n"
        "\t\t<infos><![CDATA[<p>Writes about trains and food.</p>]]></infos>\n"
        f"\t\t<password><![CDATA[{digest.hexdigest()}]]></password>\n"
        f"\t\t<salt><![CDATA[{salt}]]></salt>\n"
        "\t\t<email><![CDATA[bob@example.com]]></email>\n\t\t<lang>en</lang>\n"
        "\t\t<last_connexion></last_connexion>\n\t\t<password_token></password_token>\n"
        "\t\t<password_token_expiry></password_token_expiry>\n\t</user>\n"
    )
    path = conf / "users.xml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("</document>", user + "</document>"), encoding="utf-8")


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def _article(title: str, number: int, tags: str, date: str) -> str:
    chapo = f"<p>{title}: a short summary of post {number}, written for the corpus.</p>"
    paragraphs = "".join(
        f"<p>Paragraph {k} of {html.escape(title)}. Plain words about the topic, nothing more.</p>\n"
        for k in range(1, 4)
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<document>\n'
        f"\t<title><![CDATA[{title}]]></title>\n\t<allow_com>1</allow_com>\n"
        "\t<template>article.php</template>\n"
        f"\t<chapo><![CDATA[{chapo}]]></chapo>\n\t<content><![CDATA[{paragraphs}]]></content>\n"
        f"\t<tags><![CDATA[{tags}]]></tags>\n\t<meta_description></meta_description>\n"
        "\t<meta_keywords></meta_keywords>\n\t<title_htmltag></title_htmltag>\n"
        f"\t<date_creation>{date}</date_creation>\n\t<date_update>{date}</date_update>\n"
        "\t<thumbnail></thumbnail>\n\t<thumbnail_alt></thumbnail_alt>\n\t<thumbnail_title></thumbnail_title>\n"
        "</document>"
    )


def _comment(author: str, content: str, mail: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<comment>\n'
        f"\t<author><![CDATA[{html.escape(author, quote=True)}]]></author>\n\t<type>normal</type>\n"
        f"\t<ip>127.0.0.1</ip>\n\t<mail><![CDATA[{mail}]]></mail>\n\t<site></site>\n"
        f"\t<content><![CDATA[{html.escape(content, quote=True)}]]></content>\n\t<parent></parent>\n"
        "</comment>"
    )


def _content(data: Path) -> list[tuple[int, str]]:
    """Write articles, tags and comments; return (number, url) of every article."""
    arts, coms, conf = data / "articles", data / "commentaires", data / "configuration"
    for old in list(arts.glob("*.xml")) + list(coms.glob("*.xml")):
        old.unlink()
    plan = [(cat, title) for cat, titles in TOPICS.items() for title in titles]
    plan += [("001", f"Weekly note {k}") for k in range(1, 9)]
    plan += [("002", f"Station diary {k}") for k in range(1, 8)]
    plan += [("003", f"Pantry list {k}") for k in range(1, 4)]
    tag_rows, made = [], []
    base = int(time.mktime((2026, 1, 5, 9, 0, 0, 0, 0, 0)))
    for index, (cat, title) in enumerate(plan, start=1):
        stamp = base + index * 6 * 86400 + (index % 7) * 3600
        date = time.strftime("%Y%m%d%H%M", time.gmtime(stamp))
        author = "002" if index % 3 == 0 else "001"
        tags = ",".join(TAGS[(index + k) % len(TAGS)] for k in range(1 + index % 2))
        url = _slug(title)
        name = f"{index:04d}.{cat}.{author}.{date}.{url}.xml"
        (arts / name).write_text(_article(title, index, tags, date), encoding="utf-8")
        tag_rows.append(
            f'\t<article number="{index:04d}" date="{date}" active="1"><![CDATA[{tags}]]></article>\n'
        )
        made.append((index, url))
        online = (index * 7) % 5  # 0..4 published comments; every fifth article has none
        for k in range(1, online + 1):
            who = VISITORS[(index + k) % len(VISITORS)]
            body = f"Comment {k} on {title}: thanks, this was useful."
            com = f"{index:04d}.{stamp + k * 3600}-{k}.xml"
            (coms / com).write_text(_comment(who, body, f"{who.lower()}@example.org"), encoding="utf-8")
        if index % 4 == 2:  # two comments awaiting moderation (offline: leading underscore)
            for k in range(online + 1, online + 3):
                com = f"_{index:04d}.{stamp + k * 3600}-{k}.xml"
                body = f"Awaiting review {k}: buy cheap watches here"
                (coms / com).write_text(_comment("Spammer", body, "spam@example.net"), encoding="utf-8")
    body = '<?xml version="1.0" encoding="UTF-8"?>\n<document>\n' + "".join(tag_rows) + "</document>"
    (conf / "tags.xml").write_text(body, encoding="utf-8")
    return made


@contextlib.contextmanager
def _installer(root: Path) -> Iterator[str]:
    """PHP's built-in server on the checkout for the seed's own requests; its base URL."""
    port = _free_port()
    php = subprocess.Popen(
        ["php", "-S", f"127.0.0.1:{port}", "-t", str(root)],
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait(base)
        yield base
    finally:
        php.terminate()
        php.wait(timeout=10)


def main(root: Path) -> None:
    data = root / "data"
    for child in data.iterdir() if data.exists() else []:
        if child.name != ".htaccess":
            shutil.rmtree(child) if child.is_dir() else child.unlink()
    if not (root / "install.php").exists():
        raise SystemExit("install.php missing: the checkout was not reset")
    with _installer(root) as base:
        _install(base)
        conf = data / "configuration"
        if not (conf / "parametres.xml").exists():
            raise SystemExit("install.php did not install")
        # A small blog's usual settings: no image captcha, comments published at once
        # (moderation happens afterwards, in the admin), the title the site shows.
        _set_params(conf, {"capcha": "0", "mod_com": "0", "title": "<![CDATA[Corpus Journal]]>"})
        _categories(conf)
        _add_writer(conf)
        made = _content(data)
        number, url = made[2]
        _post(
            _opener(),
            f"{base}/index.php?article{number}/{url}",
            {
                "name": "<script>alert(28)</script>",
                "mail": "",
                "site": "",
                "content": "Pasted from my notes, sorry about the formatting.",
                "parent": "",
            },
        )
    (root / "install.php").unlink()


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
