"""One count label of one template, wrong on several views of one family of routes, is one bug
(`oracles.count_identity`, `explorer.inspection._ONE_FAMILY`): a code review tool's change summary under
a change's page, its comparison with another change and either filtered to one folder. Each view is a
route template of its own; the label's place and its words (a sentence of several counts, numbers
masked) say it is one template's. Imaginary routes and markup, no application's."""

from __future__ import annotations

from collections.abc import Callable

from bughunt.explorer.inspection import same_root_cause
from bughunt.oracles import Finding
from bughunt.oracles.count_identity import label_key, label_wording
from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from tests.bughunt.oracles.test_oracles_root_causes import as_bug, page, related

SUMMARY = "{n} files touched, 3 lines added, 1 line removed"


def review(path: str, summary: str = SUMMARY, rows: int = 2, place: str = "p.totals") -> FetchedPage:
    """A change's page: its table of touched files and, under it, a line of counts (files first)."""
    body = "".join(
        f'<tr><td class="name"><a href="/files/f{i}.txt">f{i}.txt</a></td><td>+{i}</td></tr>'
        for i in range(rows)
    )
    tag, _, cls = place.partition(".")
    return page(
        path,
        f'<div class="change"><table class="touched">{body}</table>'
        f'<{tag} class="{cls}">{summary.format(n=rows + 2)}</{tag}></div>',
    )


def miscount(path: str, **kw: object) -> Finding:
    [found] = check_count_mismatch(review(path, **kw))  # type: ignore[arg-type]
    return found


def test_one_summary_line_wrong_on_a_change_its_comparison_and_a_filtered_view_is_one_bug() -> None:
    change = miscount("/ledger/change/?id=4e1f0c9a7b2d")
    compared = miscount("/ledger/compare/?id=4e1f0c9a7b2d&against=9a0b7c6d5e4f")
    filtered = miscount("/ledger/compare/docs/guide?id=4e1f0c9a7b2d", rows=1)
    assert len({change.fingerprint, compared.fingerprint, filtered.fingerprint}) == 3  # three templates
    joined = same_root_cause([compared, filtered], [as_bug(change)])
    assert [f.fingerprint for f in joined] == [change.fingerprint] * 2
    assert [f.route for f in joined] == [compared.route, filtered.route]  # each stays an occurrence


def test_another_sentence_or_another_place_or_another_section_is_another_bug() -> None:
    change = miscount("/ledger/change/?id=4e1f0c9a7b2d")
    other_words = miscount(
        "/ledger/checks/run/?id=4e1f0c9a7b2d", summary="{n} checks run, 1 failed, 2 skipped"
    )
    other_place = miscount("/ledger/compare/?id=4e1f0c9a7b2d&against=9a0b7c6d5e4f", place="div.foot")
    elsewhere = miscount("/archive/compare/?id=4e1f0c9a7b2d&against=9a0b7c6d5e4f")  # another collection
    for finding in (other_words, other_place, elsewhere):
        assert same_root_cause([finding], [as_bug(change)]) == [finding]


def test_a_summary_line_on_two_projects_pages_is_one_bug_through_their_menus() -> None:
    def menu(project: str) -> list[str]:
        return [f"/{project}/", f"/{project}/log", f"/{project}/tree", f"/{project}/change/", "/about"]

    change = miscount("/ledger/change/?id=4e1f0c9a7b2d")
    other = miscount("/atlas/compare/docs?id=7c6d5e4f3a2b", rows=1)
    links: Callable[[str], list[str]] = lambda route: menu(route.strip("/").split("/")[0])  # noqa: E731
    [joined] = same_root_cause([other], [as_bug(change)], links_of=links)
    assert joined.fingerprint == change.fingerprint
    assert same_root_cause([other], [as_bug(change)]) == [other]  # without the menus: two first segments


def test_one_records_two_views_that_counted_otherwise_are_two_bugs() -> None:
    # The same record's two views saying other numbers compute them apart, whatever label they share.
    shown = miscount("/ledger/show/42")
    edited = miscount("/ledger/edit/42", rows=3)
    assert same_root_cause([edited], [as_bug(shown)]) == [edited]
    same_numbers = miscount("/ledger/edit/42")
    [joined] = same_root_cause([same_numbers], [as_bug(shown)])
    assert joined.fingerprint == shown.fingerprint


def test_a_label_of_one_count_names_no_template_and_plurals_do_not_tell_labels_apart() -> None:
    [found] = check_count_mismatch(related("/ledger/show/42", 70, 4))  # "Record Count: 70" over 4 rows
    assert found.evidence["label_key"] is None  # what any view writes over its own list
    one_file, four_files = "1 file touched, 1 line added", "4 files touched, 2 lines added"
    assert label_wording(one_file) == label_wording(four_files) == "<n> file touched, <n> line added"
    lines = [
        review("/ledger/change/", summary=text).document.find_all("p")[0] for text in (one_file, four_files)
    ]
    assert label_key(lines[0]) == label_key(lines[1]) is not None
