"""sim.js under Node gives the same runs as the Python engine, bit for bit."""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
import sys

import pytest

from bughunt import site
from bughunt.demo.build import build_files, site_data_js
from bughunt.sim.engine import RunConfig, run

pytestmark = pytest.mark.skipif(not shutil.which("node"), reason="Node.js is not installed")

DRIVER = """
import { runSim, mulberry32 } from "./sim.mjs";
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const rnd = mulberry32(1000);
const draws = Array.from({ length: 5 }, () => rnd());
const runs = cases.map((c) => runSim(c));
process.stdout.write(JSON.stringify({ draws, runs }));
"""


def _cases() -> list[dict]:
    cases = []
    for strategy, seed in itertools.product(("random", "visited", "frontier"), range(1000, 1040)):
        cases.append({"strategy": strategy, "seed": seed, "capacity": None, "policy": "fifo", "budget": 30})
    for strategy, cap, policy in itertools.product(
        ("visited", "frontier"), range(4, 21), ("fifo", "lru", "random")
    ):
        for seed in (1000 + cap, 1100 + cap, 1199):
            cases.append(
                {"strategy": strategy, "seed": seed, "capacity": cap, "policy": policy, "budget": 30}
            )
    for seed in range(1000, 1010):  # run-until-all-bugs mode
        cases.append({"strategy": "frontier", "seed": seed, "untilAllBugs": True})
        cases.append({"strategy": "random", "seed": seed, "untilAllBugs": True})
    return cases


@pytest.fixture(scope="module")
def node_results(tmp_path_factory):
    d = tmp_path_factory.mktemp("simjs")
    (d / "sim.mjs").write_text(build_files()["sim.js"])
    (d / "driver.mjs").write_text(DRIVER)
    cases = _cases()
    (d / "cases.json").write_text(json.dumps(cases))
    out = subprocess.run(
        ["node", "driver.mjs", "cases.json"], cwd=d, capture_output=True, text=True, check=True
    )
    return cases, json.loads(out.stdout)


def test_mulberry32_draws_match(node_results):
    from bughunt.sim.rng import mulberry32

    rnd = mulberry32(1000)
    assert node_results[1]["draws"] == [rnd() for _ in range(5)]


def test_every_configuration_matches_python(node_results):
    cases, out = node_results
    assert len(out["runs"]) == len(cases) > 300
    for case, js in zip(cases, out["runs"], strict=True):
        cfg = RunConfig(
            strategy=case["strategy"],
            capacity=case.get("capacity"),
            policy=case.get("policy", "fifo"),
            budget=case.get("budget", 30),
            until_all_bugs=case.get("untilAllBugs", False),
        )
        py = run(cfg, case["seed"])
        assert js["path"] == py.path, case
        assert js["coverage"] == py.coverage, case
        assert js["tokens"] == py.tokens, case
        assert (js["reports"], js["dups"], js["steps"]) == (py.reports, py.duplicate_reports, py.steps), case
        assert js["repeatRate"] == py.repeat_rate, case


def test_cli_json_matches_sim_js(node_results):
    cases, out = node_results
    for i in (0, 45, 100):
        c = cases[i]
        argv = [
            sys.executable,
            "-m",
            "bughunt",
            "sim",
            "--strategy",
            c["strategy"],
            "--seed",
            str(c["seed"]),
            "--json",
        ]
        if c.get("capacity"):
            argv += ["--capacity", str(c["capacity"]), "--policy", c["policy"]]
        cli = json.loads(subprocess.run(argv, capture_output=True, text=True, check=True).stdout)
        assert cli["path"] == out["runs"][i]["path"]
        assert cli["tokens"] == out["runs"][i]["tokens"]
        assert cli["coverage"] == out["runs"][i]["coverage"]


def test_site_data_is_generated_from_the_site_definition():
    js = site_data_js()
    assert json.dumps([list(site.LINKS[p.index]) for p in site.PAGES]) in js
    assert json.dumps([b.page for b in site.BUGS]) in js
