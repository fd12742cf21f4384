"""Oracles open no page the walk would refuse to click, unless `--allow-destructive` says the site is
disposable: a GET there may delete what it names."""

from __future__ import annotations

import re

import pytest

from bughunt.explorer import inspection
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://127.0.0.1:9"


class _Engine:
    """An engine whose walk avoids `/logout` and robots-disallowed `/private`, recording its fetches."""

    def __init__(self) -> None:
        self.fetched: list[str] = []
        self.opened: list[str] = []

    def route_of(self, url: str) -> str | None:
        return route_of(url) if url.startswith(ORIGIN + "/") else None

    def followable(self, route: str) -> bool:
        return not re.search(r"^/(logout|private)", route)

    def reuse_page(self, url: str, version: str | None) -> FetchedPage | None:
        return None

    def fetch_page(self, url: str, referer: str | None = None) -> FetchedPage:
        self.fetched.append(url)
        return FetchedPage(url, route_of(url), 200, {}, "text/html", "<p>ok</p>", 1.0)

    def open_action(self, url: str, referer: str | None = None) -> FetchedPage:
        self.opened.append(url)
        return self.fetch_page(url)


@pytest.mark.parametrize(
    "url",
    [
        ORIGIN + "/wiki/root/_delete/",
        ORIGIN + "/notes/7/remove",
        ORIGIN + "/items?action=delete&id=3",
        ORIGIN + "/logout",
        ORIGIN + "/private/report",
        "http://elsewhere.test/notes/7",
    ],
)
def test_a_guarded_fetch_refuses_what_the_walk_refuses_and_sends_nothing(url: str) -> None:
    engine = _Engine()
    fetch = inspection._oracle_fetch(engine, reuse=True, version=None, guarded=True)  # type: ignore[arg-type]
    with pytest.raises(PermissionError):
        fetch(url)
    assert engine.fetched == []


def test_a_guarded_fetch_opens_ordinary_pages_and_an_unguarded_one_opens_destructive_ones() -> None:
    engine = _Engine()
    guarded = inspection._oracle_fetch(engine, reuse=True, version=None, guarded=True)  # type: ignore[arg-type]
    assert guarded(ORIGIN + "/notes/7?page=2").status == 200
    opened = inspection._oracle_fetch(engine, reuse=False, version=None, guarded=False)  # type: ignore[arg-type]
    assert opened(ORIGIN + "/notes/7/remove").status == 200
    assert opened(ORIGIN + "/notes/7").status == 200
    assert engine.fetched == [ORIGIN + "/notes/7?page=2", ORIGIN + "/notes/7/remove", ORIGIN + "/notes/7"]
    # only the destructive action is opened as one (in the browser, with its page's writes sent)
    assert engine.opened == [ORIGIN + "/notes/7/remove"]
