"""A form's body encoded the way its `enctype` tells a browser to encode it (HTML's form submission
algorithm): `multipart/form-data` or, for every other value and none, `application/x-www-form-urlencoded`.

Why it matters: some servers read a form only in the encoding its page declared. A React Server
Components form action (Next.js App Router, Waku, React Router's RSC mode) is posted without scripts as
`multipart/form-data`, and Next.js ignores an URL-encoded post to the page (it renders the page again:
a login "refused" with the right password). An Express handler behind multer's `upload.none()`, the
usual parser of a form declared multipart, leaves an URL-encoded body unread the same way.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from bughunt.dom import Node

MULTIPART = "multipart/form-data"


def is_multipart(form: Node, button: Node | None = None) -> bool:
    """The form (or its submit `button`, whose `formenctype` overrides the form's) is submitted as
    `multipart/form-data`; ASCII case-insensitive, as HTML's enumerated attributes are."""
    declared = (button.get("formenctype") if button is not None else "") or form.get("enctype")
    return declared.strip().lower() == MULTIPART


def _quoted(name: str) -> str:
    """A field name in `Content-Disposition`, escaped as browsers escape it (HTML: `"` → %22, CR → %0D,
    LF → %0A)."""
    return name.replace("\r", "%0D").replace("\n", "%0A").replace('"', "%22")


def _lines(value: str) -> str:
    """Line breaks of a value normalised to CRLF, as a browser sends them."""
    return value.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n")


def multipart_body(pairs: Iterable[tuple[str, str]], boundary: str | None = None) -> tuple[bytes, str]:
    """The `multipart/form-data` body of the name/value pairs (text fields only: a login form uploads
    no file) and its `Content-Type` header value. The boundary is random unless given: it must not
    occur in any value, and a random one of 24 hex digits does not, in practice."""
    boundary = boundary or "----bughuntFormBoundary" + secrets.token_hex(12)
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{_quoted(_lines(name))}"\r\n\r\n'
        f"{_lines(value)}\r\n"
        for name, value in pairs
    ]
    body = "".join(parts) + f"--{boundary}--\r\n"
    return body.encode("utf-8"), f"{MULTIPART}; boundary={boundary}"
