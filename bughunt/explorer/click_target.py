"""The control a click chose, found again in the page at click time by what it is.

A click action names its control by a structural selector (an `:nth-of-type` path, `dom.Selectors`)
read from the page as it was. A page whose framework redraws (TiddlyWiki's story river, Backbone and
Marionette views, Ember, Knockout, Elm, any list drawn again on each click or timer) may, by the time
of the click, hold new nodes in another order: the path then names nothing, or another element. So the
control is described from the page it was read on (`Wanted`: its tag, its text, the attributes that
say what it does — `href`, `role`, `aria-label`, `title`, `type`, `name` — and the texts of its three
nearest ancestors, which tell apart copies of one control in a list's rows) and found again (`FIND`):

- the element the path names, when it is still that control;
- else the one element of the page that is (same tag, text and attributes; copies told apart by their
  ancestors' texts, nearest first);
- else, when copies are alike down to their surroundings (two identical rows), the one at the same
  position among them, only if the page holds as many as it did;
- else none: two that match equally are refused, never one of them guessed.

A page the read could not describe the control in (the path names nothing there either: a click state
replayed into another state) keeps the path alone, as before.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bughunt.dom import Node
from bughunt.page import FetchedPage

CONTEXT_LEVELS = 3
"""Ancestors whose texts describe where a control sits (its row, its list item, its panel)."""
TEXT_CHARS = 300
"""How much of a text is compared (a panel's whole text is not needed to tell two rows apart)."""
MAX_ALIKE = 40
"""Copies of one control beyond which their surroundings are not read to tell them apart (their path
alone names the one chosen, as before)."""
ATTRS = ("href", "role", "aria-label", "title", "type", "name")
"""Attributes that say what a control does or is called; classes and styles are left out, as a redraw
or an animation changes them."""


@dataclass(frozen=True)
class Wanted:
    """A control as the page it was chosen on showed it (`FIND`'s second argument)."""

    tag: str
    text: str
    attrs: dict[str, str]
    context: tuple[str, ...]
    alike: int
    """Elements of that page with the same tag, text and attributes."""
    twins: int
    """Of those, the ones whose ancestors' texts are the same too (indistinguishable but by position)."""
    position: int
    """Its position among the twins, in document order."""

    def as_arg(self) -> dict[str, Any]:
        return {
            "tag": self.tag,
            "text": self.text,
            "attrs": self.attrs,
            "context": list(self.context),
            "alike": self.alike,
            "twins": self.twins,
            "position": self.position,
        }


def _text(node: Node) -> str:
    return node.text()[:TEXT_CHARS]


def _identity(node: Node) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    return node.tag, _text(node), tuple((a, node.get(a)) for a in ATTRS if a in node.attrs)


def _context(node: Node, read: dict[int, str]) -> tuple[str, ...]:
    """The texts of its nearest ancestors (`read`: each ancestor's text read once per description,
    as copies of a control share theirs)."""
    texts: list[str] = []
    parent = node.parent
    while parent is not None and parent.tag != "#document" and len(texts) < CONTEXT_LEVELS:
        text = read.get(id(parent))
        if text is None:
            text = read[id(parent)] = _text(parent)
        texts.append(text)
        parent = parent.parent
    return tuple(texts)


def resolve(document: Node, css: str) -> Node | None:
    """The element a structural selector made by `dom.Selectors` names in `document` (as
    `querySelector` would), or None (a selector of another shape, or nothing there)."""
    steps = css.split(" > ")
    first = steps[0]
    if first.startswith("#"):
        ident = first[1:]
        current = next((n for n in document.iter() if n.get("id") == ident), None)
    else:
        current = next((n for n in document.children if isinstance(n, Node) and n.tag == first), None)
    for step in steps[1:]:
        if current is None:
            return None
        tag, _, rest = step.partition(":nth-of-type(")
        if rest and not rest.endswith(")"):
            return None
        try:
            n = int(rest[:-1]) if rest else 1
        except ValueError:
            return None
        same = [c for c in current.children if isinstance(c, Node) and c.tag == tag]
        current = same[n - 1] if 0 < n <= len(same) else None
    return current


def wanted(page: FetchedPage, css: str) -> Wanted | None:
    """The control `css` names on `page` as `FIND` looks for it, or None when it names nothing there
    (or names one of more than `MAX_ALIKE` copies)."""
    node = resolve(page.document, css)
    if node is None:
        return None
    read: dict[int, str] = {}
    identity, context = _identity(node), _context(node, read)
    alike = [n for n in page.document.find_all(node.tag) if _identity(n) == identity]
    if len(alike) > MAX_ALIKE:
        return None  # hundreds of one control (a "Reply" per comment): told apart by its path only
    twins = [n for n in alike if _context(n, read) == context]
    return Wanted(
        tag=node.tag,
        text=identity[1],
        attrs=dict(identity[2]),
        context=context,
        alike=len(alike),
        twins=len(twins),
        position=next(i for i, n in enumerate(twins) if n is node),
    )


FIND = (
    """
([css, want]) => {
  const LEVELS = """
    + str(CONTEXT_LEVELS)
    + """, CHARS = """
    + str(TEXT_CHARS)
    + """;
  const SKIP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE']), ATTRS = """
    + json.dumps(list(ATTRS))
    + """;
  // the text `dom.Node.text` reads: every text node's string joined by a space, whitespace collapsed
  const text = (el) => {
    const out = [];
    let words = 0;  // a panel's text is read only as far as the compared part needs
    const walk = (n) => {
      for (const c of n.childNodes) {
        if (words > CHARS) { return; }
        if (c.nodeType === 3) {
          out.push(c.data);
          words += c.data.trim() === '' ? 0 : c.data.split(/\\s+/).filter(Boolean).join(' ').length + 1;
        } else if (c.nodeType === 1 && !SKIP.has(c.tagName)) { walk(c); }
      }
    };
    walk(el);
    return out.join(' ').split(/\\s+/).filter(Boolean).join(' ').slice(0, CHARS);
  };
  const same = (el) => el.localName === want.tag && text(el) === want.text
    && ATTRS.every((a) => (a in want.attrs ? el.getAttribute(a) === want.attrs[a] : !el.hasAttribute(a)));
  const around = (el, levels) => {
    let p = el.parentElement;
    for (let i = 0; i < levels; i++) {
      if (i >= want.context.length) { return p === null; }
      if (p === null || text(p) !== want.context[i]) { return false; }
      p = p.parentElement;
    }
    return true;
  };
  let at = null;
  try { at = document.querySelector(css); } catch (e) { at = null; }
  if (at !== null && same(at) && (want.alike === 1 || around(at, LEVELS))) { return at; }
  const alike = Array.from(document.getElementsByTagName(want.tag)).filter(same);
  if (alike.length === 0) { return at === null ? 'gone' : 'moved'; }
  if (alike.length === 1 && want.alike === 1) { return alike[0]; }
  let left = alike;
  for (let level = 1; level <= LEVELS; level++) {
    left = left.filter((el) => around(el, level));
    if (left.length === 1) { return left[0]; }
    if (left.length === 0) { return 'ambiguous'; }
  }
  if (left.length === want.twins && want.position < left.length) { return left[want.position]; }
  return 'ambiguous';
}
"""
)
"""Finds the wanted control in the page (`[css, Wanted.as_arg()]`): the element — the one the path
still names, or the one found again by what it is — or, when there is none, why: `gone` (the path
names nothing and nothing is it), `moved` (the path names another element and nothing is it) or
`ambiguous` (more than one is it). The element itself, not a record holding it: its handle comes back
in the one round trip that ran the search (a record's fields were three more, on every click)."""


CLOSE_WORDS = ("close", "dismiss", "hide", "×", "✕", "✖")
"""What a notification's own control to put it away says (its text, `aria-label` or `title`)."""
CLOSE_ICONS = ("close", "cancel", "dismiss", "times", "xmark")
"""Words of the class of a wordless close control's icon (`btn-close`, `fa-times`, `…-cancel-button`)."""

COVERING_CLOSE = (
    """
(el) => {
  const WORDS = """
    + json.dumps(list(CLOSE_WORDS))
    + """;
  const box = el.getClientRects()[0];
  if (!box) { return null; }
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  if (hit === null || el.contains(hit)) { return null; }
  let layer = null;
  for (let n = hit; n !== null && n !== document.body; n = n.parentElement) {
    if (n.closest('dialog, [role=dialog], [role=alertdialog], [aria-modal=true]')) { return null; }
    const where = getComputedStyle(n).position;
    if (where === 'fixed' || where === 'sticky') { layer = n; break; }
  }
  if (layer === null || layer.contains(el)) { return null; }
  const ICON = new RegExp('(^|[-_\\s])(' + """
    + json.dumps("|".join(CLOSE_ICONS))
    + """ + ')([-_\\s]|$)', 'i');
  // its words, or — a control with no words, an icon — its icon's class (`btn-close`, `fa-times`)
  const says = (c) => [c.textContent, c.getAttribute('aria-label'), c.getAttribute('title')]
    .some((t) => t !== null && WORDS.includes(t.trim().toLowerCase()))
    || (c.textContent.trim() === '' && [c, ...c.querySelectorAll('*')]
      .some((n) => ICON.test(n.getAttribute('class') || '')));
  for (let n = hit; n !== null && n !== layer.parentElement; n = n.parentElement) {
    const closers = Array.from(n.querySelectorAll('button, [role=button], a')).filter(says);
    if (closers.length === 1) { return closers[0]; }
    if (closers.length > 1) { return null; }
  }
  return null;
}
"""
)
"""The control that puts away the notification lying over `el` where a click would land: the hit
element's layer is fixed or sticky (an alert, a toast, a cookie bar — never a dialog, which asks for
an answer) and, going out from the hit element, the first box holding one control that says close or
dismiss holds that control. None when nothing covers `el`, the cover is no such layer, or which
control closes it is not plain."""
