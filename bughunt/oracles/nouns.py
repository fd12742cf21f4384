"""A noun read singular or plural alike, against the words seen beside it.

A page names one kind of thing in several places, sometimes singular and sometimes plural: a badge
"Drafts" and its link's `status=draft`, a column header "Feeds" and the linked page's "Feeds (2)", a
label "3 replies" over an item of class `reply`, a usage line "Aliases: 7 / 100" over a table titled
":: Alias". English makes plurals with -s, -es and -ies, and some words end so without being plurals
("news", "status", "series", "address"): no one suffix rule reads them all ("boxes" less -s is "boxe",
"status" less -s is "statu", "series" with -ies → -y is "sery"). So a word's singular is not worked
out alone but read against the words actually seen: of its forms, the one the other side shows.
"""

from __future__ import annotations

from collections.abc import Iterable

_STEM = 2
"""Letters a form keeps at least: "is" less -s is no word to compare."""


def forms(word: str) -> list[str]:
    """The word, lower case, then what it is the plural of if it is one: less -s, less -es, -ies → -y
    ("categories": "categorie", "categori", "category"), only the ones its ending allows."""
    word = word.casefold()
    out = [word]
    if word.endswith("s") and len(word) - 1 >= _STEM:
        out.append(word[:-1])
    if word.endswith("es") and len(word) - 2 >= _STEM:
        out.append(word[:-2])
    if word.endswith("ies") and len(word) - 3 >= _STEM:
        out.append(word[:-3] + "y")
    return out


def singular(word: str, seen: Iterable[str]) -> str | None:
    """The singular of `word` that `seen` shows (lower case): the first of its `forms` that is one of
    the seen words ("entries" beside "entry": "entry"; "news" beside "news": "news"), or None when
    none is. One way only: a seen plural is not the singular of a word (see `same_noun`)."""
    shown = {w.casefold() for w in seen}
    return next((f for f in forms(word) if f in shown), None)


def same_noun(a: str, b: str) -> bool:
    """Whether two words name the same things, singular or plural alike: one is the other, or its
    singular (`singular`, either way: "draft" and "drafts", "Entries" and "entry")."""
    return singular(a, (b,)) is not None or singular(b, (a,)) is not None
