"""HTML of the conduit-htmx pages. Everything user-written is escaped except where a bug is planted
(`Comment.raw_html`, see `bugs.py`). Lists are rendered the way the field trial met them: previews
beside tabs and an HTMX pager in one container, the author's link first in every preview."""

from __future__ import annotations

import json
from html import escape
from urllib.parse import quote

from bughunt.webapp.conduit.data import Article, Comment, User


def e(text: str) -> str:
    return escape(text, quote=True)


def preview(article: Article, favorites: int) -> str:
    author = e(article.author)
    tags = "".join(f'<li><a class="tag-pill" href="/tag/{quote(t)}">{e(t)}</a></li>' for t in article.tags)
    return (
        '<div class="article-preview"><div class="article-meta">'
        f'<a href="/profile/{author}"><img src="/static/{author}.svg" alt=""></a>'
        f'<div class="info"><a class="author" href="/profile/{author}">{author}</a>'
        f'<span class="date">{e(article.date)}</span></div>'
        f'<span class="counter">♥ {favorites}</span></div>'
        f'<a class="preview-link" href="/article/{e(article.slug)}"><h1>{e(article.title)}</h1>'
        f"<p>{e(article.description)}</p><span>Read more...</span></a>"
        f'<ul class="tag-list">{tags}</ul></div>'
    )


def pager(base: str, page: int, pages: int, target: str) -> str:
    """An HTMX pager: buttons, not links (an `<a href>`-only crawler never sees page 2)."""
    if pages <= 1:
        return ""
    sep = "&" if "?" in base else "?"
    items = "".join(
        f'<li class="page-item{" active" if n == page else ""}"><button class="page-link" '
        f'hx-get="{e(base)}{sep}page={n}" hx-target="{target}" hx-push-url="true">{n}</button></li>'
        for n in range(1, pages + 1)
    )
    return f'<nav><ul class="pagination">{items}</ul></nav>'


def tabs(items: list[tuple[str, str, bool]]) -> str:
    links = "".join(
        f'<li class="nav-item"><a class="nav-link{" active" if active else ""}" href="{e(href)}">{e(label)}</a></li>'
        for href, label, active in items
    )
    return f'<div class="feed-toggle"><ul class="nav nav-pills outline-active">{links}</ul></div>'


def popular_tags(tags: list[str]) -> str:
    pills = "".join(f'<a class="tag-pill" href="/tag/{quote(t)}">{e(t)}</a> ' for t in tags)
    return f'<div class="col-md-3"><div class="sidebar"><p>Popular Tags</p><div class="tag-list">{pills}</div></div></div>'


def feed_page(title: str, tab_items: str, feed: str, tags: list[str], banner: str = "") -> str:
    head = banner or f'<div class="banner"><div class="container"><h1>{e(title)}</h1></div></div>'
    return (
        f'{head}<div class="container page"><div class="row"><div class="col-md-9">{tab_items}'
        f'<div id="feed">{feed}</div></div>{popular_tags(tags)}</div></div>'
    )


def comment(c: Comment, viewer: str | None, fixed: bool = False) -> str:
    body = c.body if c.raw_html and not fixed else e(c.body)
    delete = ""
    if viewer == c.author:
        # Planted bug: deleting is a plain GET link (no form, no confirmation) that redirects back.
        delete = (
            f' <a class="mod-options" href="/article/{e(c.article)}/comments/{c.id}/delete">'
            '<i class="ion-trash-a"></i> Delete</a>'
        )
    return (
        f'<div class="card"><div class="card-block"><p class="card-text">{body}</p></div>'
        f'<div class="card-footer"><a class="comment-author" href="/profile/{e(c.author)}">{e(c.author)}</a>'
        f' <span class="date-posted">{e(c.date)}</span>{delete}</div></div>'
    )


