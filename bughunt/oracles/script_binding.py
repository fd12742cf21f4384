"""A script bound to the page's own elements is the template's, not text a user stored.

An application's templates wire their widgets with small inline scripts placed right beside the
field they serve: a date picker set up after its input (`$('#issue_start_date').datepicker()`), a
column chooser's "→" button moving options between two selects (`onclick="moveOptions(this.form.
available_c, this.form.selected_c)"`), a submit hook selecting a list's options
(`$('#selected_c option').prop(…)`), a toggle showing a table's hidden rows
(`document.getElementById("attachment_table")`). Such code names an element of the page by the id the
template gave it — looked up by name (a `#id` selector, `getElementById`), or handed bare to a helper
that looks it up (Prototype's `$('x')`, YUI's `Dom.removeClass('x', …)`, a date picker's
`createCalendar('x')`) when that element is a control or a link beside the script (under its parent) —
or as a field of the handler's own form (`this.form.x`); and it sits wherever the template put the
field: in a paragraph, a table cell, a form laid out in a main region called `#content`. Stored text a
user wrote (a comment, a title, a bio) is shown, not wired to the site's page: the payloads that land
in records (`alert(1)`, `document.title=…`, an `<img onerror>` pasted from a log) look up no element
of the page they are shown on. A bare word is read beside the script only: a payload's own words
(`alert('summary')`) may be some field's id elsewhere on the page. So a script that addresses the
page's elements is read as the template's whatever the signs of its place (`scripts._suspicious`) say.

Applies to every family whose templates write inline widget scripts: Rails helpers
(`javascript_tag` after a field), Django admin widgets, PHP trackers and forums (jQuery set-ups after
an input), Perl CGI trackers (YUI and Prototype helpers fed ids), WTForms/Jinja macros. The cost,
stated: a payload written for this very page, looking up its elements by id, is read as the
template's.
"""

from __future__ import annotations

import re

from bughunt.dom import Node

_CONTROLS = frozenset({"input", "select", "textarea", "button", "form"})
_BESIDE = _CONTROLS | {"a"}
"""What a bare id handed to a helper names when the element sits beside the script: a form control,
or a link acting as the template's button (a "Show advanced fields" toggle the script reveals once
scripts run)."""
_STRING = re.compile(r"""(["'])((?:\\.|(?!\1).)*)\1""")
_ID_SELECTOR = re.compile(r"#([A-Za-z_][\w-]*)")
_BY_ID = re.compile(r"""getElementById\(\s*["']([^"']+)["']""")
_OWN_FORM = re.compile(r"""\bthis\.form(?:\.elements)?(?:\.([A-Za-z_$][\w$]*)|\[\s*["']([^"']+)["']\s*\])""")


def _ids(root: Node, own: Node, tags: frozenset[str] | None = None) -> set[str]:
    """The ids of the elements under `root` (of `tags` only, when given), but those of `own` and what
    it holds: a pasted `<input id=x onfocus="…getElementById('x')…">` addresses itself, not the
    site's page."""
    mine = {id(n) for n in own.iter()}
    return {
        n.get("id")
        for n in root.iter()
        if (tags is None or n.tag in tags) and n.get("id") and id(n) not in mine
    }


def _looked_up_ids(code: str) -> set[str]:
    """The ids the code looks up by name: `#id` in a string literal (a CSS selector),
    `getElementById('id')`."""
    ids = set(_BY_ID.findall(code))
    for _, literal in _STRING.findall(code):
        ids.update(_ID_SELECTOR.findall(literal))
    return ids


def _bare_ids(code: str) -> set[str]:
    """The string literals of the code that are an id's shape alone (a helper's argument naming an
    element: `createCalendar('deadline')`)."""
    return {literal for _, literal in _STRING.findall(code) if _BARE_ID.fullmatch(literal)}


_BARE_ID = re.compile(r"[A-Za-z_][\w-]{2,}")
"""A literal that may name an element by its id: a word of three characters or more, no spaces."""


def _own_form_fields(node: Node) -> set[str]:
    """The names and ids of the fields of the form holding `node` (what `this.form.x` resolves to)."""
    form = next((a for a in node.ancestors() if a.tag == "form"), None)
    if form is None:
        return set()
    fields = (n for n in form.iter() if n.tag in _CONTROLS and n is not form and n is not node)
    return {v for n in fields for v in (n.get("name"), n.get("id")) if v}


def bound_to_page_controls(code: str, node: Node, root: Node) -> bool:
    """Whether `code` (a script element's text or an inline handler's) addresses a control of the
    page's own forms: an id a control of the page carries, or a field of the handler's own form."""
    looked_up = _looked_up_ids(code)
    if looked_up and looked_up & _ids(root, node):
        return True
    # A bare id names the widget the script sits beside: a control or a link under the script's
    # parent. A payload's own words (`alert('summary')`) may match an id somewhere on the page; the
    # element it sits among is the text it was pasted into.
    bare = _bare_ids(code)
    if bare and node.parent is not None and bare & _ids(node.parent, node, _BESIDE):
        return True
    names = {a or b for a, b in _OWN_FORM.findall(code)}
    return bool(names) and bool(names & _own_form_fields(node))


_DECLARED = re.compile(
    r"\bfunction\s+([A-Za-z_$][\w$]*)\s*\("
    r"|\b(?:var|let|const)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)"
)
_CALLED = re.compile(r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*\(")
_KEYWORDS = frozenset(
    {"if", "for", "while", "switch", "return", "typeof", "function", "catch", "new", "void"}
)


def calls_head_functions(code: str, root: Node) -> bool:
    """Whether a handler's code calls only functions that a `<script>` of the page's `<head>` declares
    (`onclick="toggleCodes(this.checked)"` under `<head><script>function toggleCodes(on) {…}`): the
    template's wiring to its own code. What a user stores is rendered in the body, never as a script of
    the head, so a payload cannot declare what it calls there; the payloads that land in records call
    the browser's own functions (`alert(1)`, `fetch(…)`), which no page declares. A handler that calls
    anything else beside a declared function is judged as before. Families: a font kit's or widget
    library's static demo page (`demo.html` with a "show codes" switch), old PHP admins declaring
    `confirmDelete()` in the head and calling it from list cells, CGI tools' head scripts driving
    their toggles."""
    head = next((n for n in root.iter() if n.tag == "head"), None)
    if head is None:
        return False
    declared = {
        a or b
        for s in head.iter()
        if s.tag == "script" and not s.get("src")
        for a, b in _DECLARED.findall(s.raw_text())
    }
    called = {name for name in _CALLED.findall(code) if name not in _KEYWORDS}
    return bool(called) and called <= declared
