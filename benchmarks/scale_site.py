"""A synthetic server-rendered site of ≥ 10,000 pages (issue 28), for measuring BugHunt at scale.

    python -m benchmarks.scale_site [--port 0] [--quick]     # prints {"url": ..., "pages": ...}, serves until killed

Pages (data from `benchmarks.scale_data`): the home page, `/item/<n>` (10,000 items, 25–53 links
each: navigation, author, category, tags, related items, comment authors), category lists
`/c/<k>?sort=<new|top|title>&page=<p>` (`/c/<k>` is sort `new`, page 1; the pager links page 1 by
number too, as many pagers do), tag lists `/tag/<n>?page=<p>` (numeric tag ids: `/tag/93` links
`/tag/92` from its related-tags box, not from its pager), user profiles `/u/<n>?page=<p>`, the
user list `/users?page=<p>`, `/categories`, `/tags`, and the signed-in user's edit pages.

Planted bugs, one root cause each, each on several instances of one page type (data-dependent, as
real bugs are), one per oracle kind the HTTP engine detects (`PLANTED`):

- `server_error`: items whose id is 13 modulo 97 answer HTTP 500 with a traceback;
- `unescaped_script`: items whose id is 7 modulo 53 render one comment's `<script>` unescaped;
- `duplicate_pagination`: the `top` sort of categories 2 modulo 5 starts every page from the third
  on one item early (an off-by-one offset), repeating the previous page's last item;
- `count_mismatch`: profiles of users 3 modulo 17 with 2–`per_page` items show one item too many
  in their "Items (N)" label;
- `unconfirmed_destructive`: the signed-in user's items offer a plain GET "Delete" link;
- `form_drops_value`: the signed-in user's edit form leaves the description empty.

Everything else is correct, so any other finding is a false positive.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from html import escape
from urllib.parse import parse_qsl, urlsplit

from benchmarks.scale_data import FULL, QUICK, SORTS, Catalog, Item, Shape, pages
from bughunt.webapp.pages import Response
from bughunt.webapp.server import Request, SiteServer, serve, serving

ME = 3
"""The signed-in user: their items have Edit and Delete links."""
HTML = (("Content-Type", "text/html; charset=utf-8"),)


# ---------------------------------------------------------------- the planted bugs


def crashes(item: int) -> bool:
    return item % 97 == 13


def script_comment(item: int) -> bool:
    return item % 53 == 7 and not crashes(item)


def shifted(category: int, sort: str, page: int) -> bool:
    return category % 5 == 2 and sort == "top" and page >= 3


def miscounted(catalog: Catalog, user: int) -> bool:
    return user % 17 == 3 and 2 <= len(catalog.by_author[user]) <= catalog.shape.per_page


@dataclass(frozen=True, slots=True)
class Planted:
    kind: str
    description: str
    matches: Callable[[Catalog, str], bool]
    """Does a finding of this kind on this route belong to this bug?"""


def _route(route: str) -> tuple[list[str], dict[str, str]]:
    parts = urlsplit(route)
    return [s for s in parts.path.split("/") if s], dict(parse_qsl(parts.query, keep_blank_values=True))


def _item_route(route: str) -> int | None:
    segments, query = _route(route)
    if len(segments) == 2 and segments[0] == "item" and segments[1].isdigit() and not query:
        return int(segments[1])
    return None


def _is_shifted_page(route: str) -> bool:
    segments, query = _route(route)
    if len(segments) != 2 or segments[0] != "c" or not segments[1].isdigit():
        return False
    page = query.get("page", "1")
    return page.isdigit() and shifted(int(segments[1]), query.get("sort", "new"), int(page))


def _is_miscounted_profile(catalog: Catalog, route: str) -> bool:
    segments, query = _route(route)
    return (
        len(segments) == 2 and segments[0] == "u" and segments[1].isdigit() and query.get("page", "1") == "1"
    ) and miscounted(catalog, int(segments[1]))


def _own_action(route: str, action: str) -> int | None:
    """The item of `/item/<n>/<action>`, else None."""
    segments, query = _route(route)
    if len(segments) == 3 and segments[0] == "item" and segments[1].isdigit() and segments[2] == action:
        return None if query else int(segments[1])
    return None


def _mine(catalog: Catalog, item: int | None) -> bool:
    return item is not None and item in catalog.items and catalog.items[item].author == ME


PLANTED: tuple[Planted, ...] = (
    Planted(
        "server_error", "items 13 mod 97 crash", lambda c, r: (i := _item_route(r)) is not None and crashes(i)
    ),
    Planted(
        "unescaped_script",
        "items 7 mod 53 show a comment's script unescaped",
        lambda c, r: (i := _item_route(r)) is not None and script_comment(i),
    ),
    Planted(
        "duplicate_pagination", "top sort of categories 2 mod 5, page 3 on", lambda c, r: _is_shifted_page(r)
    ),
    Planted("count_mismatch", "profiles of users 3 mod 17 count one item too many", _is_miscounted_profile),
    Planted(
        "unconfirmed_destructive",
        "the signed-in user's items delete on a plain GET (the finding names the delete link)",
        lambda c, r: _mine(c, _own_action(r, "delete")),
    ),
    Planted(
        "form_drops_value",
        "the signed-in user's edit form drops the description",
        lambda c, r: _mine(c, _own_action(r, "edit")),
    ),
)


def planted_for(catalog: Catalog, kind: str, route: str) -> Planted | None:
    """The planted bug a finding of `kind` on `route` is, or None (a false positive)."""
    return next((b for b in PLANTED if b.kind == kind and b.matches(catalog, route)), None)


# ---------------------------------------------------------------- rendering


def _document(title: str, body: str) -> str:
    return (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}</title></head>"
        "<body><header><nav class='navbar'><a class='brand' href='/'>Scale</a> "
        "<a href='/categories'>Categories</a> <a href='/tags'>Tags</a> <a href='/users'>People</a> "
        f"<span class='me'>Signed in as <a href='/u/{ME}'>{Catalog.user_name(ME)}</a></span></nav></header>"
        f"<main class='container'>{body}</main>"
        "<footer class='footer'><p>Scale demo site · version 1.0</p></footer></body></html>"
    )


def _href(path: str, query: dict[str, str | int]) -> str:
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def _pager(path: str, query: dict[str, str | int], page: int, last: int) -> str:
    """Numbered pager: « Previous, 1, a window around `page`, the last page, Next ». Page 1 is linked
    by number (`?page=1`), as most pagers do, beside the bare list address the site links elsewhere."""
    if last <= 1:
        return ""

    def url(p: int) -> str:
        return _href(path, {**query, "page": p})

    links = []
    if page > 1:
        links.append(f"<li><a rel='prev' href='{url(page - 1)}'>« Previous</a></li>")
    shown = sorted({1, last, *range(max(1, page - 2), min(last, page + 2) + 1)})
    for p in shown:
        links.append(
            f"<li class='active'><span>{p}</span></li>"
            if p == page
            else f"<li><a href='{url(p)}'>{p}</a></li>"
        )
    if page < last:
        links.append(f"<li><a rel='next' href='{url(page + 1)}'>Next »</a></li>")
    return f"<nav class='pagination' aria-label='pages'><ul class='pager'>{''.join(links)}</ul></nav>"


class Site:
    """The site as a function from a request to a response."""

    def __init__(self, catalog: Catalog) -> None:
        self.c = catalog

    def __call__(self, request: Request) -> Response:
        if request.method not in ("GET", "HEAD"):
            return Response(405, _document("Not allowed", "<h1>Method not allowed</h1>"), HTML)
        segments, query = _route(request.target)
        page = query.get("page", "1")
        if not page.isdigit() or int(page) < 1:
            return self._missing()
        try:
            return self._route(segments, query, int(page))
        except (KeyError, ValueError, IndexError):
            return self._missing()

    def _route(self, segments: list[str], query: dict[str, str], page: int) -> Response:
        c = self.c
        match segments:
            case []:
                return self._ok("Home", self._home())
            case ["categories"]:
                return self._ok("Categories", self._categories())
            case ["tags"]:
                return self._ok("Tags", self._tags())
            case ["users"]:
                return self._ok("People", self._users(page))
            case ["item", n] if n.isdigit() and int(n) in c.items:
                item = c.items[int(n)]
                if crashes(item.id):
                    return self._crash(item)
                return self._ok(item.title, self._item(item))
            case ["item", n, "edit"] if n.isdigit() and int(n) in c.items and c.items[int(n)].author == ME:
                return self._ok("Edit", self._edit(c.items[int(n)]))
            case ["item", n, "delete"] if n.isdigit() and int(n) in c.items and c.items[int(n)].author == ME:
                return Response(303, "", (("Location", f"/u/{ME}"),))
            case ["c", k] if (
                k.isdigit() and 1 <= int(k) <= c.shape.categories and query.get("sort", "new") in SORTS
            ):
                return self._ok(
                    c.category_name(int(k)), self._category(int(k), query.get("sort", "new"), page)
                )
            case ["tag", t] if t.isdigit() and 1 <= int(t) <= c.shape.tags:
                return self._ok(c.tag_name(int(t)), self._tag(int(t), page))
            case ["u", u] if u.isdigit() and 1 <= int(u) <= c.shape.users:
                return self._ok(c.user_name(int(u)), self._user(int(u), page))
        return self._missing()

    def _ok(self, title: str, body: str | None) -> Response:
        return self._missing() if body is None else Response(200, _document(title, body), HTML)

    @staticmethod
    def _missing() -> Response:
        return Response(404, _document("Not found", "<h1>Not found</h1><p><a href='/'>Home</a></p>"), HTML)

    def _crash(self, item: Item) -> Response:
        trace = (
            "Traceback (most recent call last):\n"
            '  File "/srv/scale/items.py", line 41, in show\n'
            "    author = users[comment.author_id]\n"
            f"KeyError: {item.id * 7}"
        )
        body = f"<h1>Internal Server Error</h1><pre class='traceback'>{escape(trace)}</pre><p><a href='/'>Home</a></p>"
        return Response(500, _document("500 Internal Server Error", body), HTML)

    def _preview(self, i: int) -> str:
        item = self.c.items[i]
        return (
            f"<div class='item-preview'><h2><a href='/item/{i}'>{escape(item.title)}</a></h2>"
            f"<p class='summary'>{escape(item.description)}</p>"
            f"<p class='byline'>by <a href='/u/{item.author}'>{self.c.user_name(item.author)}</a> · {item.score} points</p></div>"
        )

    def _previews(self, ids: list[int]) -> str:
        return "<div class='item-list'>" + "".join(self._preview(i) for i in ids) + "</div>"

    def _home(self) -> str:
        c = self.c
        newest = sorted(c.items, reverse=True)[: c.shape.per_page]
        popular = sorted(c.by_tag, key=lambda t: (-len(c.by_tag[t]), t))[:30]
        cloud = "".join(f"<li><a href='/tag/{t}'>#{c.tag_name(t)}</a></li>" for t in sorted(popular))
        cats = "".join(
            f"<li><a href='/c/{k}'>{c.category_name(k)}</a></li>" for k in range(1, c.shape.categories + 1)
        )
        return (
            "<h1>Latest items</h1>"
            f"{self._previews(newest)}"
            f"<aside class='sidebar'><h3>Popular tags</h3><ul class='tag-cloud'>{cloud}</ul>"
            f"<h3>Categories</h3><ul class='category-links'>{cats}</ul></aside>"
        )

    def _categories(self) -> str:
        c = self.c
        rows = "".join(
            f"<li><a href='/c/{k}'>{c.category_name(k)}</a> <span class='muted'>{len(c.listing(k, 'new'))} items</span></li>"
            for k in range(1, c.shape.categories + 1)
        )
        return f"<h1>Categories</h1><ul class='category-index'>{rows}</ul>"

    def _tags(self) -> str:
        c = self.c
        cloud = "".join(f"<li><a href='/tag/{t}'>#{c.tag_name(t)}</a></li>" for t in c.by_tag)
        return f"<h1>Tags</h1><ul class='tag-cloud'>{cloud}</ul>"

    def _users(self, page: int) -> str | None:
        c = self.c
        per = c.shape.users_per_page
        last = pages(c.shape.users, per)
        if page > last:
            return None
        ids = range((page - 1) * per + 1, min(c.shape.users, page * per) + 1)
        rows = "".join(
            f"<tr><td><a href='/u/{u}'>{c.user_name(u)}</a></td><td>{len(c.by_author[u])} items</td></tr>"
            for u in ids
        )
        return (
            f"<h1>People</h1><table class='people'><tbody>{rows}</tbody></table>"
            f"{_pager('/users', {}, page, last)}"
        )

    def _item(self, item: Item) -> str:
        c = self.c
        tags = "".join(f"<li><a class='tag' href='/tag/{t}'>#{c.tag_name(t)}</a></li>" for t in item.tags)
        actions = (
            f"<p class='actions'><a href='/item/{item.id}/edit'>Edit</a> <a href='/item/{item.id}/delete'>Delete</a></p>"
            if item.author == ME
            else ""
        )
        related = "".join(
            f"<li class='related-item'><a href='/item/{r}'>{escape(c.items[r].title)}</a> <span class='score'>{c.items[r].score} points</span></li>"
            for r in item.related
        )
        comments = []
        for n, comment in enumerate(item.comments):
            text = escape(comment.text)
            if n == 0 and script_comment(item.id):
                text = f"Great read! <script>document.title = 'owned {item.id}'</script> {text}"
            comments.append(
                f"<div class='comment'><p class='comment-text'>{text}</p>"
                f"<p class='comment-meta'>— <a href='/u/{comment.author}'>{c.user_name(comment.author)}</a></p></div>"
            )
        comment_block = (
            f"<h2>Comments ({len(item.comments)})</h2><div class='comment-list'>{''.join(comments)}</div>"
            if comments
            else "<p class='muted'>No comments yet.</p>"
        )
        return (
            f"<article class='item'><h1 data-field='title'>{escape(item.title)}</h1>"
            f"<p class='meta'>by <a href='/u/{item.author}'>{c.user_name(item.author)}</a> in "
            f"<a href='/c/{item.category}'>{c.category_name(item.category)}</a> · {item.score} points</p>"
            f"<p class='description' data-field='description'>{escape(item.description)}</p>"
            f"<div class='body' data-field='body'><p>{escape(item.title)} is item {item.id} of this site.</p></div>"
            f"<ul class='tag-list'>{tags}</ul>{actions}</article>"
            f"<section class='related'><h3>Related</h3><ul class='related-list'>{related}</ul></section>"
            f"<section class='comments'>{comment_block}</section>"
        )

    def _edit(self, item: Item) -> str:
        # the bug: the description input is rendered without its value, so saving would drop it
        return (
            f"<h1>Edit item</h1><form class='editor' method='post' action='/item/{item.id}'>"
            f"<label for='title'>Title</label><input type='text' id='title' name='title' value='{escape(item.title)}'>"
            "<label for='description'>Description</label><input type='text' id='description' name='description' value=''>"
            "<button type='submit'>Save</button> "
            f"<a href='/item/{item.id}'>Cancel</a></form>"
        )

    def _category(self, k: int, sort: str, page: int) -> str | None:
        c = self.c
        ids = c.listing(k, sort)
        per = c.shape.per_page
        last = pages(len(ids), per)
        if page > last:
            return None
        start = (page - 1) * per - (1 if shifted(k, sort, page) else 0)
        tabs = "".join(
            f"<li><a href='{_href(f'/c/{k}', {} if s == 'new' else {'sort': s})}'>{s.title()}</a></li>"
            for s in SORTS
        )
        others = "".join(
            f"<li><a href='/c/{o}'>{c.category_name(o)}</a></li>"
            for o in range(1, c.shape.categories + 1)
            if o != k
        )
        return (
            f"<h1>{c.category_name(k)}</h1><ul class='tabs' role='tablist'>{tabs}</ul>"
            f"<section class='listing'>{self._previews(ids[start : start + per])}"
            f"{_pager(f'/c/{k}', {'sort': sort}, page, last)}</section>"
            f"<aside class='sidebar'><h3>Other categories</h3><ul class='category-links'>{others}</ul></aside>"
        )

    def _tag(self, t: int, page: int) -> str | None:
        c = self.c
        ids = c.by_tag[t]
        per = c.shape.per_page
        last = pages(len(ids), per)
        if page > last:
            return None
        near = [x for x in range(t - 3, t + 4) if x != t and 1 <= x <= c.shape.tags]
        cloud = "".join(f"<li><a href='/tag/{x}'>#{c.tag_name(x)}</a></li>" for x in near)
        return (
            f"<h1>#{c.tag_name(t)}</h1><section class='listing'>{self._previews(ids[(page - 1) * per : page * per])}"
            f"{_pager(f'/tag/{t}', {}, page, last)}</section>"
            f"<aside class='sidebar'><h3>Related tags</h3><ul class='tag-cloud'>{cloud}</ul></aside>"
        )

    def _user(self, u: int, page: int) -> str | None:
        c = self.c
        ids = c.by_author[u]
        per = c.shape.per_page
        last = pages(len(ids), per)
        if page > last:
            return None
        shown = len(ids) + (1 if miscounted(c, u) else 0)  # the bug: a deleted item still counted
        return (
            f"<h1>{c.user_name(u)}</h1><p class='bio'>Member since {2000 + u % 25}.</p>"
            f"<h2>Items ({shown})</h2>{self._previews(ids[(page - 1) * per : page * per])}"
            f"{_pager(f'/u/{u}', {}, page, last)}"
        )


# ---------------------------------------------------------------- counting and serving


def routes(catalog: Catalog) -> Iterator[str]:
    """Every distinct page the site serves with HTTP 200 or 500 (each list page once: `/c/<k>` is
    its `sort=new&page=1`, `/tag/<n>` its `page=1`)."""
    c = catalog
    yield from ("/", "/categories", "/tags")
    for p in range(1, pages(c.shape.users, c.shape.users_per_page) + 1):
        yield "/users" if p == 1 else f"/users?page={p}"
    for i, item in c.items.items():
        yield f"/item/{i}"
        if item.author == ME:
            yield f"/item/{i}/edit"
    for k in range(1, c.shape.categories + 1):
        for s in SORTS:
            for p in range(1, c.category_pages(k) + 1):
                yield f"/c/{k}" if (s, p) == ("new", 1) else f"/c/{k}?sort={s}&page={p}"
    for t, ids in c.by_tag.items():
        for p in range(1, pages(len(ids), c.shape.per_page) + 1):
            yield f"/tag/{t}" if p == 1 else f"/tag/{t}?page={p}"
    for u, ids in c.by_author.items():
        for p in range(1, pages(len(ids), c.shape.per_page) + 1):
            yield f"/u/{u}" if p == 1 else f"/u/{u}?page={p}"


def make_server(shape: Shape = FULL, host: str = "127.0.0.1", port: int = 0) -> SiteServer:
    return SiteServer((host, port), Site(Catalog(shape)))


@contextmanager
def running(shape: Shape = FULL) -> Iterator[str]:
    """Serve the site in a background thread for the block; yields its base URL."""
    with serving(make_server(shape)) as url:
        yield url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.scale_site", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (0 picks a free one)")
    parser.add_argument("--quick", action="store_true", help="the tiny site of the tests")
    args = parser.parse_args(argv)
    shape = QUICK if args.quick else FULL
    catalog = Catalog(shape)
    server = SiteServer(("127.0.0.1", args.port), Site(catalog))
    count = sum(1 for _ in routes(catalog))
    # one line the benchmark reads to know where the site is and how big
    print(json.dumps({"url": server.base_url, "pages": count}), flush=True)
    serve(server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
