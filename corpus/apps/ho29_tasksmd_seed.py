"""Seed Tasks.md for the corpus: a fresh data folder `.corpus-data/` under the checkout — `tasks/` with
four lanes (folders) of Markdown cards (files; tags and due dates are `[tag:…]` and
`[due:…]` in the text, many cards with two tags), one card with a pasted `<script>` as a tag, and
`config/` with the stylesheets the app's entrypoint would copy there. Usage: ho29_tasksmd_seed.py ROOT.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

LANES = {
    "Backlog": 14,
    "In progress": 9,
    "Review": 7,
    "Done": 12,
}
TOPICS = [
    "Login page",
    "Search index",
    "Invoice export",
    "Backup job",
    "Upload limits",
    "Dark theme",
    "Audit log",
    "Password reset",
    "API tokens",
    "Release notes",
    "Mobile menu",
    "Rate limiter",
    "Cache warmup",
    "Sitemap",
    "Email digest",
    "Image resize",
    "CSV import",
    "Error pages",
    "Onboarding tour",
    "Webhooks",
    "Sessions cleanup",
]
TAGS = ["frontend", "backend", "docs", "infra", "urgent"]
XSS_TAG = "<script>alert('corpus-xss')</script>"


def main(root: Path) -> None:
    data = root / ".corpus-data"
    shutil.rmtree(data, ignore_errors=True)
    tasks = data / "tasks"
    config = data / "config"
    n = 0
    for lane, count in LANES.items():
        (tasks / lane).mkdir(parents=True)
        for i in range(count):
            topic = TOPICS[n % len(TOPICS)]
            name = topic if n < len(TOPICS) else f"{topic} follow-up"
            tags = [TAGS[n % len(TAGS)]]
            if n % 3 == 0:
                tags.append(TAGS[(n + 2) % len(TAGS)])
            head = " ".join(f"[tag:{t}]" for t in tags)
            due = f" [due:2026-12-{10 + n % 18:02d}]" if n % 4 == 1 else ""
            body = (
                f"{head}{due}\n\n{name}: see the notes in the wiki.\n\n- [ ] first step\n- [ ] second step\n"
            )
            if lane == "Review" and i == 2:
                name = "Security review"
                body = f"[tag:backend] [tag:{XSS_TAG}]\n\nPasted from the bug report.\n"
            (tasks / lane / f"{name}.md").write_text(body)
            n += 1
    (config / "images").mkdir(parents=True)
    styles = config / "stylesheets"
    shutil.copytree(root / "static" / "stylesheets", styles, dirs_exist_ok=True)
    (styles / "custom.css").write_text("@import url(/stylesheets/color-themes/adwaita.css)\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
