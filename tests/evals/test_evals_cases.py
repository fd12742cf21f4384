"""Case schema (evidence groups, about), the fixture generator's records, identifiers and dates, on plain data."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from evals.case_schema import CATEGORIES, CaseError, load_cases
from evals.dates import read_dates
from evals.fixture import fixture_records
from evals.identifiers import named_identifiers

GOOD = """\
id: t-1
version: 1
category: exact_ticket_path
question: "Which file holds the root cause of BH-142?"
expected_mode: memory_answer
support_layer: user_authored_decision
evidence: [DEC-142]
must_not_reuse: [DEC-143]
"""


def test_shipped_cases_cover_every_category():
    cases = load_cases()
    assert len(cases) >= 30
    assert {c.category for c in cases} == set(CATEGORIES)
    assert sum(c.expected_mode == "no_match" for c in cases) >= len(cases) // 3
    assert any(any("\u4e00" <= ch <= "\u9fff" for ch in c.question) for c in cases)
    assert all(sum(c.category == cat for c in cases) >= 2 for cat in CATEGORIES)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (("support_layer: user_authored_decision", "support_layer: user_decision"), "support_layer"),
        (("version: 1", "version: 0"), "version"),
        (("category: exact_ticket_path", "category: trivia"), "category"),
        (("evidence: [DEC-142]", "evidence: [DEC-142]\ngold_answer: app/search/paginate.py"), "gold_answer"),
        (("must_not_reuse: [DEC-143]", "must_not_reuse: [DEC-142]"), "both evidence and must_not_reuse"),
        (("expected_mode: memory_answer", "expected_mode: no_match"), "fresh_inspection_required"),
    ],
)
def test_a_bad_case_names_file_case_and_field(tmp_path, change, field):
    f = tmp_path / "bad.yaml"
    f.write_text(GOOD.replace(*change))
    with pytest.raises(CaseError) as e:
        load_cases(tmp_path)
    msg = str(e.value)
    assert str(f) in msg and "case t-1" in msg and field in msg


def test_duplicate_ids_and_empty_dirs_are_errors(tmp_path):
    (tmp_path / "a.yaml").write_text(GOOD)
    (tmp_path / "b.yaml").write_text(GOOD)
    with pytest.raises(CaseError, match="duplicate"):
        load_cases(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CaseError, match="no cases"):
        load_cases(empty)


def test_the_fixture_routes_are_the_bughunt_sites():
    # the fixture is BugHunt's memory of its built-in site: every route a record carries is a page of it
    from bughunt.site import PAGES

    routes = {r for item in fixture_records() for r in item.routes}
    assert routes and routes <= {p.route for p in PAGES}, sorted(routes - {p.route for p in PAGES})


def test_fixture_records_are_deterministic_and_their_provenance_resolves():
    a, b = fixture_records(), fixture_records()
    assert [x.model_dump() for x in a] == [x.model_dump() for x in b]
    by_id = {x.id: x for x in a}

    def leaves(i: str) -> set[str]:
        item = by_id[i]
        if item.store == "recall":
            return {i}
        assert item.provenance, f"{i} has no provenance"
        return set().union(*(leaves(p) for p in item.provenance))

    for x in a:
        assert leaves(x.id), x.id
        if x.superseded_by:
            assert by_id[x.superseded_by].supersedes == x.id
    # Two interleaved workflows with neighbouring tickets and similar paths, and a 1.2 -> 1.3 history.
    assert {"search-pagination", "feed-pagination"} <= {x.workflow for x in a}
    assert {"app/search/paginate.py", "app/feed/paginate.py", "app/search/query.py"} <= {
        p for x in a for p in x.paths
    }
    assert by_id["FIX-142"].supersedes == "BR-142" and by_id["FIX-142"].app_version == "1.3"
    assert by_id["DEC-142"].support_layer == "user_authored_decision" and by_id["DEC-142"].author == "maria"
    assert by_id["OBS-142"].claim == "symptom" and by_id["DEC-142"].claim == "root_cause"


def test_evidence_groups_and_about_load_and_old_lists_stay_one_any_of_group(tmp_path):
    f = tmp_path / "g.yaml"
    f.write_text(
        GOOD.replace("evidence: [DEC-142]", "evidence:\n  - all_of: [REN-132, DEC-142]\n  - FIX-142")
        + "about: [app/search/pager.py, 2026-03-12, 1.4]\n"
    )
    (case,) = load_cases(f)
    assert case.evidence == ("REN-132", "DEC-142", "FIX-142")
    groups = [(g.mode, g.ids) for g in case.required_groups()]
    assert groups == [("all_of", ("REN-132", "DEC-142")), ("any_of", ("FIX-142",))]
    assert case.about == ("app/search/pager.py", "2026-03-12", "1.4")  # YAML's date and number, as written
    (old,) = load_cases(_write(tmp_path / "old.yaml", GOOD))
    assert [(g.mode, g.ids) for g in old.required_groups()] == [("any_of", ("DEC-142",))]
    bad = _write(tmp_path / "bad" / "b.yaml", GOOD.replace("evidence: [DEC-142]", "evidence: [{all_of: []}]"))
    with pytest.raises(CaseError, match="all_of / any_of"):
        load_cases(bad)


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_identifiers_are_read_exactly():
    n = named_identifiers(
        "Did BH-150 (not BH-15) break app/search/pager.py or /search/2 on 2026-03-12 in app 1.3.2, 1.3."
    )
    assert n.tickets == ("BH-150", "BH-15")
    assert n.paths == ("app/search/pager.py",) and n.routes == ("/search/2",)
    assert n.dates == ("2026-03-12",) and n.versions == ("1.3.2", "1.3")
    assert named_identifiers("BH-150 在 1.3.2 版本中修复了吗？").versions == ("1.3.2",)


@pytest.mark.parametrize(
    ("text", "since", "until"),
    [
        ("What did we record before 1 March 2026?", None, date(2026, 2, 28)),
        ("2026年3月1日之前记录了哪些问题？", None, date(2026, 2, 28)),
        ("3月12日的发布说明里修复了哪些工单？", date(2026, 3, 12), date(2026, 3, 12)),
        ("What did the release note of 12 March 2026 ship?", date(2026, 3, 12), date(2026, 3, 12)),
        ("Which bugs were filed since 2026-03-11?", date(2026, 3, 11), None),
        ("自2026年3月11日以来有哪些问题？", date(2026, 3, 11), None),
        ("What changed after the 10th of March?", date(2026, 3, 11), None),
        # a month is a range of days; "分" after 日 is not minutes
        ("Before March 2026, was anything retested?", None, date(2026, 2, 28)),
        ("2026年3月之前做过什么决定？", None, date(2026, 2, 28)),
        ("What did we do in February 2026?", date(2026, 2, 1), date(2026, 2, 28)),
        ("3月5日分诊会上认定的根本原因是什么？", date(2026, 3, 5), date(2026, 3, 5)),
        # the search takes "about" with the date and reports collapsed spacing; the range word still counts
        ("What has been logged about BH-171 after 16 April 2026?", date(2026, 4, 17), None),
        # a lower and an upper bound that overlap are one range
        (
            "Did anyone record anything after 20 March 2026 and before 1 April 2026?",
            date(2026, 3, 21),
            date(2026, 3, 31),
        ),
    ],
)
def test_dates_in_english_and_chinese_become_day_ranges(text, since, until):
    (r,) = read_dates(text, datetime(2026, 3, 14, tzinfo=UTC))
    assert (r.since, r.until) == (since, until)


def test_a_day_without_its_year_is_the_one_nearest_the_newest_memory():
    # memory's newest record is of 8 April 2026: "April 10th" is two days later, not a year and a day
    # earlier; "December 3rd" seen from March is last December
    (r,) = read_dates("Anything new since April 10th?", datetime(2026, 4, 9))
    assert (r.since, r.until) == (date(2026, 4, 10), None)
    (r,) = read_dates("What happened on December 3rd?", datetime(2026, 3, 1))
    assert (r.since, r.until) == (date(2025, 12, 3), date(2025, 12, 3))
    (r,) = read_dates("What happened on 5 May 2025?", datetime(2026, 4, 9))
    assert r.since == date(2025, 5, 5), "a written year stays"


def test_versions_and_tickets_are_not_dates():
    assert read_dates("What is the status of BH-142 on app 1.3?", datetime(2026, 3, 14)) == []


def test_a_day_the_parser_cannot_read_is_not_its_whole_month():
    base = datetime(2026, 3, 14)
    assert read_dates("Which release fixed the bug found on the ides of March 2026?", base) == []
    # a day in ordinal words is read (text2num) as the day it names
    (r,) = read_dates("Which release fixed the bug found on the thirteenth of March 2026?", base)
    assert (r.since, r.until) == (date(2026, 3, 13), date(2026, 3, 13))
    (r,) = read_dates("Which release fixed the bug found on the 13th of March 2026?", base)
    assert (r.since, r.until) == (date(2026, 3, 13), date(2026, 3, 13))
