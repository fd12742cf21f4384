"""Script from user content rendered unescaped (stored XSS), recognised by where it sits.

A site's own scripts live in `<head>` or at block level; a `<script>` (or an element with an
inline event handler such as `onerror`) that shows two of three signs — inside a container named
like user content (comment, reply, review, message, bio, …), directly inside a text-level element
(a paragraph, a list item, a table cell, a link: a title printed into a menu), next to running text — was written by a user and should
have been escaped; so was a handler in one record's cell of a grid whose other records print text there
(`script_cells`) (a block among a formatted text's bare paragraphs — markdown passing raw HTML
through — is next to running text: `_among_formatted_prose`). A handler on a named field of a form (`<label><input name="x" onchange="…">
Send</label>`) is the form's own. The code's normalised digest (`source_key`, a number) goes with the finding: one
stored payload shown on several lists is one root cause.

A `<script nonce="…">` whose nonce the answer's Content-Security-Policy declares (`'nonce-…'`, in the
header or a `<meta http-equiv>`) was written by the server for this very response: a nonce is drawn
fresh per response precisely so that stored text cannot carry a valid one (CSP Level 3, §"nonce").
Any family that sends a nonce-based CSP (Django-CSP, Rails, Helmet, PHP apps) draws its inline
scripts that way, wherever they sit. Code that addresses a control of the page's own forms (a date
picker's set-up naming its input's id, a button's `this.form.x`) is the template's widget wiring,
wherever it sits too (`script_binding`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from bughunt.dom import Node
from bughunt.oracles.base import DEFAULT_CONFIG, Fetch, Finding, OracleConfig, evidence, page_shape, short
from bughunt.oracles.script_binding import bound_to_page_controls, calls_head_functions
from bughunt.oracles.script_cells import every_record, odd_cell
from bughunt.oracles.server_error import error_key
from bughunt.page import FetchedPage
from bughunt.tree_facts import tree_facts

_TEXT_LEVEL = frozenset(
    "a p span li td dd dt blockquote em strong b i u small label h1 h2 h3 h4 h5 h6 pre code q cite".split()
)
_USER_WORDS = frozenset(
    "comment comments reply replies review reviews message messages msg post posts bio user usercontent "
    "markdown md description answer question note notes chat feedback guestbook entry text body content".split()
)
_NON_WORD = re.compile(r"[^a-z0-9]+")
_JS_TYPES = frozenset({"", "text/javascript", "application/javascript", "module", "text/ecmascript"})
_ACTIVE_TAGS = frozenset("img svg iframe video audio object embed body marquee details math input".split())


_NONCE = re.compile(r"'nonce-([^']+)'")
_HIDING_MARKS = re.compile(r"<!--|//\s*-->|-->")
"""The comment marks old templates wrap a script's code in (for browsers without scripts). A script
holding nothing else runs nothing — a template's loop that wrote no line into it — while a stored
payload is there to run something."""


def csp_nonces(page: FetchedPage) -> frozenset[str]:
    """The script nonces the answer's Content-Security-Policy declares (header and `<meta http-equiv>`)."""
    policies = [page.header("content-security-policy")]
    policies += [
        m.get("content")
        for m in tree_facts(page).tagged("meta")
        if m.get("http-equiv").lower() == "content-security-policy"
    ]
    return frozenset(n for policy in policies for n in _NONCE.findall(policy))


def _words(node: Node) -> set[str]:
    names = " ".join((*node.classes, node.get("id"), node.get("itemprop"), node.get("role")))
    return set(_NON_WORD.split(names.lower())) - {""}


def _user_container(node: Node) -> Node | None:
    return next((a for a in node.ancestors() if _words(a) & _USER_WORDS), None)


def _has_text_sibling(node: Node) -> bool:
    parent = node.parent
    return parent is not None and (
        any(isinstance(c, str) and c.strip() for c in parent.children) or _among_formatted_prose(node)
    )


def _among_formatted_prose(node: Node) -> bool:
    """A block among the paragraphs of a formatted text: its siblings hold a paragraph of words, and
    neither it nor any sibling carries a class or an id. A text formatter (markdown, a rich-text
    editor's HTML) writes bare `p`/`h2`/`ul` blocks and passes raw HTML through as a block of its own
    between them; a template names the elements it lays out for its stylesheet (an avatar's `img`
    beside a comment's text has its class). So the element sits in running text as much as one beside
    a text node does."""
    parent = node.parent
    if parent is None or node.classes or node.get("id"):
        return False
    siblings = [c for c in parent.elements if c is not node]
    if any(c.classes or c.get("id") for c in siblings):
        return False
    return any(c.tag == "p" and len(c.text().split()) >= 3 for c in siblings)


_FIELDS = frozenset({"input", "select", "textarea"})
_BUTTON_TYPES = frozenset({"button", "submit", "reset"})


def _site_field(node: Node) -> bool:
    """A named field or a button of one of the site's forms (`<label><input name="x" onchange="…">
    Send</label>`, a dialog's `<input type="button" value="Cancel" onclick="hideModal(this)">` inside
    a `<form>`): the form's own behaviour, not text a user wrote — a payload pasted into a post is not
    a field of a form the site renders, and pasted markup arms a text box (`<input onfocus autofocus>`)
    or an image, not a form's buttons."""
    if not any(a.tag == "form" for a in node.ancestors()):
        return _labelled_field(node)
    button = node.tag == "button" or (
        node.tag == "input" and node.get("type").lower().strip() in _BUTTON_TYPES
    )
    return button or (node.tag in _FIELDS and bool(node.get("name")))


