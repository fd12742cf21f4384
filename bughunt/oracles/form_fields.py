"""The fields of a form the form oracle (`forms`) compares: their names, values, keys and labels.

A field's keys are its name, id, label, aria-label and placeholder, each as `key` (`tagList`, `tags`,
`tag-list` alike); a key several fields share names none of them. Also: whether a form writes, the
labels of its chosen options, and whether two filled fields hold one value.
"""

from __future__ import annotations

import re
from collections import Counter

from bughunt.actions import TEXT_INPUTS, scripted_form
from bughunt.dom import Node
from bughunt.oracles.form_positions import normalised
from bughunt.oracles.form_urls import url_identifier

_NOT_KEY = re.compile(r"[^a-z0-9]")
_WORD = re.compile(r"\w+")


def key(text: str) -> str:
    """`tagList`, `tags`, `tag-list`, `Tags:` → `tag`."""
    k = _NOT_KEY.sub("", text.lower())
    k = k.removesuffix("list") if len(k) > 4 else k
    return k.removesuffix("s") if len(k) > 3 else k


def read_fields(form: Node, doc: Node) -> list[tuple[Node, str, str, set[str], bool]]:
    """(element, name, value, keys, visible) of the form's text-like and hidden fields."""
    labels = {lab.get("for"): lab.text() for lab in doc.find_all("label") if lab.get("for")}
    out = []
    for node in form.iter():
        kind = node.get("type").lower()
        visible = True
        if node.tag == "input" and kind == "hidden":
            value, visible = node.get("value"), False
        elif node.tag == "input" and kind in TEXT_INPUTS and not node.get("readonly"):
            value = node.get("value")
        elif node.tag == "textarea":
            value = node.raw_text()
        elif node.tag == "select":
            options = node.find_all("option")
            # Without a `selected` option a browser submits the first one.
            chosen = [o for o in options if "selected" in o.attrs] or options[:1]
            value = chosen[0].get("value", chosen[0].text()) if chosen else ""
        else:
            continue
        label = labels.get(node.get("id"), "")
        # A script-bound input (a single-page app's v-model) often has no name: its label names it.
        name = node.get("name") or (
            (node.get("id") or node.get("aria-label") or label or node.get("placeholder")) if visible else ""
        )
        if not name:
            continue
        if not label and node.parent is not None and node.parent.tag == "label":
            label = _own_text(node.parent, node)
        keys = {
            key(k)
            for k in (
                name,
                _member(name),
                node.get("id"),
                _name_of(label),
                node.get("aria-label"),
                node.get("placeholder"),
            )
            if k and key(k)
        }
        out.append((node, name, value.strip(), keys, visible))
    # A key several fields share names none of them: a split date and time widget labels each of its
    # parts "Date:" and "Time:" (`date_added_0`, `date_accessed_0`), and a page's `field-date_added`
    # cell would read as the value of every date the form has.
    # A bracketed name's member (`fields[email]`) names its field when no other field holds that
    # member, or when the others are menus beside a text field (`function[email]`, a choice of what
    # to do to the e-mail): the text field holds the value, not the menu.
    shared = Counter(k for _n, name, _v, keys, _vis in out for k in keys if k != key(_member(name)))
    members = Counter(key(_member(name)) for _n, name, *_rest in out if _member(name))
    texts = Counter(
        key(_member(name)) for node, name, *_rest in out if _member(name) and node.tag != "select"
    )

    def kept(node: Node, name: str, k: str) -> bool:
        if _member(name) and k == key(_member(name)):
            lone = members[k] == 1 or (node.tag != "select" and texts[k] == 1)
            return lone and not shared[k]
        return shared[k] == 1

    return [
        (node, name, value, {k for k in keys if kept(node, name, k)}, vis)
        for node, name, value, keys, vis in out
    ]


_MARKS = re.compile(r"\([^)]*\)|\[[^]]*\]|[*:]")
"""What a label says beside the field's name: "(Required)", "[optional]", an asterisk, a colon."""


_BRACKETS = re.compile(r"\[([^][]+)\]$")


_PREFIX = re.compile(r"^([^][]+)\[")
"""The record a bracketed name belongs to: `issue[subject]`, `time_entry[hours]` (Rails' and PHP's
arrays of one record's fields)."""


