"""A row's Delete that sends its write at one click, in a single-page editor whose views of one document
are hash routes (`/admin#/blog/1`, `/admin#/people/2`): one control drawn by one script in every view,
so one fingerprint. Pages at paths of their own keep a fingerprint each, as before."""

from __future__ import annotations

from dataclasses import replace

from bughunt.oracles.destructive import check_unconfirmed_destructive
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://editor.test"


def clicked(path: str) -> FetchedPage:
    rows = "".join(
        f'<tr><td><a href="#" title="Delete" class="delete-button"><i></i></a></td><td>Row {i}</td></tr>'
        for i in range(3)
    )
    html = f"<!doctype html><html><head><title>t</title></head><body><h2>List</h2><table>{rows}</table></body></html>"
    page = FetchedPage(
        ORIGIN + path, route_of(ORIGIN + path, hash_routes=True), 200, {}, "text/html", html, 1.0
    )
    return replace(page, clicked_from=(page, "Delete"), refused_writes=(f"DELETE {ORIGIN}/api/x/1",))


def fingerprints(*paths: str) -> set[str]:
    found = [f for p in paths for f in check_unconfirmed_destructive(clicked(p))]
    assert len(found) == len(paths), found
    return {f.fingerprint for f in found}


def test_one_control_across_the_hash_routed_views_of_a_document_is_one_bug() -> None:
    assert len(fingerprints("/admin#/blog/1", "/admin#/people/2")) == 1


def test_views_at_paths_of_their_own_keep_their_fingerprints() -> None:
    assert len(fingerprints("/admin/blog/", "/admin/people/")) == 2
