"""Serve the corpus's aiohttp-admin: the checkout's `aiohttp_admin` package (the admin sub-application,
its SQLAlchemy backend and the react-admin bundle the seed built into its static folder) mounted at
/admin in the few lines of aiohttp its README and examples show, over a record label's catalogue
(artists and albums, SQLAlchemy ORM models on a SQLite file the seed script fills), on loopback.
The models live here so the seed script can import them. Usage: ho13_aiohttp_admin_serve.py ROOT PORT
(ROOT is the checkout's `aiohttp_admin` folder).
"""

from __future__ import annotations

import enum
import sys
from datetime import date
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

USERS = {"admin": "corpus-admin-pw", "editor": "corpus-editor-pw"}


class Genre(enum.Enum):
    ROCK = 1
    JAZZ = 2
    FOLK = 3
    ELECTRONIC = 4
    CLASSICAL = 5
    HIPHOP = 6


class Base(DeclarativeBase):
    """The catalogue's models."""


class Artist(Base):
    __tablename__ = "artist"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(80))
    country: Mapped[str] = mapped_column(sa.String(30))
    formed: Mapped[int | None]
    bio: Mapped[str | None] = mapped_column(sa.Text)
    albums: Mapped[list[Album]] = relationship(back_populates="artist")


class Album(Base):
    __tablename__ = "album"

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(sa.String(120))
    artist_id: Mapped[int | None] = mapped_column(sa.ForeignKey(Artist.id, ondelete="SET NULL"))
    released: Mapped[date | None]
    genre: Mapped[Genre]
    price: Mapped[float] = mapped_column(sa.Float, default=9.99)
    notes: Mapped[str | None] = mapped_column(sa.Text)
    artist: Mapped[Artist | None] = relationship(back_populates="albums")


def database(root: Path) -> Path:
    return root / ".corpus-catalogue.sqlite"


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    port = int(sys.argv[2])
    sys.path.insert(0, str(root.parent))  # the checkout's aiohttp_admin, not an installed one
    import aiohttp_admin
    from aiohttp import web
    from aiohttp_admin.backends.sqlalchemy import SAResource
    from sqlalchemy.ext.asyncio import create_async_engine

    async def check_credentials(username: str, password: str) -> bool:
        return USERS.get(username) == password

    async def create_app() -> web.Application:
        engine = create_async_engine(f"sqlite+aiosqlite:///{database(root)}")
        app = web.Application()
        schema: aiohttp_admin.Schema = {
            "security": {"check_credentials": check_credentials, "secure": False},
            "resources": (
                {"model": SAResource(engine, Artist), "repr": aiohttp_admin.data("name")},
                {"model": SAResource(engine, Album), "repr": aiohttp_admin.data("title")},
            ),
            "view": {"name": "Catalogue"},
        }
        aiohttp_admin.setup(app, schema, secret=b"corpus-catalogue-secret-key-0123")

        async def home(request: web.Request) -> web.Response:
            raise web.HTTPFound("/admin")

        app.router.add_get("/", home)
        return app

    web.run_app(create_app(), host="127.0.0.1", port=port, print=None)


if __name__ == "__main__":
    main()
