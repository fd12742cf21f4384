""" "Fixed" supersedes "open" only when the check that found the bug ran again: the same route's
inspection, judged in full for the bug's kind, and not a one-off probe (the refused login)."""

from __future__ import annotations

import pytest

from bughunt.explorer.engine import FetchResult
from bughunt.explorer.graph import ExplorationGraph, StepWrite
from bughunt.explorer.store import ExplorerStore
from bughunt.oracles import Finding, judge_page
from bughunt.page import FetchedPage

HTML = "<html><body><main><p>a page</p></main></body></html>"


def _step(store, route, findings, *, version="1.2", now=100.0, judged=None):
    page = FetchedPage(f"http://h{route}", route, 200, {}, "text/html", HTML, 1.0)
    result = FetchResult("page", route, f"http://h{route}", page=page, final_route=route, status=200)
    extra = {} if judged is None else {"judged": judged}
    return ExplorationGraph(store).write_step(
        StepWrite(1, route, result, route, now, links=["/"], findings=findings, version=version, **extra)
    )


def _status(store, fingerprint):
    return next(b.status for b in store.bug_table.live() if b.fingerprint == fingerprint)


ERR = Finding(
    "server_error", "/search/2", "HTTP 500: KeyError 'q'", {"url": "http://h/search/2", "status": 500}
)
LOGIN = Finding(
    "form_drops_value", "/login", "a refused form comes back without the values typed in it",
    {"url": "http://h/login", "status": 200, "field": "username", "probe": "refused_login"},
)  # fmt: skip


@pytest.fixture
def store(tmp_path):
    s = ExplorerStore(tmp_path / "s")
    s.history.start_session("planner", "http://h", 30)
    yield s
    s.close()


def test_a_full_inspection_that_no_longer_finds_it_marks_it_fixed(store):
    _step(store, "/search/2", [ERR])
    assert _step(store, "/search/2", [], version="1.3").fixed == [ERR.fingerprint]


def test_an_incomplete_inspection_says_nothing(store):
    _step(store, "/search/2", [ERR])
    out = _step(store, "/search/2", [], version="1.3", judged=frozenset())
    assert out.fixed == [] and _status(store, ERR.fingerprint) == "open"
    # judged for other kinds only: the server error's check did not judge
    out = _step(store, "/search/2", [], version="1.3", judged=frozenset({"count_mismatch"}))
    assert out.fixed == [] and _status(store, ERR.fingerprint) == "open"


def test_a_probe_finding_is_not_fixed_by_a_visit(store):
    _step(store, "/login", [LOGIN])
    out = _step(store, "/login", [], version="1.2", now=200.0)
    assert out.fixed == [] and _status(store, LOGIN.fingerprint) == "open"


def test_a_bug_found_from_another_page_is_not_fixed_by_a_visit_of_its_route(store):
    # a count checked on a list page against the record page it links to: the record page's own
    # inspection does not compare the two
    found_on_list = Finding(
        "count_mismatch", "/topics/7", "the list says 3, the record shows 2", {"url": "http://h/topics/7"}
    )
    _step(store, "/topics", [found_on_list])
    out = _step(store, "/topics/7", [], now=200.0)
    assert out.fixed == [] and _status(store, found_on_list.fingerprint) == "open"


PAGER = (
    "<html><body><ul>{items}</ul><nav class='pagination'><a href='/list?page=1'>1</a>"
    "<a href='/list?page=2'>2</a><a href='/list?page=3'>3</a></nav></body></html>"
)


def test_a_judgement_is_incomplete_when_an_oracle_could_not_fetch_what_it_asked_for():
    items = "".join(f"<li><a href='/item/{i}'>Item {i}</a></li>" for i in range(11, 21))
    page = FetchedPage(
        "http://h/list?page=2", "/list?page=2", 200, {}, "text/html", PAGER.format(items=items), 1.0
    )
    asked: list[str] = []

    def down(url: str) -> FetchedPage:
        asked.append(url)
        raise ConnectionError(f"no answer from {url}")

    judged = judge_page(page, down)
    assert asked, "the pagination oracle asks for the page before"
    assert judged.findings == [] and judged.complete is False

    def up(url: str) -> FetchedPage:
        items = "".join(f"<li><a href='/item/{i}'>Item {i}</a></li>" for i in range(1, 11))
        return FetchedPage(url, "/list?page=1", 200, {}, "text/html", PAGER.format(items=items), 1.0)

    assert judge_page(page, up).complete is True
