"""An edit form's filled neighbour shown under a label of its own ("Member: ann" as a profile's
heading): the empty field after it is found by position all the same. Made-up profile site."""

from __future__ import annotations

from bughunt.oracles import ORACLES, OracleConfig
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://people.test"
ABOUT = "Knits and writes about wool."


def page(path: str, body: str) -> FetchedPage:
    html = (
        f'<html><head><title>People</title></head><body><nav><a href="/">Home</a></nav>{body}</body></html>'
    )
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


def profile(heading: str, path: str = "/member/ann") -> FetchedPage:
    return page(
        path,
        f'<table><tr><td><img src="/ann.png" alt=""></td><td><h1>{heading}</h1><p>{ABOUT}</p>'
        '<p>3 followers, 1 following</p><p><a href="/settings">Edit your profile</a></p></td></tr></table>',
    )


def editor(about: str) -> FetchedPage:
    return page(
        "/settings",
        '<h1>Edit profile</h1><form method="post"><input type="hidden" name="token" value="t0k3n">'
        '<label for="username">Username</label><input id="username" name="username" type="text" value="ann">'
        f'<label for="bio">About me</label><textarea id="bio" name="bio">{about}</textarea>'
        '<input type="submit" name="submit" value="Save"></form>',
    )


def check(form: FetchedPage, resource: FetchedPage, *others: FetchedPage) -> list:
    config = OracleConfig(
        linked_from=lambda route: [resource.route],
        loaded=lambda route: True,
        known_routes=lambda: [o.route for o in others],
    )
    return ORACLES["form_drops_value"](form, lambda url: {p.url: p for p in (resource, *others)}[url], config)


def test_an_empty_field_after_a_labelled_heading_drops_the_text_under_it():
    (finding,) = check(editor(""), profile("Member: ann"))
    assert finding.evidence["field"] == "bio" and finding.evidence["shown"] == ABOUT


def test_the_filled_form_is_silent():
    assert check(editor(ABOUT), profile("Member: ann")) == []


def test_a_label_over_another_value_is_no_neighbour():
    assert check(editor(""), profile("Member: bob")) == []


def test_the_records_next_page_is_no_other_instance_of_its_template():
    """Memory knows the profile's second page of posts first: it shows the same header (the record's
    own words), so it cannot tell template words from values; another member's profile can."""
    second = profile("Member: ann", "/member/ann?page=2")
    other = page("/member/bob", "<h1>Member: bob</h1><p>Builds boats.</p>")
    (finding,) = check(editor(""), profile("Member: ann"), second, other)
    assert finding.evidence["shown"] == ABOUT
