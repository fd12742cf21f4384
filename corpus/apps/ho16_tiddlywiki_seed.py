"""Seed of ho16_tiddlywiki: a fresh wiki folder beside the checkout's core (`<checkout>/.corpus-wiki`).

A team's handbook of 96 tiddlers as `.tid` files: a start tiddler linking the sections, meeting notes
(tagged "Meeting" or "Meeting notes"), tasks, how-tos, contacts and incidents, one incident whose body
quotes a pasted `<script>` (TiddlyWiki shows it inert), and the settings a person would make: the site's
title, the start tiddler, and the address bar following the open tiddler (a permalink per tiddler).
Usage: python ho16_tiddlywiki_seed.py CHECKOUT
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

STAMP = "20261201090000000"


def tid(title: str, text: str, tags: str = "", **fields: str) -> str:
    head = {"title": title, "created": STAMP, "modified": STAMP, "creator": "alice", "modifier": "alice"}
    if tags:
        head["tags"] = tags
    head.update(fields)
    return "".join(f"{k}: {v}\n" for k, v in head.items()) + "\n" + text + "\n"


def pages() -> list[tuple[str, str]]:
    people = ["Ana", "Bruno", "Carla", "Dmitri", "Elena", "Farid", "Greta", "Hiro"]
    out: list[tuple[str, str]] = []
    for i in range(1, 25):
        tags = "Meeting" if i % 2 else "[[Meeting notes]]"
        who = ", ".join(people[(i + k) % len(people)] for k in range(3))
        out.append(
            (
                f"Weekly sync {i:02d}",
                tid(
                    f"Weekly sync {i:02d}",
                    f"Attendees: {who}.\n\n* Release status reviewed\n* Backlog item {i} moved to next week\n"
                    f"* Next sync: [[Weekly sync {i + 1:02d}]]",
                    tags,
                ),
            )
        )
    chores = [
        "Renew certificates",
        "Clean up the wiki",
        "Order laptops",
        "Plan the offsite",
        "Update the runbook",
    ]
    for i in range(1, 31):
        owner = people[i % len(people)]
        title = f"Task {i:02d}: {chores[i % len(chores)]}"
        out.append(
            (
                title,
                tid(
                    title,
                    f"Owner: {owner}\n\nDue in week {i + 40}. See [[How to file a task]].",
                    "Task",
                    owner=owner,
                ),
            )
        )
    for topic in (
        ["file a task", "request leave", "book a meeting room", "reset a password", "deploy the website",
         "rotate the on-call", "order equipment", "onboard a new hire", "write a post-mortem", "archive a project",
         "set up the VPN", "share a calendar"]
    ):  # fmt: skip
        title = f"How to {topic}"
        out.append(
            (
                title,
                tid(
                    title,
                    f"Steps to {topic}:\n\n# Open the form\n# Fill it in\n# Ask [[Ana]] if stuck",
                    "Howto",
                ),
            )
        )
    for name in people:
        out.append(
            (
                name,
                tid(
                    name,
                    f"{name} works on the platform team. Phone extension {100 + len(name) * 7}.",
                    "Contact",
                ),
            )
        )
    for i in range(1, 19):
        title = f"Incident {i:02d}"
        out.append(
            (
                title,
                tid(
                    title,
                    f"Service degraded for {i * 5} minutes. Root cause in [[Weekly sync {i:02d}]].",
                    "Incident",
                ),
            )
        )
    out.append(
        (
            "Intranet banner",
            tid(
                "Intranet banner",
                "The intranet showed this banner on Monday; pasted as it came:\n\n"
                "<script>document.title='pwned-ho16'</script>\n\nReported by [[Carla]].",
                "Incident",
            ),
        )
    )
    sections = "\n".join(
        f"* [[{tag}]]: <$list filter='[tag[{tag}]]' emptyMessage='none'><$link/>, </$list>"
        for tag in ["Task", "Howto", "Contact", "Incident"]
    )
    out.append(
        (
            "Team handbook",
            tid(
                "Team handbook",
                "Welcome to the platform team's handbook.\n\n"
                "Meetings: see the [[Meeting]] and [[Meeting notes]] tags.\n\n" + sections,
            ),
        )
    )
    for tag in ["Meeting", "Meeting notes", "Task", "Howto", "Contact", "Incident"]:
        out.append((tag, tid(tag, f"<<list-links filter:'[tag[{tag}]sort[title]]'>>")))
    settings = {
        "$:/SiteTitle": "Platform team handbook",
        "$:/SiteSubtitle": "notes, tasks and how-tos",
        "$:/DefaultTiddlers": "[[Team handbook]]",
        "$:/config/Navigation/UpdateAddressBar": "permalink",
    }
    for title, text in settings.items():
        out.append((title, tid(title, text)))
    return out


def main() -> None:
    checkout = Path(sys.argv[1]).resolve()
    wiki = checkout / ".corpus-wiki"
    shutil.rmtree(wiki, ignore_errors=True)
    (wiki / "tiddlers").mkdir(parents=True)
    info = {
        "description": "ho16: a team handbook served by TiddlyWiki's own server",
        "plugins": ["tiddlywiki/tiddlyweb", "tiddlywiki/filesystem"],
        "themes": ["tiddlywiki/vanilla", "tiddlywiki/snowwhite"],
    }
    (wiki / "tiddlywiki.info").write_text(json.dumps(info, indent=2), encoding="utf-8")
    for i, (_title, body) in enumerate(pages()):
        (wiki / "tiddlers" / f"t{i:03d}.tid").write_text(body, encoding="utf-8")
    print(f"seeded {wiki}: {len(pages())} tiddlers")


if __name__ == "__main__":
    main()
