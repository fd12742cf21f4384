"""Seed Bludit for the corpus through its own installer and admin panel, as a person would: a fresh
bl-content, the installer (admin password, UTC), the admin's login, the Search plugin activated
(the theme draws its search box and a "N results found" heading), then 40 published posts
(20 a page on the site, after the installer's own: 3 pages; 20 a page in the admin's content list),
each with a description and tags; four whose title and ten whose text holds "test" (the explorer's
search word, which the plugin matches fuzzily: about a dozen results, one page); three by a former
author whose account was removed;
the newest with a title someone pasted markup into. PHP's built-in server runs on a free loopback port while
the seed works and is stopped after. Run by the corpus: `python ho7_bludit_seed.py ROOT ROUTER`."""

import html
import http.cookiejar
import json
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

root, router = Path(sys.argv[1]), Path(sys.argv[2])
PASSWORD = "corpus-admin-pw"
SUBJECTS = ["harbour", "orchard", "library", "railway", "market", "lighthouse", "bakery", "valley"]
OPENINGS = [
    "Notes from the {}",
    "A morning at the {}",
    "Why the {} matters",
    "Letters about the {}",
    "The old {} reopens",
]
TEST_TITLES = [
    "Contest winners announced",
    "Latest field test",
    "Protest at the town hall",
    "Testing a new route",
]
TAGS = ["travel", "food", "history", "town"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    content = root / "bl-content"
    for child in content.iterdir():
        if child.name != ".keep":
            shutil.rmtree(child) if child.is_dir() else child.unlink()
    (root / ".htaccess").unlink(missing_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        ["php", "-S", f"127.0.0.1:{port}", "-t", str(root), str(router)],
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

        def get(path: str) -> str:
            return opener.open(base + path, timeout=30).read().decode()

        def post(path: str, fields: dict) -> str:
            data = urllib.parse.urlencode(fields).encode()
            return opener.open(base + path, data=data, timeout=30).read().decode()

        def token(html: str) -> str:
            found = re.search(r'tokenCSRF["\']?\s*[:=,]\s*["\']([0-9a-f]{20,})', html) or re.search(
                r'name="tokenCSRF"\s+value="([0-9a-f]+)"', html
            )
            if not found:
                raise SystemExit("no CSRF token on the page")
            return found.group(1)

        for _ in range(100):
            try:
                get("/install.php?language=en")
                break
            except OSError:
                time.sleep(0.2)
        post("/install.php?language=en", {"timezone": "UTC", "password": PASSWORD, "install": ""})
        page = get("/admin/login")
        post(
            "/admin/login", {"tokenCSRF": token(page), "username": "admin", "password": PASSWORD, "save": ""}
        )
        get("/admin/install-plugin/pluginSearch")
        for n in range(40):
            title = OPENINGS[n % len(OPENINGS)].format(SUBJECTS[n % len(SUBJECTS)])
            if n % 10 == 3:
                title = TEST_TITLES[n // 10]
            if n == 39:
                # the newest post: a title with pasted markup; it must show as text everywhere
                title = "<script>alert('bl')</script> Pasted snippet"
            page = get("/admin/new-content")
            post(
                "/admin/new-content",
                {
                    "tokenCSRF": token(page),
                    "title": title,
                    "content": f"<p>{html.escape(title)}. A short post written for the corpus, number {n + 1}.</p>"
                    + ("<p>The recipe was tested twice before it went up.</p>" if n % 4 == 1 else ""),
                    "description": f"Post number {n + 1} about the {SUBJECTS[n % len(SUBJECTS)]}",
                    "tags": ",".join([TAGS[n % 4], TAGS[(n + 1) % 4]]),
                    "type": "published",
                    "date": f"2026-{1 + n // 28:02d}-{1 + n % 28:02d} 09:{n % 60:02d}:00",
                    "slug": "",
                    "category": "",
                    "uuid": "",
                },
            )
    finally:
        server.terminate()
        server.wait(timeout=10)
    # the installer stored the seed's own address as the site URL; empty, Bludit takes the request's
    # host, so the links follow whatever port the corpus serves it on
    # three posts of last winter were written by a former author whose account has since been removed
    # (the clean build shows them, and edits them, without an author name)
    pages_db = content / "databases" / "pages.php"
    head, _, body = pages_db.read_text(encoding="utf-8").partition("\n")
    data = json.loads(body)
    for key in [sorted(data, key=lambda k: data[k]["date"])[n] for n in (10, 12, 14)]:
        data[key]["username"] = "marta"
    pages_db.write_text(head + "\n" + json.dumps(data, indent=4), encoding="utf-8")
    site = content / "databases" / "site.php"
    head, _, body = site.read_text(encoding="utf-8").partition("\n")
    data = json.loads(body)
    data["url"] = ""
    # 20 posts a page (the installer's 6 would leave a search's results past the sixth unreachable:
    # the theme draws no pager under them)
    data["itemsPerPage"] = 20
    site.write_text(head + "\n" + json.dumps(data, indent=4), encoding="utf-8")


if __name__ == "__main__":
    main()
