"""One view of pages in a tree of paths is one template at any depth (`explorer.tree_views`): a bug
found on the history view of a top page and of a nested page is one bug; plain words after
different prefixes are not. Generic routes, no application's."""

from __future__ import annotations

from bughunt.explorer.inspection import same_root_cause
from bughunt.explorer.store import Bug
from bughunt.explorer.tree_views import tree_template, view_of
from bughunt.fingerprint import route_shape
from bughunt.oracles import Finding


def test_a_marked_view_at_any_depth_is_one_template():
    top, nested, root = (route_shape(r) for r in ("/garden/_log/", "/garden/herbs/mint/_log/", "/_log/"))
    assert tree_template(top, nested) == tree_template(root, nested) == "/**/_log/"
    assert view_of(route_shape("/garden/herbs/_remove/?sure=1")) is not None
    assert tree_template(top, route_shape("/garden/herbs/_edit/")) is None  # another view
    assert tree_template(top, top) is None


def test_plain_words_after_different_prefixes_are_other_templates():
    assert tree_template(route_shape("/user/ann/delete"), route_shape("/post/7/comment/3/delete")) is None
    assert tree_template(route_shape("/_/x"), route_shape("/a/_/x")) is None  # a lone mark is no name


def bug(route: str, error: int) -> Bug:
    return Bug(
        id=1, fingerprint="f" * 16, route=route, kind="server_error", message="server answered 500",
        evidence=f'{{"error_key": {error}}}', status="open", version=None, seen_at=0.0, step=1,
        superseded_by=None,
    )  # fmt: skip


def finding(route: str, error: int) -> Finding:
    # An error key is a number (`server_error.error_key`): the error line itself is quarantined.
    return Finding("server_error", route, "server answered 500", {"error_key": error})


def test_one_error_on_one_view_at_two_depths_is_one_bug():
    (joined,) = same_root_cause([finding("/garden/herbs/mint/_log/", 1)], [bug("/garden/_log/", 1)])
    assert joined.fingerprint == "f" * 16
    (other,) = same_root_cause([finding("/garden/herbs/mint/_log/", 2)], [bug("/garden/_log/", 1)])
    assert other.fingerprint != "f" * 16  # another error is another bug


def test_one_view_a_query_names_of_files_in_two_folders_is_one_bug():
    # a file manager: the folder in the path, the file and the view of it in the query
    known = bug("/files/archive/new?view=info&name=lantern-1.zip", 1)
    for route in (
        "/files/incoming?view=info&name=notes.txt",
        "/files/archive/games/z?view=info&name=mill.z5",
    ):
        (joined,) = same_root_cause([finding(route, 1)], [known])
        assert joined.fingerprint == "f" * 16, route
    for route in (
        "/files/incoming?view=edit&name=notes.txt",  # another view of the file
        "/other/incoming?view=info&name=notes.txt",  # another area of the site
        "/files/incoming/42?view=info&name=notes.txt",  # a record's own page
        "/files/incoming?view=info&item=shirt",  # other keys, naming no file
    ):
        (apart,) = same_root_cause([finding(route, 1)], [known])
        assert apart.fingerprint != "f" * 16, route


def test_one_view_a_query_names_of_things_that_are_no_files_is_two_templates():
    # a shop's cart and wish list, each adding an item: two handlers
    (apart,) = same_root_cause(
        [finding("/shop/wish?do=add&item=hat", 1)], [bug("/shop/cart?do=add&item=shirt", 1)]
    )
    assert apart.fingerprint != "f" * 16
