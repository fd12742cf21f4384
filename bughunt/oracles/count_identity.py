"""Which count label a count finding is about, as a number memory may keep: its place on the page and
its wording with the counts taken out.

One template draws a count label on every view that includes it — a code host's diffstat line ("4
files changed, 2 insertions, 2 deletions") under a commit, a diff between two commits and either of
them filtered to one path; a generic admin's range line ("Showing 1 to 10 of 64") over each list. Each view is
a route template of its own, so a count the template gets wrong was one bug per view (issue 25: four
reports of one diffstat bug). The label's place (the chain of tags and classes down to it) and its
words, numbers masked and plurals folded ("1 file changed" beside "4 files changed"), name the
template's label without carrying page text into memory (`inspection._ONE_FAMILY` joins on it) — when
the words are a sentence of several counts (`MIN_COUNTS`).
"""

from __future__ import annotations

import re

from bughunt.dom import Node
from bughunt.fingerprint import normalise_message
from bughunt.oracles.server_error import error_key

_PLURAL = re.compile(r"(?<=[a-z]{2})s\b")
"""An English plural ending: a count's noun changes with its number, its label does not."""


def label_wording(text: str) -> str:
    """A count label's words with its numbers masked and plural endings folded (`<n> file changed`)."""
    return _PLURAL.sub("", normalise_message(text))


MIN_COUNTS = 2
"""Counts a label's wording must hold to name a template: a sentence of several counts in a fixed order
("4 files changed, 2 insertions, 2 deletions", "Showing 1 to 10 of 64 gadgets") is one template's own,
while a label of one count ("Members (4)", "Record Count: 70") is what any view writes over its own
list, and two views' such labels may count two lists."""


def label_key(label: Node) -> int | None:
    """A number naming one count label of one template: its place and its wording (see the module);
    None for a label of fewer than `MIN_COUNTS` counts."""
    wording = label_wording(label.text())
    if wording.count("<n>") < MIN_COUNTS:
        return None
    return error_key(f"{label.path()} | {wording}")
