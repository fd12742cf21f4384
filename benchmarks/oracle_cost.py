"""The oracles' own CPU per page, apart from the rest of a click: record what they were given in a real
run, then replay it against one source tree or two.

    python -m benchmarks.oracle_cost record OUT.json -- explore --url URL --budget 60 ...
    python -m benchmarks.oracle_cost replay REC.json [REC.json ...] [--repeats 5] [--against DIR]
                                     [--measure cpu|instructions] [--json]

`record` runs `bughunt <args>` in this process and writes down every `judge_page` call of the session:
the page (its response, so a fresh copy parses it again), each page an oracle fetched (the same
objects where the session handed the same page twice, as its reuse of loaded pages does), what memory
answered (`known_routes`, `linked_from`, `loaded`) and the findings.

`replay` runs the oracles over a recording: per call, the page's tree and actions are read first (the
step reads them before the oracles, `explorer.facts.read_page`), then `inspect_page` is timed with the
process's CPU clock; a fetch is answered from the recording, and one the recording does not hold, a
different answer of memory asked for, or different findings count as a **diff** (a refactor for speed
must show none). Each repeat builds fresh pages (nothing kept from the last). `--against DIR` replays
the same recordings from another source tree too, in the same rounds (each round: this tree, then
DIR, each in a process of its own), so the two share the machine's load. The figures are the minimum
and the median over the repeats: CPU ms per inspected page, and per page the oracles parsed (the
inspected pages and those they fetched), since parsing a fetched page is part of their cost.

Beside them, **per oracle** (the table a new oracle's cost shows in): each oracle's median CPU per
inspected page (a reading two oracles share is counted in the first that asks), the step's own reading
of the page before the oracles (tree, base, actions) and the bare loop's parse and links of the same
pages (`bare_parse`). `--measure instructions` also counts each oracle **alone** in instructions per
inspected page with callgrind, load-independent (`benchmarks.oracle_instructions`; ~50x slower).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import runpy
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bughunt.oracles import ORACLES, Finding, Judgement, Oracle, OracleConfig
from bughunt.page import ClientError, FetchedPage

Recording = dict[str, Any]
HERE = Path(__file__).resolve()


class Recorder:
    """Wraps `judge_page` (the name the step's `inspection.inspect` calls) and keeps what each call was
    given and gave back."""

    def __init__(self, judge: Callable[..., Judgement]) -> None:
        self.judge = judge
        self.pages: list[tuple[FetchedPage, dict[str, Any]]] = []
        self.index: dict[int, int] = {}
        self.calls: list[dict[str, Any]] = []

    def page_id(self, page: FetchedPage) -> int:
        if id(page) in self.index:
            return self.index[id(page)]
        before = (
            None if page.clicked_from is None else [self.page_id(page.clicked_from[0]), page.clicked_from[1]]
        )
        fields = {
            "url": page.url, "route": page.route, "status": page.status, "headers": dict(page.headers),
            "content_type": page.content_type, "body": page.body, "elapsed_ms": page.elapsed_ms,
            "method": page.method, "redirects": list(page.redirects),
            "client_errors": [[e.kind, e.text, e.url, e.status] for e in page.client_errors],
            "clicked_from": before,
        }  # fmt: skip
        self.pages.append((page, fields))  # the page itself is kept too: its id stays its own
        self.index[id(page)] = len(self.pages) - 1
        return self.index[id(page)]

    def __call__(
        self,
        page: FetchedPage,
        fetch: Callable[[str], FetchedPage] | None = None,
        config: OracleConfig | None = None,
    ) -> Judgement:
        config = config or OracleConfig()
        call: dict[str, Any] = {
            "page": self.page_id(page),
            "fetches": [],
            "known": None,
            "linked": {},
            "loaded": {},
        }

        def fetched(url: str) -> FetchedPage:
            assert fetch is not None
            try:
                answer = fetch(url)
            except OSError as exc:
                call["fetches"].append([url, None, str(exc)])
                raise
            call["fetches"].append([url, self.page_id(answer)])
            return answer

        def known() -> list[str]:
            assert config.known_routes is not None
            routes = list(config.known_routes())
            call["known"] = routes
            return routes

        def linked(route: str) -> list[str]:
            assert config.linked_from is not None
            routes = list(config.linked_from(route))
            call["linked"][route] = routes
            return routes

        def loaded(route: str) -> bool:
            assert config.loaded is not None
            seen = bool(config.loaded(route))
            call["loaded"][route] = seen
            return seen

        kept = OracleConfig(
            allow_destructive=config.allow_destructive, max_requests=config.max_requests,
            max_forms=config.max_forms, max_destructive=config.max_destructive,
            known_routes=known if config.known_routes else None,
            linked_from=linked if config.linked_from else None, loaded=loaded if config.loaded else None,
        )  # fmt: skip
        judged = self.judge(page, fetched if fetch is not None else None, kept)
        call["findings"] = [f.to_dict() for f in judged.findings]
        self.calls.append(call)
        return judged

    def recording(self) -> Recording:
        return {"pages": [fields for _, fields in self.pages], "calls": self.calls}


def record(out: Path, args: list[str]) -> int:
    """Run `bughunt <args>` here with its oracle calls recorded into `out`; the number of calls."""
    import bughunt.explorer.inspection as inspection

    recorder = Recorder(getattr(inspection, "judge_page"))  # noqa: B009 — the name the step calls
    setattr(inspection, "judge_page", recorder)  # noqa: B010
    argv = sys.argv
    sys.argv = ["bughunt", *args]
    try:
        runpy.run_module("bughunt", run_name="__main__")
    except SystemExit:
        pass
    finally:
        sys.argv = argv
        setattr(inspection, "judge_page", recorder.judge)  # noqa: B010
        out.write_text(json.dumps(recorder.recording()))
    return len(recorder.calls)


def build_pages(rec: Recording) -> list[FetchedPage]:
    pages: list[FetchedPage] = []
    for d in rec["pages"]:
        before = None if d["clicked_from"] is None else (pages[d["clicked_from"][0]], d["clicked_from"][1])
        pages.append(
            FetchedPage(
                d["url"],
                d["route"],
                d["status"],
                d["headers"],
                d["content_type"],
                d["body"],
                d["elapsed_ms"],
                d["method"],
                tuple(d["redirects"]),
                tuple(ClientError(*e) for e in d["client_errors"]),
                before,
            )  # fmt: skip
        )
    return pages


class Diff(Exception):
    """The oracles asked for something the recording does not hold: not the same run."""


def _config(call: dict[str, Any]) -> OracleConfig:
    def known() -> list[str]:
        if call["known"] is None:
            raise Diff("known_routes asked where the recording did not")
        return [str(r) for r in call["known"]]

    def linked(route: str) -> list[str]:
        if route not in call["linked"]:
            raise Diff(f"linked_from({route}) not in the recording")
        return [str(r) for r in call["linked"][route]]

    def loaded(route: str) -> bool:
        if route not in call["loaded"]:
            raise Diff(f"loaded({route}) not in the recording")
        return call["loaded"][route] is True

    return OracleConfig(known_routes=known, linked_from=linked, loaded=loaded)


def replay(rec: Recording) -> tuple[float, int, int]:
    """One pass over `rec` with fresh pages: (CPU seconds in `inspect_page`, pages parsed, diffs)."""
    result = replay_parts(rec)
    return result.cpu_s, result.parsed, result.diffs


@dataclass
class Replayed:
    """One pass over a recording (`replay_parts`)."""

    cpu_s: float
    """CPU seconds in `inspect_page`, all its oracles."""
    parsed: int
    diffs: int
    oracles: dict[str, float] = field(default_factory=dict)
    """CPU seconds in each oracle, in `ORACLES` order: a reading two oracles share (the page's pager,
    its lists) is counted in the first that asks for it."""
    reading_s: float = 0.0
    """CPU seconds reading each inspected page before the oracles (its tree, base and actions: what
    the step reads for itself)."""
    bare_s: float = 0.0
    """CPU seconds of the bare loop's work on the same pages: a selectolax parse and the links
    resolved, for every page parsed (the inspected ones and those the oracles fetched; no network)."""
    found: dict[str, int] = field(default_factory=dict)
    """Per oracle, the inspected pages on which it said anything (one finding or more)."""
    silent_s: dict[str, float] = field(default_factory=dict)
    """Per oracle, CPU seconds on the pages where it said nothing: what skipping it on pages where it
    cannot apply could save at most (a skipped oracle still says nothing there)."""


def replay_parts(rec: Recording, only: Iterable[str] | None = None, *, bare: bool = True) -> Replayed:
    """`replay`, with the CPU of each oracle, of the step's reading and of the bare parse beside it.

    `only`: run these oracles alone (the rest are left out; `()` runs none): then fetches are answered
    by address rather than in the recorded order, and findings are not compared (`diffs` counts only
    fetches the recording does not hold)."""
    import bughunt.oracles as oracles
    from bughunt.actions import page_actions
    from memgpt_lite.log import logger

    logger.remove()
    pages = build_pages(rec)
    chosen = None if only is None else set(only)
    every = dict(oracles.ORACLES)
    spent = dict.fromkeys(every, 0.0)
    silent = dict.fromkeys(every, 0.0)
    spoke = dict.fromkeys(every, 0)

    def timed(name: str, oracle: Oracle) -> Oracle:
        def run(page: FetchedPage, fetch: Any, config: OracleConfig) -> list[Finding]:
            start = time.process_time()
            said: list[Finding] = []
            try:
                said = oracle(page, fetch, config)
                return said
            finally:
                took = time.process_time() - start
                spent[name] += took
                if said:
                    spoke[name] += 1
                else:
                    silent[name] += took

        return run

    oracles.ORACLES.clear()
    oracles.ORACLES.update(
        {name: timed(name, oracle) for name, oracle in every.items() if chosen is None or name in chosen}
    )
    cpu = reading = 0.0
    diffs = 0
    try:
        for call in rec["calls"]:
            answers = list(call["fetches"])
            by_url = {f[0]: f for f in answers}

            def fetch(
                url: str, answers: list[list[Any]] = answers, by_url: dict[str, Any] = by_url
            ) -> FetchedPage:
                if chosen is not None:
                    answer = by_url.get(url)
                    if answer is None:
                        raise Diff(f"{url} fetched where the recording did not")
                elif not answers or answers[0][0] != url:
                    raise Diff(f"{url} fetched where the recording did not")
                else:
                    answer = answers.pop(0)
                if answer[1] is None:
                    raise OSError(answer[2])
                return pages[int(answer[1])]

            page = pages[call["page"]]
            start = time.process_time()
            if page.is_html:
                page.document, page.base, page_actions(page)  # what the step read before the oracles
            reading += time.process_time() - start
            start = time.process_time()
            try:
                found: list[Finding] | None = oracles.inspect_page(page, fetch, _config(call))
            except Diff:
                found = None
            cpu += time.process_time() - start
            if chosen is not None:
                diffs += found is None
            elif found is None or [f.to_dict() for f in found] != call["findings"] or answers:
                diffs += 1
    finally:
        oracles.ORACLES.clear()
        oracles.ORACLES.update(every)
    parsed_ids = {call["page"] for call in rec["calls"]} | {
        f[1] for c in rec["calls"] for f in c["fetches"] if f[1] is not None
    }
    bare_s = bare_parse(rec, parsed_ids) if bare else 0.0
    names = [name for name in every if chosen is None or name in chosen]
    return Replayed(
        cpu, len(parsed_ids), diffs, {name: spent[name] for name in names}, reading, bare_s,
        {name: spoke[name] for name in names}, {name: silent[name] for name in names},
    )  # fmt: skip


def bare_parse(rec: Recording, ids: Iterable[int]) -> float:
    """CPU seconds of the bare loop's own work on pages `ids` of `rec` (`benchmarks.scale_crawl.crawl`
    but the request: a lexbor parse, the links resolved)."""
    from urllib.parse import urljoin

    from selectolax.lexbor import LexborHTMLParser

    bodies = [(rec["pages"][i]["url"], rec["pages"][i]["body"]) for i in sorted(ids)]
    links = 0
    start = time.process_time()
    for url, body in bodies:
        tree = LexborHTMLParser(body)
        links += sum(1 for a in tree.css("a[href]") if urljoin(url, a.attributes.get("href") or ""))
    spent = time.process_time() - start
    if bodies and not links and any("href" in body for _, body in bodies):
        raise SystemExit("error: the bare parse found no links")  # it did not do its work
    return spent


PARTS_HELP = "empty | read | all | oracle:NAME | bare"


def run_part(part: str, path: Path) -> int:
    """Do one part of a replay of the recording at `path` and nothing else, so that a process's
    instruction count less another's is that part's (`benchmarks.oracle_instructions`): `empty` loads
    the recording and builds its pages; `read` also reads each inspected page as the step does; `all`
    also runs every oracle, `oracle:NAME` that one alone; `bare` does the bare loop's parse instead."""
    import bughunt.actions  # noqa: F401 — imported by every part alike, so that no difference holds it

    rec = json.loads(path.read_text())
    if part == "empty":
        build_pages(rec)
    elif part == "bare":
        build_pages(rec)
        ids = {call["page"] for call in rec["calls"]} | {
            f[1] for c in rec["calls"] for f in c["fetches"] if f[1] is not None
        }
        bare_parse(rec, ids)
    elif part in ("read", "all") or part.startswith("oracle:"):
        only = () if part == "read" else None if part == "all" else (part.removeprefix("oracle:"),)
        if only and only[0] not in ORACLES:
            raise SystemExit(f"error: no oracle named {only[0]!r} (one of {', '.join(ORACLES)})")
        result = replay_parts(rec, only, bare=False)
        if only is None and result.diffs:
            raise SystemExit(f"error: {result.diffs} diffs replaying {path}")
    else:
        raise SystemExit(f"error: unknown part {part!r} ({PARTS_HELP})")
    return 0


