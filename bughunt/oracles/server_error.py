"""Server errors: any 5xx answer is a bug, whatever the page says.

The message is a harness template, `HTTP <status> <reason phrase>`: the same 500 has one fingerprint
whether the site shows a debug traceback or a bare production page. What the page said (the last line
of its first `<pre>`, else its heading) is evidence (`error_line`), quarantined by the explorer; its
normalised digest (`error_key`, a number) stays with the bug, so the explorer can tell one root cause
on sibling routes from two. A page answered below 400 that is nothing but an error page ("Error!"
over a line or two, no field, nothing said missing: an error handler that renders its template with
status 200) is a server error too (`soft_error`) — unless the page's own script failed while it ran
(`drawn_by_failed_script`): a single-page app's error boundary ("Something went wrong") is what its
script draws after throwing, one bug the client-error oracle reports with the error itself.
"""

from __future__ import annotations

import hashlib
import re
from http import HTTPStatus

from bughunt.dom import Node
from bughunt.fingerprint import normalise_message
from bughunt.oracles.base import DEFAULT_CONFIG, Fetch, Finding, OracleConfig, evidence, page_shape, short
from bughunt.oracles.client_errors import partial_document
from bughunt.oracles.visibility import unseen
from bughunt.page import FetchedPage
from bughunt.tree_facts import tree_facts


def error_summary(page: FetchedPage) -> str:
    """The most specific error text on the page: an exception line in <pre>, else the first h1 (else
    h2) that says more than the page's `<title>`, else the first h1, h2 or the title.

    A layout draws the site's banner on every page, an error page included: a heading holding the
    site's name, on some themes with the page's title beside it ("Widgets", "Widgets Bad Request"
    under `<title>Widgets: Bad Request</title>`). Read as the error, it is the same on every error
    of the site, or changes with the theme a visitor picked: two pages of one error answered with two
    error keys (`error_key`) and stayed two bugs. What the error page says of its own — the
    exception's message, "Invalid thread mode" — is not in the title the layout repeats. Families: a
    wiki or tracker whose banner `h1` is the project's name (Fossil, Trac, MediaWiki themes), a CMS
    whose header `h1` is the site's title (WordPress themes, Ghost), an admin whose top bar names the
    app (Django admin's "Site administration")."""
    if not page.is_html:
        return ""
    doc = page.document
    for pre in doc.find_all("pre", "code"):
        lines = [ln.strip() for ln in pre.raw_text().splitlines() if ln.strip()]
        if lines:
            # A handler may print what it knows of the request under the error (the user agent, the
            # referrer, the address asked): those lines differ with the page the click came from,
            # the error does not. The last line naming an error is the error's.
            return short(next((ln for ln in reversed(lines) if _NAMES_ERROR.search(ln)), lines[-1]))
    title_nodes = doc.find_all("title")
    said = set(_WORDS.findall(title_nodes[0].text().lower())) if title_nodes else set()
    titles = [n.text() for n in title_nodes if n.text()]
    headings = [[n.text() for n in doc.find_all(tag) if n.text()] for tag in ("h1", "h2")]
    for texts in headings:
        own = [t for t in texts if not set(_WORDS.findall(t.lower())) <= said]
        if own:
            return short(own[0])
    for texts in (*headings, titles):
        if texts:
            return short(texts[0])
    return ""


def error_key(summary: str) -> int:
    """The error line, normalised (`normalise_message`) and hashed to a number: a fact that tells two
    root causes apart on one template without carrying page text into memory (the line itself is
    quarantined evidence)."""
    digest = hashlib.sha256(normalise_message(summary).encode("utf-8")).hexdigest()
    return int(digest[:12], 16)


_ERROR_HEADINGS = frozenset(
    {
        "error", "oops", "server error", "internal server error", "application error", "unexpected error",
        "something went wrong", "an error occurred", "an error has occurred", "sorry something went wrong",
    }
)  # fmt: skip
_EXCEPTION_HEADING = re.compile(r"^\s*(?:[A-Za-z_]\w*[.\\])*[A-Z]\w*(?:Error|Exception)\s*:")
"""A heading that names an uncaught exception, its class and then its message ("TypeError: implode()
…", "java.lang.IllegalStateException: …"): the page a language's or framework's last-resort handler
prints, whatever status it answers with."""
_NOT_FOUND = re.compile(r"\b(?:404|not found|no such|does not exist|doesn't exist)\b", re.I)
_WORDS = re.compile(r"[a-z0-9]+")
_NAMES_ERROR = re.compile(r"(?i:\b(?:error|exception|fatal|uncaught|panic)\b)|[a-z0-9](?:Error|Exception)\b")
"""A line of a trace that names its error: `IndexError: list index out of range`, `message : Uncaught
Error: Call to a member function loop() on null`, `java.lang.NullPointerException`, `panic: …` —
not a frame (`File "x.py", line 3, in handle_error`) nor a dump of the request."""
MAX_ERROR_PAGE_CHARS = 300
"""An error page says little: the block under its heading holds at most this much text."""


