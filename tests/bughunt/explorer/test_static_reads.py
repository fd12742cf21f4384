"""A toolkit's icon named for its button's action (`/icons/remove.png`) is a file the page draws, not an
action: the browser's gate lets its GET through, while a destructive-looking path that is no file, or a
file named so with a query or fetched as a document, stays refused (`static_reads`)."""

from __future__ import annotations

import re

from bughunt.explorer.gate import Gate
from bughunt.explorer.http_engine import DEFAULT_AVOID

HOME = "http://127.0.0.1:8000"


def _gate() -> Gate:
    return Gate(HOME, avoid=re.compile(DEFAULT_AVOID))


def test_an_icon_named_for_an_action_is_loaded() -> None:
    gate = _gate()
    assert gate.judge("GET", HOME + "/icons/remove.png", {"sec-fetch-dest": "image"}, b"") is None
    assert gate.judge("GET", HOME + "/themes/delete.svg", {}, b"") is None  # no Sec-Fetch-Dest: plain HTTP
    assert gate.judge("GET", HOME + "/css/remove-dialog.css", {"sec-fetch-dest": "style"}, b"") is None


def test_an_action_named_so_stays_refused() -> None:
    gate = _gate()
    assert gate.judge("GET", HOME + "/torrents/3/remove", {"sec-fetch-dest": "empty"}, b"") is not None
    assert gate.judge("GET", HOME + "/remove.png?id=3", {"sec-fetch-dest": "image"}, b"") is not None
    assert gate.judge("GET", HOME + "/icons/remove.png", {"sec-fetch-dest": "document"}, b"") is not None