def _replay_in(tree: Path | None, recordings: list[Path]) -> list[dict[str, Any]]:
    """One pass over each recording in a fresh process running the oracles of `tree` (None: this one)."""
    env = dict(os.environ)
    cwd = Path.cwd()
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
        cwd = tree
    else:
        env["PYTHONPATH"] = str(HERE.parents[1])
    cmd = [sys.executable, str(HERE), "pass", *map(str, recordings)]
    out = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def compare(recordings: list[Path], repeats: int, against: Path | None) -> list[dict[str, Any]]:
    trees: list[Path | None] = [None] if against is None else [None, against]
    samples: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for round_no in range(repeats):
        for t, tree in enumerate(trees):
            for r, result in enumerate(_replay_in(tree, recordings)):
                samples.setdefault((t, r), []).append(result)
        print(f"round {round_no + 1}/{repeats} done", file=sys.stderr)
    rows = []
    for (t, r), runs in sorted(samples.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        cpu = [run["cpu_s"] for run in runs]
        first = runs[0]
        rows.append(
            {
                "recording": recordings[r].name, "code": "this" if trees[t] is None else str(trees[t]),
                "calls": first["calls"], "parsed": first["parsed"], "diffs": max(run["diffs"] for run in runs),
                "ms_per_call_min": 1000 * min(cpu) / first["calls"],
                "ms_per_call_median": 1000 * statistics.median(cpu) / first["calls"],
                "ms_per_parsed_median": 1000 * statistics.median(cpu) / max(1, first["parsed"]),
                "oracles_ms_per_call": {
                    name: 1000 * statistics.median(run["oracles"][name] for run in runs) / first["calls"]
                    for name in first["oracles"]
                },
                "oracles_found_pages": first["found"],
                "oracles_silent_ms": {
                    name: 1000 * statistics.median(run["silent_s"][name] for run in runs) for name in first["oracles"]
                },
                "reading_ms_per_call": 1000 * statistics.median(run["reading_s"] for run in runs) / first["calls"],
                "bare_ms_per_call": 1000 * statistics.median(run["bare_s"] for run in runs) / first["calls"],
            }
        )  # fmt: skip
    return rows


def _per_oracle(rows: Iterable[dict[str, Any]]) -> str:
    """Each oracle's median CPU per inspected page, beside the step's reading of the page and the bare
    loop's parse of the same pages (the one table a new oracle's cost shows in)."""
    rows = list(rows)
    names = [name for name in rows[0]["oracles_ms_per_call"]] if rows else []
    heads = [f"{r['recording'][:14]}/{r['code'][-10:]}" for r in rows]
    lines = [f"{'ms per inspected page (median)':32} " + " ".join(f"{h:>25}" for h in heads)]
    for name in names:
        lines.append(f"{name:32} " + " ".join(f"{r['oracles_ms_per_call'][name]:>25.3f}" for r in rows))
    lines.append(f"{'all oracles':32} " + " ".join(f"{r['ms_per_call_median']:>25.3f}" for r in rows))
    lines.append(
        f"{'the step reading the page':32} " + " ".join(f"{r['reading_ms_per_call']:>25.3f}" for r in rows)
    )
    lines.append(
        f"{'bare loop: parse + links':32} " + " ".join(f"{r['bare_ms_per_call']:>25.3f}" for r in rows)
    )
    # where each oracle said something, and what it spent where it said nothing: the most a skip of
    # the oracle on pages where it cannot apply could save
    lines.append(f"{'pages with a finding / ms where none':32} " + " ".join(f"{'':>25}" for _ in rows))
    for name in names:
        cells = [
            f"{r['oracles_found_pages'][name]}/{r['calls']} {r['oracles_silent_ms'][name]:.2f} ms"
            for r in rows
        ]
        lines.append(f"{name:32} " + " ".join(f"{c:>25}" for c in cells))
    return "\n".join(lines)


def _table(rows: Iterable[dict[str, Any]], load: tuple[tuple[float, ...], tuple[float, ...]]) -> str:
    lines = [
        f"{'recording':34} {'code':24} {'calls':>5} {'parsed':>6} {'ms/call min':>11} {'median':>7} {'ms/parsed':>9} diffs"
    ]
    for row in rows:
        lines.append(
            f"{row['recording'][:34]:34} {row['code'][-24:]:24} {row['calls']:>5} {row['parsed']:>6} "
            f"{row['ms_per_call_min']:>11.2f} {row['ms_per_call_median']:>7.2f} {row['ms_per_parsed_median']:>9.2f} {row['diffs']}"
        )  # fmt: skip
    lines.append(
        "load " + " ".join(f"{x:.1f}" for x in load[0]) + " -> " + " ".join(f"{x:.1f}" for x in load[1])
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["pass"]:  # one pass per recording, one JSON line each (what `compare` runs)
        for path in argv[1:]:
            rec = json.loads(Path(path).read_text())
            # the last recording's garbage collected first, not in this one's timed parts (a full
            # collection of its pages' trees fell in the next recording's reading: 0.6 -> 2.8 ms a page)
            gc.collect()
            r = replay_parts(rec)
            print(
                json.dumps(
                    {
                        "cpu_s": r.cpu_s, "calls": len(rec["calls"]), "parsed": r.parsed, "diffs": r.diffs,
                        "oracles": r.oracles, "reading_s": r.reading_s, "bare_s": r.bare_s,
                        "found": r.found, "silent_s": r.silent_s,
                    }
                )
            )  # fmt: skip
        return 0
    if argv[:1] == ["part"]:  # one part of a pass, for its instructions (`benchmarks.oracle_instructions`)
        return run_part(argv[1], Path(argv[2]))
    if argv[:1] == ["record"]:
        if "--" not in argv:
            raise SystemExit("usage: python -m benchmarks.oracle_cost record OUT.json -- explore ...")
        calls = record(Path(argv[1]), argv[argv.index("--") + 1 :])
        print(f"recorded {calls} oracle calls into {argv[1]}", file=sys.stderr)
        return 0
    parser = argparse.ArgumentParser(prog="python -m benchmarks.oracle_cost replay", description=__doc__)
    parser.add_argument("mode", choices=["replay"])
    parser.add_argument("recordings", nargs="+", type=Path)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--against", type=Path, help="also replay from this source tree, in the same rounds")
    parser.add_argument(
        "--measure", choices=["cpu", "instructions"], default="cpu",
        help="instructions: also count each oracle's instructions a page with callgrind (~50x slower)",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    rows = compare(args.recordings, args.repeats, args.against)
    load = (load_before, os.getloadavg())
    counts = None
    if args.measure == "instructions":
        from benchmarks.oracle_instructions import count_recordings

        counts = count_recordings(args.recordings, args.against)
        load = (load_before, os.getloadavg())
    if args.json:
        print(json.dumps({"rows": rows, "load": load, **({"instructions": counts} if counts else {})}))
    else:
        print(_table(rows, load))
        print(_per_oracle(rows))
        if counts:
            from benchmarks.oracle_instructions import render

            print(render(counts))
    return 1 if any(row["diffs"] for row in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