def _labelled_field(node: Node) -> bool:
    """A field of a form a script drew without a `<form>` element (pixl-webapp's edit pages, React and
    Knockout forms bound to their state): one a `<label for>` of the page names, or one named in the
    same scheme as such a field (`fe_rc_time` beside the labelled `fe_rc_enabled`: its stem, the id
    less its last word, is theirs) — the site's wording and naming of its own fields; markup pasted into
    content brings no label naming it, nor the form's naming scheme."""
    ident = node.get("id")
    if node.tag not in _FIELDS or not ident:
        return False
    lineage = [node, *node.ancestors()]
    named, stems = _label_targets(lineage[-1])
    stem = _id_stem(ident)
    return ident in named or (stem is not None and stem in stems)


_ID_WORD = re.compile(r"[_-][A-Za-z0-9]+$")
_MIN_STEM = 3


def _id_stem(ident: str) -> str | None:
    """An id less its last word (`fe_ee_rc_time` → `fe_ee_rc`), or None when too little is left."""
    stem = _ID_WORD.sub("", ident)
    return stem if stem != ident and len(stem) >= _MIN_STEM else None


@lru_cache(maxsize=8)
def _label_targets(root: Node) -> tuple[frozenset[str], frozenset[str]]:
    """The ids the page's labels name (`<label for=…>`) and their stems, per document (nodes hash by
    identity)."""
    named = frozenset(v for n in root.iter() if n.tag == "label" and (v := n.get("for")))
    return named, frozenset(s for v in named if (s := _id_stem(v)) is not None)


def _suspicious(node: Node) -> Node | None:
    """The user-content context that makes `node` suspicious, or None.

    Two signs of three are needed: inside a user-content container, directly inside a text-level
    element, next to running text. (A legacy `<td><script>document.write…</script></td>` has one.)
    In the page's banner or footer (`_in_page_chrome`) the container sign is needed: text-level
    beside text is how a layout writes its own name there.
    """
    parent = node.parent
    container = _user_container(node)
    text_level = parent is not None and parent.tag in _TEXT_LEVEL
    beside_text = _has_text_sibling(node)
    if container is not None and (text_level or beside_text):
        return container
    if text_level and beside_text and not _in_page_chrome(node):
        return parent
    # one record's cell of a grid whose other records print text there (`script_cells`)
    return odd_cell(node)


_SECTIONING = frozenset({"article", "aside", "main", "nav", "section"})
_CHROME_ROLES = frozenset({"banner", "contentinfo"})


def _in_page_chrome(node: Node) -> bool:
    """Inside the page's banner or content-info landmark: a `<header>`/`<footer>` that no sectioning
    element holds (an article's own header is the article's), or an element with that ARIA role. The
    layout draws them around every page — a logo writing the app's name beside its text is the
    layout's script; a post's title printed there would sit in a container of user content."""
    for a in node.ancestors():
        if a.get("role").lower() in _CHROME_ROLES:
            return True
        if a.tag in ("header", "footer"):
            return not any(b.tag in _SECTIONING for b in a.ancestors())
    return False


def check_unescaped_script(
    page: FetchedPage, fetch: Fetch | None = None, config: OracleConfig = DEFAULT_CONFIG
) -> list[Finding]:
    """One finding per page and kind of element (a script, an event handler): the message is a
    template; which handler, where and the code itself are quarantined evidence."""
    if not page.is_html:
        return []
    findings: dict[str, Finding] = {}
    nonces = csp_nonces(page)
    # the elements either branch below reads: scripts and the tags a handler is looked for on
    for node in tree_facts(page).tagged("script", *_ACTIVE_TAGS):
        if node.tag == "script":
            if node.get("type").lower().strip() not in _JS_TYPES or node.get("src"):
                continue
            if node.get("nonce") and node.get("nonce") in nonces:
                continue  # the server's own script for this response (see the module)
            if not _HIDING_MARKS.sub("", node.raw_text()).strip():
                continue  # runs nothing: a template's loop that wrote no line (see `_HIDING_MARKS`)
            what, needle, handler = "script element", node.raw_text().strip()[:40] or "<script", ""
        elif node.tag in _ACTIVE_TAGS and any(k.startswith("on") for k in node.attrs):
            if _site_field(node) or every_record(node):
                continue  # a form's field, or a grid template's per-record control (`every_record`)
            handler = next(k for k in node.attrs if k.startswith("on"))
            what, needle = "inline event handler", handler
        else:
            continue
        context = _suspicious(node)
        if context is None:
            continue
        code = node.raw_text() if node.tag == "script" else node.get(handler)
        if bound_to_page_controls(code, node, page.document):
            continue  # a widget's set-up beside its field: the template's (`script_binding`)
        if node.tag != "script" and calls_head_functions(code, page.document):
            continue  # a handler calling the head's own functions: the template's (`script_binding`)
        message = f"{what} rendered unescaped inside user content"
        if message not in findings:
            findings[message] = Finding(
                "unescaped_script",
                page.route,
                message,
                evidence(
                    page,
                    needle,
                    dom_path=node.path(),
                    container=context.signature(),
                    handler=handler,
                    line=node.line,
                    code=short(code, 200),
                    # The stored text is the root cause, not the page: the same payload on a feed
                    # and on its author's page is one bug (`explorer.inspection.same_root_cause`).
                    source_key=error_key(code),
                ),
                shape=page_shape(page),
            )
    return list(findings.values())
