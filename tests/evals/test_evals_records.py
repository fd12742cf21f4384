"""Extra fixture records a case set brings (`records.yaml`, `--records`): strict validation, how they
join the generated fixture, the manifest entry, and the CLI wiring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.__main__ import main as evals_main
from evals.case_schema import load_cases
from evals.fixture import FIXTURE_VERSION, fixture_records, read_manifest, write_fixture
from evals.fixture_records import RecordsError, file_sha256, load_records_file, merge_records
from memgpt_lite.memory import AgentMemory
from memgpt_lite.storage.embeddings import HashingEmbedder

# A small ticket family of another shape than the generator's: a raw log line, a report resting on
# it, a fix that supersedes the report, and a regression that supersedes a *generated* record.
RECORDS = """\
- id: log-x-01
  store: recall
  date: 2026-04-02 09:00:00
  source: "session X step 1"
  author: bughunt-agent
  kind: log
  claim: source
  support_layer: agent_inferred_summary
  content: "Session X step 1 (app 2.0): GET /export -> HTTP 500."
  app_version: "2.0"
  workflow: export
  routes: [/export]
- id: BR-901
  store: archival
  date: 2026-04-02 09:05:00
  source: "session X (log-x-01)"
  author: bughunt-agent
  kind: bug_report
  claim: status
  support_layer: agent_inferred_summary
  content: "Bug report BH-901 (app 2.0): /export returns HTTP 500. Status: open."
  app_version: "2.0"
  workflow: export
  tickets: [BH-901]
  routes: [/export]
  bug_status: open
  provenance: [log-x-01]
  superseded_by: FIX-901
- id: FIX-901
  store: archival
  date: 2026-04-03
  source: "session X retest"
  author: bughunt-agent
  kind: fix_verification
  claim: status
  support_layer: agent_inferred_summary
  content: "BH-901 fixed in app 2.0.1. Status: fixed."
  app_version: "2.0.1"
  workflow: export
  tickets: [BH-901]
  bug_status: fixed
  provenance: [BR-901]
- id: REG-160B
  store: archival
  date: 2026-04-04 10:00:00+00:00
  source: "session X step 9"
  author: bughunt-agent
  kind: regression
  claim: status
  support_layer: agent_inferred_summary
  content: "BH-160 fixed again in 2.0. Status: fixed."
  app_version: "2.0"
  workflow: search-query
  tickets: [BH-160]
  bug_status: fixed
  provenance: [log-x-01]
  supersedes: REG-160
