"""A list's row Delete links addressed by each record's *name* (`/admin/edit-content/about?delete=1`,
`…/follow-site?delete=1`, `…/a-morning-at-the-market?delete=1`): lexically only the long name is a
slug; `about` and `follow-site` read as words, so each short-named row was a control template of its
own and one unconfirmed Delete was reported under several fingerprints (issue 25, a flat-file CMS's
content list). The page says which segment names the record: its controls drawn alike differ there
and only there (`record_places`)."""

from __future__ import annotations

from bughunt.oracles.destructive import control_key, destructive_actions
from bughunt.oracles.record_places import record_places
from tests.support.pages import Site

ORIGIN = "http://cms.test"
_page = Site(ORIGIN, "<html><body><main>", "</main></body></html>").page


def _listing(names: list[str], href: str = "/admin/edit-content/{}?delete=1") -> str:
    rows = "".join(
        f'<tr><td><a href="/admin/edit-content/{n}">{n}</a></td>'
        f'<td><a class="dropdown-item text-danger" href="{href.format(n)}">Delete</a></td></tr>'
        for n in names
    )
    return f"<table><tbody>{rows}</tbody></table>"


def test_rows_named_by_words_or_slugs_are_one_delete_template() -> None:
    names = ["about", "follow-site", "a-morning-at-the-market", "set-up-your-new-site"]
    page = _page(_listing(names), "/admin/content")
    actions = destructive_actions(page)
    assert len(actions) == 4, actions
    assert len({control_key(a, page.url) for a in actions}) == 1
    # a one-row page (the list's last page) draws the same template when its record's name is a slug
    last = _page(_listing(["notes-from-the-old-harbour"]), "/admin/content?page=3")
    (alone,) = destructive_actions(last)
    assert control_key(alone, last.url) == control_key(actions[2], page.url)


def test_two_actions_drawn_alike_stay_two() -> None:
    # `/delete-post/5` and `/delete-user/5` differ in the segment that names the action, not a record
    places = record_places(
        [
            ("http://x.test/admin/delete-post/5", "a Delete"),
            ("http://x.test/admin/delete-user/5", "a Delete"),
        ],
        lambda s: s.startswith("delete"),
    )
    assert places == {}
    # controls drawn otherwise are not compared (a hand-made link beside the rows' macro)
    places = record_places(
        [("http://x.test/pages/about/delete", "a Delete"), ("http://x.test/pages/faq/delete", "a Remove")],
        lambda s: s == "delete",
    )
    assert places == {}
