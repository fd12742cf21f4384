"""A line that labels itself ("Swimlane: Default swimlane") between the values of an empty field's
neighbours is another field's value, not the empty one's (form_drops_value, by position): a task's
summary lists its properties each with its own label, and the edit form's due date, never set, is
shown nowhere. Made-up task tracker, generic markup."""

from __future__ import annotations

from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site("http://tasks.test", "<html><head><title>Task 9 - Tasks</title></head><body>", "</body></html>")


def task(between: str) -> FetchedPage:
    return SITE.page(
        '<section class="summary"><h2>Fix footer links</h2>'
        "<div>REF-1009</div>"
        f"<div>{between}</div>"
        "<div>2026-12-05</div></section>"
        '<a href="/task/9/edit">Edit the task</a>',
        "/task/9",
    )


def edit_form() -> FetchedPage:
    return SITE.page(
        '<form method="post" action="/task/9/edit">'
        '<input type="text" name="title" value="Fix footer links">'
        '<input type="text" name="reference" value="REF-1009">'
        '<input type="text" name="date_due" value="">'
        '<input type="text" name="date_started" value="2026-12-05">'
        "<button>Save</button></form>",
        "/task/9/edit",
    )


def test_a_line_labelling_itself_between_the_neighbours_is_no_value_of_the_empty_field():
    assert check_form_drops_value(edit_form(), SITE.fetcher(task("Swimlane: Default swimlane"))) == []


def test_an_unlabelled_line_between_the_neighbours_is_still_its_value():
    (finding,) = check_form_drops_value(edit_form(), SITE.fetcher(task("Friday before the spring launch")))
    assert finding.evidence["fields"] == "date_due"
