"""Links that only switch the interface's language are no way onward (`bughunt.explorer.language`)."""

from __future__ import annotations

from bughunt.explorer.facts import read_page
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.language import switches_language
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://books.test"


def test_language_switches_by_path_and_by_query():
    for route in ("/lang/fr", "/lang/pt_BR", "/i18n/setlang/de", "/language/zh-Hans/", "/?locale=ja_JP",
                  "/books?lang=es&page=2"):  # fmt: skip
        assert switches_language(route), route
    for route in ("/lang/new", "/books/fr", "/language/settings", "/books?page=2", "/?lang=", "/tag/en"):
        assert not switches_language(route), route


def test_a_page_menu_of_languages_adds_no_links():
    html = (
        '<html><body><a href="/books">Books</a><a href="/authors">Authors</a>'
        '<ul class="dropdown"><li><a href="/lang/fr">Français</a></li><li><a href="/lang/de">Deutsch</a></li>'
        '<li><a href="/?locale=pt_BR">Português</a></li></ul></body></html>'
    )
    page = FetchedPage(ORIGIN + "/", route_of(ORIGIN + "/"), 200, {}, "text/html", html, 1.0)
    facts = read_page(page, HttpEngine(ORIGIN + "/", respect_robots=False))
    assert list(facts.links) == ["/books", "/authors"]
