"""Links that only switch the interface's language (`/lang/fr`, `/i18n/setlang/de`, `?locale=pt_BR`).

Such a link leads back to the page it was on (or the start), the same state in other words: following
it spends a click on nothing new, and the words of every later page change with it — the text that
oracles read ("Total: 12") is then in a language they do not read, and every page's structure looks
changed, so pages fall due for retest. A link is one when a segment or query key names the language
(`lang`, `locale`, `setlang`, …) and the value after it is a language code (`fr`, `pt_BR`, `zh-Hans`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlsplit

from bughunt.sim.route_keys import query_pairs

_NAMES = frozenset(
    "lang language languages locale locales setlang set_language set-language setlocale set_locale "
    "i18n hl lng".split()
)
_CODE = re.compile(r"^[a-z]{2}(?:[_-](?:[A-Za-z]{2}|[A-Z][a-z]{3}))?$")


@lru_cache(maxsize=4096)
def switches_language(route: str) -> bool:
    """Whether `route` (path and query) only switches the interface's language."""
    parts = urlsplit(route)
    segments = [s for s in parts.path.split("/") if s]
    if len(segments) >= 2 and _CODE.match(segments[-1]) and segments[-2].lower() in _NAMES:
        return True
    return any(
        k.lower() in _NAMES and _CODE.match(v) for k, v in query_pairs(parts.query, decoded=True, blank=False)
    )