def article_page(
    article: Article, comments: list[Comment], viewer: str | None, csrf: str, favorites: int,
    fixed: bool = False,
) -> str:  # fmt: skip
    slug = e(article.slug)
    tags = "".join(f'<li class="tag-default tag-pill">{e(t)}</li>' for t in article.tags)
    owner = ""
    if viewer == article.author:
        owner = (
            f'<a class="btn btn-outline-secondary" href="/editor/{slug}">Edit Article</a>'
            f'<form method="post" action="/article/{slug}/delete" style="display:inline">'
            f'<input type="hidden" name="csrf_token" value="{e(csrf)}">'
            '<button class="btn btn-outline-danger">Delete Article</button></form>'
        )
    elif viewer:
        owner = (
            f'<form method="post" action="/article/{slug}/favorite" style="display:inline">'
            f'<input type="hidden" name="csrf_token" value="{e(csrf)}">'
            f'<button class="btn btn-outline-primary">♥ Favorite Article ({favorites})</button></form>'
        )
    if viewer:
        new_comment = (
            f'<form class="card comment-form" method="post" action="/article/{slug}/comments">'
            f'<input type="hidden" name="csrf_token" value="{e(csrf)}">'
            '<div class="card-block"><textarea class="form-control" name="body" '
            'placeholder="Write a comment..." rows="3"></textarea></div>'
            '<div class="card-footer"><button class="btn btn-primary">Post Comment</button></div></form>'
        )
    else:
        new_comment = (
            '<p><a href="/login">Sign in</a> or <a href="/register">sign up</a> to add comments.</p>'
        )
    cards = "".join(comment(c, viewer, fixed) for c in comments)
    return (
        f'<div class="article-page"><div class="banner"><div class="container"><h1>{e(article.title)}</h1>'
        f'<div class="article-meta"><a class="author" href="/profile/{e(article.author)}">{e(article.author)}</a>'
        f' <span class="date">{e(article.date)}</span> {owner}</div></div></div>'
        f'<div class="container page"><div class="article-content"><p>{e(article.description)}</p>'
        f"<p>{e(article.body)}</p>"
        f'<ul class="tag-list">{tags}</ul></div>'
        # Rendered only by the script below: an HTTP crawler sees an empty section.
        f'<section id="related" data-slug="{slug}" aria-live="polite"></section>'
        f'<div class="row"><div class="col-xs-12 col-md-8 offset-md-2">{new_comment}{cards}</div></div></div></div>'
    )


RELATED_JS = """
<script>
(function () {
  var box = document.getElementById('related');
  if (!box) return;
  fetch('/api/articles/' + box.dataset.slug + '/related').then(function (response) {
    if (!response.ok) throw new Error('related articles: HTTP ' + response.status);
    return response.json();
  }).then(function (items) {
    var html = '<h3>Related articles</h3><ul class="related-list">';
    items.forEach(function (item) {
      var a = document.createElement('a');
      a.href = '/article/' + encodeURIComponent(item.slug);
      a.textContent = item.title;
      html += '<li>' + a.outerHTML + '</li>';
    });
    box.innerHTML = html + '</ul>';
  });
})();
</script>
"""


def profile_page(user: User, viewer: str | None, tab: str, feed: str, csrf: str, followers: int) -> str:
    name = e(user.name)
    follow = ""
    if viewer and viewer != user.name:
        follow = (
            f'<form method="post" action="/profile/{name}/follow" style="display:inline">'
            f'<input type="hidden" name="csrf_token" value="{e(csrf)}">'
            f'<button class="btn btn-outline-secondary">+ Follow {name}</button></form>'
        )
    settings = '<a class="btn" href="/settings">Edit Profile Settings</a>' if viewer == user.name else ""
    tab_items = tabs(
        [
            (f"/profile/{user.name}", "My Articles", tab == "articles"),
            (f"/profile/{user.name}/favorites", "Favorited Articles", tab == "favorites"),
        ]
    )
    return (
        f'<div class="profile-page"><div class="user-info"><div class="container">'
        f'<img src="{e(user.image)}" class="user-img" alt=""><h4>{name}</h4><p>{e(user.bio)}</p>'
        f'<a class="followers" href="/profile/{name}/followers">{followers} followers</a> {follow}{settings}'
        f'</div></div><div class="container"><div class="row"><div class="col-md-9">{tab_items}'
        f'<div id="feed">{feed}</div></div></div></div></div>'
    )


def followers_page(user: User, shown_count: int, listed: list[User]) -> str:
    items = "".join(
        f'<li class="user-row"><a href="/profile/{e(u.name)}">{e(u.name)}</a> <span>{e(u.bio)}</span></li>'
        for u in listed
    )
    return (
        f'<div class="container page"><p><a href="/profile/{e(user.name)}">← {e(user.name)}</a></p>'
        f'<h4>Followers ({shown_count})</h4><ul class="user-list">{items}</ul></div>'
    )


def login_page(csrf: str, error: str = "", next_url: str = "/") -> str:
    message = f'<ul class="error-messages"><li>{e(error)}</li></ul>' if error else ""
    return (
        '<div class="auth-page"><div class="container page"><h1>Sign in</h1>'
        f'<p><a href="/register">Need an account?</a></p>{message}'
        '<form method="post" action="/login">'
        f'<input type="hidden" name="csrf_token" value="{e(csrf)}">'
        f'<input type="hidden" name="next" value="{e(next_url)}">'
        '<input class="form-control" type="text" name="username" placeholder="Username" autocomplete="username">'
        '<input class="form-control" type="password" name="password" placeholder="Password">'
        '<button class="btn btn-primary">Sign in</button></form></div></div>'
    )


