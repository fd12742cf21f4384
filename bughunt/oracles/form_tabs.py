"""Forms in a hidden tab panel whose tab has an address of its own (the form oracle, `forms`).

A tabbed settings page often renders every tab's panel and hides all but the selected one; each tab
links to its own address (`/projects/internal/settings/info`, `…/settings/versions`), which answers
the same page with that tab selected. A form in a hidden panel is not what this address shows: it is
shown — and judged, and reported — at its tab's address, which the oracle fetches
(`tests/bughunt/oracles/test_forms_tab_panels.py`). A panel is tied to its tab by ARIA
(`aria-controls` naming the panel's id) or, without ARIA, by name: the tab's address ends in the
word that ends the panel's id (`tab-content-info` ↔ `…/settings/info`), among the addresses of this
page's own tabs — the page's siblings or children (one segment after the same parent, or after the
page). A tab that opens its panel in place (`href="#info"`) has no address of its own: the form is
this page's and is judged here.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from bughunt.dom import Node
from bughunt.oracles.form_urls import path_segments
from bughunt.oracles.link_targets import targets
from bughunt.oracles.reading import resolve
from bughunt.page import FetchedPage, base_url
from bughunt.urls import same_origin

_ID_WORDS = re.compile(r"[-_:.]+")
_NO_DISPLAY = re.compile(r"(?:^|;)\s*display\s*:\s*none\b", re.I)


def _hidden_panel(form: Node) -> Node | None:
    """The nearest element around the form that the page hides and that has an id (a tab's panel)."""
    for el in (form, *form.ancestors()):
        attrs = el.attrs
        hidden = "hidden" in attrs or bool(_NO_DISPLAY.search(attrs.get("style", "")))
        if hidden:
            return el if el.get("id") else None
    return None


def _own_tab(page_url: str, url: str) -> int | None:
    """How near `url` is to being a tab of the page at `page_url`: 0 one segment after the page itself
    (`/settings/info` under `/settings`), 1 one segment after the page's parent (a sibling tab,
    `/settings/versions` beside `/settings/info`; the site's menu beside `/settings` comes after the
    page's own tabs); None otherwise, or with a query."""
    if not same_origin(url, page_url) or urlsplit(url).query:
        return None
    mine, other = path_segments(page_url), path_segments(url)
    if other == mine or not other:
        return None
    if other[:-1] == mine:
        return 0
    return 1 if other[:-1] == mine[:-1] else None


def tab_address(form: Node, page: FetchedPage) -> str | None:
    """The address of the tab that shows `form`, when the form sits in a panel this page hides and the
    panel's tab has an address of its own; None when the form is shown here (or nothing says where)."""
    panel = _hidden_panel(form)
    if panel is None:
        return None
    panel_id = panel.get("id")
    last_word = _ID_WORDS.split(panel_id.lower())[-1]
    base = base_url(page)
    found: list[tuple[int, str]] = []
    for node, href in targets(page.document):
        if node.tag != "a" or href.startswith("#"):
            continue
        url = resolve(base, href)
        if not url or (near := _own_tab(page.url, url)) is None:
            continue
        controls = node.get("aria-controls")
        if controls == panel_id or (not controls and path_segments(url)[-1].lower() == last_word):
            found.append((near, url.partition("#")[0]))
    return min(found)[1] if found else None


def form_identity(form: Node) -> tuple[str, str]:
    """A form as its tab's page draws it again: its action and id (the page's token aside)."""
    return form.get("action"), form.get("id")
