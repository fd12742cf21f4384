"""One edit handler dropping one field on two of its records is one bug (issue 25). The oracle shapes both
records' pages `/edit.php?id=<n>` (one fingerprint); the harness then shaped each with the links beside it
(`harness._template_shaped`), where a list of `?id=` siblings reads the number as data (`?id=<v>`): the
second record's finding, the open bug already, left it for a new fingerprint — one report per record the
walk sampled (a forum's first posts' edit pages, both dropping the subject)."""

from __future__ import annotations

from dataclasses import replace

from bughunt.explorer.harness import _template_shaped
from bughunt.explorer.inspection import same_root_cause
from bughunt.explorer.store import ExplorerStore
from bughunt.fingerprint import fingerprint as make_fingerprint
from bughunt.fingerprint import route_shape as fingerprint_route_shape
from bughunt.oracles.forms import check_form_drops_value
from tests.bughunt.oracles.test_oracles_root_causes import as_bug, missing, page
from tests.support.pages import Fetcher


def _edit(path: str, extra: str = "") -> object:
    return page(
        path,
        '<form method="post"><label for="s">Subject</label><input id="s" name="subject" type="text">'
        f'<label for="m">Message</label><input id="m" name="message" type="text" value="Hello there">{extra}'
        '<button type="submit">Save</button></form><a href="/topic/3">Back</a>',
    )


def test_one_route_shape_dropping_the_same_field_is_one_bug_whatever_else_its_forms_hold():
    fetch = Fetcher(page("/topic/3", "<h1>Patching a tube</h1><p>Hello there</p>"), missing=missing)
    sticky = '<label for="k">Stick</label><input id="k" name="stick" type="checkbox">'
    [first] = check_form_drops_value(_edit("/edit.php?id=117", sticky), fetch)
    [second] = check_form_drops_value(
        _edit(
            "/edit.php?id=229",
            sticky + '<label for="r">Reason</label><input id="r" name="reason" type="text">',
        ),
        fetch,
    )
    # the links beside the second record read its number as a word: another shape, another fingerprint
    shape = "/edit.php?id=<slug>"
    second = replace(second, shape=shape, fingerprint=make_fingerprint(shape, second.kind, second.message))
    assert first.fingerprint != second.fingerprint
    [joined] = same_root_cause([second], [as_bug(first)])
    assert joined.fingerprint == first.fingerprint and joined.route == "/edit.php?id=229"
    assert first.evidence["form_key"] != second.evidence["form_key"]  # not one form on any route
    # another record of another route shape is not joined by its shape
    [elsewhere] = check_form_drops_value(_edit("/profile.php?id=4"), fetch)
    elsewhere = replace(elsewhere, evidence={**elsewhere.evidence, "form_key": 0})
    assert same_root_cause([elsewhere], [as_bug(first)]) == [elsewhere]


def test_a_finding_that_is_an_open_bug_keeps_its_fingerprint_whatever_the_links_beside_it(tmp_path):
    fetch = Fetcher(page("/topic/3", "<h1>Patching a tube</h1><p>Hello there</p>"), missing=missing)
    [first] = check_form_drops_value(_edit("/edit.php?id=117"), fetch)
    [second] = check_form_drops_value(_edit("/edit.php?id=229"), fetch)
    assert first.fingerprint == second.fingerprint  # the oracle shapes both `/edit.php?id=<n>`
    store = ExplorerStore(tmp_path / "s")
    try:
        store.bug_table.insert(
            first.fingerprint, first.route, first.kind, first.message, {}, "open", None, 0.0, 1
        )
        # the next record's page links its siblings: shaped by them, its number would read as data
        beside = ["/edit.php?id=229", "/edit.php?id=230", "/edit.php?id=12"]
        assert fingerprint_route_shape("/edit.php?id=229", set(beside)) != first.shape
        [kept] = _template_shaped(store, [second], beside)
        assert kept.fingerprint == first.fingerprint
    finally:
        store.close()
