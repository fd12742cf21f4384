"""A control re-drawn with a fresh request token is the same control, not its counterpart
(`action_effect.state_flip`): a page that signs every link anew on each load flips nothing.

Generic markup: a task page whose comment-order toggle carries a CSRF token that changes per load.
"""

from __future__ import annotations

from bughunt.oracles.action_effect import control_identity, state_flip
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://tasks.test"


def _page(token: str, op: str = "pin", comments: tuple[str, ...] = ("first", "second")) -> FetchedPage:
    items = "".join(f"<li>{c} comment</li>" for c in comments)
    html = (
        "<html><body><h1>Task 9</h1>"
        f'<a href="/?controller=Comments&action=toggleOrder&task_id=9&csrf_token={token}">Change order</a>'
        f'<a href="/?op={op}&id=3&csrf_token={token}">{op.title()}</a>'
        f"<ul>{items}</ul></body></html>"
    )
    url = ORIGIN + "/?controller=Task&action=show&task_id=9"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def test_a_fresh_token_is_the_same_control_not_its_counterpart():
    before, after = _page("a1b2c3"), _page("d4e5f6", comments=("second", "first"))
    url = ORIGIN + "/?controller=Comments&action=toggleOrder&task_id=9&csrf_token=a1b2c3"
    assert state_flip(before, after, url) == {}


def test_a_counterpart_is_still_told_under_fresh_tokens():
    before, after = _page("a1b2c3"), _page("d4e5f6", op="unpin")
    flip = state_flip(before, after, ORIGIN + "/?op=pin&id=3&csrf_token=a1b2c3")
    assert flip == {"control_after": control_identity(ORIGIN + "/?op=unpin&id=3&csrf_token=d4e5f6")}


def test_identity_blanks_only_token_values():
    assert control_identity(ORIGIN + "/?op=pin&id=3&sectok=ff") == ORIGIN + "/?op=pin&id=3&sectok="


def test_one_token_shape_for_controls_and_the_planners_pages():
    # a signed link (`sig`, `sesskey`, `sectok`) is one page to the planner as it is one control to the oracles
    from bughunt.sim.route_keys import page_key

    for key in ("csrf_token", "sectok", "sesskey", "sig", "_hash", "authenticity_token", "nonce"):
        a, b = f"/item?id=3&{key}=aa11", f"/item?id=3&{key}=bb22"
        assert page_key(a) == page_key(b), key
        assert control_identity(ORIGIN + a) == control_identity(ORIGIN + b), key
    # data keys that merely contain those letters stay data
    for key in ("stock", "hashtag", "design", "tokyo_ward"):
        a, b = f"/item?{key}=1", f"/item?{key}=2"
        assert page_key(a) != page_key(b), key
        assert control_identity(ORIGIN + a) != control_identity(ORIGIN + b), key
