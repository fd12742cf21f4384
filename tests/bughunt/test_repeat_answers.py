"""A form whose answer repeats a page already visited is not submitted again for progress
(`bughunt.sim.repeat_answers`, issue 25's "clicks that learn"), on a small blog written here."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from bughunt.sim.repeat_answers import RepeatAnswers, form_key
from tests.support.loopback import QuietHandler, serving
from tests.support.walks import planner_walk

# A search box without an action in the chrome of every page: it is sent to the page it sits on,
# and the site redirects every such request to one results page.
SEARCH = '<form method="get"><input type="text" name="search"><button>Search</button></form>'
SHAPES = (
    "p",
    "table",
    "section",
    "blockquote",
    "pre",
    "aside",
    "dl",
    "ol",
    "figure",
    "details",
    "address",
    "h3",
)
POSTS = [f"/post/{i}-{shape}" for i, shape in enumerate(SHAPES)]
TAGS = [f"/tag/{t}" for t in ("red", "green", "blue", "amber")]


def _page(*hrefs: str, body: str = "") -> str:
    links = "".join(f'<li><a href="{h}">{h}</a></li>' for h in hrefs)
    return f"<html><head><title>t</title></head><body>{SEARCH}<ul>{links}</ul>{body}</body></html>"


def _pages() -> dict[str, str]:
    pages = {"/": _page(*POSTS[:3], "/archive")}
    pages["/archive"] = _page(*POSTS, *TAGS)
    # the posts' and tags' data differs (so does their markup): every one is worth a visit
    for i, post in enumerate(POSTS):
        # each post links the next one and a tag: one more page of a kind already seen, each time
        body = f"<{SHAPES[i]}>{post}</{SHAPES[i]}>"
        pages[post] = _page("/", POSTS[(i + 1) % len(POSTS)], TAGS[i % len(TAGS)], body=body)
    for i, tag in enumerate(TAGS):
        pages[tag] = _page("/", *POSTS[:2], body=f"<{SHAPES[-i - 1]}>{tag}</{SHAPES[-i - 1]}>")
    pages["/search/results"] = _page("/", body="<h2>Results</h2>")
    return pages


class _Blog(QuietHandler):
    pages: dict[str, str] = {}

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        url = urlsplit(self.path)
        if dict(parse_qsl(url.query)).get("search") is not None:
            self.send_response(302)
            self.send_header("Location", "/search/results")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = type(self).pages.get(url.path)
        self.reply(200 if body else 404, body or "<html><body>no</body></html>")


def _walk(url: str, store_dir: Path, budget: int, seed: int) -> list[tuple[str, str | None]]:
    return planner_walk(url, store_dir, budget, seed)


def test_a_form_is_known_by_where_it_sends_and_the_fields_it_fills():
    # a form without an action, on two pages: the same form
    assert form_key("/post/a", "/post/a?search=x") == form_key("/tag/b?page=2", "/tag/b?search=x")
    # the page's own query kept by the submission is not the form's
    assert form_key("/list?type=v", "/list?type=v&search=x") == ("", ("search",))
    # a form with an action of its own is another form than one sent to the page itself
    assert form_key("/post/a", "/find?search=x") == ("/find", ("search",))
    answers = RepeatAnswers()
    answers.offered("/post/a", {"/post/a?search=x", "/post/a?lang=de"})
    answers.offered("/post/b", {"/post/b?search=x"})
    assert answers.spent() == frozenset()
    answers.answered_again("/post/a?search=x")
    answers.offered("/post/c", {"/post/c?search=x"})
    assert answers.spent() == {"/post/a?search=x", "/post/b?search=x", "/post/c?search=x"}


def test_a_search_box_that_answers_one_results_page_is_not_submitted_from_every_page(tmp_path):
    # Before: once the pages' kinds were sampled, every further page's own search submission (one
    # more "link" of each page) was taken beside it, and each answered the results page again.
    with serving(type("Handler", (_Blog,), {"pages": _pages()})) as url:
        for seed in range(1000, 1006):
            walk = _walk(url + "/", tmp_path / f"s{seed}", budget=36, seed=seed)
            seen: set[str] = set()
            left = set(POSTS) | set(TAGS)
            again = 0
            for route, final in walk[1:]:
                # a submission that answered a page already seen while pages not seen were left
                again += "search=" in route and (final or route) in seen and bool(left)
                seen.add(final or route)
                left.discard(final or route)
            assert not left, f"every post and tag seen: {walk}"
            assert again <= 1, f"the search form submitted again after answering a page seen: {walk}"
