"""One bug per root cause across the addresses of one thing (`explorer.inspection.same_root_cause`):
a page of a tree addressed by its identifier, two views of one record, one control drawn by one
template on several collections' lists. Imaginary routes and markup, no application's."""

from __future__ import annotations

import json

from bughunt.explorer.inspection import same_root_cause
from bughunt.explorer.record_views import same_record
from bughunt.explorer.store import Bug
from bughunt.explorer.tree_views import tree_template
from bughunt.fingerprint import route_shape
from bughunt.oracles import ORACLES, Finding
from bughunt.oracles.counts import check_count_mismatch
from bughunt.oracles.destructive import check_unconfirmed_destructive
from bughunt.oracles.forms import check_form_drops_value
from bughunt.oracles.server_error import check_server_error
from bughunt.page import FetchedPage
from bughunt.urls import route_of
from tests.support.pages import Fetcher, not_found

ORIGIN = "http://shop.test"


def page(path: str, body: str, status: int = 200) -> FetchedPage:
    html = f"<!doctype html><html><head><title>t</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), status, {}, "text/html", html, 1.0)


def _page(body: str, path: str, status: int) -> FetchedPage:
    return page(path, body, status)


missing = not_found(_page)


def as_bug(finding: Finding, fingerprint: str = "") -> Bug:
    """The bug entry the harness would write: page text quarantined, only the facts stored."""
    facts = {k: v for k, v in finding.evidence.items() if not isinstance(v, str)}
    return Bug(
        1, fingerprint or finding.fingerprint, finding.route, finding.kind, finding.message, json.dumps(facts),
        "open", None, 0.0, 1, None,
    )  # fmt: skip


def crash(path: str, line: str) -> Finding:
    [found] = check_server_error(page(path, f"<h1>Server Error</h1><pre>Traceback\n{line}</pre>", 500))
    return found


# -- a page of a tree addressed by its identifier ------------------------------------------------


def test_a_tree_page_addressed_by_its_identifier_shows_the_same_marked_view():
    by_id, by_path = route_shape("/42/log/"), route_shape("/garden/herbs/_log/")
    assert tree_template(by_id, by_path) == tree_template(by_path, by_id) == "/**/_log/"
    assert tree_template(route_shape("/42/edit/"), by_path) is None  # another view
    assert tree_template(route_shape("/user/42/log/"), by_path) is None  # not a page addressed by id
    assert tree_template(route_shape("/42/log/"), route_shape("/43/log/")) is None  # one shape already


def test_one_error_on_a_view_by_id_and_by_path_is_one_bug():
    first = crash("/42/log/", "AttributeError: 'NoneType' object has no attribute 'name'")
    again = crash("/garden/herbs/_log/", "AttributeError: 'NoneType' object has no attribute 'name'")
    other = crash("/garden/herbs/_log/", "KeyError: 'when'")
    assert first.fingerprint != again.fingerprint  # alone, each page reads its own shape
    [joined] = same_root_cause([again], [as_bug(first)])
    assert joined.fingerprint == first.fingerprint and joined.route == "/garden/herbs/_log/"
    assert same_root_cause([other], [as_bug(first)]) == [other]  # another error is another bug


# -- two views of one record ------------------------------------------------------------------


def test_two_views_of_one_record_are_told_by_its_identifier_or_its_page_path():
    assert same_record("/teams/show/3", "/teams/edit/3?tab=members")
    assert same_record("/post/28/", "/post/28/update/")
    assert same_record("/guides/setup/_edit/", "/guides/setup/_section/part-one-a/")
    assert not same_record("/teams/show/3", "/teams/edit/4")  # another record
    assert not same_record("/teams/show/3", "/people/show/3")  # another collection
    assert not same_record("/post/28/", "/post/28/comment/5/")  # a record inside it
    assert not same_record("/guides/setup/_edit/", "/guides/_edit/")  # another page of the tree
    assert not same_record("/teams/show/3", "/teams/show/3?page=2")  # the same view


