"""The record an edit form shows when a click opened it in place (the form oracle, `forms`).

A single-page app opens an edit form by a click on its record's page — an "Edit" button that swaps
the record's view for a form (`v-if="editing"`, a React state flag, a dialog), or that pushes a new
address without loading a document. The form's URL then names nothing the oracle can fetch (the same
address, or one whose record page is a script's), and no page links to it: the record's values are
what the page showed just before the click (`FetchedPage.clicked_from`), as a person compares them.

That page is the record's when it showed some of the form's filled values and did not hold the form
already (a pager's click on a page that holds an edit form opened nothing). Its part to compare is
the list item showing the most of those values (`form_records.showing_item`: one card of a feed
whose "Edit" opened a dialog); else the whole page, read as a record's page fetched by its address
is, when no two items of a list on it show a value for one of the form's fields — a feed where every
card shows its content does not say which card the form edits.
"""

from __future__ import annotations

from collections.abc import Callable

from bughunt.dom import Node
from bughunt.oracles.form_fields import read_fields
from bughunt.oracles.form_records import showing_item
from bughunt.oracles.form_values import shown_value
from bughunt.oracles.lists import find_lists, item_runs
from bughunt.page import FetchedPage

Fields = list[tuple[Node, str, str, set[str], bool]]


def page_before(page: FetchedPage, fields: Fields) -> FetchedPage | None:
    """The page a click opened this form on, when it did: a click state whose page before held no
    form with these fields."""
    if page.clicked_from is None:
        return None
    before = page.clicked_from[0]
    names = {f[1] for f in fields}
    for other in before.document.find_all("form"):
        if names <= {f[1] for f in read_fields(other, before.document)}:
            return None  # the form was there before the click: the click did not open it
    return before


def several_items_show(doc: Node, keys: set[str]) -> bool:
    """Whether two items of a list of `doc` each show a value for a field with these keys (by a
    label or an element named for it): records of a feed, one of which the form edits."""
    items = {id(i): i for _, _, run in item_runs(doc) for i in run}
    items.update({id(i): i for _, run in find_lists(doc) for i in run})
    showing = [i for i in items.values() if shown_value(i, keys)]
    # an item holding another that shows the field is that record's, not a second record
    return any(
        a is not b and not any(x is b for x in a.ancestors()) and not any(x is a for x in b.ancestors())
        for a in showing
        for b in showing
    )


def opened_record(before: FetchedPage, fields: Fields, shown: Callable[[Node], int]) -> Node | None:
    """The part of the page before the click that shows the form's record: the item showing most of
    its filled values (`shown(part)` counts them), else the whole page when it shows one at least and
    no two items of a list show a value for one of the form's fields; None otherwise (the click was
    made on a page of another record, of none, or of several)."""
    item = showing_item(before.document, shown)
    if item is not None:
        return item
    doc = before.document
    if not shown(doc) or any(several_items_show(doc, f[3]) for f in fields if f[4]):
        return None
    return doc
