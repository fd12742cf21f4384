"""JUnit XML of an exploration, for CI test tabs: a suite `bughunt.oracles` with one test case per
oracle run over the visited pages (failed when it has open bugs) and a suite `bughunt.bugs` with one
test case per bug (failed while open, passed once fixed, skipped when a baseline accepts it or while it
is only suspected: a lead to look at, not a failure — `ReportedBug.gates`)."""

from __future__ import annotations

from xml.etree import ElementTree as ET

from .records import ReportedBug, StoredRun

SUSPECTED = "a lead to look at (--allow-destructive on a disposable copy confirms or clears it)"


def junit_xml(run: StoredRun, accepted: frozenset[str] = frozenset()) -> str:
    root = ET.Element("testsuites", name="bughunt")
    oracles = ET.SubElement(root, "testsuite", name="bughunt.oracles")
    for kind in run.oracles:
        found = [b for b in run.gating_bugs() if b.kind == kind]
        case = ET.SubElement(
            oracles,
            "testcase",
            classname="bughunt.oracles",
            name=f"{kind} on {len(run.pages_visited)} visited pages",
            time="0",
        )
        failing = [b for b in found if b.fingerprint not in accepted]
        if failing:
            failure = ET.SubElement(case, "failure", type=kind, message=f"{len(failing)} open {kind} bug(s)")
            failure.text = "\n".join(f"{b.url or b.route}  {b.fingerprint}" for b in failing)
    bugs = ET.SubElement(root, "testsuite", name="bughunt.bugs")
    for bug in run.bugs:
        case = ET.SubElement(
            bugs,
            "testcase",
            classname=f"bughunt.bugs.{bug.kind}",
            name=f"{bug.route} {bug.fingerprint}",
            time="0",
        )
        if not bug.open:
            continue
        if bug.fingerprint in accepted:
            ET.SubElement(case, "skipped", message="accepted in the baseline")
            continue
        if bug.suspected:
            skipped = ET.SubElement(case, "skipped", message=f"suspected, not opened: {SUSPECTED}")
            skipped.text = _details(bug)
            continue
        failure = ET.SubElement(case, "failure", type=bug.kind, message=bug.message)
        failure.text = _details(bug)
    for suite in (oracles, bugs):
        cases = suite.findall("testcase")
        suite.set("tests", str(len(cases)))
        suite.set("failures", str(sum(c.find("failure") is not None for c in cases)))
        suite.set("skipped", str(sum(c.find("skipped") is not None for c in cases)))
        suite.set("errors", "0")
    root.set("tests", str(sum(int(s.get("tests", "0")) for s in (oracles, bugs))))
    root.set("failures", str(sum(int(s.get("failures", "0")) for s in (oracles, bugs))))
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _details(bug: ReportedBug) -> str:
    lines = [
        f"url: {bug.url or bug.route}",
        f"kind: {bug.kind}{' (suspected: not opened)' if bug.suspected else ''}",
        f"fingerprint: {bug.fingerprint}",
        f"app version: {bug.version or 'unknown'}",
        f"first seen: {bug.seen_iso}",
    ]
    if len(bug.routes) > 1:
        lines.append("also on: " + " ".join(bug.routes[1:]))
    return "\n".join(lines)