def related(path: str, total: int, rows: int) -> FetchedPage:
    """A record's page with its related list under a count, as a show and an edit view both draw it."""
    body = "".join(f'<tr><td><a href="/people/show/{i}">Person {i}</a></td></tr>' for i in range(rows))
    return page(
        path,
        f'<form method="post"><input name="name" value="Team"></form>'
        f'<div class="bar"><strong>Record Count:</strong> {total}</div>'
        f'<div class="wrap"><table class="table"><tr><th>Name</th></tr>{body}</table></div>',
    )


def test_one_count_on_two_views_of_one_record_is_one_bug_and_another_record_joins_through_its_view():
    [on_show] = check_count_mismatch(related("/teams/show/3", 70, 4))
    [on_edit] = check_count_mismatch(related("/teams/edit/3", 70, 4))
    [other_count] = check_count_mismatch(related("/teams/edit/3", 71, 4))
    assert on_show.fingerprint != on_edit.fingerprint  # `/teams/show/<n>`, `/teams/edit/<n>`: two shapes
    [joined] = same_root_cause([on_edit], [as_bug(on_show)])
    assert joined.fingerprint == on_show.fingerprint
    assert same_root_cause([other_count], [as_bug(on_show)]) == [other_count]  # saw another count
    # The bug was seen on team 5's show page too: team 5's edit page is that record's other view.
    [on_edit_5] = check_count_mismatch(related("/teams/edit/5", 70, 4))
    [later] = same_root_cause([on_edit_5], [as_bug(on_show)], {on_show.fingerprint: ["/teams/show/5"]})
    assert later.fingerprint == on_show.fingerprint
    assert same_root_cause([on_edit_5], [as_bug(on_show)]) == [on_edit_5]  # without that occurrence


def form_page(path: str) -> FetchedPage:
    return page(
        path,
        '<form method="post"><label for="t">Title</label><input id="t" name="title" type="text">'
        '<label for="b">Body</label><input id="b" name="body" type="text" value="Hello there">'
        '<button type="submit">Save</button></form><a href="/guides/setup/">Back</a>',
    )


def test_the_same_field_dropped_on_a_pages_editor_and_its_section_editor_is_one_bug():
    resource = page(
        "/guides/setup/", "<dl><dt>Title</dt><dd>Setup</dd><dt>Body</dt><dd>Hello there</dd></dl>"
    )
    [whole] = check_form_drops_value(form_page("/guides/setup/_edit/"), Fetcher(resource, missing=missing))
    [section] = check_form_drops_value(
        form_page("/guides/setup/_section/part-one-a/"), Fetcher(resource, missing=missing)
    )
    assert (
        whole.fingerprint != section.fingerprint
        and whole.evidence["fields_key"] == section.evidence["fields_key"]
    )
    [joined] = same_root_cause([section], [as_bug(whole)])
    assert joined.fingerprint == whole.fingerprint
    # Another page's section editor joins through the section editor seen before (one marked view).
    [elsewhere] = check_form_drops_value(
        form_page("/guides/intro/_section/part-two-b/"), Fetcher(resource, missing=missing)
    )
    routes = {whole.fingerprint: ["/guides/setup/_edit/", "/guides/setup/_section/part-one-a/"]}
    assert same_root_cause([elsewhere], [as_bug(whole)], routes)[0].fingerprint == whole.fingerprint


