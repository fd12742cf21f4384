"""A GET of an image, a style sheet or a font is no action, whatever words its file is named with.

The browser's gate refuses a GET whose path reads destructive (`gate.Gate._destructive`: `/remove`,
`/delete/3`). A toolkit's icons are named for the action their button does — `/icons/remove.png`,
`delete.svg`, `trash.gif` — and the page loads them to draw its toolbar: refused, the icon went
missing and the page counted as one that had a write refused, which keeps its console errors out
of the findings. A request for a file of such a type (its last segment's extension), with no query
(`/remove.png?id=3` may be a script's beacon that acts) and — when the browser says what the request
is for (`Sec-Fetch-Dest`, sent to loopback and HTTPS origins) — for an image, a style or a font, reads
a file. Applies to every site (ExtJS, Dojo, jQuery UI and most admin themes ship such icon sets).
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

STATIC_EXTENSIONS = frozenset("png gif jpg jpeg svg ico webp bmp avif css woff woff2 ttf otf eot".split())
_DESTINATIONS = frozenset({"image", "style", "font"})


def static_file(url: str, headers: Mapping[str, str]) -> bool:
    """Is the GET of `url` (its request `headers`, lower-case names) the load of an image, a style
    sheet or a font (see the module)."""
    parts = urlsplit(url)
    if parts.query:
        return False
    last = parts.path.rsplit("/", 1)[-1]
    if "." not in last or last.rsplit(".", 1)[-1].lower() not in STATIC_EXTENSIONS:
        return False
    dest = headers.get("sec-fetch-dest", "").lower()
    return not dest or dest in _DESTINATIONS
