"""What a control says, as part of the key of what its refused write taught (`idle_controls`).

A click whose write exploring refused (the browser's gate sends no POST, PUT, PATCH or DELETE) leaves
its page as it was because of the refusal, not because the control does nothing. Kept under the
control's shape (`idle_controls.control_shape`: its selector without positions), the lesson held for
every control of a row's toolbar on every page: an admin row's "Delete" taught "leads nowhere" to a
comment thread's vote links, never clicked again (corpus ho10_isso). Kept under its place instead
(`placed_shape`: positions kept), every record's copy of a feed reader's entry buttons was clicked
again (ho11_miniflux: repeat clicks 10 → 24). What tells a Delete from a vote is what the control says,
so the lesson is kept under its shape *and* its words (`said_shape`):

- the verb that leads a short label, when it is a verb the oracles know a request by: a destructive
  one (`destructive_words.destructive_label`: delete, remove…) or a state one (`unsafe_get.STATE_VERBS`:
  like, vote, follow, star, subscribe…) — the rest of such a label names the record ("Delete comment
  7"), not what the control does;
- else the label's first `MAX_WORDS` words, digits and punctuation left out ("Mark as read", "Reply");
- else nothing (""): an icon with no text, title or aria-label — the icons of one shape are one lesson;
- a leading "un" word says what its counterpart says ("Unstar" is "Star", "Unread" is "Read"): one
  control in two states, each record showing one (a feed reader's entries, read or not, starred or not).

The words are kept as the verb (the harness's own vocabulary) or a digest of the label's words: the
page's text never enters trusted memory (labels are quarantined observations, `harness`). Applies to
every family whose scripts write from a row's or an item's toolbar: admin lists (Delete, Validate),
comment widgets and forums (vote, reply), feed readers and mail (mark read, star), trackers (watch).
"""

from __future__ import annotations

import hashlib
import re

from bughunt.oracles.destructive_words import destructive_label
from bughunt.oracles.unsafe_get import STATE_VERBS

MAX_WORDS = 4
"""Words of a label that say what the control does: a control's label is short ("Mark as read"); what
follows is a record's name or a count, as in `destructive_label`'s reading of a short label."""
_WORD = re.compile(r"[^\W\d_]+")
_SAID = " | "
"""Between a shape and its words in a lesson's key: no selector shape holds it (CSS's namespace bar is
never spaced) and no words token does (a verb or hex digits)."""


def control_words(label: str) -> str:
    """What the control labelled `label` says: its leading known verb, a digest of its words, or ""."""
    words: list[str] = _WORD.findall(label.lower())
    if not words:
        return ""
    if words[0].startswith("un") and len(words[0]) > 4:
        # a control and its counterpart are one control in two states ("Star" / "Unstar", "Read" /
        # "Unread", as `unsafe_get` reads `/follow` and `/unfollow`): each record shows one of them
        words[0] = words[0][2:]
    if len(words) <= MAX_WORDS and (words[0] in STATE_VERBS or destructive_label(label)):
        return words[0]
    return hashlib.sha256(" ".join(words[:MAX_WORDS]).encode()).hexdigest()[:12]


def said_shape(shape: str, words: str) -> str:
    """The key of a lesson for the controls of `shape` that say `words`."""
    return f"{shape}{_SAID}{words}"


def said_shapes(keys: set[str] | frozenset[str] | list[str]) -> frozenset[str]:
    """The shapes some of whose controls have a lesson of their own words among `keys`."""
    return frozenset(k.rpartition(_SAID)[0] for k in keys if _SAID in k)