def test_one_form_dropping_the_same_field_on_unrelated_routes_is_one_bug():
    """The root page's section editor (`/_section/…`) is no view of `/guides/setup/_edit/` in any
    tree, yet it renders the same form dropping the same field: one form class, one bug. A form with
    other fields dropping a field of that name is another."""
    resource = page(
        "/guides/setup/", "<dl><dt>Title</dt><dd>Setup</dd><dt>Body</dt><dd>Hello there</dd></dl>"
    )
    fetch = Fetcher(resource, missing=missing)
    [whole] = check_form_drops_value(form_page("/guides/setup/_edit/"), fetch)
    [root_section] = check_form_drops_value(form_page("/_section/part-one-a/"), fetch)
    [joined] = same_root_cause([root_section], [as_bug(whole)])
    assert joined.fingerprint == whole.fingerprint and joined.route == "/_section/part-one-a/"
    other_form = page(
        "/settings/profile/",
        '<form method="post"><label for="t">Title</label><input id="t" name="title" type="text">'
        '<label for="n">Nickname</label><input id="n" name="nickname" type="text" value="Hello there">'
        '<button type="submit">Save</button></form><a href="/guides/setup/">Back</a>',
    )
    [other] = check_form_drops_value(other_form, fetch)
    assert other.evidence["fields_key"] == whole.evidence["fields_key"]
    assert same_root_cause([other], [as_bug(whole)]) == [other]


# -- one control drawn by one template ------------------------------------------------------------


def listing(
    path: str, collection: str, markup: str = 'class="btn btn-sm btn-danger" data-row="x"'
) -> FetchedPage:
    rows = "".join(
        f'<tr><td>Row {i}</td><td><a {markup} href="/{collection}/delete/{i}">Delete</a></td></tr>'
        for i in (1, 2)
    )
    return page(path, f"<table>{rows}</table>")


def test_one_delete_control_drawn_on_every_collections_list_is_one_bug():
    [teams] = check_unconfirmed_destructive(listing("/teams/list/", "teams"))[:1]
    [people] = check_unconfirmed_destructive(listing("/people/list/", "people"))[:1]
    [hand_made] = check_unconfirmed_destructive(listing("/notes/", "notes", 'class="small"'))[:1]
    assert teams.fingerprint != people.fingerprint
    [joined] = same_root_cause([people], [as_bug(teams)])
    assert joined.fingerprint == teams.fingerprint and joined.route == "/people/delete/1"
    assert same_root_cause([hand_made], [as_bug(teams)]) == [hand_made]  # drawn otherwise
    # In one batch (one page listing both) the second joins the first.
    both = same_root_cause([teams, people], [])
    assert {f.fingerprint for f in both} == {teams.fingerprint}


def test_a_related_lists_delete_naming_the_number_of_the_page_it_is_on_is_still_that_template():
    """A group's page (`/groups/show/2`) lists its contacts with the list macro's Delete: contact 2
    has the group's number by chance, and is still a record of the contacts' template, one bug with
    the groups' list's Delete, as contact 3 is."""
    [groups] = check_unconfirmed_destructive(listing("/groups/list/", "groups"))[:1]
    related = check_unconfirmed_destructive(listing("/groups/show/2", "contacts"))
    assert [f.route for f in related] == ["/contacts/delete/1", "/contacts/delete/2"]
    assert len({f.evidence["control_key"] for f in [groups, *related]}) == 1
    assert {f.fingerprint for f in same_root_cause(related, [as_bug(groups)])} == {groups.fingerprint}


def test_memory_gives_a_bugs_first_routes_in_the_order_they_were_seen(tmp_path):
    from bughunt.explorer.graph import ExplorationGraph
    from bughunt.explorer.store import ExplorerStore

    store = ExplorerStore(tmp_path / "s")
    try:
        for step, route in enumerate(["/teams/show/3", "/teams/show/5", "/teams/edit/3", "/teams/show/3"], 1):
            store.bug_table.add_occurrence("a" * 16, route, step)
        store.bug_table.add_occurrence("b" * 16, "/elsewhere", 1)
        graph = ExplorationGraph(store)
        assert graph.bug_routes(["a" * 16], 2) == {"a" * 16: ["/teams/show/3", "/teams/show/5"]}
        assert graph.bug_routes(["a" * 16, "c" * 16], 9) == {
            "a" * 16: ["/teams/show/3", "/teams/show/5", "/teams/edit/3"],
            "c" * 16: [],
        }
    finally:
        store.close()


