"""The conduit-htmx page frame: head with inline CSS, the navbar (which changes when logged in), the
footer, and `SWAP_JS` — our own few lines that do what the site's `hx-get` attributes ask (no CDN)."""

from __future__ import annotations

from html import escape

CSS = """
*{box-sizing:border-box}body{margin:0;font-family:system-ui,sans-serif;color:#373a3c;line-height:1.5}
a{color:#5cb85c;text-decoration:none}.container{max-width:1000px;margin:0 auto;padding:0 16px}
.navbar{padding:8px 0;border-bottom:1px solid #eee}.navbar .container{display:flex;justify-content:space-between}
.navbar-brand{font-weight:700;font-size:1.5rem}.nav{list-style:none;display:flex;gap:16px;margin:0;padding:0}
.nav-link{color:rgba(0,0,0,.4)}.nav-link.active{color:rgba(0,0,0,.8)}
.banner{background:#5cb85c;color:#fff;padding:24px 0;margin-bottom:20px}.banner h1{margin:0}
.row{display:flex;gap:24px}.col-md-9{flex:3}.col-md-3{flex:1}
.sidebar{background:#f3f3f3;padding:8px 12px;border-radius:4px}
.tag-list{list-style:none;padding:0;display:flex;gap:4px;flex-wrap:wrap}
.tag-pill{border:1px solid #ddd;border-radius:10rem;padding:0 .6em;font-size:.8rem;color:#999}
.article-preview{border-top:1px solid #eee;padding:16px 0}.preview-link h1{font-size:1.3rem;margin:4px 0;color:#373a3c}
.preview-link p{color:#999;margin:0}.article-meta{font-size:.85rem;color:#bbb}
.card{border:1px solid #e5e5e5;border-radius:4px;margin:12px 0}.card-block{padding:12px}
.card-footer{background:#f5f5f5;padding:6px 12px;font-size:.8rem}
.pagination{display:flex;gap:6px;list-style:none;padding:0}.page-link{border:1px solid #ddd;background:#fff;padding:4px 10px}
.form-control{display:block;width:100%;padding:8px;margin-bottom:10px}.btn{padding:6px 14px}
.chip{display:inline-block;background:#818a91;color:#fff;border-radius:10rem;padding:0 .6em;margin:2px}
.debug{font-family:monospace}.debug pre{background:#222;color:#eee;padding:12px;white-space:pre-wrap}
footer{margin-top:40px;padding:12px 0;background:#f3f3f3;color:#bbb;font-size:.85rem}
"""

SWAP_JS = """
document.addEventListener('click', function (event) {
  var el = event.target.closest('[hx-get]');
  if (!el) return;
  event.preventDefault();
  var url = el.getAttribute('hx-get');
  fetch(url, {headers: {'HX-Request': 'true'}}).then(function (response) {
    if (!response.ok) throw new Error('hx-get ' + url + ' answered ' + response.status);
    return response.text();
  }).then(function (html) {
    var target = document.querySelector(el.getAttribute('hx-target') || 'body');
    target.innerHTML = html;
    if (el.getAttribute('hx-push-url') === 'true') history.pushState({}, '', url);
  });
});
"""


def nav(user: str | None, current: str) -> str:
    items = [("/", "Home")]
    if user:
        items += [("/editor", "New Article"), ("/settings", "Settings"), (f"/profile/{user}", user)]
    else:
        items += [("/login", "Sign in"), ("/register", "Sign up")]
    links = "".join(
        f'<li class="nav-item"><a class="nav-link{" active" if href == current else ""}" href="{href}">'
        f"{escape(label)}</a></li>"
        for href, label in items
    )
    return (
        '<nav class="navbar"><div class="container"><a class="navbar-brand" href="/">conduit</a>'
        f'<ul class="nav">{links}</ul></div></nav>'
    )


def document(title: str, body: str, *, user: str | None, current: str = "", scripts: str = "") -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)} — Conduit</title><style>{CSS}</style></head><body>"
        f"{nav(user, current)}{body}"
        '<footer><div class="container">conduit-htmx — an interactive learning project</div></footer>'
        f"<script>{SWAP_JS}</script>{scripts}</body></html>"
    )
