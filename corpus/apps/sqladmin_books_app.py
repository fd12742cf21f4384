"""A small bookshop back office on SQLAdmin (Starlette + Jinja2 + WTForms), for the corpus.

Usage: python sqladmin_books_app.py ROOT PORT [--init]
  ROOT = the sqladmin checkout (imported from there, so the planted bugs in its code run),
  PORT = the loopback port; `--init` creates the tables in ROOT/corpus-books.sqlite and exits.

The application under test is SQLAdmin itself: its list view (sorting, search, sidebar filters,
`?page=`/`?pageSize=` pagination, "Showing a to b of n items"), details view, create/edit forms,
delete and its login form. This file is the site a user of the library writes, after the library's
quickstart (models, one `ModelView` per model, an `AuthenticationBackend` with a login form).
"""

import hashlib
import sys
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(sys.argv[1]).resolve()
sys.path.insert(0, str(ROOT))

from sqlalchemy import Date, ForeignKey, Integer, String, Text, create_engine, select  # noqa: E402
from sqlalchemy.orm import (  # noqa: E402
    DeclarativeBase,
    Mapped,
    Session,
    mapped_column,
    relationship,
)

DB = ROOT / "corpus-books.sqlite"
engine = create_engine(f"sqlite:///{DB}", connect_args={"check_same_thread": False})


class Base(DeclarativeBase):
    pass


class Author(Base):
    __tablename__ = "authors"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    email: Mapped[str] = mapped_column(String(120))
    country: Mapped[str] = mapped_column(String(40))
    bio: Mapped[str | None] = mapped_column(Text, nullable=True)
    books: Mapped[list["Book"]] = relationship(back_populates="author")

    def __str__(self) -> str:
        return self.name


class Book(Base):
    __tablename__ = "books"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    isbn: Mapped[str] = mapped_column(String(20))
    genre: Mapped[str] = mapped_column(String(40))
    published: Mapped[date | None] = mapped_column(Date, nullable=True)
    pages: Mapped[int] = mapped_column(Integer)
    summary: Mapped[str | None] = mapped_column(Text, nullable=True)
    author_id: Mapped[int | None] = mapped_column(ForeignKey("authors.id"), nullable=True)
    author: Mapped[Author | None] = relationship(back_populates="books")

    def __str__(self) -> str:
        return self.title


class Staff(Base):
    __tablename__ = "staff"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))


def hash_password(password: str, salt: str) -> str:
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), 100_000).hex()
    return f"{salt}${digest}"


def check_password(password: str, stored: str) -> bool:
    salt = stored.split("$", 1)[0]
    return hash_password(password, salt) == stored


def build_app() -> Any:
    from sqladmin import Admin, ModelView  # type: ignore[import-not-found]
    from sqladmin.authentication import AuthenticationBackend  # type: ignore[import-not-found]
    from sqladmin.filters import AllUniqueStringValuesFilter, ForeignKeyFilter  # type: ignore[import-not-found]
    from starlette.applications import Starlette  # type: ignore[import-not-found]
    from starlette.requests import Request  # type: ignore[import-not-found]

    class StaffLogin(AuthenticationBackend):  # type: ignore[misc]
        async def login(self, request: Request) -> bool:
            form = await request.form()
            with Session(engine) as session:
                staff = session.scalar(select(Staff).where(Staff.username == form.get("username")))
            if staff is None or not check_password(str(form.get("password", "")), staff.password_hash):
                return False
            request.session.update({"staff": staff.username})
            return True

        async def logout(self, request: Request) -> bool:
            request.session.clear()
            return True

        async def authenticate(self, request: Request) -> bool:
            return "staff" in request.session

    class AuthorAdmin(ModelView, model=Author):  # type: ignore[misc,call-arg]
        column_list = [Author.id, Author.name, Author.email, Author.country]
        column_details_list = [Author.id, Author.name, Author.email, Author.country, Author.bio, Author.books]
        column_searchable_list = [Author.name]
        column_sortable_list = [Author.id, Author.name]
        column_filters = [AllUniqueStringValuesFilter(Author.country)]
        form_excluded_columns = [Author.books]
        page_size = 10
        icon = "fa-solid fa-user"

    class BookAdmin(ModelView, model=Book):  # type: ignore[misc,call-arg]
        column_list = [Book.id, Book.title, Book.author, Book.genre, Book.published]
        column_details_list = [
            Book.id,
            Book.title,
            Book.author,
            Book.isbn,
            Book.genre,
            Book.published,
            Book.pages,
            Book.summary,
        ]
        column_searchable_list = [Book.title]
        column_sortable_list = [Book.id, Book.title, Book.published]
        column_filters = [
            AllUniqueStringValuesFilter(Book.genre),
            ForeignKeyFilter(Book.author_id, Author.name),
        ]
        page_size = 10
        icon = "fa-solid fa-book"

    app = Starlette()
    admin = Admin(
        app, engine, title="Bookshop admin", authentication_backend=StaffLogin(secret_key="corpus-not-secret")
    )
    admin.add_view(AuthorAdmin)
    admin.add_view(BookAdmin)
    return app


if __name__ == "__main__":
    if "--init" in sys.argv:
        DB.unlink(missing_ok=True)
        Base.metadata.create_all(engine)
        sys.exit(0)
    import uvicorn  # type: ignore[import-not-found]

    uvicorn.run(build_app(), host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
