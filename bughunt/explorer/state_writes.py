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
(`client_errors`). A click none of whose writes names such a verb (a form's save, a submit, a server's
spawn, a delete: `destructive` judges those by their refusal) is never made again: what it would change
is not known to be that small. A replayed click's page may send other writes with the verb's one: the
engine admits every write of that one load (`--allow-destructive` already allows the harness to delete).

Applies to every family whose vote, like, follow, star or subscribe controls are drawn by scripts
(the single-page Conduit front ends' favourite and follow buttons, forums' votes, trackers' watch and
star buttons, comment widgets); over HTTP no click sends a page's write, so nothing is collected.
"""

from __future__ import annotations

from bughunt.oracles.unsafe_get import state_change
from bughunt.page import FetchedPage

READ_KINDS = frozenset({"server_error", "client_error"})
"""What a replay's state is read for: what the write's answer did (its API's 5xx, the page's script
failing on it). Every other oracle read that page on the walk, before the write changed it; read after
it, a vote that took one comment out of the run of alike items (its "no votes" style dropped) made the
thread's heading count one comment more than the run it starts (corpus ho10_isso, clean build)."""

MAX_SENT = 5
"""Controls whose state writes are sent per session: one per control in its place, the first five."""


def state_writes(page: FetchedPage) -> tuple[str, ...]:
    """The writes a click state's click sent and the engine refused ("POST /id/7/like") whose address
    names a state-changing verb."""
    if page.clicked_from is None:
        return ()
    return tuple(w for w in page.refused_writes if state_change(w.partition(" ")[2]) is not None)
