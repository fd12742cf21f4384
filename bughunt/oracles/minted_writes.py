"""Failed writes of one handler that files records by their place in a tree of paths.

A file- or folder-backed store (a Markdown board's lanes and cards, a notes app's notebooks and notes, a
document store's collections) answers one catch-all API route: the page names a new record by a key it
minted (a UUID, with or without a file extension) at the record's place in the tree — a new folder at
`/api/resource/<uuid>`, a new file in it at `/api/resource/<folder>/<uuid>.md`. Route templates only
meet at equal depth (`fingerprint.one_template`), so one broken create handler reached by two controls
("New list", a list's "+") read as two bugs, each with the control that made it as its identity.

The request is the identity: the same method and status, the minted key last, and one path a prefix of
the other's with plain words between (folders, not records: `/api/boards/<id>/cards/<uuid>` is a
nested resource of its own handler). The shared prefix holds at least two segments: an API's root
alone (`/api/<uuid>`, `/api/notes/<uuid>`) names no one handler.
"""

from __future__ import annotations

import hashlib
import re

from bughunt.fingerprint import IDENTIFIERS, segment_shape

_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,5}$")
_READS = frozenset({"GET", "HEAD", "OPTIONS"})
MIN_SHARED_SEGMENTS = 2


def _folders(path: str) -> tuple[str, ...] | None:
    """The segments before a last one the page minted (`<uuid>`, `<uuid>.md`), or None."""
    segments = [s for s in path.partition("?")[0].split("/") if s]
    if not segments or segment_shape(_EXTENSION.sub("", segments[-1])) != "<uuid>":
        return None
    return tuple(segments[:-1])


def minted_key(method: str, status: int, path: str) -> int | None:
    """A number naming a failed write of a record the page minted the key of (method and status), or
    None for a read or another address: two such writes are compared by their paths (`one_tree`)."""
    if method.upper() in _READS or _folders(path) is None:
        return None
    digest = hashlib.sha256(f"{method.upper()} {status}".encode()).hexdigest()
    return int(digest[:12], 16)


def one_tree(a: str, b: str) -> bool:
    """Whether two minted writes' paths are places of one tree under one handler: one's folders a
    prefix of the other's (at least `MIN_SHARED_SEGMENTS` of them), plain words below it."""
    folders_a, folders_b = _folders(a), _folders(b)
    if folders_a is None or folders_b is None:
        return False
    short, long = sorted((folders_a, folders_b), key=len)
    return (
        len(short) >= MIN_SHARED_SEGMENTS
        and long[: len(short)] == short
        and not any(segment_shape(s) in IDENTIFIERS for s in long[len(short) :])
    )
