"""The page frame shared by every page: head with inline CSS, top navigation, footer.

Navigation shows Home, New Article, Settings, My Profile in the site definition's order; the
current page's own item is shown as text, not a link, so a page's links are exactly
`bughunt.site.LINKS[page]` (navigation first, then the page's own links in order).
"""

from __future__ import annotations

from html import escape

from bughunt import site

CSS = """
*{box-sizing:border-box}
body{margin:0;font-family:"Source Sans Pro",system-ui,-apple-system,"Segoe UI",sans-serif;color:#373a3c;background:#fff;line-height:1.5}
a{color:#5cb85c;text-decoration:none}a:hover{text-decoration:underline;color:#3d8b3d}
.container{max-width:1000px;margin:0 auto;padding:0 16px}
.navbar{padding:8px 0;border-bottom:1px solid #eee}
.navbar .container{display:flex;align-items:center;justify-content:space-between}
.navbar-brand{font-family:"Titillium Web",sans-serif;font-size:1.5rem;font-weight:700;color:#5cb85c}
.nav{list-style:none;display:flex;gap:18px;margin:0;padding:0}
.nav-link{color:rgba(0,0,0,.35)}.nav-link.active{color:rgba(0,0,0,.8)}
.banner{background:#5cb85c;color:#fff;padding:28px 0;margin-bottom:24px;box-shadow:inset 0 8px 8px -8px rgba(0,0,0,.3)}
.banner.dark{background:#333}
.banner h1{margin:0;font-size:2.4rem;font-family:"Titillium Web",sans-serif}
.banner p{margin:4px 0 0;opacity:.85}.banner a{color:#fff;text-decoration:underline}
.layout{display:grid;grid-template-columns:3fr 1fr;grid-template-areas:"toolbar side" "main side";column-gap:28px}
.layout>.toolbar{grid-area:toolbar}.layout>.main{grid-area:main}.layout>.sidebar{grid-area:side}
.sidebar{background:#f3f3f3;border-radius:4px;padding:10px 12px;align-self:start}
.sidebar h3{margin:0 0 6px;font-size:1rem}
.tag-list{list-style:none;padding:0;margin:6px 0;display:flex;flex-wrap:wrap;gap:4px}
.tag-list li,.tag-pill{border:1px solid #ddd;color:#aaa;border-radius:10rem;padding:0 .6em;font-size:.8rem}
.sidebar .tag-pill{background:#818a91;color:#fff;border:0}
.article-preview{border-top:1px solid rgba(0,0,0,.1);padding:18px 0}
.article-preview h2{margin:4px 0;font-size:1.4rem}
.article-preview h2 a{color:#373a3c}
.article-preview p{margin:0;color:#999}
.article-meta{color:#bbb;font-size:.85rem}.article-meta .author{color:#5cb85c}
.toolbar{display:flex;justify-content:space-between;border-bottom:2px solid #5cb85c;padding:6px 0;color:#5cb85c}
.article-content{font-size:1.15rem;font-family:Georgia,serif}
.card{border:1px solid #e5e5e5;border-radius:4px;margin:12px 0}
.card-block{padding:12px 16px}.card-text{margin:0}
.card-footer{background:#f5f5f5;border-top:1px solid #e5e5e5;padding:6px 16px;font-size:.8rem;color:#bbb}
form .form-control{display:block;width:100%;padding:10px 14px;margin:0 0 12px;border:1px solid rgba(0,0,0,.15);border-radius:4px;font:inherit}
label{display:block;font-size:.85rem;color:#888}
.btn{display:inline-block;border:1px solid #5cb85c;background:#5cb85c;color:#fff;border-radius:4px;padding:8px 18px;font:inherit;cursor:pointer}
.btn-outline{background:#fff;color:#5cb85c}.btn-danger{background:#b85c5c;border-color:#b85c5c}
.danger-zone{border:1px solid #b85c5c;border-radius:4px;padding:10px 16px;margin-top:24px}
.pagination{display:flex;gap:12px;list-style:none;padding:0;margin:12px 0;color:#999}
.error-box{background:#fbeaea;border:1px solid #b85c5c;border-radius:4px;padding:12px 16px}
pre.traceback{white-space:pre-wrap;background:#222;color:#eee;padding:12px;border-radius:4px;font-size:.85rem}
.follower-list{list-style:none;padding:0}.follower-list li{padding:6px 0;border-bottom:1px solid #eee}
footer{margin-top:48px;padding:16px 0;background:#f3f3f3;color:#bbb;font-size:.85rem}
"""

NAV_LABELS: dict[int, str] = {0: "Home", 4: "New Article", 3: "Settings", 5: "My Profile"}


def href(page: int) -> str:
    return site.PAGES[page].route


def link(page: int, text: str, css: str = "", rel: str = "") -> str:
    """An `<a>` to one of the site's pages; every link on the site is made here."""
    attrs = f' class="{css}"' if css else ""
    attrs += f' rel="{rel}"' if rel else ""
    return f'<a href="{href(page)}"{attrs}>{escape(text)}</a>'


def navigation(current: int | None) -> str:
    items = []
    for page in site.NAV:
        label = NAV_LABELS[page]
        if page == current:
            items.append(f'<li class="nav-item"><span class="nav-link active">{label}</span></li>')
        else:
            items.append(f'<li class="nav-item">{link(page, label, "nav-link")}</li>')
    return (
        '<nav class="navbar"><div class="container"><span class="navbar-brand">conduit</span>'
        f'<ul class="nav navbar-nav">{"".join(items)}</ul></div></nav>'
    )


def document(title: str, body: str, *, current: int | None, version: str, head: str = "") -> str:
    """A complete page. The closing inline script is the site's own, legitimate script."""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} — Conduit</title><style>{CSS}</style>{head}</head>\n<body>"
        f"{navigation(current)}\n{body}\n"
        f'<footer><div class="container">Conduit — a BugHunt test site · version '
        f'<span class="app-version">{escape(version)}</span></div></footer>'
        '<script>document.documentElement.classList.add("js");</script>'
        "</body></html>\n"
    )


def banner(title: str, subtitle: str = "", dark: bool = False) -> str:
    sub = f"<p>{subtitle}</p>" if subtitle else ""
    return f'<div class="banner{" dark" if dark else ""}"><div class="container"><h1>{escape(title)}</h1>{sub}</div></div>'
