"""Edit forms that drop a stored value: a field left empty while the resource shows a value.

An edit form is a form with at least one pre-filled field (a new-item form is all empty). Its
resource page is found from the form itself: a `data-resource`/`data-view`/`data-src` attribute,
a link inside the form, or a nearby link labelled cancel/view/back/show. That page is fetched
and, for each empty field, searched for the field's value by name: elements whose `data-field`,
`itemprop`, `name`, `id` or a class word matches the field's name, id or label (singular and
plural, `tagList`/`tags`/`tag-list` alike), or a `dt`/`th`/`label` term followed by its value.
"""

from __future__ import annotations

import re

from loguru import logger

from bughunt.html import FetchedPage, Node, absolute, base_url, same_origin
from bughunt.oracles.base import Fetch, Finding, evidence, short

_TEXT_INPUTS = frozenset({"", "text", "email", "url", "search", "tel", "number", "date", "datetime-local"})
_NEAR_LINK = re.compile(r"\b(cancel|view|back|show|preview|return|discard|open)\b", re.I)
_RESOURCE_ATTRS = ("data-resource", "data-view", "data-src", "data-source", "data-href")
_FURNITURE = frozenset({"nav", "header", "footer", "form", "script", "style", "head"})
MAX_RESOURCES = 2


def key(text: str) -> str:
    """`tagList`, `tags`, `tag-list`, `Tags:` → `tag`."""
    k = re.sub(r"[^a-z0-9]", "", text.lower())
    k = k.removesuffix("list") if len(k) > 4 else k
    return k.removesuffix("s") if len(k) > 3 else k


def _fields(form: Node, doc: Node) -> list[tuple[Node, str, str, set[str]]]:
    """(element, name, value, keys) of the form's text-like fields."""
    labels = {lab.get("for"): lab.text() for lab in doc.find_all("label") if lab.get("for")}
    out = []
    for node in form.iter():
        if node.tag == "input" and node.get("type").lower() in _TEXT_INPUTS and not node.get("readonly"):
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
        name = node.get("name") or node.get("id")
        if not name:
            continue
        label = labels.get(node.get("id"), "")
        if not label and node.parent is not None and node.parent.tag == "label":
            label = node.parent.text()
        keys = {key(k) for k in (name, node.get("id"), label, node.get("placeholder")) if k and key(k)}
        out.append((node, name, value.strip(), keys))
    return out


def resource_urls(form: Node, page: FetchedPage) -> list[str]:
    base = base_url(page)
    hrefs = [form.get(a) for a in _RESOURCE_ATTRS if form.get(a)]
    hrefs += [a.get("href") for a in form.find_all("a") if a.get("href")]
    if form.parent is not None:
        hrefs += [a.get("href") for a in form.parent.find_all("a") if _NEAR_LINK.search(a.text())]
    urls: list[str] = []
    for href in hrefs:
        url = absolute(base, href)
        if url and url != page.url and same_origin(url, page.url) and url not in urls:
            urls.append(url)
    return urls[:MAX_RESOURCES]


def _in_furniture(node: Node) -> bool:
    return any(a.tag in _FURNITURE for a in node.ancestors())


def shown_value(doc: Node, keys: set[str]) -> str:
    """The value a resource page shows for a field with these keys, or ""."""
    for node in doc.iter():
        if node.tag in _FURNITURE or _in_furniture(node):
            continue
        names = [node.get(a) for a in ("data-field", "itemprop", "name", "id") if node.get(a)]
        names += [w for c in node.classes for w in (c, *re.split(r"[-_]", c))]
        if any(key(n) in keys for n in names if key(n)):
            value = node.get("content") if node.tag == "meta" else node.text()
            if value:
                return value
        if node.tag in ("dt", "th", "label") and key(node.text()) in keys and node.parent is not None:
            siblings = node.parent.elements
            after = siblings[siblings.index(node) + 1 :]
            if after and after[0].text():
                return after[0].text()
    return ""


def check_form_drops_value(page: FetchedPage, fetch: Fetch | None = None) -> list[Finding]:
    if fetch is None or not page.is_html or page.status >= 400:
        return []
    findings = []
    doc = page.document
    for form in doc.find_all("form"):
        fields = _fields(form, doc)
        empty = [f for f in fields if not f[2]]
        if not empty or len(empty) == len(fields):
            continue  # nothing empty, or a blank new-item form
        for url in resource_urls(form, page):
            try:
                resource = fetch(url)
            except OSError as err:
                logger.debug("form oracle could not fetch {}: {}", url, err)
                continue
            if resource.status >= 400 or not resource.is_html:
                continue
            for _node, name, _value, keys in empty:
                value = shown_value(resource.document, keys)
                if not value:
                    continue
                message = f"edit form leaves field '{name}' empty while the resource page shows a value"
                findings.append(
                    Finding(
                        "form_drops_value",
                        page.route,
                        message,
                        evidence(
                            page, f'name="{name}"', field=name, resource_url=resource.url, shown=short(value)
                        ),
                    )
                )
            break  # the first resource page that answered is the one the form edits
    return findings
