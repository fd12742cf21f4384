"""The baseline of `benchmarks.scale`: a bare crawl of given URLs, fetched and parsed in a plain loop.

What any crawler pays per page — an HTTP GET over one kept-alive connection (httpx), a parse
(selectolax's lexbor, the parser BugHunt uses) and the page's links resolved — with nothing
remembered, checked or planned. The explorer's CPU per click divided by this CPU per page is the
overhead of exploring over crawling, a ratio that means the same on a fast and a slow machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urljoin

import httpx
from selectolax.lexbor import LexborHTMLParser


@dataclass(frozen=True, slots=True)
class Crawl:
    pages: int
    links: int
    """Links found on all pages (resolved; a check that the parse did its work)."""
    cpu_s: float
    """CPU time of the crawling thread (the site's server runs in another process)."""

    @property
    def cpu_ms_per_page(self) -> float:
        return 1000 * self.cpu_s / self.pages if self.pages else 0.0


def crawl(
    base_url: str,
    routes: Iterable[str],
    timeout: float = 10.0,
    *,
    prepare: Callable[[httpx.Client], object] | None = None,
    pause_s: float = 0.0,
) -> Crawl:
    """GET each `base_url + route` in order, parse it and resolve its links; error answers count too
    (the explorer fetched them as well). `prepare` (a login) runs on the client first, not timed.
    `pause_s`: idle that long before each request (a sleep: no CPU of its own), as a client that does
    other work between its requests does (`benchmarks.overhead`, the paced loop)."""
    pages = links = 0
    with httpx.Client(timeout=timeout, follow_redirects=False) as client:
        if prepare is not None:
            prepare(client)
        start = time.thread_time()
        for route in routes:
            if pause_s > 0:
                time.sleep(pause_s)
            url = base_url.rstrip("/") + route
            response = client.get(url)
            tree = LexborHTMLParser(response.text)
            links += sum(1 for a in tree.css("a[href]") if urljoin(url, a.attributes.get("href") or ""))
            pages += 1
        cpu = time.thread_time() - start
    return Crawl(pages, links, cpu)


def form_login(client: httpx.Client, login_url: str, username: str, password: str) -> None:
    """What any scripted login does: GET the page, fill its password form (hidden fields kept), POST it."""
    page = client.get(login_url)
    form = next(
        (f for f in LexborHTMLParser(page.text).css("form") if f.css_first("input[type=password]")), None
    )
    if form is None:
        raise SystemExit(f"error: no login form at {login_url}")
    fields: dict[str, str] = {}
    for field in form.css("input[name]"):
        name, kind = field.attributes.get("name") or "", (field.attributes.get("type") or "text").lower()
        if kind == "password":
            fields[name] = password
        elif kind in ("text", "email"):
            fields[name] = username
        elif kind == "hidden":
            fields[name] = field.attributes.get("value") or ""
    answer = client.post(urljoin(login_url, form.attributes.get("action") or login_url), data=fields)
    if answer.status_code >= 400:
        raise SystemExit(f"error: the bare loop's login at {login_url} answered HTTP {answer.status_code}")
