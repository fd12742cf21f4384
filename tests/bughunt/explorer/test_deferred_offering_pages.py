"""The pages a destructive template is opened on after the walk: more than the records it is opened on
(issue 25, PostfixAdmin). A domain overview shows the tab last chosen in the session; the walk ended on
"Aliases", so the first three overviews that had listed a mailbox's GET Delete link listed none when
reloaded after the walk, and the planted unconfirmed delete went unjudged. A page that no longer offers the
control hands over to the next one that offered it, of `OFFERING_PAGES` remembered."""

from __future__ import annotations

from bughunt.explorer.loop import OFFERING_PAGES, Explorer
from bughunt.oracles import Finding
from bughunt.oracles.base import NO_EFFECT_TRIES


def _seen(explorer: Explorer, route: str) -> list[Finding]:
    found = Finding(
        "unconfirmed_destructive",
        "/delete.php?table=mailbox&delete=a",
        "m",
        {"target": "http://h/delete.php?table=mailbox&delete=a", "opening_key": 7},
        suspected=True,
    )
    return explorer._defer([found], route)


def test_more_pages_than_openings_are_remembered_for_a_template() -> None:
    explorer = Explorer.__new__(Explorer)
    explorer.deferred_destructive = {}
    routes = [f"/list-virtual.php?domain=d{n}.example" for n in range(OFFERING_PAGES + 3)]
    for route in routes:
        assert _seen(explorer, route) == []  # deferred, not reported during the walk
    assert explorer.deferred_destructive[7] == routes[:OFFERING_PAGES]
    assert OFFERING_PAGES > NO_EFFECT_TRIES
