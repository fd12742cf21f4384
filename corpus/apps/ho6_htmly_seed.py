"""Seed HTMLy (a flat-file PHP blog): its config, one user, the theme's widgets, 56 posts in five
categories, comments; every cache emptied (HTMLy keeps its post index, widgets and pages there, and
a build must not read the other build's).

Usage: python ho6_htmly_seed.py ROOT   (ROOT = the htmly checkout)

site.url stays empty: HTMLy then builds its links from the request (the port is chosen after the seed).

alice (role `author`, password `corpus-alice-pw`, the explorer's login) writes half the posts and
has a profile page; bob and carol write the rest and have none (HTMLy shows a default profile).
Categories: books, cooking, design, interior-design, travel (five posts a category page, ten on the
front page). Eleven posts have published comments (one a reply); a visitor pasted an
<img onerror> into one comment; two comments wait for moderation.
"""

import json
import re
import shutil
import sys
from datetime import datetime, timedelta
from pathlib import Path

CATEGORIES = {
    "books": "Books",
    "cooking": "Cooking",
    "design": "Design",
    "interior-design": "Interior Design",
    "travel": "Travel",
}
WORDS = ["Quiet", "Harbour", "Lantern", "Copper", "Meadow", "Winter", "Paper", "Saltmarsh"]
THINGS = ["Notes", "Journal", "Weekend", "Sketches", "Lessons", "Letters", "Kitchen", "Route"]
PASTED = "Great post! copied this from the forum: <img src=x onerror=\"document.title='pwned'\"> works for me"


def config(root: Path) -> None:
    text = (root / "config" / "config.ini.example").read_text()
    values = {
        "site.url": "",
        "timezone": "UTC",
        "blog.title": "Field Notes",
        "comment.system": "local",
        "posts.perpage": "10",
        "category.perpage": "5",
        "tag.perpage": "5",
        "profile.perpage": "5",
        "views.root": "themes/blog",
        "cache.off": "true",
    }
    for key, value in values.items():
        text, found = re.subn(rf"^{re.escape(key)} = .*$", f'{key} = "{value}"', text, count=1, flags=re.M)
        if not found:
            raise SystemExit(f"config.ini.example has no {key}")
    (root / "config" / "config.ini").write_text(text)
    users = root / "config" / "users"
    users.mkdir(exist_ok=True)
    (users / "alice.ini").write_text(
        "password = corpus-alice-pw\nencryption = clear\nrole = author\nmfa_secret = disabled\n"
    )
    comments = (root / "config" / "comments.ini.example").read_text()
    for key, value in (
        ("comments.notify", "false"),
        ("comments.mail.enabled", "false"),
        ("comments.moderation", "true"),
    ):
        comments = re.sub(rf"^{re.escape(key)} = .*$", f'{key} = "{value}"', comments, flags=re.M)
    (root / "config" / "comments.ini").write_text(comments)
    themes = root / "config" / "themes"
    themes.mkdir(exist_ok=True)
    widgets = ("recent_posts", "archive", "category_list", "tagcloud")
    (themes / "blog.ini").write_text("".join(f'{name} = "true"\n' for name in widgets))


def posts(root: Path) -> None:
    content = root / "content"
    for folder in content.iterdir():
        if folder.is_dir():
            shutil.rmtree(folder)
    category_dir = content / "data" / "category"
    category_dir.mkdir(parents=True)
    for slug, title in CATEGORIES.items():
        (category_dir / f"{slug}.md").write_text(
            f"<!--t {title} t-->\n<!--d Posts about {title.lower()} d-->\n\nPosts about {title.lower()}."
        )
    (content / "alice").mkdir()
    (content / "alice" / "author.md").write_text(
        "<!--t Alice Archer t-->\n\nAlice writes about books, kitchens and rooms."
    )
    slugs = list(CATEGORIES)
    start = datetime(2024, 1, 3, 9, 30)
    authors = ["alice", "bob", "alice", "carol"]
    comments_for: dict[Path, list[dict[str, object]]] = {}
    for n in range(56):
        author = authors[n % len(authors)]
        category = slugs[(n * 3) % len(slugs)]
        when = start + timedelta(days=5 * n, hours=n % 7)
        title = f"{WORDS[n % 8]} {THINGS[(n * 5) % 8]} {n + 1}"
        slug = title.lower().replace(" ", "-")
        tags = ["weekend", "notes"] if n % 3 == 0 else ["ideas"]
        folder = content / author / "blog" / category / "post"
        folder.mkdir(parents=True, exist_ok=True)
        stamp = when.strftime("%Y-%m-%d-%H-%M-%S")
        body = (
            f"Post {n + 1} on {CATEGORIES[category].lower()}.\n\nA few paragraphs of notes, day {n % 28 + 1}."
        )
        (folder / f"{stamp}_{','.join(tags)}_{slug}.md").write_text(
            f"<!--t {title} t-->\n<!--d {title}: a short summary d-->\n<!--tag {','.join(tags)} tag-->\n\n{body}"
        )
        if n % 5 == 1:
            target = content / "comments" / author / "blog" / category / "post" / f"{stamp}_{slug}.json"
            comments_for[target] = comment_thread(n, when)
    for target, thread in comments_for.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(thread, indent=4))


def comment_thread(n: int, when: datetime) -> list[dict[str, object]]:
    base = int((when + timedelta(days=1)).timestamp())
    first = {
        "id": f"c{n}a",
        "name": ["Dana", "Eli", "Fern", "Gil"][n % 4],
        "email": f"reader{n}@mail.example",
        "comment": PASTED if n == 21 else f"Thanks for post {n + 1}, very useful.",
        "timestamp": base,
        "date": datetime.fromtimestamp(base).strftime("%Y-%m-%d %H:%M:%S"),
        "parent_id": None,
        "notify": False,
        "published": True,
        "ip": "127.0.0.1",
    }
    thread = [first]
    if n % 10 == 1:
        reply = dict(first, id=f"c{n}b", name="Alice", comment="Glad it helped!", parent_id=f"c{n}a")
        reply["timestamp"] = base + 3600
        thread.append(reply)
    if n in (6, 36):
        pending = dict(first, id=f"c{n}p", name="Hal", comment="Is there a part two?", published=False)
        pending["timestamp"] = base + 7200
        thread.append(pending)
    return thread


if __name__ == "__main__":
    checkout = Path(sys.argv[1]).resolve()
    config(checkout)
    posts(checkout)
    for cached in ("index", "widget", "page"):
        shutil.rmtree(checkout / "cache" / cached, ignore_errors=True)
