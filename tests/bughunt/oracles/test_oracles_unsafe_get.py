"""The unsafe-GET oracle: a GET that visibly changed the page it was clicked on. Pages here are made
up (a recipe site), none is a built-in site's."""

from __future__ import annotations

from dataclasses import replace

from bughunt.oracles import KINDS, ORACLES, inspect_page
from bughunt.oracles.unsafe_get import check_unsafe_get, state_change
from bughunt.page import FetchedPage

SITE = "http://recipes.test"


def page(route: str, body: str, *, redirects: tuple[str, ...] = ()) -> FetchedPage:
    html = f"<html><body><nav><a href='/'>home</a></nav>{body}</body></html>"
    return FetchedPage(SITE + route, route, 200, {}, "text/html", html, 1.0, redirects=redirects)


def after_get(asked: str, before: FetchedPage, after_body: str, label: str = "") -> FetchedPage:
    """The page a GET to `asked`, clicked on `before`, redirected back to."""
    after = page(before.route, after_body, redirects=(SITE + asked,))
    return replace(after, clicked_from=(before, label))


STEW = "<h1>Stew</h1><p>Saved by {n} cooks</p>{control}<p>Serves 4, 45 minutes</p>"


def test_registered():
    assert "unsafe_get" in KINDS and "unsafe_get" in ORACLES


def test_a_get_whose_control_flips_to_its_counterpart_is_an_unsafe_get():
    before = page("/r/12", STEW.format(n=7, control="<a href='/r/12/save'>Save</a>"))
    after = after_get("/r/12/save", before, STEW.format(n=7, control="<a href='/r/12/unsave'>Saved</a>"))
    findings = check_unsafe_get(after)
    assert [(f.kind, f.route) for f in findings] == [("unsafe_get", "/r/12/save")]
    assert findings[0].evidence["control_after"] == SITE + "/r/12/unsave"
    assert "RFC 9110" in findings[0].message and "CWE-650" in findings[0].message
    assert [f.kind for f in inspect_page(after)] == ["unsafe_get"]


def test_a_count_that_moved_by_one_or_a_relabelled_control_is_the_effect():
    control = "<a href='/r/12?action=vote'>{}</a>"
    before = page("/r/12", STEW.format(n=7, control=control.format("Vote")))
    counted = after_get("/r/12?action=vote", before, STEW.format(n=8, control=control.format("Vote")))
    assert check_unsafe_get(counted)[0].evidence["counts"] == "7 -> 8"
    relabelled = after_get("/r/12?action=vote", before, STEW.format(n=7, control=control.format("Voted")))
    found = check_unsafe_get(relabelled)[0].evidence
    assert (found["label_before"], found["label_after"]) == ("Vote", "Voted")


def test_silent_without_a_visible_effect_or_without_the_page_before():
    control = "<a href='/r/12/save'>Save</a>"
    before = page("/r/12", STEW.format(n=7, control=control))
    assert check_unsafe_get(after_get("/r/12/save", before, STEW.format(n=7, control=control))) == []
    # Many numbers moving (a clock, a random feed) is no count of this control.
    busy = after_get(
        "/r/12/save", before, "<h1>Stew</h1><p>Saved by 9 cooks</p>" + control + "<p>Serves 2, 5</p>"
    )
    assert check_unsafe_get(busy) == []
    # No page before: nothing to compare, however the URL reads.
    assert (
        check_unsafe_get(page("/r/12", STEW.format(n=8, control=""), redirects=(SITE + "/r/12/save",))) == []
    )
    # A destructive GET is the destructive oracle's.
    doomed = page("/r/12", STEW.format(n=7, control="<a href='/r/12/delete'>Delete</a>"))
    assert check_unsafe_get(after_get("/r/12/delete", doomed, STEW.format(n=6, control=""))) == []


def test_state_change_reads_verbs_that_lead_a_segment_or_an_action_key():
    assert state_change("http://x.test/users/7/follow") == "follow"
    assert state_change("http://x.test/posts/7/toggle-like") == "toggle-like"
    assert state_change("http://x.test/posts/7?action=upvote") == "upvote"
    assert state_change("http://x.test/blog/how-to-like-testing-again") is None
    assert state_change("http://x.test/search?q=follow") is None
    assert state_change("http://x.test/followers") is None


def test_a_query_verb_flipped_in_place_is_its_counterpart():
    assert state_change("http://x.test/item/7?like=1") == "like"
    before = page("/item/7", "<h1>Pan</h1><a href='/item/7?like=1'>Like</a><a href='/item/7?page=2'>more</a>")
    after = replace(
        FetchedPage(
            SITE + "/item/7?like=1", "/item/7?like=1", 200, {}, "text/html",
            "<html><body><h1>Pan</h1><a href='/item/7?like=0'>Unlike</a><a href='/item/7?page=2'>more</a></body></html>",
            1.0,
        ),
        clicked_from=(before, "Like"),
    )  # fmt: skip
    found = check_unsafe_get(after)
    assert [(f.route, f.evidence["control_after"]) for f in found] == [
        ("/item/7?like=1", SITE + "/item/7?like=0")
    ]


def test_a_link_that_gave_way_to_its_counterpart_drawn_as_a_post_form_is_the_effect():
    # "Unfollow" is a plain link; once it ran, the page offers "Follow" as a form that posts with its
    # token. The page's other numbers moved too (an unread badge in the menu went), so no count says it.
    before = page(
        "/cook/ines",
        "<a href='/inbox'>Inbox 2</a><h1>ines</h1><p>4 followers</p><a href='/unfollow/ines'>Unfollow</a>",
    )
    form = "<form action='/follow/ines' method='post'><input type='hidden' name='t' value='x'><input type='submit' value='Follow'></form>"
    after = after_get(
        "/unfollow/ines", before, f"<a href='/inbox'>Inbox</a><h1>ines</h1><p>3 followers</p>{form}"
    )
    findings = check_unsafe_get(after)
    assert [(f.kind, f.route) for f in findings] == [("unsafe_get", "/unfollow/ines")]
    assert findings[0].evidence["control_after"] == SITE + "/follow/ines"
