"""Auditable evidence reports: Markdown or HTML for people, JSON for machines.

A layer-1 report lists, per case, the records the case names as memory holds them, what sets each
must_not_reuse record apart, where each evidence item's provenance leads, what the agent's first search
page shows, and every violation and finding. A layer-2 report lists each run's searches, citations,
claims and verdict. Neither is an accuracy score.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

Table = tuple[Sequence[str], Sequence[Sequence[Any]]]


def _cell(v: Any) -> str:
    if v is None or v == "" or v == []:
        return "–"
    if isinstance(v, list | tuple):
        return ", ".join(str(x) for x in v)
    return str(v)


def _md_table(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    esc = [[_cell(c).replace("|", "\\|") for c in r] for r in rows]
    return [
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
        *("| " + " | ".join(r) + " |" for r in esc),
    ]


def _html_line(text: str) -> str:
    """A Markdown line of the intro in HTML: escaped, its `code` spans as <code>."""
    return re.sub(r"`([^`]*)`", r"<code>\1</code>", html.escape(text))


def _html_table(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    trs = "".join("<tr>" + "".join(f"<td>{html.escape(_cell(c))}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table>"


_REC_HEAD = ("id", "case list", "store", "status", "superseded_by", "layer", "claim", "trust", "date",
             "source", "tickets", "paths", "what sets it apart")  # fmt: skip


def _layer1_sections(data: dict[str, Any]) -> tuple[list[str], Table, list[dict[str, Any]]]:
    ret = data.get("retrieval") or {}
    intro = [
        f"Store: `{data['store']}` (fixture version {data['fixture_version']}, embedder {data['embedder']})",
        f"Cases: `{data['cases_dir']}`",
        "Retention audit, not an accuracy score: per case, whether memory keeps the declared evidence "
        "with the generator's fields, current and traceable to the session log, and whether every "
        "must_not_reuse item carries what makes it non-reusable. No answer is decided here.",
        f"Retrieval (evidence on the agent's first search page of {ret.get('first_page_size')}): recall "
        f"{ret.get('recall')}; per category "
        + ", ".join(f"{k} {v['found']}/{v['evidence']}" for k, v in (ret.get("per_category") or {}).items()),
    ]
    cases = data["cases"]
    n_pass = sum(c["passed"] for c in cases)
    intro.append(f"{n_pass} of {len(cases)} cases without violations.")
    summary = (
        ("case", "category", "result", "expected", "evidence held", "first page recall", "findings"),
        [
            (
                c["id"],
                c["category"],
                "pass" if c["passed"] else "FAIL",
                f"{c['expected_mode']} / {c['support_layer']}",
                c["evidence_found"],
                c["retrieval"]["recall"],
                len(c["findings"]),
            )  # fmt: skip
            for c in cases
        ],
    )
    return intro, summary, cases


def _rec_rows(c: dict[str, Any]) -> list[list[Any]]:
    return [
        [
            x["id"],
            x["case_list"],
            x["store"],
            x["status"],
            x["superseded_by"],
            x["support_layer"],
            x["claim"],
            x["trust"],
            x["date"][:16],
            x["source"],
            x["tickets"],
            x["paths"],
            x["markers"],
        ]  # fmt: skip
        for x in c["records"]
    ]


def _case_lines(c: dict[str, Any]) -> list[str]:
    groups = "; ".join(f"{k} {_cell(v)}" for g in c["evidence_groups"] for k, v in g.items())
    lines = [
        f"expected: {c['expected_mode']} at {c['support_layer']}",
        f"evidence: {groups or '–'}; must not reuse: {_cell(c['must_not_reuse'])}",
        f"about ({c['about_source']}): {_cell(c['about'])}",
        f"agent's first search page: {_cell(c['retrieval']['first_page'])}",
    ]
    for p in c["provenance"]:
        state = "resolves" if p["resolves"] else "DOES NOT RESOLVE"
        lines.append(
            f"provenance of {p['id']} {state}: {' → '.join(p['chain']) or '–'} (log: {_cell(p['log'])})"
        )
    lines += [f"finding: {f}" for f in c["findings"]]
    lines += [f"violation: {v}" for v in c["violations"]] or ["no violations"]
    return lines


def layer1_markdown(data: dict[str, Any]) -> str:
    intro, (head, rows), cases = _layer1_sections(data)
    out = ["# Layer 1 — evidence retention audit", "", *[f"- {x}" for x in intro], "", *_md_table(head, rows)]
    for c in cases:
        out += [
            "",
            f"## {c['id']} (v{c['version']}, {c['category']}) — {'pass' if c['passed'] else 'FAIL'}",
            "",
        ]
        out += [f"> {c['question']}", ""]
        out += [f"- {x}" for x in _case_lines(c)]
        out += ["", *_md_table(_REC_HEAD, _rec_rows(c))]
    return "\n".join(out) + "\n"


_CSS = (
    "body{font-family:system-ui,sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse;"
    "margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;font-size:.9em;text-align:left}"
    ".FAIL{color:#b00}.pass{color:#070}blockquote{color:#444}"
)


def layer1_html(data: dict[str, Any]) -> str:
    intro, (head, rows), cases = _layer1_sections(data)
    e = html.escape
    body = [
        "<h1>Layer 1 — evidence retention audit</h1><ul>",
        *[f"<li>{_html_line(x)}</li>" for x in intro],
        "</ul>",
    ]
    body.append(_html_table(head, rows))
    for c in cases:
        res = "pass" if c["passed"] else "FAIL"
        body.append(
            f"<h2 id='{e(c['id'])}'>{e(c['id'])} (v{c['version']}, {e(c['category'])}) — <span class='{res}'>{res}</span></h2>"
        )
        body.append(f"<blockquote>{e(c['question'])}</blockquote>")
        body.append("<ul>" + "".join(f"<li>{e(x)}</li>" for x in _case_lines(c)) + "</ul>")
        body.append(_html_table(_REC_HEAD, _rec_rows(c)))
    return (
        f"<!doctype html><meta charset='utf-8'><title>Layer 1 report</title><style>{_CSS}</style>"
        + "".join(body)
    )


def write_report(
    path: str | Path, data: dict[str, Any], markdown: str, html_text: str | None = None
) -> list[Path]:
    """Write `path` (.html → HTML, .json → JSON only, anything else → Markdown) plus its JSON twin."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    json_path = path.with_suffix(".json")
    json_path.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    if path.suffix == ".json":
        return [json_path]
    text = html_text if path.suffix in (".html", ".htm") and html_text is not None else markdown
    path.write_text(text, encoding="utf-8")
    return [path, json_path]


