"""Seed the corpus's Mylar3: a fresh data folder (`.corpus-data/`) with a config.ini (127.0.0.1 only, the
form login keeper / corpus-keeper-pw, no GitHub or Comic Vine checks, the paged series table instead of
the alphabetical index) and a mylar.db whose comics, issues and snatched tables are made with the CREATE
statements of the checkout's own dbcheck() (Mylar adds the rest of its schema when it starts). 64 series
(the series table shows 25 a page: three pages), each with 6-14 issues numbered from the series' first
issue (some volumes start after #1), some issues downloaded, a few series paused, four with no publisher on
record, three with "Test" in the name (the explorer's search word); 45 history rows (snatched) for the
history table; an empty publisher-imprint list in the cache (see below). Usage: ho22_mylar_seed.py ROOT
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import sys
from pathlib import Path

CONFIG = """[Interface]
http_host = 127.0.0.1
http_port = 8090
launch_browser = False
authentication = 2
http_username = keeper
http_password = corpus-keeper-pw
http_root = /
alphaindex = False
cherrypy_logging = False

[Update]
check_github = False
check_github_on_startup = False

[General]
auto_update = False
launch_browser = False
enable_rss = False
destination_dir = {comics}
cache_dir = {cache}

[Git]
check_github = False
check_github_on_startup = False
"""

PUBLISHERS = ["Image", "IDW Publishing", "Dark Horse Comics", "Oni Press", "Fantagraphics", "Boom! Studios"]
WORDS = [
    "River",
    "Glass",
    "Winter",
    "Harbour",
    "Lantern",
    "Orchard",
    "Signal",
    "Atlas",
    "Meridian",
    "Copper",
    "Garden",
    "Tide",
    "Ember",
    "Quarry",
    "Echo",
    "Hollow",
    "Compass",
    "Bridge",
    "Falcon",
]


def _create_statements(root: Path) -> list[str]:
    """The app's own CREATE TABLE statements for the tables filled here (from mylar/__init__.py)."""
    source = (root / "mylar" / "__init__.py").read_text(encoding="utf-8")
    statements = []
    for table in ("comics", "issues", "snatched"):
        found = re.search(r"c\.execute\('(CREATE TABLE IF NOT EXISTS " + table + r" \([^']*\))'\)", source)
        if found is None:
            raise SystemExit(f"no CREATE TABLE for {table} in mylar/__init__.py")
        statements.append(found.group(1))
    return statements


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit("usage: ho22_mylar_seed.py ROOT")
    root = Path(sys.argv[1]).resolve()
    data = root / ".corpus-data"
    shutil.rmtree(data, ignore_errors=True)
    comics_dir = data / "comics"
    cache = data / "cache"
    comics_dir.mkdir(parents=True)
    cache.mkdir()
    (data / "config.ini").write_text(CONFIG.format(comics=comics_dir, cache=cache), encoding="utf-8")
    # Mylar fetches its publisher-imprint list from the web when the cache has none fresher than a day, and
    # offline leaves its series order unset (every series page then fails): an empty list, written now
    (cache / "imprints.json").write_text('{"publishers": []}', encoding="utf-8")

    db = sqlite3.connect(data / "mylar.db")
    for statement in _create_statements(root):
        db.execute(statement)
    test_series = {11, 29, 47}
    no_publisher = {6, 23, 40, 57}
    history = 0
    for n in range(1, 65):
        comic_id = str(100000 + n)
        name = (
            f"Test Signal {n}"
            if n in test_series
            else f"{WORDS[n % len(WORDS)]} {WORDS[(n * 7) % len(WORDS)]}"
        )
        year = str(1990 + (n * 3) % 34)
        total = 6 + n % 9
        first = 1 + (n % 4) * 5  # a later volume picks up the numbering of the one before
        have = n % (total + 1)
        status = "Paused" if n % 13 == 0 else "Active"
        publisher = None if n in no_publisher else PUBLISHERS[n % len(PUBLISHERS)]
        latest = first + total - 1
        location = comics_dir / f"{name} ({year})"
        location.mkdir(exist_ok=True)
        db.execute(
            "INSERT INTO comics (ComicID, ComicName, ComicSortName, ComicYear, DateAdded, Status, Have, Total,"
            " ComicPublisher, ComicLocation, ComicPublished, LatestIssue, intLatestIssue, LatestDate, Description,"
            " AlternateSearch, UseFuzzy, ComicVersion, DetailURL, ForceContinuing, ComicName_Filesafe,"
            " DynamicComicName, AllowPacks, Type, LastUpdated)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                comic_id,
                name,
                name.lower(),
                year,
                "2026-11-01",
                status,
                have,
                total,
                publisher,
                str(location),
                f"January {year} - Present",
                str(latest),
                latest * 1000,
                f"2026-{1 + n % 11:02d}-15",
                f"<p>{name} follows the keepers of the {WORDS[(n * 5) % len(WORDS)].lower()}.</p>",
                f"{name} Vol {1 + n % 4}##{WORDS[(n * 3) % len(WORDS)]} Tales",
                "0",
                f"v{1 + n % 4}",
                f"https://comicvine.gamespot.com/volume/4050-{comic_id}/",
                0,
                name,
                name.lower().replace(" ", ""),
                "0",
                "Print",
                "2026-11-02 10:00:00",
            ),
        )
        for k in range(total):
            number = first + k
            issue_id = f"{comic_id}{k:03d}"
            downloaded = k < have
            db.execute(
                "INSERT INTO issues (IssueID, ComicName, IssueName, Issue_Number, DateAdded, Status, ComicID,"
                " ReleaseDate, IssueDate, Int_IssueNumber, ComicSize, Location)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    issue_id,
                    name,
                    f"Chapter {number}",
                    str(number),
                    "2026-11-01",
                    "Downloaded" if downloaded else ("Wanted" if k == have else "Skipped"),
                    comic_id,
                    f"{2000 + n % 24}-{1 + k % 12:02d}-01",
                    f"{2000 + n % 24}-{1 + k % 12:02d}-01",
                    number * 1000,
                    str(20_000_000 + k * 1000) if downloaded else None,
                    None,
                ),
            )
            if downloaded and history < 45 and k % 2 == 0:
                history += 1
                db.execute(
                    "INSERT INTO snatched (IssueID, ComicName, Issue_Number, Size, DateAdded, Status, FolderName,"
                    " ComicID, Provider) VALUES (?,?,?,?,?,?,?,?,?)",
                    (
                        issue_id,
                        name,
                        str(number),
                        20_000_000 + k * 1000,
                        f"2026-11-{1 + history % 28:02d} 12:00:00",
                        "Post-Processed" if history % 3 else "Snatched",
                        f"{name} #{number}",
                        comic_id,
                        "DDL",
                    ),
                )
    db.commit()
    db.close()
    print(f"seeded: 64 series, {history} history rows in {data}")


if __name__ == "__main__":
    main()