"""


def _write(tmp_path: Path, text: str, name: str = "records.yaml") -> Path:
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    return f


def _merge(tmp_path: Path, text: str) -> list:
    return merge_records(fixture_records(), [load_records_file(_write(tmp_path, text))])


def test_records_join_the_generated_fixture_with_supersession_on_both_sides(tmp_path):
    items = {i.id: i for i in _merge(tmp_path, RECORDS)}
    assert len(items) == len(fixture_records()) + 4
    assert items["BR-901"].superseded_by == "FIX-901" and items["FIX-901"].supersedes == "BR-901"
    assert items["REG-160"].superseded_by == "REG-160B"  # a generated record superseded by a new one
    assert items["BR-901"].date.tzinfo is not None and items["FIX-901"].date.hour == 0
    order = list(items)
    assert order.index("log-x-01") < order.index("BR-901") < order.index("FIX-901")


def test_records_written_out_of_order_are_stored_after_what_they_refer_to(tmp_path):
    blocks = RECORDS.split("\n- ")
    reversed_text = "- " + "\n- ".join(reversed([blocks[0][2:], *blocks[1:]])) + "\n"
    order = [i.id for i in _merge(tmp_path, reversed_text)]
    assert order.index("log-x-01") < order.index("BR-901") < order.index("FIX-901")


@pytest.mark.parametrize(
    ("change", "record", "field", "why"),
    [
        (("  workflow: export\n  tickets: [BH-901]\n  routes", "  workflow: export\n  ticket: BH-901\n  routes"),
         "BR-901", "field 'ticket'", "unknown field"),
        (("  claim: status\n  support_layer: agent_inferred_summary\n  content: \"Bug", "  claim: status\n  content: \"Bug"),
         "BR-901", "field 'support_layer'", "Field required"),
        (("  bug_status: fixed\n  provenance: [BR-901]", "  bug_status: mended\n  provenance: [BR-901]"),
         "FIX-901", "field 'bug_status'", "'wont_fix'"),
        (("- id: FIX-901", "- id: BR-901"), "BR-901", "id", "duplicate within the file"),
        (("- id: REG-160B", "- id: DEC-142"), "DEC-142", "id", "generated fixture already has it"),
        (("provenance: [BR-901]", "provenance: [BR-999]"), "FIX-901", "provenance", "no record 'BR-999'"),
        (("supersedes: REG-160", "supersedes: REG-999"), "REG-160B", "supersedes", "no record 'REG-999'"),
        (("superseded_by: FIX-901", "superseded_by: FIX-999"), "BR-901", "superseded_by", "no record 'FIX-999'"),
        (("superseded_by: FIX-901", "superseded_by: REG-160B"), "BR-901", "superseded_by", "does not supersede it"),
        (("supersedes: REG-160", "supersedes: FIX-160"), "REG-160B", "supersedes", "already superseded by 'REG-160'"),
        (("supersedes: REG-160", "supersedes: log-s1-01"), "REG-160B", "supersedes", "only archival records supersede"),
        (("supersedes: REG-160", "supersedes: BR-901"), "BR-901", "superseded_by", "also superseded by 'REG-160B'"),
        (("provenance: [log-x-01]\n  superseded_by", "provenance: [FIX-901]\n  superseded_by"),
         "BR-901", "provenance", "cycle"),
        (("  routes: [/export]\n- id: BR-901", "  routes: [/export]\n  supersedes: log-s1-01\n- id: BR-901"),
         "log-x-01", "supersedes", "no supersession"),
    ],
)  # fmt: skip
def test_a_bad_record_names_file_record_and_field(tmp_path, change, record, field, why):
    assert change[0] in RECORDS
    with pytest.raises(RecordsError) as e:
        _merge(tmp_path, RECORDS.replace(*change, 1))
    msg = str(e.value)
    assert str(tmp_path / "records.yaml") in msg and f"record {record}" in msg
    assert field in msg and why in msg and "\n" not in msg


def test_a_rename_note_must_carry_the_old_path(tmp_path):
    text = RECORDS.replace("  routes: [/export]\n  bug_status: open", "  routes: [/export]\n  paths: [app/x.py]\n  renamed_from: app/y.py\n  bug_status: open")  # fmt: skip
    with pytest.raises(RecordsError, match="record BR-901: field 'renamed_from'"):
        _merge(tmp_path, text)


@pytest.mark.parametrize(
    ("text", "why"),
    [("{a: 1}", "expected a list of records"), ("[]", "no records"), ("- [1\n", "not valid YAML"),
     ("- 3\n", "record #1 is not a mapping")],
)  # fmt: skip
def test_a_bad_records_file_is_one_clear_error(tmp_path, text, why):
    with pytest.raises(RecordsError, match=why):
        load_records_file(_write(tmp_path, text))


def test_an_id_in_two_records_files_is_a_duplicate(tmp_path):
    a = load_records_file(_write(tmp_path, RECORDS, "a.yaml"))
    b = load_records_file(_write(tmp_path, RECORDS, "b.yaml"))
    with pytest.raises(
        RecordsError, match=r"b\.yaml: record log-x-01: field 'id': duplicate \(also in .*a\.yaml\)"
    ):
        merge_records(fixture_records(), [a, b])


def test_records_are_stored_and_listed_in_the_manifest(tmp_path):
    f = _write(tmp_path, RECORDS)
    manifest = write_fixture(tmp_path / "store", embedder="hashing", records=[f])
    assert manifest.fixture_version == FIXTURE_VERSION
    (entry,) = read_manifest(tmp_path / "store").extra_records
    assert entry.file == str(f) and entry.sha256 == file_sha256(f)
    assert entry.ids == ["log-x-01", "BR-901", "FIX-901", "REG-160B"]
    with AgentMemory.open(tmp_path / "store", embedder=HashingEmbedder()) as memory:
        assert memory.archival.get("BR-901").superseded_by == "FIX-901"
        assert memory.archival.get("REG-160").superseded_by == "REG-160B"
        assert memory.archival.get("FIX-901").meta["app_version"] == "2.0.1"
        assert [m.id for m in memory.recall.get(["log-x-01"])] == ["log-x-01"]


def test_bad_records_write_nothing(tmp_path):
    f = _write(tmp_path, RECORDS.replace("provenance: [BR-901]", "provenance: [nope]"))
    with pytest.raises(RecordsError):
        write_fixture(tmp_path / "store", embedder="hashing", records=[f])
    assert not (tmp_path / "store").exists()


CASE = (
    "id: x-1\nversion: 1\ncategory: current_vs_superseded\nquestion: 'Is BH-901 still broken?'\n"
    "expected_mode: memory_answer\nsupport_layer: agent_inferred_summary\nevidence: [FIX-901]\n"
    "must_not_reuse: [BR-901]\n"
)


def test_a_case_directory_brings_its_records_and_they_are_not_cases(tmp_path, capsys):
    cases = tmp_path / "cases"
    cases.mkdir()
    _write(cases, RECORDS)
    _write(cases, CASE, "c.yaml")
    assert [c.id for c in load_cases(cases)] == ["x-1"]
    assert evals_main(["layer1", "--cases", str(cases), "--embedder", "hashing", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["extra_records"][0]["ids"] == ["log-x-01", "BR-901", "FIX-901", "REG-160B"]
    assert out["cases"][0]["passed"] is True
    # one case file picks up the records beside it too
    assert evals_main(["layer1", "--cases", str(cases / "c.yaml"), "--embedder", "hashing", "--json"]) == 0
    capsys.readouterr()
    # the same case without its records names an id the fixture does not hold
    alone = tmp_path / "alone"
    alone.mkdir()
    _write(alone, CASE, "c.yaml")
    assert evals_main(["layer1", "--cases", str(alone), "--embedder", "hashing", "--json"]) == 1
    assert "FIX-901" in " ".join(json.loads(capsys.readouterr().out)["cases"][0]["violations"])


def test_fixture_records_flag_and_a_store_built_without_them(tmp_path, capsys):
    f = _write(tmp_path, RECORDS)
    (tmp_path / "alone").mkdir()
    case = _write(tmp_path / "alone", CASE, "c.yaml")
    argv = ["fixture", "--embedder", "hashing", "--json", "--out"]
    assert evals_main([*argv, str(tmp_path / "with"), "--records", str(f)]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["items"] == len(fixture_records()) + 4 and info["extra_records"][0]["sha256"] == file_sha256(
        f
    )
    assert evals_main([*argv, str(tmp_path / "without")]) == 0
    capsys.readouterr()
    l1 = ["layer1", "--cases", str(case), "--records", str(f), "--json", "--store"]
    assert evals_main([*l1, str(tmp_path / "with")]) == 0
    assert json.loads(capsys.readouterr().out)["cases"][0]["passed"] is True
    assert evals_main([*l1, str(tmp_path / "without")]) == 2
    err = capsys.readouterr().err
    assert "was not built with this records file" in err and str(f) in err
    f.write_text(RECORDS.replace("HTTP 500.", "HTTP 502."), encoding="utf-8")  # edited after the build
    assert evals_main([*l1, str(tmp_path / "with")]) == 2
    assert "was not built with this records file" in capsys.readouterr().err
    bad = _write(tmp_path, "- id: x\n", "bad.yaml")
    assert evals_main(["fixture", "--out", str(tmp_path / "bad"), "--records", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "record x" in err and "Traceback" not in err and not (tmp_path / "bad").exists()