# -- layer 2 --------------------------------------------------------------------------------------
_RUN_HEAD = ("run", "result", "mode", "declared layer", "cited", "flagged superseded", "fresh inspection")


def _layer2_sections(data: dict[str, Any]) -> tuple[list[str], Table, Table]:
    intro = [
        f"Agent: `{data['agent']}` (model {data.get('model') or data['agent']}), {data['runs']} run(s) per case",
        f"Store: `{data['store']}`; cases: `{data['cases_dir']}`",
        "The verdict checks support, not wording: ids cited against the case's evidence groups and "
        "must_not_reuse, stored status, trust and claim labels, each claim against the cited items' fields, "
        "mode and declared layer. Per category, never pooled; three trivial agents beside it.",
    ]
    trivial = data.get("trivial_agents") or {}
    cats = (
        ("category", "runs", "passed", *trivial),
        [(c, s["runs"], s["passed"], *(f"{t['per_category'].get(c, {}).get('passed', 0)}" for t in trivial.values()))
         for c, s in data["per_category"].items()]
        + [("all", data.get("runs_total"), data.get("passed_total"), *(f"{t['passed']}/{t['runs']}" for t in trivial.values()))],
    )  # fmt: skip
    cases: Table = (
        ("case", "category", "expected", "passed runs", "violations (first failing run)"),
        [
            (c["id"], c["category"], f"{c['expected_mode']} / {c['support_layer']}", f"{c['passed']}/{len(c['runs'])}",
             next((r["violations"] for r in c["runs"] if not r["passed"]), []))
            for c in data["cases"]
        ],
    )  # fmt: skip
    return intro, cats, cases


