"""The conduit-htmx site's server side: mutable state behind a lock, sessions with a cookie and a
CSRF token, Post/Redirect/Get forms, HTMX fragments, and the planted bugs (see `bugs.py`).

`ConduitApp(config)` is the `App` the shared server runs: `app(Request) -> Response`.
"""

from __future__ import annotations

import math
import secrets
import threading
from dataclasses import dataclass
from http.cookies import SimpleCookie
from urllib.parse import parse_qs, unquote, urlsplit

from bughunt.webapp.conduit import views
from bughunt.webapp.conduit.data import DEMO_ACCOUNTS, PAGE_SIZE, Article, Comment, seed
from bughunt.webapp.conduit.layout import document
from bughunt.webapp.pages import Response
from bughunt.webapp.server import Request

HTML = "text/html; charset=utf-8"
APP_VERSION = "1.0"
SESSION_COOKIE = "sessionid"
CSRF_COOKIE = "csrftoken"


@dataclass(frozen=True, slots=True)
class ConduitConfig:
    debug: bool = True
    """DEBUG error pages (a traceback, one `#` link) or a bare production "Server Error (500)"."""
    fixed: bool = False
    """Every planted bug fixed (`serve-site --fixed`): what a reproduction of each must pass against."""


class _Crash(Exception):
    """A planted server-side failure, rendered as the framework's 500 page."""

    def __init__(self, exc_type: str, message: str, frames: list[str]) -> None:
        super().__init__(message)
        self.exc_type, self.message, self.frames = exc_type, message, frames


