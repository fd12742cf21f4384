"""Seed Radicale for the corpus: a fresh collection store and a plain htpasswd file.

Usage: ho25_radicale_seed.py ROOT. Everything goes under ROOT/corpus-data: `users` (plain
htpasswd: alice/corpus-alice-pw, the explorer's; bob/corpus-bob-pw) and the multifilesystem store
`collections/collection-root/<user>/<collection>/` with Radicale's own `.Radicale.props` and one
file per item. Alice has eleven collections (calendars, task lists, address books): a calendar
whose title is not Latin-1, one without a colour, one whose description a colleague pasted with a
`<script>` in it, and two to three dozen items in the larger ones.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

CAL = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//corpus//seed//EN\r\nBEGIN:{comp}\r\nUID:{uid}\r\n"
    "DTSTAMP:20260101T090000Z\r\nDTSTART:202601{day:02d}T{hour:02d}0000Z\r\n"
    "{end}SUMMARY:{summary}\r\nEND:{comp}\r\nEND:VCALENDAR\r\n"
)
CARD = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:{uid}\r\nFN:{name}\r\nN:{last};{first};;;\r\nEMAIL:{email}\r\nEND:VCARD\r\n"
FIRST = ["Ann", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou"]
LAST = ["Vole", "Otter", "Heron", "Wren", "Stoat", "Finch"]

# (folder, props, items: (kind, count))
COLLECTIONS: list[tuple[str, dict[str, str], str, int]] = [
    (
        "work",
        {
            "D:displayname": "Work",
            "C:calendar-description": "Meetings and deadlines",
            "ICAL:calendar-color": "#3a7bd5ff",
        },
        "VEVENT",
        34,
    ),
    (
        "home",
        {
            "D:displayname": "Home",
            "C:calendar-description": "Family calendar",
            "ICAL:calendar-color": "#e67e22ff",
        },
        "VEVENT",
        21,
    ),
    (
        "rota",
        {
            "D:displayname": "Night rota",
            "ICAL:calendar-color": "#8e44adff",
            "C:calendar-description": "Rota for the night shift <script>alert('rota')</script>",
        },
        "VEVENT",
        12,
    ),
    (
        "tokyo",
        {
            "D:displayname": "東京オフィス",
            "C:calendar-description": "Tokyo office holidays",
            "ICAL:calendar-color": "#c0392bff",
        },
        "VEVENT",
        9,
    ),
    (
        "garden",
        {"D:displayname": "Garden", "C:calendar-description": "Sowing and harvest dates"},
        "VEVENT",
        7,
    ),
    (
        "chores",
        {
            "D:displayname": "Chores",
            "C:calendar-description": "Weekly tasks",
            "ICAL:calendar-color": "#27ae60ff",
        },
        "VTODO",
        15,
    ),
    (
        "reading",
        {
            "D:displayname": "Reading list",
            "C:calendar-description": "Books to read",
            "ICAL:calendar-color": "#16a085ff",
        },
        "VTODO",
        6,
    ),
    (
        "club",
        {
            "D:displayname": "Chess club",
            "C:calendar-description": "Fixtures and results",
            "ICAL:calendar-color": "#7f8c8dff",
        },
        "VEVENT",
        0,
    ),
    (
        "contacts",
        {"D:displayname": "Contacts", "CR:addressbook-description": "Friends and family"},
        "VCARD",
        30,
    ),
    (
        "suppliers",
        {"D:displayname": "Suppliers", "CR:addressbook-description": "Trade contacts"},
        "VCARD",
        11,
    ),
    ("team", {"D:displayname": "Team", "CR:addressbook-description": "Colleagues"}, "VCARD", 8),
]


def item_text(kind: str, folder: str, n: int) -> str:
    uid = f"{folder}-{n}@corpus.example"
    if kind == "VCARD":
        first, last = FIRST[n % len(FIRST)], LAST[n % len(LAST)]
        return CARD.format(
            uid=uid,
            name=f"{first} {last}",
            first=first,
            last=last,
            email=f"{first.lower()}.{n}@corpus.example",
        )
    end = f"DTEND:202601{n % 28 + 1:02d}T{n % 12 + 9:02d}3000Z\r\n" if kind == "VEVENT" else ""
    return CAL.format(
        comp=kind, uid=uid, day=n % 28 + 1, hour=n % 12 + 8, end=end, summary=f"{folder.title()} item {n + 1}"
    )


def write_collection(root: Path, folder: str, props: dict[str, str], kind: str, count: int) -> None:
    path = root / folder
    path.mkdir(parents=True)
    meta = dict(props)
    if kind == "VCARD":
        meta["tag"] = "VADDRESSBOOK"
    else:
        meta["tag"] = "VCALENDAR"
        meta["C:supported-calendar-component-set"] = kind
    (path / ".Radicale.props").write_text(json.dumps(meta), encoding="utf-8")
    suffix = ".vcf" if kind == "VCARD" else ".ics"
    for n in range(count):
        (path / f"{folder}-{n}{suffix}").write_text(item_text(kind, folder, n), encoding="utf-8")


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    data = root / "corpus-data"
    shutil.rmtree(data, ignore_errors=True)
    (data / "collections").mkdir(parents=True)
    (data / "users").write_text("alice:corpus-alice-pw\nbob:corpus-bob-pw\n", encoding="utf-8")
    alice = data / "collections" / "collection-root" / "alice"
    for folder, props, kind, count in COLLECTIONS:
        write_collection(alice, folder, props, kind, count)
    write_collection(
        data / "collections" / "collection-root" / "bob",
        "bob-cal",
        {"D:displayname": "Bob's calendar", "ICAL:calendar-color": "#2c3e50ff"},
        "VEVENT",
        5,
    )


if __name__ == "__main__":
    main()
