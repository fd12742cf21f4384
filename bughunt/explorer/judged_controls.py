"""Destroying controls whose click is already judged, per view template: one record's copy stands for its
siblings'.

A destroying control ("Delete", "Remove…") is clicked to see whether it asks first
(`oracles.destructive._judge_clicked`). Its click answers that for the control, not for one record:
every row of a list draws the same "Delete" from one row template, and every record's editor the same
"Delete Event…" from one page template. Once a click of one showed its question (a new destroying
control on the state it made: the dialog's own "Delete"), the
others of the same view template, selector shape and verb would show the same; re-opening the dialog
on every record spent 43 of 100 clicks of a corpus scheduler's walk (issue 25).

The key (`judged_key`) is what the control is, never page text: the view's address with its record
marks masked (`view_shape`: a path or hash-route segment or query value holding a digit names a
record, as `dom.selector_shape` reads ids), the control's selector shape (positions dropped: the rows
of one list), and what it says (`control_words`: the destroying verb). A view of another template (a
user's editor beside an event's) keeps its own key, so its Delete is still judged on its own — a
control that sends its write at once there is still clicked and reported. Session memory only (the
walk's hints): the next session judges again, on the version it runs against.

Applies to every family whose lists and editors a script or template draws per record: pixl-webapp and
jQuery admin tables, Dojo/Dijit grids with a row menu, Django admin changelists, Rails scaffolds, React
or Vue data tables with a per-row delete dialog.
"""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import urlsplit

from bughunt.actions import Action, page_clicks
from bughunt.dom import selector_shape
from bughunt.focus_controls import control_label
from bughunt.oracles.destructive import asked_first
from bughunt.oracles.destructive_words import destructive_label
from bughunt.page import FetchedPage

from .control_words import control_words

_PART = re.compile(r"([/?&=#;]+)")
_DIGIT = re.compile(r"\d")


def view_shape(url: str) -> str:
    """The view's address with every part holding a digit masked (`/#Schedule?sub=edit_event&id=ev02`
    → `/#Schedule?sub=edit_event&id=<v>`): the template of the view, whichever record it shows."""
    parts = urlsplit(url)
    address = (
        parts.path
        + ("?" + parts.query if parts.query else "")
        + ("#" + parts.fragment if parts.fragment else "")
    )
    return "".join("<v>" if _DIGIT.search(p) and not _PART.fullmatch(p) else p for p in _PART.split(address))


def judged_key(page: FetchedPage, selector: str, label: str) -> str:
    """The key of the destroying control at `selector`, saying `label`, on `page`."""
    return f"{view_shape(page.url)} {selector_shape(selector)} | {control_words(label)}"


def _destroying_labels(page: FetchedPage) -> Counter[str]:
    return Counter(lbl for n in page_clicks(page).clickables if destructive_label(lbl := control_label(n)))


def showed_question(page: FetchedPage) -> bool:
    """Did the click that made `page` show its question: a destroying control more than the page before
    showed (a dialog's own "Delete", or a second "Remove" beside the row's, whatever markup the toolkit
    draws it with)? The evidence a sibling's click would show the same; whether the click asked at all
    is `destructive.asked_first`."""
    if page.clicked_from is None:
        return False
    return bool(_destroying_labels(page) - _destroying_labels(page.clicked_from[0]))


class JudgedControls:
    """The keys of the destroying controls judged this session (see the module)."""

    def __init__(self) -> None:
        self._keys: set[str] = set()

    def learn(self, page: FetchedPage, selector: str) -> None:
        """`page` is what a click of `selector` made: learned when that was a destroying control whose
        question showed. One that sent its write at once is not learned: it is a finding wherever it
        is drawn, fingerprinted as one (`destructive._views_shape`); skipping its copies changed which
        view judged it and split one bug in two (`test_schema_editor_browser`)."""
        if page.clicked_from is None:
            return
        before, label = page.clicked_from
        if asked_first(page) and showed_question(page):
            self._keys.add(judged_key(before, selector, label))

    def known(self, page: FetchedPage, action: Action) -> bool:
        """Is `action` on `page` a copy of a destroying control judged already?"""
        return bool(self._keys) and judged_key(page, action.selector, action.label) in self._keys