class ConduitApp:
    def __init__(self, config: ConduitConfig | None = None) -> None:
        self.config = config or ConduitConfig()
        self.data = seed()
        self.sessions: dict[str, str] = {}
        """session id -> user name."""
        self.csrf: dict[str, str] = {}
        """session id (or pre-login csrf cookie) -> token."""
        self.lock = threading.Lock()
        self._next_comment = max(c.id for c in self.data.comments) + 1

    # -- plumbing ---------------------------------------------------------------------------------
    def __call__(self, request: Request) -> Response:
        with self.lock:  # the state is small; one request at a time keeps it consistent
            try:
                return self._route(request)
            except _Crash as crash:
                return self._error(crash, urlsplit(request.target).path)

    def _headers(self, content_type: str = HTML, **extra: str) -> list[tuple[str, str]]:
        base = {"Content-Type": content_type, "X-App-Version": APP_VERSION, "Cache-Control": "no-store"}
        return list({**base, **{k.replace("_", "-"): v for k, v in extra.items()}}.items())

    def _html(self, status: int, body: str, cookies: list[str] = ()) -> Response:  # type: ignore[assignment]
        headers = self._headers() + [("Set-Cookie", c) for c in cookies]
        return Response(status, body, tuple(headers))

    def _redirect(self, where: str, status: int = 303, cookies: list[str] = ()) -> Response:  # type: ignore[assignment]
        headers = self._headers(Location=where) + [("Set-Cookie", c) for c in cookies]
        return Response(status, "", tuple(headers))

    def _error(self, crash: _Crash, path: str) -> Response:
        if self.config.debug:
            body = views.debug_error(crash.exc_type, crash.message, path, crash.frames)
        else:
            body = views.PRODUCTION_ERROR
        return Response(500, body, tuple(self._headers()))

    @staticmethod
    def _cookies(request: Request) -> dict[str, str]:
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(request.header("cookie"))
        except Exception:  # noqa: BLE001 — a garbled Cookie header is no cookie
            return {}
        return {k: m.value for k, m in jar.items()}

    def _user(self, request: Request) -> tuple[str | None, str | None]:
        sid = self._cookies(request).get(SESSION_COOKIE)
        return (self.sessions.get(sid) if sid else None), sid

    def _csrf_for(self, key: str) -> str:
        return self.csrf.setdefault(key, secrets.token_hex(16))

    # -- routing ----------------------------------------------------------------------------------
    def _route(self, request: Request) -> Response:
        parts = urlsplit(request.target)
        path = unquote(parts.path).rstrip("/") or "/"
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        user, sid = self._user(request)
        segs = [s for s in path.split("/") if s]
        method = request.method
        if path == "/robots.txt":
            return Response(
                200, "User-agent: *\nAllow: /\n", tuple(self._headers("text/plain; charset=utf-8"))
            )
        if method == "POST":
            return self._post(request, segs, user, sid)
        if method not in ("GET", "HEAD"):
            return Response(
                405, "Method Not Allowed\n", tuple(self._headers("text/plain", Allow="GET, HEAD, POST"))
            )
        fragment = request.header("hx-request") == "true"
        csrf = self._csrf_for(sid) if user and sid else ""
        page = self._page_number(query)
        if path == "/":
            return self._home(user, query, page, fragment)
        if path == "/login":
            return self._login_form(request, query.get("next", "/"))
        if path == "/register":
            return self._html(200, document("Sign up", views.register_page(), user=user, current="/register"))
        if path == "/logout":
            if sid:
                self.sessions.pop(sid, None)
            return self._redirect("/", 302, [f"{SESSION_COOKIE}=; Path=/; Max-Age=0"])
        if segs[0] == "tag" and len(segs) == 2:
            return self._tag(user, segs[1], page, fragment)
        if segs[0] == "article" and len(segs) == 2:
            return self._article(user, segs[1], csrf)
        if segs[0] == "article" and len(segs) == 5 and segs[2] == "comments" and segs[4] == "delete":
            return self._delete_comment(user, segs[1], segs[3], csrf)
        if segs[0] == "api" and len(segs) == 4 and segs[1] == "articles" and segs[3] == "related":
            return self._related(segs[2])
        if segs[0] == "profile" and len(segs) in (2, 3):
            return self._profile(user, segs[1], segs[2] if len(segs) == 3 else "", page, fragment, csrf)
        if segs[0] == "editor" and len(segs) <= 2:
            if not user:
                return self._redirect(f"/login?next={path}", 302)
            return self._editor(user, segs[1] if len(segs) == 2 else None, csrf)
        if path == "/settings":
            if not user:
                return self._redirect("/login?next=/settings", 302)
            body = views.settings_page(self.data.users[user], csrf)
            return self._html(200, document("Settings", body, user=user, current="/settings"))
        return self._not_found(user, path)

    def _not_found(self, user: str | None, path: str) -> Response:
        body = f'<div class="container page"><h1>Page not found</h1><p>{views.e(path)}</p></div>'
        return self._html(404, document("Not found", body, user=user))

    @staticmethod
    def _page_number(query: dict[str, str]) -> int:
        value = query.get("page", "1")
        return int(value) if value.isdigit() and 0 < int(value) < 10_000 else 1

    # -- lists ------------------------------------------------------------------------------------
    def _favorites_of(self, slug: str) -> int:
        return sum(slug in favs for favs in self.data.favorites.values())

    def _feed_html(self, articles: list[Article], page: int, base: str, offset: int | None = None) -> str:
        pages = max(1, math.ceil(len(articles) / PAGE_SIZE))
        start = (page - 1) * PAGE_SIZE if offset is None else offset
        shown = articles[start : start + PAGE_SIZE]
        if not shown:
            return '<div class="article-preview">No articles are here... yet.</div>'
        items = "".join(views.preview(a, self._favorites_of(a.slug)) for a in shown)
        return items + views.pager(base, page, pages, "#feed")

    def _tags(self) -> list[str]:
        counts: dict[str, int] = {}
        for a in self.data.articles:
            for t in a.tags:
                counts[t] = counts.get(t, 0) + 1
        return sorted(counts, key=lambda t: (-counts[t], t))

    def _home(self, user: str | None, query: dict[str, str], page: int, fragment: bool) -> Response:
        following = query.get("feed") == "following" and user is not None
        if following:
            authors = self.data.follows.get(user or "", set())
            articles = [a for a in self.data.articles if a.author in authors]
            base = "/?feed=following"
        else:
            articles, base = list(self.data.articles), "/"
        feed = self._feed_html(articles, page, base)
        if fragment:
            return self._html(200, feed)
        items = [("/?feed=following", "Your Feed", following)] if user else []
        items.append(("/", "Global Feed", not following))
        banner = (
            '<div class="banner"><div class="container"><h1 class="logo-font">conduit</h1>'
            "<p>A place to share your knowledge.</p></div></div>"
        )
        body = views.feed_page("conduit", views.tabs(items), feed, self._tags(), banner)
        return self._html(200, document("Home", body, user=user, current="/"))

    def _tag(self, user: str | None, tag: str, page: int, fragment: bool) -> Response:
        articles = [a for a in self.data.articles if tag in a.tags]
        if not articles:
            return self._not_found(user, f"/tag/{tag}")
        # Planted bug (duplicate_pagination): from page 2 on the offset is one short, so each page
        # starts with the last article of the page before.
        offset = (page - 1) * PAGE_SIZE - (1 if page > 1 and not self.config.fixed else 0)
        feed = self._feed_html(articles, page, f"/tag/{tag}", offset)
        if fragment:
            return self._html(200, feed)
        items = [("/", "Global Feed", False), (f"/tag/{tag}", f"# {tag}", True)]
        body = views.feed_page(f"#{tag}", views.tabs(items), feed, self._tags())
        return self._html(200, document(f"#{tag}", body, user=user))

    def _article(self, user: str | None, slug: str, csrf: str) -> Response:
        article = self._find(slug)
        if article is None:
            return self._not_found(user, f"/article/{slug}")
        comments = [c for c in self.data.comments if c.article == slug]
        body = views.article_page(
            article, comments, user, csrf, self._favorites_of(slug), fixed=self.config.fixed
        )
        return self._html(200, document(article.title, body, user=user, scripts=views.RELATED_JS))

    def _related(self, slug: str) -> Response:
        article = self._find(slug)
        if article is None:
            return Response(404, '{"error": "not found"}', tuple(self._headers("application/json")))
        if not article.tags:
            return Response(200, "[]", tuple(self._headers("application/json")))  # nothing shares a tag
        if len(article.tags) < 2 and not self.config.fixed:
            # Planted bug (client_error): the score divides by (shared tags - 1); the widget's fetch gets a 500.
            return Response(500, '{"error": "ZeroDivisionError"}', tuple(self._headers("application/json")))
        related = [a for a in self.data.articles if a.slug != slug and set(a.tags) & set(article.tags)][:3]
        return Response(200, views.related_json(related), tuple(self._headers("application/json")))

    def _profile(
        self, user: str | None, name: str, tab: str, page: int, fragment: bool, csrf: str
    ) -> Response:
        profile = self.data.users.get(name)
        if profile is None or tab not in ("", "favorites", "followers"):
            return self._not_found(user, f"/profile/{name}/{tab}".rstrip("/"))
        followers = [u for u, follows in self.data.follows.items() if name in follows]
        if tab == "followers":
            # Planted bug (count_mismatch): the tally counts deactivated users the list leaves out.
            listed = [self.data.users[u] for u in sorted(followers) if self.data.users[u].active]
            shown = len(listed) if self.config.fixed else len(followers)
            body = views.followers_page(profile, shown, listed)
            return self._html(200, document(f"{name}'s followers", body, user=user))
        if tab == "favorites":
            slugs = self.data.favorites.get(name, [])
            if page > 1 and not self.config.fixed:
                # Planted bug (server_error): page 2 of favourites indexes past the end.
                raise _Crash(
                    "IndexError",
                    "list index out of range",
                    [
                        '  File "conduit/views/profiles.py", line 88, in favorites',
                        "    items = [favs[i] for i in range(offset, offset + PAGE_SIZE)]",
                    ],
                )
            articles = [a for s in slugs if (a := self._find(s)) is not None]
            base = f"/profile/{name}/favorites"
        else:
            articles = [a for a in self.data.articles if a.author == name]
            base = f"/profile/{name}"
        feed = self._feed_html(articles, page, base)
        if fragment:
            return self._html(200, feed)
        body = views.profile_page(profile, user, tab or "articles", feed, csrf, len(followers))
        return self._html(200, document(name, body, user=user, current=f"/profile/{name}"))

    # -- account ----------------------------------------------------------------------------------
    def _login_form(self, request: Request, next_url: str, error: str = "", status: int = 200) -> Response:
        key = self._cookies(request).get(CSRF_COOKIE) or secrets.token_hex(16)
        token = self._csrf_for("pre:" + key)
        body = document("Sign in", views.login_page(token, error, next_url), user=None, current="/login")
        return self._html(status, body, [f"{CSRF_COOKIE}={key}; Path=/; SameSite=Lax"])

    def _editor(self, user: str, slug: str | None, csrf: str) -> Response:
        article = self._find(slug) if slug else None
        if slug and (article is None or article.author != user):
            return self._not_found(user, f"/editor/{slug}")
        # Planted bug (form_drops_value): the hidden tags input the editor's script builds its chips
        # from is rendered empty, so saving an edit drops the article's tags.
        fixed = self.config.fixed and article is not None
        body = views.editor_page(
            article, csrf, tags_value=",".join(article.tags) if fixed and article else "", description=fixed
        )
        return self._html(200, document("Editor", body, user=user, current="/editor"))

    def _delete_comment(self, user: str | None, slug: str, comment_id: str, csrf: str) -> Response:
        if not user:
            return self._redirect("/login", 302)
        if self.config.fixed:  # a GET only asks; the form's POST deletes (`_post`)
            body = views.confirm_delete(f"/article/{slug}/comments/{comment_id}/delete", csrf)
            return self._html(200, document("Delete comment?", body, user=user))
        # Planted bug (unconfirmed_destructive): a plain GET deletes, then redirects back.
        self.data.comments = [
            c
            for c in self.data.comments
            if not (str(c.id) == comment_id and c.author == user and c.article == slug)
        ]
        return self._redirect(f"/article/{slug}", 302)

    def _find(self, slug: str | None) -> Article | None:
        return next((a for a in self.data.articles if a.slug == slug), None)

    def _form(self, request: Request) -> dict[str, str]:
        fields = parse_qs(request.body.decode("utf-8", "replace"), keep_blank_values=True)
        return {k: v[0] for k, v in fields.items()}

    def _post(self, request: Request, segs: list[str], user: str | None, sid: str | None) -> Response:
        form = self._form(request)
        if segs == ["login"]:
            key = self._cookies(request).get(CSRF_COOKIE, "")
            if not key or form.get("csrf_token") != self.csrf.get("pre:" + key):
                return self._login_form(request, "/", "CSRF verification failed. Request aborted.", 403)
            name = form.get("username", "")
            if name not in DEMO_ACCOUNTS or form.get("password") != DEMO_ACCOUNTS[name]:
                return self._login_form(request, form.get("next", "/"), "email or password is invalid", 422)
            new_sid = secrets.token_hex(16)
            self.sessions[new_sid] = name
            target = form.get("next", "/")
            target = target if target.startswith("/") and not target.startswith("//") else "/"
            cookie = f"{SESSION_COOKIE}={new_sid}; Path=/; HttpOnly; SameSite=Lax"
            return self._redirect(target, 303, [cookie])
        if not user or not sid:
            return self._redirect("/login", 303)
        if form.get("csrf_token") != self.csrf.get(sid):
            return self._html(403, document("Forbidden", "<h1>CSRF verification failed</h1>", user=user))
        if len(segs) == 3 and segs[0] == "article" and segs[2] == "comments" and self._find(segs[1]):
            text = form.get("body", "").strip()
            if text:
                self.data.comments.append(Comment(self._next_comment, segs[1], user, "2024-05-12", text))
                self._next_comment += 1
            return self._redirect(f"/article/{segs[1]}")
        if len(segs) == 3 and segs[0] == "article" and segs[2] == "favorite" and self._find(segs[1]):
            favs = self.data.favorites.setdefault(user, [])
            if segs[1] in favs:
                favs.remove(segs[1])
            else:
                favs.append(segs[1])
            return self._redirect(f"/article/{segs[1]}")
        if len(segs) == 5 and segs[0] == "article" and segs[2] == "comments" and segs[4] == "delete":
            self.data.comments = [
                c
                for c in self.data.comments
                if not (str(c.id) == segs[3] and c.author == user and c.article == segs[1])
            ]
            return self._redirect(f"/article/{segs[1]}")
        if len(segs) == 3 and segs[0] == "article" and segs[2] == "delete":
            article = self._find(segs[1])
            if article is not None and article.author == user:
                self.data.articles.remove(article)
            return self._redirect("/")
        if len(segs) == 3 and segs[0] == "profile" and segs[2] == "follow" and segs[1] in self.data.users:
            follows = self.data.follows.setdefault(user, set())
            follows.symmetric_difference_update({segs[1]})
            return self._redirect(f"/profile/{segs[1]}")
        if segs == ["settings"]:
            return self._redirect("/settings")
        if segs and segs[0] == "editor" and len(segs) <= 2:
            return self._save_article(user, segs[1] if len(segs) == 2 else None, form)
        return Response(405, "Method Not Allowed\n", tuple(self._headers("text/plain", Allow="GET, HEAD")))

    def _save_article(self, user: str, slug: str | None, form: dict[str, str]) -> Response:
        tags = tuple(t.strip() for t in form.get("tags", "").split(",") if t.strip())
        title = form.get("title", "").strip() or "Untitled"
        if slug:
            article = self._find(slug)
            if article is None or article.author != user:
                return self._redirect("/")
            article.title, article.tags = title, tags
            article.description, article.body = form.get("description", ""), form.get("body", "")
            return self._redirect(f"/article/{slug}")
        new_slug = "-".join(title.lower().split())[:40] + "-" + secrets.token_hex(2)
        self.data.articles.insert(
            0,
            Article(
                new_slug, title, user, "2024-05-12", tags, form.get("description", ""), form.get("body", "")
            ),
        )
        return self._redirect(f"/article/{new_slug}")
