"""A link to the very list a page shows, drawn with a count: "Design (21)" in a category widget that
every page of a blog carries, on the category's own page, whose posts fill two pages of five.

A widget's count is the length of the list its link opens; on that list's own page both are in
view. The claim is read off the element holding the link and nothing but its count (`Label (N)`,
the link's words the label), standing among siblings that are counted links too (a menu's lone
"Inbox (3)" counts what is unread); the list is the one of the page's content lists (`pagination.
content_lists`) whose items change from one of its pages to the next (a sidebar's recent posts are
the same on every page) — compared only once every page of it is walked, an item a faulty pager
repeats counted once (a last page holding one item, no run to read, may add one). A list of one page
has no list to tell from the page's other lists: skipped.

A count link may also lead to a place on its own page: a post's "8 comments" in its footer links
`#comments`, the heading over the post's comments (`anchored_mismatch`). The list that place labels
(`counted_list.labelled_list`, the heading being its label) is the one counted, compared when the page
pages nothing (a list of comments split over pages shows part of the count), an empty item (a script's
placeholder for the next comment) no record. Blogs, forums, trackers and wikis draw counts so.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from urllib.parse import urljoin, urlsplit

from bughunt.dom import Node
from bughunt.oracles.counted_list import _with_nested, labelled_list
from bughunt.oracles.lists import has_pagination, targets
from bughunt.oracles.pagination import content_lists
from bughunt.oracles.reading import KEPT, is_page_key, resolve
from bughunt.page import FetchedPage, base_url
from bughunt.sim.route_keys import query_pairs


@lru_cache(maxsize=KEPT)  # asked of every link of a page, and pages share most of their links
def _first_page(url: str) -> str | None:
    """The address of the list's first page `url` is a page of: its path when the query names only
    the page (`?page=2`) or nothing; None for a filtered or sorted view (another list)."""
    parts = urlsplit(url)
    if any(not is_page_key(k) for k, _ in query_pairs(parts.query, decoded=True)):
        return None
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def own_count(page: FetchedPage, parse: Callable[[str], tuple[str, int] | None]) -> tuple[Node, int] | None:
    """(the element, the count) of a link to this list's first page whose element states how many
    items it holds (`parse`: the count oracle's reading), when exactly one does."""
    here = _first_page(page.url)
    if here is None:
        return None
    base, found = base_url(page), []
    for node, href in targets(page.document):
        holder = node.parent
        url = resolve(base, href) if node.tag == "a" and not href.startswith("#") else None
        # a URL without "?" has no query (most links: not split)
        if url is None or holder is None or ("?" in url and urlsplit(url).query) or _first_page(url) != here:
            continue
        parsed = parse(" ".join(holder.text().split()))
        if parsed is not None and parsed[0].casefold() == " ".join(node.text().split()).casefold():
            if _in_widget(holder, parse):
                found.append((holder, parsed[1]))
    return found[0] if len({n for _, n in found}) == 1 else None


def _in_widget(holder: Node, parse: Callable[[str], tuple[str, int] | None]) -> bool:
    """Whether the element stands among siblings of its kind that are counted links too (a category
    widget, a facet list): a menu's one counted link ("Inbox (3)" beside "Sent") counts what is
    unread or new, not the list it opens."""
    parent = holder.parent
    if parent is None:
        return False
    counted = [
        c
        for c in parent.elements
        if c.tag == holder.tag and c.find_all("a") and parse(" ".join(c.text().split()))
    ]
    return len(counted) >= 2


def linked_mismatch(
    page: FetchedPage,
    parse: Callable[[str], tuple[str, int] | None],
    walk: Callable[[], list[FetchedPage] | None],
) -> list[tuple[Node, int, int]]:
    """(the element, the count it states, the items the list holds) when they differ; `walk` gives
    the list's other pages (None or none: not walked whole)."""
    claim = own_count(page, parse)
    if claim is None:
        return []
    others = walk()
    if not others:
        return []
    lists = [content_lists(p) for p in (page, *others)]
    # the list is on this page and on another, and its items change; a page without it (the last,
    # holding one item: a run of one is no list to `content_lists`) may add one item at most
    changing = [k for k in lists[0] if any(k in other and other[k] != lists[0][k] for other in lists[1:])]
    if len(changing) != 1:
        return []
    key = changing[0]
    items = [frozenset(i) for other in lists if key in other for i in other[key]]
    if not all(items):
        return []
    holder, shown = claim
    listed, unread = len(set(items)), sum(1 for other in lists if key not in other)
    if listed <= shown <= len(items) + unread:
        return []
    return [(holder, shown, listed)]


def _place(page: FetchedPage, url: str) -> str | None:
    """The place on this page a link leads to (its fragment), or None when it leads elsewhere."""
    here, there = urlsplit(page.url), urlsplit(url)
    same = (here.scheme, here.netloc, here.path, here.query) == (
        there.scheme,
        there.netloc,
        there.path,
        there.query,
    )
    return there.fragment or None if same else None


def anchored_mismatch(
    page: FetchedPage, parse: Callable[[str], tuple[str, int] | None]
) -> list[tuple[Node, int, int]]:
    """(the link, the count it states, the items listed) for each link whose whole text is a count and
    which leads to a place on this page labelling a list that holds another number of items."""
    doc, base = page.document, base_url(page)
    links: list[tuple[Node, str, int]] = []
    for node, href in targets(doc):
        # the fragment is the place: joined as a browser joins it (`resolve` drops it)
        place = _place(page, urljoin(base, href.strip())) if node.tag == "a" and "#" in href else None
        parsed = parse(" ".join(node.text().split())) if place is not None else None
        if place is not None and parsed is not None:
            links.append((node, place, parsed[1]))
    if not links or has_pagination(page):
        # the whole tree is searched for places only when a count link leads to one; a list shown in
        # part is not counted whole here. Asked after the links: most pages have none, and whether a
        # page is paged is a dearer reading (its pagers, its other pages)
        return []
    places: dict[str, Node] = {}
    for node in doc.iter():
        key = node.get("id") or (node.get("name") if node.tag == "a" else "")
        if key and key not in places:
            places[key] = node
    found = []
    for node, place, shown in links:
        items = labelled_list(places[place]) if place in places else None
        if not items:
            continue
        records = [i for i in items if i.text().strip() or i.elements]
        if shown not in (len(records), _with_nested(records)):
            found.append((node, shown, len(records)))
    return found