def register_page() -> str:
    return (
        '<div class="auth-page"><div class="container page"><h1>Sign up</h1>'
        '<p><a href="/login">Have an account?</a></p><p>Registration is closed on this demo.</p></div></div>'
    )


def editor_page(article: Article | None, csrf: str, tags_value: str, description: bool = False) -> str:
    """The editor; `description` writes the description input's value (the fixed site does)."""
    action = f"/editor/{e(article.slug)}" if article else "/editor"
    title = e(article.title) if article else ""
    body = e(article.body) if article else ""
    return (
        '<div class="editor-page"><div class="container page">'
        f'<form method="post" action="{action}" id="editor">'
        f'<input type="hidden" name="csrf_token" value="{e(csrf)}">'
        f'<input class="form-control" type="text" name="title" placeholder="Article Title" value="{title}">'
        # Planted bug (form_drops_value): the description input is written by hand without its
        # `value`, so saving an edit drops the description the article page shows as its lede.
        '<input class="form-control" type="text" name="description" placeholder="What\'s this article about?"'
        + (f' value="{e(article.description)}"' if description and article else "")
        + ">"
        f'<textarea class="form-control" name="body" rows="8" placeholder="Write your article">{body}</textarea>'
        '<input class="form-control" type="text" id="tag-input" placeholder="Enter tags">'
        f'<div class="tag-list" id="tag-chips"></div><input type="hidden" name="tags" value="{e(tags_value)}">'
        '<button class="btn btn-lg btn-primary">Publish Article</button></form></div></div>'
        "<script>"
        "(function () {"
        "  var hidden = document.querySelector('#editor input[name=tags]');"
        "  var input = document.getElementById('tag-input'), chips = document.getElementById('tag-chips');"
        "  function draw() { chips.textContent = '';"
        "    hidden.value.split(',').filter(Boolean).forEach(function (t) {"
        "      var s = document.createElement('span'); s.className = 'chip'; s.textContent = t; chips.appendChild(s); }); }"
        "  input.addEventListener('keydown', function (ev) { if (ev.key !== 'Enter') return; ev.preventDefault();"
        "    var t = input.value.trim(); if (t) { hidden.value = hidden.value ? hidden.value + ',' + t : t; }"
        "    input.value = ''; draw(); });"
        "  draw();"
        "})();"
        "</script>"
    )


def settings_page(user: User, csrf: str) -> str:
    return (
        '<div class="settings-page"><div class="container page"><h1>Your Settings</h1>'
        '<form method="post" action="/settings">'
        f'<input type="hidden" name="csrf_token" value="{e(csrf)}">'
        f'<input class="form-control" type="text" name="image" value="{e(user.image)}" placeholder="URL of profile picture">'
        f'<input class="form-control" type="text" name="username" value="{e(user.name)}" placeholder="Username">'
        f'<textarea class="form-control" name="bio" rows="4" placeholder="Short bio about you">{e(user.bio)}</textarea>'
        f'<input class="form-control" type="email" name="email" value="{e(user.email)}" placeholder="Email">'
        '<input class="form-control" type="password" name="password" placeholder="New Password">'
        '<button class="btn btn-lg btn-primary">Update Settings</button></form><hr>'
        '<a class="btn btn-outline-danger" href="/logout">Or click here to logout.</a></div></div>'
    )


def confirm_delete(action: str, csrf: str) -> str:
    """The fixed site's answer to a GET of a delete address: it asks, and only the POST deletes."""
    return (
        '<div class="container page"><h1>Delete this comment?</h1>'
        f'<form method="post" action="{e(action)}"><input type="hidden" name="csrf_token" value="{e(csrf)}">'
        '<button class="btn btn-danger">Yes, delete it</button></form></div>'
    )


def debug_error(exc_type: str, message: str, path: str, frames: list[str]) -> str:
    """A framework's DEBUG error page: its one link is `#` (a toggle), a dead end for a crawler."""
    trace = "\n".join(frames + [f"{exc_type}: {message}"])
    return (
        "<!DOCTYPE html>\n<html><head><title>"
        f'{e(exc_type)} at {e(path)}</title></head><body class="debug">'
        f'<div id="summary"><h1>{e(exc_type)} at {e(path)}</h1><pre class="exception_value">{e(message)}</pre></div>'
        f'<div id="traceback"><a href="#" onclick="return false">Switch to copy-and-paste view</a>'
        f"<pre>Traceback (most recent call last):\n{e(trace)}</pre></div>"
        "<p>You're seeing this error because you have DEBUG = True in your settings file.</p></body></html>"
    )


PRODUCTION_ERROR = (
    "<!DOCTYPE html>\n<html><head><title>Server Error (500)</title></head>"
    "<body><h1>Server Error (500)</h1></body></html>"
)


def related_json(items: list[Article]) -> str:
    return json.dumps([{"slug": a.slug, "title": a.title} for a in items])