def test_records_named_by_class_and_number_in_one_word_are_one_template():
    """`/issue17` and `/issue18` (a tracker's designators: the class and the record's number in one
    word) are two records of one template, as `/issue/17` and `/issue/18` are: a count wrong on every
    issue page is one bug, not one per issue. Words that merely hold a digit stay words."""
    a = Finding("count_mismatch", "/issue17", "count label disagrees with the list it labels")
    b = Finding("count_mismatch", "/issue18", "count label disagrees with the list it labels")
    assert a.shape == b.shape == "/issue<n>" and a.fingerprint == b.fingerprint
    assert route_shape("/file32/steps.txt") == route_shape("/file7/steps.txt") == "/file<n>/steps.txt"
    assert route_shape("/msg3") != route_shape("/issue3")  # another class is another template
    for word in ("/v2", "/h1", "/2fa", "/k2p9"):
        assert route_shape(word) == word


# -- one list template paged wrong under two views of one collection ------------------------------------


def _marks(path: str, number: int, first: int, numbered: bool = False) -> FetchedPage:
    items = "".join(
        f'<li class="mark"><a href="https://site{n}.example/">Site {n} reading list</a>'
        f'<div class="actions"><a href="{path}?details={n}">View</a></div></li>'
        for n in range(first, first + 4)
    )
    pager = "".join(f'<li><a href="{path}?page={n}">{n}</a></li>' for n in (1, 2, 3) if n != number)
    query = f"?page={number}" if number > 1 or numbered else ""
    return page(
        path + query, f'<main><ul class="marks">{items}</ul><ul class="pagination">{pager}</ul></main>'
    )


def repeated_item(path: str, start: int = 4) -> Finding:
    first, second = _marks(path, 1, 1), _marks(path, 2, start)  # page 2 starts with page 1's last item
    alias = _marks(path, 1, 1, numbered=True)  # the pager's link back to page 1
    [found] = ORACLES["duplicate_pagination"](second, Fetcher(first, alias, second, missing=missing))
    return found


def test_one_list_template_paged_wrong_under_two_views_of_one_collection_is_one_bug():
    mine, shared = repeated_item("/marks"), repeated_item("/marks/shared")
    assert mine.fingerprint != shared.fingerprint  # alone, each page reads its own shape
    [joined] = same_root_cause([shared], [as_bug(mine)])
    assert joined.fingerprint == mine.fingerprint and joined.route == "/marks/shared?page=2"


def test_lists_carrying_as_many_items_over_the_page_boundary_are_one_bug_on_any_route():
    # Another collection's list whose page 2 also opens with page 1's last item, under the same page
    # key: the site's one slicing helper (a blog's front, tag, category and author lists), one bug.
    mine, people = repeated_item("/marks"), repeated_item("/people")
    [joined] = same_root_cause([people], [as_bug(mine)])
    assert joined.fingerprint == mine.fingerprint and joined.route == "/people?page=2"
    # page 2 opening with page 1's last two items is another off-by-something: another bug
    two = repeated_item("/people", start=3)
    assert same_root_cause([two], [as_bug(mine)]) == [two]


# -- one view at its pretty address and at its query-routed one -------------------------------------------


def miscount(path: str) -> Finding:
    rows = "".join(f'<li class="task"><a href="/task/{n}">Task {n} of the plan</a></li>' for n in range(1, 5))
    [found] = check_count_mismatch(page(path, f'<main><h2>5 tasks</h2><ul class="tasks">{rows}</ul></main>'))
    return found


def test_one_list_view_at_its_pretty_and_its_query_routed_address_is_one_bug():
    pretty = miscount("/list/10")
    routed = miscount("/?controller=TaskList&action=show&project_id=10&show_subtasks=1")
    [joined] = same_root_cause([routed], [as_bug(pretty)])
    assert joined.fingerprint == pretty.fingerprint
    other = miscount("/?controller=TaskList&action=show&project_id=11")  # another project's list
    assert same_root_cause([other], [as_bug(pretty)]) == [other]