def _run_row(r: dict[str, Any]) -> list[Any]:
    mode = "no_match" if r["no_match"] else "memory_answer" if r["no_match"] is not None else "no answer"
    return [r["run"], "pass" if r["passed"] else "FAIL", mode, r["support_layer"], r["evidence_ids"],
            r["superseded_ids"], r["fresh_inspection_requested"]]  # fmt: skip


def _run_notes(r: dict[str, Any]) -> list[str]:
    out = [f"run {r['run']} searches: {'; '.join(r['tool_calls']) or '–'}"]
    out.append(f"run {r['run']} answer: {r['answer'] or '–'}")
    if r.get("claims"):
        out.append(f"run {r['run']} claims: {', '.join(f'{k}={v}' for k, v in r['claims'].items())}")
    if r["error"]:
        out.append(f"run {r['run']} error: {r['error']}")
    out += [f"run {r['run']} violation: {v}" for v in r["violations"]]
    return out


def layer2_markdown(data: dict[str, Any]) -> str:
    intro, (ch, cr), (sh, sr) = _layer2_sections(data)
    out = ["# Layer 2 — agent answers report", "", *[f"- {x}" for x in intro], ""]
    out += [*_md_table(ch, cr), "", *_md_table(sh, sr)]
    for c in data["cases"]:
        out += [
            "",
            f"## {c['id']} (v{c['version']}, {c['category']}) — {c['passed']}/{len(c['runs'])} passed",
            "",
        ]
        out += [f"> {c['question']}", ""]
        out += [
            f"- expected: {c['expected_mode']} at {c['support_layer']}; allowed evidence: {_cell(c['evidence'])}; "
            f"must not reuse: {_cell(c['must_not_reuse'])}",
            *([f"- notes: {c['notes']}"] if c["notes"] else []),
            "",
            *_md_table(_RUN_HEAD, [_run_row(r) for r in c["runs"]]),
            "",
        ]
        out += [f"- {x}" for r in c["runs"] for x in _run_notes(r)]
    return "\n".join(out) + "\n"


def layer2_html(data: dict[str, Any]) -> str:
    intro, (ch, cr), (sh, sr) = _layer2_sections(data)
    e = html.escape
    body = [
        "<h1>Layer 2 — agent answers report</h1><ul>",
        *[f"<li>{_html_line(x)}</li>" for x in intro],
        "</ul>",
    ]
    body += [_html_table(ch, cr), _html_table(sh, sr)]
    for c in data["cases"]:
        ok = "pass" if c["passed"] == len(c["runs"]) else "FAIL"
        body.append(
            f"<h2 id='{e(c['id'])}'>{e(c['id'])} (v{c['version']}, {e(c['category'])}) — "
            f"<span class='{ok}'>{c['passed']}/{len(c['runs'])} passed</span></h2>"
        )
        body.append(f"<blockquote>{e(c['question'])}</blockquote>")
        body.append(
            f"<ul><li>expected {e(c['expected_mode'])} at {e(c['support_layer'])}; allowed evidence: "
            f"{e(_cell(c['evidence']))}; must not reuse: {e(_cell(c['must_not_reuse']))}</li></ul>"
        )
        body.append(_html_table(_RUN_HEAD, [_run_row(r) for r in c["runs"]]))
        body.append("<ul>" + "".join(f"<li>{e(x)}</li>" for r in c["runs"] for x in _run_notes(r)) + "</ul>")
    return (
        f"<!doctype html><meta charset='utf-8'><title>Layer 2 report</title><style>{_CSS}</style>"
        + "".join(body)
    )
