"""Addresses: origins, canonical routes (how pages are named in memory) and resolving links.

Pure functions of strings, cached where a site repeats the same links on every page.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import quote, urldefrag, urljoin, urlsplit


@lru_cache(maxsize=8192)
def origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower()


@lru_cache(maxsize=64)
def _origin_prefix(base: str) -> str:
    parts = urlsplit(base)
    return f"{parts.scheme}://{parts.netloc}"


def same_origin(a: str, b: str) -> bool:
    prefix = _origin_prefix(b)
    if a.startswith(prefix) and a[len(prefix) : len(prefix) + 1] in ("", "/", "?", "#"):
        return True  # spelled as b's own origin: no parse (a page of 100,000 links asks for each)
    return origin(a) == origin(b)


MAX_ROUTE_CHARS = 2048
"""Routes are names in trusted memory: a longer one is not followed (`HttpEngine.route_of` gives None),
nor kept in the link table (`templates.safe_route`). Long enough for the pager links of applications
that carry their whole search in the query (a ticket tracker's column format and query, ~1,000
characters once encoded); bounded so that a page cannot make memory hold an unbounded name."""
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# Raw in a canonical route: unreserved characters and the delimiters that structure a path or query.
# Everything else (spaces, commas, quotes, non-ASCII, controls) is percent-encoded.
_PATH_KEEP = re.compile(r"%([0-9A-Fa-f]{2})|([^A-Za-z0-9\-._~/:@!$&()*+;=])")
_QUERY_KEEP = re.compile(r"%([0-9A-Fa-f]{2})|([^A-Za-z0-9\-._~/:@!$&()*+;=?])")


def _canonical(part: str, pattern: re.Pattern[str]) -> str:
    def fix(match: re.Match[str]) -> str:
        if match.group(1) is not None:
            char = chr(int(match.group(1), 16))
            return char if char in _UNRESERVED else "%" + match.group(1).upper()
        return quote(match.group(2), safe="", errors="surrogatepass")

    return pattern.sub(fix, part)


def route_of(url: str, *, hash_routes: bool = False) -> str:
    """Path plus query of a URL, canonically percent-encoded: how pages are named in memory
    (`/search/2`, `/list?page=3`, `/px/a%20b%2Cc`). Equivalent spellings (`%7e`, `~`) give one route.
    With `hash_routes` (the browser engine), a hash route is kept: `/#/article/x` (but for the root
    route `#/`, which is the document's own route)."""
    parts = urlsplit(url)
    path = _canonical(parts.path or "/", _PATH_KEEP)
    route = path + (f"?{_canonical(parts.query, _QUERY_KEEP)}" if parts.query else "")
    if hash_routes and page_of_its_own(parts.fragment):
        route += "#" + _canonical(parts.fragment, _QUERY_KEEP)
    return route


def canonical_fragment(fragment: str) -> str:
    """A URL's fragment as routes keep it (`route_of`'s encoding of a hash route)."""
    return _canonical(fragment, _QUERY_KEEP)


def bounded_route(url: str, *, hash_routes: bool = False) -> str:
    """`route_of(url)` cut to at most `MAX_ROUTE_CHARS` (never inside a %XX escape): the name of a page
    whose address is too long to follow (a `history.replaceState` loop makes one of 300,000
    characters), so what a page is called is bounded wherever its URL came from."""
    route = route_of(url[: MAX_ROUTE_CHARS * 4], hash_routes=hash_routes)  # escapes triple at most
    if len(route) <= MAX_ROUTE_CHARS:
        return route
    cut = route[:MAX_ROUTE_CHARS]
    escape = cut.rfind("%", len(cut) - 2)
    return cut[:escape] if escape >= 0 else cut


def hash_route(fragment: str) -> bool:
    """True for the fragment of a hash-routed single-page app (`#/article/x`, `#!/tag/y`): a page, not
    a place on one."""
    return fragment.startswith(("/", "!/"))


def page_of_its_own(fragment: str) -> bool:
    """A hash route that names a page other than its document's: not the root route `#/` (`#!/`),
    which a hash router draws for the document with no hash too — `/admin#/` and `/admin` are one page
    (named apart, a React admin's every control was clicked on both: corpus ho9_jupyterhub)."""
    return hash_route(fragment) and fragment.removeprefix("!") != "/"


_TEMPLATE = re.compile(r"\{[^{}]*\}|%7[Bb](?:(?!%7[Dd]).)*%7[Dd]")


def url_template(href: str) -> bool:
    """An href that is a URL template, not an address: `{id}`/`{{ slug }}` placeholders (raw or as
    `%7B…%7D`) that a script fills in before it requests (HTMX path parameters, a client-side
    template read before it rendered). Fetched as it stands it names no page."""
    return ("{" in href or "%7" in href) and _TEMPLATE.search(href) is not None


_ROOTED = re.compile(r"/(?![/\\.])(?:(?![\s\\;]|/\.|%2[eE]|\?(?:#|\Z)).)*\Z", re.DOTALL)


@lru_cache(maxsize=8192)  # pure; a site repeats the same links on every page (urljoin is most of it)
def absolute(base: str, href: str) -> str | None:
    """Resolve `href` against `base`, dropping the fragment unless it is a hash route (`#/…`); None for
    non-HTTP schemes and URL templates (`url_template`). A bare fragment (`#`, `#top`) is `base`
    itself, its hash route kept."""
    href = href.strip()
    if not href or href.lower().startswith(("javascript:", "mailto:", "tel:", "data:")) or url_template(href):
        return None
    if _ROOTED.match(href) and base.startswith(("http://", "https://")):
        # A root-relative href without dot segments, backslashes or spaces resolves to the base's
        # origin plus itself (what urljoin gives, at a quarter of its cost: a page of 100,000 links).
        url, _, fragment = href.partition("#")
        return _origin_prefix(base) + url + (f"#{fragment}" if hash_route(fragment) else "")
    if href.startswith("#") and not hash_route(href[1:]):
        # A place on this document (`#`, `#top`) is the document itself: on a hash-routed page
        # (`/#/movie/`) that is its route, not the app's root, which resolving would give.
        href = base
    url, fragment = urldefrag(urljoin(base, href))
    if urlsplit(url).scheme not in ("http", "https"):
        return None
    return f"{url}#{fragment}" if hash_route(fragment) else url
