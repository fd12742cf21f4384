"""Which refused writes of a wordless control's click delete a record the page links to: a DELETE of
`/api/lists/7` on a page linking `/lists/7` does; a DELETE of a line the page links to no page of,
another method, or a control with words (judged on its words) does not. Made-up pages."""

from __future__ import annotations

from bughunt.oracles.unnamed_deletes import unnamed_delete
from tests.support.pages import Site

SITE = Site("http://lists.test", "<html><head><title>Lists</title></head><body>", "</body></html>")
PAGE = SITE.page(
    "<a href='/lists/7'>Groceries <button>x</button></a><ul><li id='line-31'>Milk</li></ul>", "/lists"
)


def test_a_delete_of_a_linked_record_is_read() -> None:
    assert unnamed_delete("", ("DELETE /api/lists/7",), PAGE) == "DELETE /api/lists/7"


def test_other_writes_are_not() -> None:
    assert unnamed_delete("", ("DELETE /api/lines/31",), PAGE) is None
    assert unnamed_delete("", ("POST /api/lists/7",), PAGE) is None
    assert unnamed_delete("Archive", ("DELETE /api/lists/7",), PAGE) is None
