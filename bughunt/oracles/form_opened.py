"""The record an edit form shows when a click opened it in place (the form oracle, `forms`).

A single-page app opens an edit form by a click on its record's page — an "Edit" button that swaps
the record's view for a form (`v-if="editing"`, a React state flag, a dialog), or that pushes a new
address without loading a document. The form's URL then names nothing the oracle can fetch (the same
address, or one whose record page is a script's), and no page links to it: the record's values are
what the page showed just before the click (`FetchedPage.clicked_from`), as a person compares them.

That page is a candidate for the record when it did not hold the form already (a pager's click on a
page that holds an edit form opened nothing); which part of it shows the record — one card of a feed
whose "Edit" opened a dialog, the record's section beside a list of others, the whole page — is the
item search's (`form_witness`), as for every other page that may show it.
"""

from __future__ import annotations

from bughunt.dom import Node
from bughunt.oracles.form_fields import read_fields
from bughunt.page import FetchedPage
from bughunt.tree_facts import tree_facts

Fields = list[tuple[Node, str, str, set[str], bool]]


def page_before(page: FetchedPage, fields: Fields) -> FetchedPage | None:
    """The page a click opened this form on, when it did: a click state whose page before held no
    form with these fields."""
    if page.clicked_from is None:
        return None
    before = page.clicked_from[0]
    names = {f[1] for f in fields}
    for other in tree_facts(before).tagged("form"):
        if names <= {f[1] for f in read_fields(other, before.document)}:
            return None  # the form was there before the click: the click did not open it
    return before
