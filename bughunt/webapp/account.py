"""Sign-in, sign-up and the logged-in user's own pages (profile, settings, editor, account)."""

from __future__ import annotations

from html import escape

from bughunt.webapp import content as c
from bughunt.webapp.layout import banner, link
from bughunt.webapp.pages import SiteConfig, form_field, preview_list, render_page

ACCOUNT_PAGES: frozenset[int] = frozenset({3, 4, 5, 6, 7, 15, 20, 21})
"""Pages behind the login wall: in the logged-out view they redirect to the login page."""


def _form(action: str, fields: str, submit: str, extra: str = "") -> str:
    return (
        f'<form method="post" action="{action}">{fields}{extra}<button class="btn">{submit}</button></form>'
    )


def login(cfg: SiteConfig) -> str:
    form = _form(
        "/login",
        form_field("email", "Email", "", "email") + form_field("password", "Password", "", "password"),
        "Sign in",
    )
    body = banner("Sign in") + f'<div class="container"><p>{link(2, "Need an account?")}</p>{form}</div>'
    return render_page(cfg, 1, "Sign in", body)


def register(cfg: SiteConfig) -> str:
    fields = (
        form_field("username", "Username", "")
        + form_field("email", "Email", "", "email")
        + form_field("password", "Password", "", "password")
    )
    body = (
        banner("Sign up")
        + f'<div class="container"><p>{link(1, "Have an account?")}</p>{_form("/register", fields, "Sign up")}</div>'
    )
    return render_page(cfg, 2, "Sign up", body)


def settings(cfg: SiteConfig) -> str:
    fields = (
        form_field("image", "Profile picture URL", "https://conduit.example/avatars/tester.png", "url")
        + form_field("username", "Username", c.USERNAME)
        + form_field("bio", "Bio", "I break things so users do not have to.", "textarea")
        + form_field("email", "Email", "tester@conduit.example", "email")
        + form_field("password", "New password (leave empty to keep)", "", "password")
    )
    body = (
        banner("Your settings")
        + f'<div class="container">{_form("/settings", fields, "Update settings")}'
        + f"<p>{link(20, 'Change password')}</p></div>"
    )
    return render_page(cfg, 3, "Settings", body)


def new_article(cfg: SiteConfig) -> str:
    fields = (
        form_field("title", "Article title", "")
        + form_field("description", "What's this article about?", "")
        + form_field("body", "Write your article (in markdown)", "", "textarea")
        + form_field("tags", "Enter tags", "")
    )
    body = (
        banner("New article")
        + f'<div class="container">{_form("/editor", fields, "Publish article")}'
        + f"<p>Need inspiration? {link(14, c.ARTICLES['b'].title)}</p></div>"
    )
    return render_page(cfg, 4, "New article", body)


def edit_b(cfg: SiteConfig) -> str:
    a = c.ARTICLES["b"]
    # The injected bug: the editor forgets to fill in the article's tags.
    tags = "" if cfg.has_bug(15) else ", ".join(a.tags)
    fields = (
        form_field("title", "Article title", a.title)
        + form_field("description", "What's this article about?", a.description)
        + form_field("body", "Write your article (in markdown)", "\n\n".join(a.body), "textarea")
        + form_field("tags", "Enter tags", tags)
    )
    cancel = f"{link(14, 'Cancel', 'btn btn-outline')} "
    body = (
        banner(f"Edit “{a.title}”")
        + f'<div class="container">{_form("/editor/b", fields, "Update article", cancel)}</div>'
    )
    return render_page(cfg, 15, f"Edit {a.title}", body)


def my_profile(cfg: SiteConfig) -> str:
    body = (
        banner(c.USERNAME, "I break things so users do not have to.")
        + '<div class="container"><ul class="nav profile-tabs">'
        + f"<li>{link(6, 'My Articles')}</li><li>{link(7, 'Favorited Articles')}</li></ul>"
        + "<p>Pick a tab to see your articles or the ones you favourited.</p></div>"
    )
    return render_page(cfg, 5, c.USERNAME, body)


def my_articles(cfg: SiteConfig) -> str:
    items = c.MY_ARTICLES
    body = (
        banner("My articles")
        + f'<div class="container"><h2>My articles ({len(items)})</h2>{preview_list(items)}</div>'
    )
    return render_page(cfg, 6, "My articles", body)


def my_favorites(cfg: SiteConfig) -> str:
    items = c.FAVORITES
    # The injected bug: the count is a cached value that was not refreshed after an unfavourite.
    count = c.FAVORITES_STALE_COUNT if cfg.has_bug(7) else len(items)
    body = (
        banner("My favorites")
        + f'<div class="container"><h2>Favorited articles ({count})</h2>{preview_list(items)}</div>'
    )
    return render_page(cfg, 7, "My favorites", body)


def change_password(cfg: SiteConfig) -> str:
    fields = (
        form_field("current_password", "Current password", "", "password")
        + form_field("new_password", "New password", "", "password")
        + form_field("confirm_password", "Repeat the new password", "", "password")
    )
    body = (
        banner("Change password")
        + f'<div class="container">{_form("/settings/password", fields, "Change password")}'
        + '<div class="danger-zone"><h3>Danger zone</h3><p>Deleting your account removes your articles and comments.</p>'
        + f"<p>{link(21, 'Delete account', 'btn btn-danger')}</p></div></div>"
    )
    return render_page(cfg, 20, "Change password", body)


def delete_account(cfg: SiteConfig) -> str:
    if not cfg.has_bug(21):
        form = (
            '<form method="post" action="/settings/delete-account">'
            '<label><input type="checkbox" name="confirm" value="yes" required> I understand this cannot be undone</label>'
            '<button class="btn btn-danger">Yes, delete my account</button></form>'
        )
        body = (
            banner("Delete your account?")
            + f'<div class="container"><p>This removes everything.</p>{form}</div>'
        )
        return render_page(cfg, 21, "Delete account", body)
    # The injected bug: a plain GET deletes the account at once, with no confirmation step.
    body = (
        banner("Account deleted", dark=True)
        + f'<div class="container"><p>The account <strong>{escape(c.USERNAME)}</strong>, its '
        + f"{len(c.MY_ARTICLES)} articles and its comments have been deleted.</p></div>"
    )
    return render_page(cfg, 21, "Account deleted", body)
