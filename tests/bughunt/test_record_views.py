"""A record's page addressed by its query is a page type, not one more view of its list (issue 25,
`bughunt.sim.record_views`): on a site that routes by query keys alone (every page at `/`, the page named
by a key: `?select=items`, `?edit=items&where[id]=3`), the planner opens a listed row's edit page as soon
as it is on the list, instead of after every other key set of `/`."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from bughunt.cli import main
from bughunt.sim.record_views import names_a_record, record_keys
from bughunt.sim.template_sampling import QueryViews
from tests.support.loopback import QuietHandler, serving

_TOOLS = ("table", "dump", "sql", "import")
"""Pages of the tool named by a key of their own: each a new key set of `/`."""
_LISTS = ("items", "orders", "people", "places", "notes", "tags")


def _nav() -> str:
    tools = "".join(f'<li><a href="/?{k}=">{k.title()}</a></li>' for k in _TOOLS)
    return tools + "".join(f'<li><a href="/?select={name}">{name.title()}</a></li>' for name in _LISTS)


def _list(name: str) -> str:
    rows = "".join(
        f'<tr><td><a href="/?edit={name}&amp;where%5Bid%5D={i}">edit</a></td><td>Row {i}</td><td>{i * 7}</td></tr>'
        for i in range(1, 9)
    )
    return (
        f'<h1>Select: {name}</h1><p><a href="/?select={name}&amp;order=name">sort by name</a></p>'
        f"<table><tr><th></th><th>name</th><th>price</th></tr>{rows}</table>"
    )


class _Handler(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 — the http.server API
        query = self.path.partition("?")[2]
        if query.startswith("edit="):
            body = '<h1>Edit</h1><form method="post"><input name="name" value="Item"><button>Save</button></form>'
        elif query.startswith("select=") and query[7:] in _LISTS:
            body = _list(query[7:])
        elif self.path in ("/", "/?") or any(query.startswith(f"{k}=") for k in _TOOLS):
            body = f"<h1>{query or 'Home'}</h1><p>Tool page.</p>"
        else:
            self.send_error(404)
            return
        self.reply(200, f"<!doctype html><html><body><ul>{_nav()}</ul>{body}</body></html>")


@pytest.fixture
def site() -> Iterator[str]:
    with serving(_Handler) as url:
        yield url


def test_a_listed_rows_edit_page_is_opened_before_the_other_key_sets_of_the_path(site, tmp_path, capsys):
    # Home, a tool's page and the first list are three views of `/`; the rows' edit page (a new page
    # type) is opened from the list it is on, not left for a trip back after the other lists.
    argv = ["explore", "--url", site + "/", "--store", str(tmp_path / "s"), "--budget", "8"]
    assert main([*argv, "--ignore-robots", "--policy", "planner", "--json"]) in (0, 3)
    visited = json.loads(capsys.readouterr().out)["pages_visited"]
    first_list = next(i for i, p in enumerate(visited) if "select=" in p)
    name = visited[first_list].rpartition("=")[2]
    assert visited[first_list + 1].startswith(f"/?edit={name}&"), visited


def test_record_keys_are_numbers_under_identifier_keys() -> None:
    assert record_keys("/?edit=<slug>&where%5Bid%5D=<n>") == {"where%5Bid%5D"}
    assert record_keys("/x.php?id=<id>&page=<n>&offset=<n>&limit=<n>&per_page=<n>") == {"id"}
    assert record_keys("/?select=<slug>&order=<slug>") == frozenset()


def test_a_number_key_a_visited_view_carried_is_a_filter_value_again() -> None:
    covered = {"/?select=<slug>": 1, "/?select=<slug>&author=<n>": 1, "/?table=<slug>": 1, "/?dump=<slug>": 1}
    views = QueryViews(covered)
    # a new key set with a key the path's views never carried: a record's page, sampled (None)
    assert views.level("/?edit=<slug>&where%5Bid%5D=<n>", 0, 2) is None
    # a new combination with the filter key seen before: one more view, it waits
    assert views.level("/?author=<n>&order=<slug>&select=<slug>", 0, 2) == 2
    assert not names_a_record("/?author=<n>&x=<slug>", frozenset({"author", "x"}), [frozenset({"author"})])


def test_a_number_under_a_key_that_is_no_identifier_is_no_record() -> None:
    # `?order=priority&desc=1`: a sort link's direction; `daysback=30`: a period; one more view each
    assert record_keys("/query?component=<slug>&desc=<n>&order=<slug>") == frozenset()
    assert record_keys("/?select=<slug>&desc%5B0%5D=<n>&order%5B0%5D=<slug>") == frozenset()
    assert record_keys("/report?asc=<n>&sort=<slug>&id=<n>") == {"id"}
    assert record_keys("/timeline?authors=<slug>&daysback=<n>") == frozenset()
    assert record_keys("/?controller=<slug>&task_id=<n>&pid=<n>") == {"task_id", "pid"}
