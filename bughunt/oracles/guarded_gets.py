"""A GET the site guards with an anti-forgery token: by the site's own word, a request that changes something.

A site puts its session's anti-forgery token (`token`, `csrf_token`, `_wpnonce`, Moodle's `sesskey`,
DokuWiki's `sectok`) on a link's address for one reason: the link writes, and a forged page must not be
able to make the visitor's browser send it. A mail server admin's "active: YES" cell links
`editactive.php?table=admin&id=<the admin>&active=0&token=<t>` and switches that account off on a GET; a
blog engine's "Trash" and a plugin's "Deactivate" carry `_wpnonce`; a course site's hide/show eyes carry
`sesskey`. Walked, such a link is a write nobody allowed — and when it switches off the account the
explorer is logged in as, the session is gone and every later click lands on the login page. So the
walk never follows one (`HttpEngine._defers`); the destructive oracle still opens those whose address
names a destroying verb (`destructive_action`) after the walk, with --allow-destructive, and judges them
by their effect.

Two readings keep reads walked: a link whose action key names a view (`?action=show&show_details=1
&csrf_token=…`, a project tool's "show details" toggle of a list) is what the site says it is, a view;
and a token alone (`/download?token=…`, a share link) names nothing to act on — a guarded write names
what it acts on beside its token.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from bughunt.oracles.request_action import VIEW_WORDS, action_key, word_parts
from bughunt.sim.route_keys import FORGERY_WORDS, query_pairs

FORGERY_KEY = re.compile(rf"(?i){FORGERY_WORDS}|sectok|^_?token$")
"""Query keys of an anti-forgery token. Not a signature (`sig`, `signature`: a signed link to a file is a
read) nor a token of a list's position (`page_token`, `next_token`) or of an account (`access_token`)."""
_DRAWN = re.compile(r"[A-Za-z0-9_.~-]{8,}")
"""A value a site draws (a digest, a random string): long, no spaces."""


def guarded_get(url: str) -> bool:
    """Whether a GET's query carries an anti-forgery token beside what it acts on, and no action key names
    a view: a write by the site's own word."""
    pairs = query_pairs(urlsplit(url).query, decoded=True, blank=False)
    guarded = [k for k, v in pairs if FORGERY_KEY.search(k) and _DRAWN.fullmatch(v)]
    if not guarded or len(pairs) <= len(guarded):
        return False
    return not any(action_key(k) and any(p in VIEW_WORDS for p in word_parts(v)) for k, v in pairs)
