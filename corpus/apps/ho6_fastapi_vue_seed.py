"""Seed fastapi-vue (testdrivenio/fastapi-vue): a fresh SQLite file (DATABASE_URL) with the app's
tables, three users and 42 notes.

Usage: python ho6_fastapi_vue_seed.py ROOT   (ROOT = the checkout's services/ folder)

alice (the explorer's login), bob and carol (no full name), password `corpus-<name>-pw`. The
dashboard lists every note; alice can edit and delete her own. One of bob's notes holds an
<img onerror> he pasted from a log; the app must print it as text.
"""

import asyncio
import os
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

PASTED = "copied from the error log: <img src=x onerror=\"document.title='pwned'\"> see above"
TOPICS = ["groceries", "meeting", "reading list", "garden", "travel", "recipes", "budget"]


async def seed(root: Path) -> None:
    sys.path.insert(0, str(root / "backend"))
    from passlib.context import CryptContext  # type: ignore[import-not-found]
    from src.database.config import TORTOISE_ORM  # type: ignore[import-not-found]
    from src.database.models import Notes, Users  # type: ignore[import-not-found]
    from tortoise import Tortoise  # type: ignore[import-not-found]

    await Tortoise.init(config=TORTOISE_ORM)
    await Tortoise.generate_schemas()
    hasher = CryptContext(schemes=["bcrypt"], deprecated="auto")
    users = {}
    for name, full in (("alice", "Alice Archer"), ("bob", "Bob Baker"), ("carol", None)):
        users[name] = await Users.create(
            username=name, full_name=full, password=hasher.hash(f"corpus-{name}-pw")
        )
    start = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
    owners = ["alice", "bob", "alice", "carol", "bob", "alice"]
    for n in range(42):
        owner = owners[n % len(owners)]
        topic = TOPICS[n % len(TOPICS)]
        content = f"Note {n + 1} about {topic}: items to check on day {n % 28 + 1}."
        if n == 16:
            content = PASTED
        note = await Notes.create(
            title=f"{topic.capitalize()} #{n + 1}", content=content, author=users[owner]
        )
        when = start + timedelta(hours=7 * n)
        await Notes.filter(id=note.id).update(created_at=when, modified_at=when)
    await Tortoise.close_connections()


if __name__ == "__main__":
    services = Path(sys.argv[1]).resolve()
    url = os.environ.get("DATABASE_URL", "")
    database = Path(url.removeprefix("sqlite://"))
    if database.name:
        database.unlink(missing_ok=True)
    asyncio.run(seed(services))
