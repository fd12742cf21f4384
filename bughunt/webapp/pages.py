"""The 24 pages of the built-in site, one function each, rendered as server-side HTML.

Each page's `<a>` links appear in the order `bughunt.site.LINKS` gives (the tests check it). The six
bugs are real symptoms a tester sees over HTTP; everything else is correct, so an oracle that fires
elsewhere is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import NamedTuple

from bughunt import site
from bughunt.webapp import content as c
from bughunt.webapp.layout import banner, document, link


class SiteConfig(NamedTuple):
    app_version: str = "1.2"
    poison_text: str | None = None
    account: str = "logged-in"
    fixed: bool = False
    """Every bug fixed, whatever the version (`serve-site --fixed`): what reproductions pass against."""

    def has_bug(self, page: int) -> bool:
        return not self.fixed and any(b.page == page for b in site.bugs_in_version(self.app_version))


class Response(NamedTuple):
    status: int
    body: str
    headers: tuple[tuple[str, str], ...] = ()


def _tags(tags: tuple[str, ...], field: str = "") -> str:
    attr = f' data-field="{field}"' if field else ""
    return f'<ul class="tag-list"{attr}>' + "".join(f"<li>{escape(t)}</li>" for t in tags) + "</ul>"


def _preview(p: c.Preview) -> str:
    title = link(site.ROUTE_TO_PAGE[f"/article/{p.slug}"], p.title) if p.slug else escape(p.title)
    return (
        '<div class="article-preview"><div class="article-meta">'
        f'<span class="author">{escape(p.author)}</span> · <span class="date">{escape(p.date)}</span></div>'
        f"<h2>{title}</h2><p>{escape(p.description)}</p>{_tags(p.tags)}</div>"
    )


def preview_list(items: tuple[c.Preview, ...]) -> str:
    return '<div class="article-list">' + "".join(_preview(p) for p in items) + "</div>"


def _comment(comment: c.Comment) -> str:
    text = comment.text if comment.trusted_html else escape(comment.text)
    return (
        f'<div class="card comment"><div class="card-block"><p class="card-text">{text}</p></div>'
        f'<div class="card-footer"><span class="comment-author">{escape(comment.author)}</span> · '
        f"{escape(comment.date)}</div></div>"
    )


def _reader_comments(cfg: SiteConfig) -> list[c.Comment]:
    comments = [c.READER_COMMENT]
    if cfg.poison_text is not None:
        comments.append(c.Comment(c.POISON_AUTHOR, "November 29, 2026", cfg.poison_text))
    return comments


def form_field(name: str, label: str, value: str, kind: str = "text") -> str:
    if kind == "textarea":
        control = (
            f'<textarea class="form-control" id="{name}" name="{name}" rows="6">{escape(value)}</textarea>'
        )
    else:
        control = (
            f'<input class="form-control" type="{kind}" id="{name}" name="{name}" value="{escape(value)}">'
        )
    return f'<label for="{name}">{label}</label>{control}'


def render_page(cfg: SiteConfig, current: int, title: str, body: str, head: str = "") -> str:
    return document(title, body, current=current, version=cfg.app_version, head=head)


def home(cfg: SiteConfig) -> str:
    sidebar = (
        '<div class="sidebar"><h3>Popular tags</h3>'
        f"{link(10, '#qa', 'tag-pill')} {link(11, '#agent', 'tag-pill')}</div>"
    )
    search = f'<p class="search-hint">Looking for something? {link(22, "Search articles")}</p>'
    # The sidebar's tag links come before the articles in link order; CSS puts it on the right.
    body = (
        banner("conduit", f"A place to share your knowledge. {link(1, 'Sign in')} or {link(2, 'sign up')}.")
        + '<div class="container layout">'
        + f'<div class="toolbar"><span>Global feed · page 1 of 3</span>{link(8, "Next page »", rel="next")}</div>'
        + f'{sidebar}<div class="main">{preview_list(c.FEED[1])}{search}</div></div>'
    )
    return render_page(cfg, 0, "Home", body)


def feed(cfg: SiteConfig, number: int) -> str:
    items = c.FEED_BUGGY_PAGE_3 if number == 3 and cfg.has_bug(9) else c.FEED[number]
    page = site.ROUTE_TO_PAGE[f"/feed/{number}"]
    if number == 2:
        pager = f"<span>Global feed · page 2 of 3</span>{link(9, 'Next page »', rel='next')}"
        head = '<link rel="prev" href="/">'
        sidebar = ""
    else:
        pager = f"{link(8, '« Previous page', rel='prev')}<span>Global feed · page 3 of 3</span>"
        head = '<link rel="prev" href="/feed/2">'
        sidebar = f'<div class="sidebar"><h3>Most read</h3>{link(16, c.ARTICLES["c"].title)}</div>'
    body = (
        banner("Global feed", f"Page {number} of 3")
        + f'<div class="container layout"><div class="toolbar">{pager}</div>'
        + f'<div class="main">{preview_list(items)}</div>{sidebar}</div>'
    )
    return render_page(cfg, page, f"Global feed, page {number}", body, head)


def article(cfg: SiteConfig, slug: str) -> str:
    a = c.ARTICLES[slug]
    page = site.ROUTE_TO_PAGE[f"/article/{slug}"]
    action = {
        "a": f'<p class="discussion">Join the discussion: {link(13, "read all comments")}</p>',
        "b": f'<p class="article-actions">{link(15, "Edit article", "btn btn-outline")}</p>',
        "c": f'<p class="article-actions">{link(17, "Share this article", "btn btn-outline")}</p>',
    }[slug]
    paragraphs = "".join(f"<p>{escape(p)}</p>" for p in a.body)
    comments = "".join(_comment(x) for x in _reader_comments(cfg))
    body = (
        f'<div class="banner dark"><div class="container"><h1 data-field="title">{escape(a.title)}</h1>'
        f'<p class="article-meta">by {escape(a.author)} · {escape(a.date)} · ♥ {a.favorites}</p></div></div>'
        f'<div class="container"><p class="description" data-field="description">{escape(a.description)}</p>'
        f'<div class="article-content" data-field="body">{paragraphs}</div>'
        f"{_tags(a.tags, 'tags')}{action}"
        f'<div class="card author-card"><div class="card-block">About the author: {link(18, a.author)}</div></div>'
        f'<h3>Reader comments</h3><div class="comment-list">{comments}</div></div>'
    )
    return render_page(cfg, page, a.title, body)


def comments_of_a(cfg: SiteConfig) -> str:
    comments = list(c.A_COMMENTS)
    if not cfg.has_bug(13):
        comments = [x if not x.trusted_html else c.Comment(x.author, x.date, x.text) for x in comments]
    if cfg.poison_text is not None:
        comments.append(c.Comment(c.POISON_AUTHOR, "November 29, 2026", cfg.poison_text))
    form = (
        '<form class="comment-form" method="post" action="/article/a/comments">'
        f'{form_field("comment", "Write a comment…", "", "textarea")}<button class="btn">Post comment</button></form>'
    )
    body = (
        banner(f"Comments on “{c.ARTICLES['a'].title}”")
        + f'<div class="container"><p>{link(12, "« Back to the article")}</p>'
        + f"<h2>Comments ({len(comments)})</h2>"
        + f'<div class="comment-list">{"".join(_comment(x) for x in comments)}</div>{form}</div>'
    )
    return render_page(cfg, 13, "Comments", body)


def share_c(cfg: SiteConfig) -> str:
    a = c.ARTICLES["c"]
    body = (
        banner("Share", escape(a.title))
        + '<div class="container"><p>Copy this address and send it to a friend:</p>'
        + '<p><code class="share-url">http://conduit.example/article/c</code></p>'
        + f"<p>{link(16, '« Back to the article')}</p></div>"
    )
    return render_page(cfg, 17, f"Share {a.title}", body)


def author(cfg: SiteConfig) -> str:
    body = (
        banner(c.AUTHOR, "Writes about memory, agents and testing.")
        + f'<div class="container"><p class="followers">{link(19, f"{len(c.FOLLOWERS)} followers")}</p>'
        + f"<h2>Featured article</h2>{_preview(c.preview('a'))}</div>"
    )
    return render_page(cfg, 18, c.AUTHOR, body)


def followers(cfg: SiteConfig) -> str:
    names = "".join(f"<li>{escape(n)}</li>" for n in c.FOLLOWERS)
    body = (
        banner(f"{c.AUTHOR}'s followers")
        + f'<div class="container"><p>{link(18, f"« Back to {c.AUTHOR}")}</p>'
        + f'<h2>Followers ({len(c.FOLLOWERS)})</h2><ul class="follower-list">{names}</ul></div>'
    )
    return render_page(cfg, 19, "Followers", body)


def search(cfg: SiteConfig, number: int, query: str) -> str:
    """Search results; page 2 fails with HTTP 500 while the bug is present (see `search_error`)."""
    items = c.SEARCH[number]
    first = 1 if number == 1 else len(c.SEARCH[1]) + 1
    if number == 1:
        pager = f"<span>Results {first}–{first + len(items) - 1} of {c.SEARCH_TOTAL}</span>{link(23, 'Next page »', rel='next')}"
    else:
        pager = f"{link(22, '« Previous page', rel='prev')}<span>Results {first}–{first + len(items) - 1} of {c.SEARCH_TOTAL}</span>"
    form = (
        '<form class="search-form" method="get" action="/search">'
        f'<input class="form-control" type="search" name="q" value="{escape(query)}" aria-label="Search">'
        "</form>"
    )
    body = (
        banner("Search", f"Articles matching “{escape(query)}”")
        + f'<div class="container">{form}<div class="toolbar">{pager}</div>{preview_list(items)}</div>'
    )
    return render_page(cfg, 22 if number == 1 else 23, f"Search: {query}", body)


def search_error(cfg: SiteConfig, query: str) -> str:
    offset = len(c.SEARCH[1]) * 2
    trace = (
        "Traceback (most recent call last):\n"
        '  File "/srv/conduit/search.py", line 88, in results_page\n'
        "    hits = index.page(query, offset=offset, limit=page_size)\n"
        f"IndexError: search offset {offset} is out of range for {c.SEARCH_TOTAL} results"
    )
    body = (
        banner("Something went wrong", dark=True)
        + '<div class="container"><div class="error-box"><p>The server could not show search results page 2 '
        + f'for “{escape(query)}”.</p><pre class="traceback">{escape(trace)}</pre></div>'
        + f"<p>{link(22, '« Back to search page 1')} · Popular: {link(16, c.ARTICLES['c'].title)}</p></div>"
    )
    return render_page(cfg, 23, "500 Internal Server Error", body)


def tag(cfg: SiteConfig, name: str) -> str:
    items = tuple(c.preview(s) for s, a in c.ARTICLES.items() if name in a.tags)
    body = (
        banner(f"#{name}")
        + f'<div class="container"><h2>Articles tagged #{escape(name)} ({len(items)})</h2>{preview_list(items)}</div>'
    )
    return render_page(cfg, site.ROUTE_TO_PAGE[f"/tag/{name}"], f"#{name}", body)


PageRenderer = Callable[[SiteConfig], str]
