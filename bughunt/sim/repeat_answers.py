"""Forms whose answers repeat a page already visited: not submitted again for progress (issue 25's
"clicks that learn").

A GET form the explorer submits with made-up values (a probe) is one control wherever it appears.
A form with no action of its own is sent to the page it sits on, so a search box in the chrome of
every page offers every page its own address for it (`/post/7?search=test`, `/about?search=test`):
each looks like a new link, and the site answers every one of them with the same page (it redirects
to `/search/test`, or back to the page the form was sent from). Once one submission of a form has
answered a page already visited, the same form submitted from another page is most likely that page
again: it waits behind every new page, even of a saturated type (`Planner`'s `spent`), until nothing
else is left.

A form is known by where it sends (the page's own path for a form without an action, written "")
and the names of the fields it fills that the page's own address does not already hold with that
value. This is stated on forms and URLs alone; it applies to every family with a GET form in its
chrome (blogs' and wikis' search boxes, trackers' quick-jump boxes, admin lists' filter forms, a
language or theme switcher that redirects back).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from .route_keys import query_pairs

FormKey = tuple[str, tuple[str, ...]]


def form_key(page: str, probe: str) -> FormKey:
    """The form a probe submits, as found on `page`: (its target path, "" when it is the page's own;
    the names of the fields it fills beyond the page's own query)."""
    here, there = urlsplit(page), urlsplit(probe)
    own = set(query_pairs(here.query, decoded=True))
    names = sorted({k for k, v in query_pairs(there.query, decoded=True) if (k, v) not in own})
    return ("" if there.path == here.path else there.path, tuple(names))


class RepeatAnswers:
    """The probes of a session, the page each was offered on, and the forms learned to answer a page
    already visited."""

    __slots__ = ("found_on", "learned", "_spent")

    def __init__(self) -> None:
        self.found_on: dict[str, str] = {}
        """Probe route → the page it was first offered on."""
        self.learned: set[FormKey] = set()
        self._spent: set[str] = set()

    def offered(self, page: str, probes: frozenset[str] | set[str]) -> None:
        """`page` offers these probes (its GET forms, filled)."""
        for probe in probes:
            if probe in self.found_on:
                continue
            self.found_on[probe] = page
            if form_key(page, probe) in self.learned:
                self._spent.add(probe)

    def answered_again(self, probe: str) -> None:
        """`probe` was submitted and answered a page already visited: its form is learned."""
        page = self.found_on.get(probe)
        if page is None:
            return
        key = form_key(page, probe)
        if key in self.learned:
            return
        self.learned.add(key)
        self._spent |= {p for p, on in self.found_on.items() if form_key(on, p) == key}

    def spent(self) -> frozenset[str]:
        """The probes of a form learned to answer a page already visited."""
        return frozenset(self._spent)