def blank_nested(fields: list[tuple[Node, str, str, set[str], bool]]) -> set[str]:
    """Names of the fields of a blank sub-form for another record the edit form would create beside
    the one it edits: bracketed fields of a record (`time_entry[...]` in an issue's form, a "Log time"
    fieldset) none of whose text or hidden inputs holds a value, in a form whose filled fields belong to
    another record (`issue[...]`). A new record's fields are empty by design; they are no stored value
    of the record edited (an existing nested record carries its values, or at least its hidden id)."""
    groups: dict[str, list[tuple[Node, str, str]]] = {}
    for node, name, value, _keys, _visible in fields:
        if found := _PREFIX.match(name):
            groups.setdefault(found.group(1), []).append((node, name, value))
    filled = {
        prefix
        for prefix, members in groups.items()
        if any(value and node.tag in ("input", "textarea") for node, _name, value in members)
    }
    if not filled:
        return set()
    return {name for prefix, members in groups.items() if prefix not in filled for _n, name, _v in members}


def _member(name: str) -> str:
    """The field a bracketed name names: `fields[email]`, `user[email]` (PHP's and Rails' arrays of a
    record's fields) name `email`."""
    found = _BRACKETS.search(name)
    return found.group(1) if found else ""


def _name_of(label: str) -> str:
    """A label as the name of its field: "Subject (Required)" and "Subject *" name `subject`."""
    return _MARKS.sub(" ", label) if label else label


def _own_text(label: Node, control: Node) -> str:
    """The text of a label wrapping its control, the control's own text left out (a text area's
    content is its value, not its name)."""
    parts: list[str] = []
    stack: list[Node | str] = [label]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            parts.append(node)
        elif node is not control:
            stack.extend(reversed(node.children))
    return " ".join(" ".join(parts).split())


def carries_identifier(fields: list[tuple[Node, str, str, set[str], bool]], url: str) -> bool:
    """Whether a form on an edit URL carries the record's identifier that URL names in a hidden input
    (`<input type=hidden name=id value=7>` on `/blog/edit?id=7`): it edits that stored record, so
    visible fields that all opened empty dropped every stored value — no new item's blank form."""
    ident = url_identifier(url)
    return ident is not None and any(
        not visible and value == ident for _n, _name, value, _k, visible in fields
    )


def chosen_labels(form: Node, doc: Node) -> tuple[str, ...]:
    """The labels of a form's chosen options: a checked radio button's label and a select's option
    marked `selected` (not the first one a browser would submit by default). A record's row shows the
    option it holds by that label ("Teo Okafor" for the radio button of child 2), not by its value."""
    labels = {lab.get("for"): lab.text() for lab in doc.find_all("label") if lab.get("for")}
    out = []
    for node in form.iter():
        if node.tag == "input" and node.get("type").lower() == "radio" and "checked" in node.attrs:
            text = labels.get(node.get("id"), "") or (node.parent.text() if node.parent is not None else "")
        elif node.tag == "option" and "selected" in node.attrs:
            text = node.text()
        else:
            continue
        if re.search(r"\w{3,}", text):
            out.append(text)
    return tuple(out)


def filled_text(fields: list[tuple[Node, str, str, set[str], bool]]) -> list[tuple[str, str, set[str]]]:
    """(name, value, keys) of the filled visible text fields."""
    return [
        (name, value, keys)
        for node, name, value, keys, visible in fields
        if value and visible and node.tag in ("input", "textarea")
    ]


def shared_values(fields: list[tuple[Node, str, str, set[str], bool]]) -> bool:
    """Whether two filled visible text fields hold one value: only then can one have replaced the other's."""
    values = [normalised(v) for _name, v, _k in filled_text(fields)]
    return len(set(values)) < len(values)


def word_set(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def shown_words(form: Node) -> set[str]:
    """The words a form shows beside its fields (a tags widget's chips): its text outside the options
    not chosen and outside its text areas. A select's other options are choices offered, not values
    held: the stored category a record's row shows ("Power tools") is among them when the form drops
    it (no option chosen) as much as when it does not; a text area's text is its own field's value
    (notes that mention "power tools"), not another field's shown."""
    words: set[str] = set()
    stack: list[Node | str] = [form]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            words |= word_set(node)
        elif node.tag != "textarea" and not (node.tag == "option" and "selected" not in node.attrs):
            stack.extend(node.children)
    return words


def writes(form: Node) -> bool:
    """A form that stores something: method POST, or an htmx post/put/patch, or a form a script
    sends (`actions.scripted_form`: a single-page app posts it through its API)."""
    if form.get("method", "get").lower() == "post" or any(
        form.get(a) for a in ("hx-post", "hx-put", "hx-patch")
    ):
        return True
    return scripted_form(form)
