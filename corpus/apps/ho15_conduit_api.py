"""A small RealWorld ("Conduit") API on SQLite, for the two front ends of held-out set 15.

Both apps of the set are RealWorld front ends, which talk to a Conduit API (the spec at
realworld-docs: users, profiles, articles with tags, favorites and comments, a JWT-like token). The
public demo API is off-limits offline, so this serves the same endpoints from a SQLite file the seed
fills (`ho15_conduit_seed.py`). Tokens are opaque random strings kept in the database. Only the
standard library: `http.server` threads, `sqlite3`, `json`.

Also serves a built single-page app's files (`static_root`) with an index.html fallback, so the
Angular front end and its API share one origin.
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
import re
import secrets
import sqlite3
import threading
import unicodedata
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

SCHEMA = """
CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, username TEXT UNIQUE NOT NULL,
  email TEXT UNIQUE NOT NULL, password TEXT NOT NULL, bio TEXT, image TEXT);
CREATE TABLE IF NOT EXISTS tokens (token TEXT PRIMARY KEY, user_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS follows (follower INTEGER, followed INTEGER, PRIMARY KEY (follower, followed));
CREATE TABLE IF NOT EXISTS articles (id INTEGER PRIMARY KEY, slug TEXT UNIQUE NOT NULL, title TEXT NOT NULL,
  description TEXT NOT NULL, body TEXT NOT NULL, author_id INTEGER NOT NULL, created TEXT NOT NULL,
  updated TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tags (article_id INTEGER, name TEXT, pos INTEGER);
CREATE TABLE IF NOT EXISTS favorites (user_id INTEGER, article_id INTEGER, PRIMARY KEY (user_id, article_id));
CREATE TABLE IF NOT EXISTS comments (id INTEGER PRIMARY KEY, article_id INTEGER NOT NULL,
  author_id INTEGER NOT NULL, body TEXT NOT NULL, created TEXT NOT NULL);
"""


def hash_password(password: str) -> str:
    return hashlib.sha256(("conduit:" + password).encode()).hexdigest()


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def slugify(title: str) -> str:
    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return "-".join(re.sub(r"[^\w]+", " ", text).lower().split()) or "article"


def connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    db.row_factory = sqlite3.Row
    db.executescript(SCHEMA)
    return db


class ApiError(Exception):
    def __init__(self, status: int, errors: dict[str, list[str]] | None = None) -> None:
        super().__init__(status)
        self.status = status
        self.errors = errors


class Conduit:
    """The API's answers over one SQLite connection (calls are serialized by a lock)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.lock = threading.Lock()

    def user_json(self, row: sqlite3.Row, token: str) -> dict[str, Any]:
        return {
            "email": row["email"],
            "token": token,
            "username": row["username"],
            "bio": row["bio"],
            "image": row["image"],
        }

    def profile_json(self, row: sqlite3.Row, viewer: int | None) -> dict[str, Any]:
        following = (
            viewer is not None
            and self.db.execute(
                "SELECT 1 FROM follows WHERE follower=? AND followed=?", (viewer, row["id"])
            ).fetchone()
            is not None
        )
        return {"username": row["username"], "bio": row["bio"], "image": row["image"], "following": following}

    def article_json(self, row: sqlite3.Row, viewer: int | None, body: bool = True) -> dict[str, Any]:
        author = self.db.execute("SELECT * FROM users WHERE id=?", (row["author_id"],)).fetchone()
        tags = [
            t[0]
            for t in self.db.execute("SELECT name FROM tags WHERE article_id=? ORDER BY pos", (row["id"],))
        ]
        count = self.db.execute("SELECT COUNT(*) FROM favorites WHERE article_id=?", (row["id"],)).fetchone()[
            0
        ]
        favorited = (
            viewer is not None
            and self.db.execute(
                "SELECT 1 FROM favorites WHERE user_id=? AND article_id=?", (viewer, row["id"])
            ).fetchone()
            is not None
        )
        out = {
            "slug": row["slug"],
            "title": row["title"],
            "description": row["description"],
            "tagList": tags,
            "createdAt": row["created"],
            "updatedAt": row["updated"],
            "favorited": favorited,
            "favoritesCount": count,
            "author": self.profile_json(author, viewer),
        }
        if body:
            out["body"] = row["body"]
        return out

    def viewer(self, headers: Any) -> tuple[int | None, str | None]:
        auth = headers.get("Authorization") or ""
        parts = auth.split(" ", 1)
        if len(parts) != 2 or parts[0] not in ("Token", "Bearer"):
            return None, None
        row = self.db.execute("SELECT user_id FROM tokens WHERE token=?", (parts[1].strip(),)).fetchone()
        return (row[0], parts[1].strip()) if row else (None, None)

    def new_token(self, user_id: int) -> str:
        token = secrets.token_hex(20)
        self.db.execute("INSERT INTO tokens VALUES (?, ?)", (token, user_id))
        return token

    def article_row(self, slug: str) -> sqlite3.Row:
        row: sqlite3.Row | None = self.db.execute("SELECT * FROM articles WHERE slug=?", (slug,)).fetchone()
        if row is None:
            raise ApiError(404, {"article": ["not found"]})
        return row

    def handle(
        self, method: str, path: str, query: dict[str, list[str]], headers: Any, data: dict[str, Any]
    ) -> tuple[int, dict[str, Any]]:
        viewer, token = self.viewer(headers)
        one = {k: v[0] for k, v in query.items()}
        parts = [unquote(p) for p in path.strip("/").split("/")][1:]  # drop "api"

        def need_user() -> int:
            if viewer is None:
                raise ApiError(401, {"token": ["is missing"]})
            return viewer

        match method, parts:
            case "POST", ["users", "login"]:
                user = data.get("user") or {}
                row = self.db.execute(
                    "SELECT * FROM users WHERE email=?", (user.get("email") or "",)
                ).fetchone()
                if row is None or row["password"] != hash_password(user.get("password") or ""):
                    raise ApiError(401, {"email or password": ["is invalid"]})
                return 200, {"user": self.user_json(row, self.new_token(row["id"]))}
            case "POST", ["users"]:
                user = data.get("user") or {}
                errors = {k: ["can't be blank"] for k in ("username", "email", "password") if not user.get(k)}
                for k in ("username", "email"):
                    if (
                        user.get(k)
                        and self.db.execute(f"SELECT 1 FROM users WHERE {k}=?", (user[k],)).fetchone()
                    ):
                        errors[k] = ["has already been taken"]
                if errors:
                    raise ApiError(422, errors)
                cur = self.db.execute(
                    "INSERT INTO users (username, email, password, bio, image) VALUES (?,?,?,?,?)",
                    (user["username"], user["email"], hash_password(user["password"]), None, None),
                )
                row = self.db.execute("SELECT * FROM users WHERE id=?", (cur.lastrowid,)).fetchone()
                return 201, {"user": self.user_json(row, self.new_token(row["id"]))}
            case "GET", ["user"]:
                row = self.db.execute("SELECT * FROM users WHERE id=?", (need_user(),)).fetchone()
                return 200, {"user": self.user_json(row, token or "")}
            case "PUT", ["user"]:
                uid = need_user()
                user = data.get("user") or {}
                for k in ("username", "email", "bio", "image"):
                    if k in user:
                        if k in ("username", "email") and not user[k]:
                            raise ApiError(422, {k: ["can't be blank"]})
                        self.db.execute(f"UPDATE users SET {k}=? WHERE id=?", (user[k], uid))
                if user.get("password"):
                    self.db.execute(
                        "UPDATE users SET password=? WHERE id=?", (hash_password(user["password"]), uid)
                    )
                row = self.db.execute("SELECT * FROM users WHERE id=?", (uid,)).fetchone()
                return 200, {"user": self.user_json(row, token or "")}
            case "GET", ["profiles", name]:
                row = self.db.execute("SELECT * FROM users WHERE username=?", (name,)).fetchone()
                if row is None:
                    raise ApiError(404, {"profile": ["not found"]})
                return 200, {"profile": self.profile_json(row, viewer)}
            case (("POST" | "DELETE"), ["profiles", name, "follow"]):
                uid = need_user()
                row = self.db.execute("SELECT * FROM users WHERE username=?", (name,)).fetchone()
                if row is None:
                    raise ApiError(404, {"profile": ["not found"]})
                if method == "POST":
                    self.db.execute("INSERT OR IGNORE INTO follows VALUES (?, ?)", (uid, row["id"]))
                else:
                    self.db.execute("DELETE FROM follows WHERE follower=? AND followed=?", (uid, row["id"]))
                return 200, {"profile": self.profile_json(row, uid)}
            case "GET", ["articles"] | ["articles", "feed"]:
                where: list[str] = []
                args: list[object] = []
                if parts == ["articles", "feed"]:
                    where.append("a.author_id IN (SELECT followed FROM follows WHERE follower=?)")
                    args.append(need_user())
                if one.get("tag"):
                    where.append("a.id IN (SELECT article_id FROM tags WHERE name=?)")
                    args.append(one["tag"])
                if one.get("author"):
                    where.append("a.author_id IN (SELECT id FROM users WHERE username=?)")
                    args.append(one["author"])
                if one.get("favorited"):
                    where.append(
                        "a.id IN (SELECT f.article_id FROM favorites f JOIN users u ON u.id=f.user_id "
                        "WHERE u.username=?)"
                    )
                    args.append(one["favorited"])
                clause = (" WHERE " + " AND ".join(where)) if where else ""
                try:
                    limit = max(0, min(100, int(one.get("limit", "20"))))
                    offset = max(0, int(one.get("offset", "0")))
                except ValueError:
                    raise ApiError(422, {"limit": ["is invalid"]}) from None
                total = self.db.execute(f"SELECT COUNT(*) FROM articles a{clause}", args).fetchone()[0]
                rows = self.db.execute(
                    f"SELECT a.* FROM articles a{clause} ORDER BY a.created DESC, a.id DESC LIMIT ? OFFSET ?",
                    [*args, limit, offset],
                ).fetchall()
                return 200, {
                    "articles": [self.article_json(r, viewer, body=False) for r in rows],
                    "articlesCount": total,
                }
            case "POST", ["articles"]:
                uid = need_user()
                art = data.get("article") or {}
                errors = {k: ["can't be blank"] for k in ("title", "description", "body") if not art.get(k)}
                if errors:
                    raise ApiError(422, errors)
                slug = slugify(art["title"])
                while self.db.execute("SELECT 1 FROM articles WHERE slug=?", (slug,)).fetchone():
                    slug += "-" + secrets.token_hex(2)
                stamp = now()
                cur = self.db.execute(
                    "INSERT INTO articles (slug, title, description, body, author_id, created, "
                    "updated) VALUES (?,?,?,?,?,?,?)",
                    (slug, art["title"], art["description"], art["body"], uid, stamp, stamp),
                )
                for i, tag in enumerate(dict.fromkeys(t for t in art.get("tagList") or [] if t)):
                    self.db.execute("INSERT INTO tags VALUES (?, ?, ?)", (cur.lastrowid, tag, i))
                return 201, {"article": self.article_json(self.article_row(slug), uid)}
            case "GET", ["articles", slug]:
                return 200, {"article": self.article_json(self.article_row(slug), viewer)}
            case "PUT", ["articles", slug]:
                uid = need_user()
                row = self.article_row(slug)
                if row["author_id"] != uid:
                    raise ApiError(403, {"article": ["forbidden"]})
                art = data.get("article") or {}
                new_slug = slug
                for k in ("title", "description", "body"):
                    if k in art and art[k] is not None:
                        if not art[k]:
                            raise ApiError(422, {k: ["can't be blank"]})
                        self.db.execute(f"UPDATE articles SET {k}=? WHERE id=?", (art[k], row["id"]))
                if art.get("title") and art["title"] != row["title"]:
                    new_slug = slugify(art["title"])
                    while self.db.execute(
                        "SELECT 1 FROM articles WHERE slug=? AND id<>?", (new_slug, row["id"])
                    ).fetchone():
                        new_slug += "-" + secrets.token_hex(2)
                    self.db.execute("UPDATE articles SET slug=? WHERE id=?", (new_slug, row["id"]))
                if "tagList" in art and art["tagList"] is not None:
                    self.db.execute("DELETE FROM tags WHERE article_id=?", (row["id"],))
                    for i, tag in enumerate(dict.fromkeys(t for t in art["tagList"] if t)):
                        self.db.execute("INSERT INTO tags VALUES (?, ?, ?)", (row["id"], tag, i))
                self.db.execute("UPDATE articles SET updated=? WHERE id=?", (now(), row["id"]))
                return 200, {"article": self.article_json(self.article_row(new_slug), uid)}
            case "DELETE", ["articles", slug]:
                uid = need_user()
                row = self.article_row(slug)
                if row["author_id"] != uid:
                    raise ApiError(403, {"article": ["forbidden"]})
                for table in ("tags", "favorites", "comments"):
                    self.db.execute(f"DELETE FROM {table} WHERE article_id=?", (row["id"],))
                self.db.execute("DELETE FROM articles WHERE id=?", (row["id"],))
                return 204, {}
            case (("POST" | "DELETE"), ["articles", slug, "favorite"]):
                uid = need_user()
                row = self.article_row(slug)
                if method == "POST":
                    self.db.execute("INSERT OR IGNORE INTO favorites VALUES (?, ?)", (uid, row["id"]))
                else:
                    self.db.execute(
                        "DELETE FROM favorites WHERE user_id=? AND article_id=?", (uid, row["id"])
                    )
                return 200, {"article": self.article_json(row, uid)}
            case "GET", ["articles", slug, "comments"]:
                row = self.article_row(slug)
                out = []
                for c in self.db.execute(
                    "SELECT * FROM comments WHERE article_id=? ORDER BY id DESC", (row["id"],)
                ):
                    author = self.db.execute("SELECT * FROM users WHERE id=?", (c["author_id"],)).fetchone()
                    out.append(
                        {
                            "id": c["id"],
                            "createdAt": c["created"],
                            "updatedAt": c["created"],
                            "body": c["body"],
                            "author": self.profile_json(author, viewer),
                        }
                    )
                return 200, {"comments": out}
            case "POST", ["articles", slug, "comments"]:
                uid = need_user()
                row = self.article_row(slug)
                body = ((data.get("comment") or {}).get("body") or "").strip()
                if not body:
                    raise ApiError(422, {"body": ["can't be blank"]})
                cur = self.db.execute(
                    "INSERT INTO comments (article_id, author_id, body, created) VALUES (?,?,?,?)",
                    (row["id"], uid, body, now()),
                )
                author = self.db.execute("SELECT * FROM users WHERE id=?", (uid,)).fetchone()
                return 201, {
                    "comment": {
                        "id": cur.lastrowid,
                        "createdAt": now(),
                        "updatedAt": now(),
                        "body": body,
                        "author": self.profile_json(author, uid),
                    }
                }
            case "DELETE", ["articles", slug, "comments", cid]:
                uid = need_user()
                row = self.article_row(slug)
                c = self.db.execute(
                    "SELECT * FROM comments WHERE id=? AND article_id=?",
                    (int(cid) if cid.isdigit() else -1, row["id"]),
                ).fetchone()
                if c is None:
                    raise ApiError(404, {"comment": ["not found"]})
                if c["author_id"] != uid:
                    raise ApiError(403, {"comment": ["forbidden"]})
                self.db.execute("DELETE FROM comments WHERE id=?", (c["id"],))
                return 204, {}
            case "GET", ["tags"]:
                tag_rows = self.db.execute(
                    "SELECT name FROM tags GROUP BY name ORDER BY COUNT(*) DESC, name LIMIT 20"
                )
                return 200, {"tags": [r[0] for r in tag_rows]}
        raise ApiError(404, {"path": ["not found"]})


def make_handler(api: Conduit, static_root: Path | None) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
            pass

        def send(self, status: int, body: bytes, ctype: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def dispatch(self) -> None:
            parts = urlsplit(self.path)
            if parts.path == "/api" or parts.path.startswith("/api/"):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    data = json.loads(raw) if raw else {}
                    if not isinstance(data, dict):
                        raise ApiError(422, {"body": ["is invalid"]})
                    with api.lock:
                        status, out = api.handle(
                            self.command, parts.path, parse_qs(parts.query), self.headers, data
                        )
                except json.JSONDecodeError:
                    status, out = 422, {"errors": {"body": ["is invalid"]}}
                except ApiError as e:
                    status, out = e.status, {"errors": e.errors or {}}
                if status == 204:
                    self.send_response(204)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send(status, json.dumps(out).encode(), "application/json")
                return
            if static_root is None or self.command not in ("GET", "HEAD"):
                self.send(404, b"not found", "text/plain")
                return
            target = (static_root / unquote(parts.path).lstrip("/")).resolve()
            if not target.is_relative_to(static_root.resolve()) or not target.is_file():
                target = static_root / "index.html"
            ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
            self.send(200, target.read_bytes(), ctype)

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = dispatch  # noqa: N815 - http.server's names

    return Handler


def serve(db_path: Path, host: str, port: int, static_root: Path | None = None) -> ThreadingHTTPServer:
    """A server (not yet serving) for the API over `db_path`, and the SPA in `static_root` if given."""
    server = ThreadingHTTPServer((host, port), make_handler(Conduit(connect(db_path)), static_root))
    server.daemon_threads = True
    return server
