"""The writes of a click that change the user's own small state (like, vote, follow, star…), sent once
after the walk in a disposable environment.

Exploring never writes: the browser engine refuses every POST/PUT/PATCH/DELETE a click makes the page
send (`FetchedPage.refused_writes`). A vote link whose script POSTs `/comments/7/like` is then clicked
and nothing reaches the server, so a 500 behind it is never seen (corpus ho10_isso: the like endpoint
answered 500 for every comment nobody had disliked). With `--allow-destructive` (the environment is
disposable: the flag already lets the harness delete records), once the walk and the destructive
openings are over, the click of each control in its place (`idle_controls.placed_shape`: the vote link
of every comment is one) whose refused write names a state-changing verb (`unsafe_get.STATE_VERBS` in
the write's path: like, vote, follow, subscribe, star, watch…) is made again with the page's writes
admitted (`Engine.admit_writes`), as a step that is no click; the state it leaves is read for what the
write's answer did (`READ_KINDS`) — an XHR/fetch answering 5xx is the server error of its API route
(`client_errors`). So is the POST of a control named by a create word alone ("Create new card", "New
lane", "Add", an icon button titled so: `creates`): it adds one blank record, as a tester's first try
of the button does, and changes none of the records the walk saw; a board's "+" whose POST the server
answered 500 was never seen (corpus ho29_tasksmd). A click none of whose writes names such a verb, nor a
creating control's POST (a form's save, a submit, a server's spawn, a delete: `destructive` judges
those by their refusal), is never made again: what it would change is not known to be that small. A replayed click's page may send other writes with the verb's one: the
engine admits every write of that one load (`--allow-destructive` already allows the harness to delete).

Applies to every family whose vote, like, follow, star or subscribe controls are drawn by scripts
(the single-page Conduit front ends' favourite and follow buttons, forums' votes, trackers' watch and
star buttons, comment widgets); over HTTP no click sends a page's write, so nothing is collected.
"""

from __future__ import annotations

from bughunt.oracles.form_urls import CREATE_WORDS
from bughunt.oracles.request_action import word_parts
from bughunt.oracles.unsafe_get import state_change
from bughunt.page import FetchedPage

READ_KINDS = frozenset({"server_error", "client_error"})
"""What a replay's state is read for: what the write's answer did (its API's 5xx, the page's script
failing on it). Every other oracle read that page on the walk, before the write changed it; read after
it, a vote that took one comment out of the run of alike items (its "no votes" style dropped) made the
thread's heading count one comment more than the run it starts (corpus ho10_isso, clean build)."""

MAX_CREATE_WORDS = 4
"""Words at most of a creating control's name ("Create new card"): a longer label is a sentence or a
form's legend, not a button's name."""
MAX_SENT = 5
"""Controls whose state writes are sent per session: one per control in its place, the first five."""


def creates(label: str) -> bool:
    """Whether a control's name is a create word and what it makes ("Create new card", "New lane",
    "Add"): a short name led by the word (`form_urls.CREATE_WORDS`)."""
    words = word_parts(label)
    return 0 < len(words) <= MAX_CREATE_WORDS and words[0] in CREATE_WORDS


def state_writes(page: FetchedPage) -> tuple[str, ...]:
    """The writes a click state's click sent and the engine refused ("POST /id/7/like") whose address
    names a state-changing verb, or the POSTs of a control that creates (`creates`)."""
    if page.clicked_from is None:
        return ()
    creating = creates(page.clicked_from[1])
    return tuple(
        w
        for w in page.refused_writes
        if state_change(w.partition(" ")[2]) is not None or (creating and w.startswith("POST "))
    )
