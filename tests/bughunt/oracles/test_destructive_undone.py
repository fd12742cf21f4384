"""A GET whose words say it destroys ("Deactivate", `/uninstall-plugin/<name>`) but whose control, once
opened, gave way to its own undoing (`/install-plugin/<name>`, "Activate") changed a state the page
offers back: per RFC 9110 §9.2.1 a state change on a safe method, an `unsafe_get`, not a deletion
(a CMS's plugin manager, upstream: bludit/bludit#1337, #1577). Every row's control is one template
whatever the record's name in its address, so one root cause. A Delete link whose row is gone (the
next record's Delete link one step apart in its place) is still a deletion."""

from __future__ import annotations

from urllib.parse import urlsplit

from bughunt.oracles import ORACLES, OracleConfig
from bughunt.page import FetchedPage
from tests.support.pages import Site

ORIGIN = "http://cms.test"


_page = Site(ORIGIN, "<html><body><main>", "</main></body></html>").page


class Plugins:
    """`/admin/plugins` lists plugins: an active one offers `uninstall-plugin/<name>` ("Deactivate"), an
    inactive one `install-plugin/<name>` ("Activate"); either GET flips it and redirects to the list."""

    def __init__(self) -> None:
        self.active = {"pluginAbout": True, "pluginSearch": True, "pluginTags": False}

    def listing(self) -> FetchedPage:
        rows = "".join(
            f'<tr class="item"><td><div>{name}</div><a href="/admin/{"uninstall" if on else "install"}-plugin/{name}">'
            f"{'Deactivate' if on else 'Activate'}</a></td><td>What {name} does.</td></tr>"
            for name, on in self.active.items()
        )
        return _page(f'<table class="table"><tbody>{rows}</tbody></table>', "/admin/plugins")

    def __call__(self, url: str) -> FetchedPage:
        verb, _, name = urlsplit(url).path.rpartition("/")
        if verb.endswith("install-plugin"):
            self.active[name] = not verb.endswith("uninstall-plugin")
        listing = self.listing()
        return listing if url == listing.url else _with_redirect(listing, url)


def _with_redirect(page: FetchedPage, asked: str) -> FetchedPage:
    from dataclasses import replace

    return replace(page, redirects=(asked,))


def test_a_deactivation_that_draws_its_activation_is_one_unsafe_get() -> None:
    site = Plugins()
    found = ORACLES["unconfirmed_destructive"](
        site.listing(), site, OracleConfig(allow_destructive=True, opened_destructive={})
    )
    assert {f.kind for f in found} == {"unsafe_get"}, found
    assert len({f.evidence["control_key"] for f in found}) == 1  # one template, whichever plugin


class Posts:
    """`/posts` lists posts with a Delete link each; a GET deletes the post and redirects to the list."""

    def __init__(self) -> None:
        self.posts = [7, 8]

    def listing(self) -> FetchedPage:
        rows = "".join(f'<li>Post {n} <a href="/items/{n}/delete">Delete</a></li>' for n in self.posts)
        return _page(f"<ul>{rows}</ul>", "/posts")

    def __call__(self, url: str) -> FetchedPage:
        parts = urlsplit(url).path.split("/")
        if parts[-1] == "delete":
            self.posts.remove(int(parts[-2]))
            self.posts.append(max(self.posts, default=8) + 1)  # the next page's post moves up
            return _with_redirect(self.listing(), url)
        return self.listing()


def test_a_delete_whose_row_made_way_for_another_records_delete_is_still_a_deletion() -> None:
    site = Posts()
    found = ORACLES["unconfirmed_destructive"](
        site.listing(), site, OracleConfig(allow_destructive=True, opened_destructive={})
    )
    assert found and {f.kind for f in found} == {"unconfirmed_destructive"}, found


def test_the_rows_control_is_one_template_whichever_page_names_it() -> None:
    from bughunt.oracles.destructive import control_key, destructive_actions

    listing = Plugins().listing()
    first, *others = [a for a in destructive_actions(listing) if "uninstall" in a.url]
    keys = {control_key(a, listing.url) for a in [first, *others]}
    keys.add(control_key(first, first.url))  # judged from the action's own address after its opening
    assert len(keys) == 1