_SOFT_404 = re.compile(
    r"^\W*404\b|^\W*(?:page\s+)?not\s+found\b|\b(?:could\s+not|cannot|can't)\s+be\s+found\b", re.I
)


def soft_not_found(page: FetchedPage) -> bool:
    """A page answered below 400 whose first heading outside banner and menus says the thing asked
    for is not there ("404 | Link could not be found.", "Page not found"): an app that renders its
    not-found template with status 200. No page of a record."""
    if not page.is_html or page.status >= 400:
        return False
    heading = _first_heading(page)
    return heading is not None and bool(_SOFT_404.search(heading.text()))


def _first_heading(page: FetchedPage) -> Node | None:
    """The page's first h1-h3 with text outside its banner and menus, and shown: what the page says it
    is. A heading nobody sees is not what the page says: the closed error dialog a layout carries on
    every page for its scripts to open ("Error" over "The error", `aria-hidden`), read first on a page
    whose own title is a smaller heading or drawn later by script, made each such page an error page
    (5 of the 7 clean-build reports in 100 clicks on a Tornado app's pages, corpus ho9_jupyterhub)."""
    for node in tree_facts(page).tagged("h1", "h2", "h3"):
        if node.text() and not any(a.tag in ("nav", "header", "footer") for a in node.ancestors()):
            if not unseen(node):
                return node
    return None


def soft_error(page: FetchedPage) -> Node | None:
    """The heading of a page that answered below 400 yet *is* a server's error page (an app whose
    error handler renders its error template with status 200): the page's first heading outside its
    banner and menus reads as nothing but an error ("Error!", "Something went wrong"), the block
    around it says little more, holds no field to fill (a form's own errors are not a crash) and
    nothing says the thing is missing (a soft 404 is another matter); else None. A heading that names
    an exception and its message (`_EXCEPTION_HEADING`) reads as an error too: the handler of last
    resort of many stacks prints just that, in a box, with status 200."""
    if not page.is_html or page.status >= 400:
        return None
    node = _first_heading(page)
    if node is None:
        return None
    words = " ".join(_WORDS.findall(node.text().lower()))
    block = node.parent
    if block is None or (words not in _ERROR_HEADINGS and not _EXCEPTION_HEADING.match(node.text())):
        return None
    text = block.short_text(MAX_ERROR_PAGE_CHARS)
    if text is None or _NOT_FOUND.search(text) or block.find_all("input", "textarea", "select"):
        return None
    return node


def drawn_by_failed_script(page: FetchedPage) -> bool:
    """Whether the page's own script failed while it ran (an uncaught error or a console error) and no
    request of the page failed: an error view shown then is the script's error boundary drawing that
    failure — a consequence of the client error, reported once by `client_errors` — not a page a
    server's error handler rendered. (A failed request keeps both readings: a server's answer.) A
    click on such a view that left it in place (its "Go back", a menu) is that view still: the
    failure was the page's before the click, whose record starts afresh."""
    kinds = {e.kind for e in page.client_errors}
    if "failed_request" in kinds or partial_document(page):
        return False
    if kinds:
        return True
    origin = page.clicked_from[0] if page.clicked_from is not None else None
    return origin is not None and soft_error(origin) is not None and drawn_by_failed_script(origin)


def check_server_error(
    page: FetchedPage, fetch: Fetch | None = None, config: OracleConfig = DEFAULT_CONFIG
) -> list[Finding]:
    if page.status < 500:
        heading = soft_error(page)
        if heading is None or drawn_by_failed_script(page):
            return []
        block = heading.parent.text() if heading.parent is not None else heading.text()
        return [
            Finding(
                "server_error",
                page.route,
                "the page answered below 500 but shows the site's error page",
                evidence(page, heading.text()[:40], error_line=short(block), error_key=error_key(block)),
                shape=page_shape(page),
            )
        ]
    try:
        reason = HTTPStatus(page.status).phrase
    except ValueError:
        reason = "Server Error"
    summary = error_summary(page)
    # The reason phrase keeps 500 and 503 apart after numbers are normalised away.
    message = f"HTTP {page.status} {reason}"
    return [
        Finding(
            "server_error",
            page.route,
            message,
            evidence(page, summary.rstrip("…")[:40], error_line=summary, error_key=error_key(summary)),
            shape=page_shape(page),
        )
    ]
