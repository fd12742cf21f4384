"""Explorer ablations through the simulator's engine: tasks × configurations over real HTTP."""

from __future__ import annotations

import json

import pytest

from bughunt.ablation.config import ExplorerRunConfig, parse_config
from bughunt.ablation.explorer import explorer_task
from bughunt.ablation.run import run_ablation
from bughunt.cli import main
from bughunt.sim.backends import SerialBackend
from memgpt_lite.errors import ConfigError


def test_explorer_task_record():
    rec = explorer_task(ExplorerRunConfig(policy="frontier", budget=30), "1.2|/|logged-in", 0)
    # learned idle controls and hub jumps: the 24 pages may take fewer than the 30 clicks
    assert rec["coverage"] >= 0.75 and rec["steps"] <= 30 and rec["duplicate_reports"] == 0
    assert rec["curve"][0] == pytest.approx(1 / 24) and rec["curve"][-1] == rec["coverage"]
    out = explorer_task(ExplorerRunConfig(policy="frontier", budget=30), "1.2|/|logged-out", 0)
    assert out["coverage"] < rec["coverage"], "the logged-out view walls off the account pages"


@pytest.mark.slow
def test_memory_components_change_the_outcome():
    cfg = parse_config(
        {
            "name": "t",
            "explorer": {
                "tasks": {"versions": ["1.2", "1.3"], "starts": ["/"], "accounts": ["logged-in"]},
                "runs_per_task": 2,
                "budget": 30,
                "grid": {"policy": ["frontier"], "memory": ["none", "both"]},
                "baseline": "frontier/mem-none",
                "metrics": ["coverage", "repeat_rate", "duplicate_reports"],
                "bootstrap": {"resamples": 200, "seed": 0},
            },
        }
    )
    summary = run_ablation(cfg, SerialBackend()).summary
    assert summary.n_tasks == 2 and summary.runs_per_task == 2
    gain = summary.paired["frontier/mem-both"]["coverage"]
    assert gain.mean > 0.2  # memory buys coverage on the real explorer too
    assert summary.intervals["frontier/mem-both"]["duplicate_reports"].mean == 0


def test_bad_explorer_config_names_the_field():
    with pytest.raises(ConfigError, match="starts"):
        parse_config({"explorer": {"tasks": {"starts": ["/nowhere"]}, "grid": {}}})
    with pytest.raises(ConfigError, match="policy"):
        parse_config({"explorer": {"configs": [{"policy": "teleport"}]}})


def test_ablate_command_with_explorer_section(tmp_path, capsys):
    conf = tmp_path / "ex.yaml"
    conf.write_text(
        "name: cli\nexplorer:\n  budget: 10\n  grid: {policy: [random, frontier], memory: [both]}\n"
        "  bootstrap: {resamples: 200, seed: 0}\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.json"
    assert main(["ablate", "--config", str(conf), "--backend", "serial", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert set(data["configs"]) == {"random/mem-both", "frontier/mem-both"}
    assert data["tasks"] == 2 and "coverage" in data["configs"]["frontier/mem-both"]


def test_until_all_bugs_measures_steps_and_tokens_to_find_them():
    cfg = ExplorerRunConfig(policy="frontier", until_all_bugs=True, max_steps=120)
    rec = explorer_task(cfg, "1.3|/|logged-in", 0)
    assert rec["bug_recall"] == 1.0 and rec["bugs_found"] == 5, "1.3 has five bugs (Search page 2 fixed)"
    assert rec["steps"] == rec["steps_to_all_bugs"] < 120, "the run stops at the last bug"
    assert rec["tokens_to_all_bugs"] == rec["tokens"] and rec["tokens_per_bug"] == rec["tokens"] / 5
    walled = explorer_task(cfg, "1.2|/|logged-out", 0)
    assert walled["bug_recall"] < 1.0 and walled["steps_to_all_bugs"] == 120, (
        "never finding them all is censored"
    )


def test_every_recorded_metric_can_be_asked_for():
    from typing import get_args

    from bughunt.ablation.config import EXPLORER_METRICS, ExplorerMetric

    assert set(get_args(ExplorerMetric)) == set(EXPLORER_METRICS)
    rec = explorer_task(ExplorerRunConfig(policy="random", memory="none", budget=3), "1.2|/|logged-in", 0)
    assert set(EXPLORER_METRICS) <= set(rec)


def test_account_dimension_on_the_two_user_site_reaches_the_results_json(tmp_path):
    """conduit-htmx: user A and user B log in through the explorer's form login and see their own pages."""
    conf = tmp_path / "accounts.yaml"
    conf.write_text(
        "name: accounts\nexplorer:\n  site: conduit-htmx\n  tasks: {accounts: [user-a, user-b]}\n"
        "  budget: 10\n  runs_per_task: 1\n  grid: {policy: [frontier], memory: [both]}\n"
        "  metrics: [coverage, bug_recall]\n  bootstrap: {resamples: 200, seed: 0}\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.json"
    assert main(["ablate", "--config", str(conf), "--backend", "serial", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["tasks"] == 2 and data["config"]["explorer"]["site"] == "conduit-htmx"
    tasks = data["task_results"]
    assert set(tasks) == {"1.0|/|user-a", "1.0|/|user-b"}
    assert {t["account"] for t in tasks.values()} == {"user-a", "user-b"}
    a, b = (
        set(tasks[k]["configs"]["frontier/mem-both"]["pages_visited"])
        for k in ("1.0|/|user-a", "1.0|/|user-b")
    )
    assert a and b and (a - b or b - a), "two users see different pages"
    assert "/profile/demo" in a and "/profile/demo2" in b  # each one's own profile (the navbar link)
    assert not any(r.startswith("/login") for r in a | b), "logged in: no login wall"
    assert 0 < tasks["1.0|/|user-a"]["configs"]["frontier/mem-both"]["means"]["coverage"] <= 1
    assert "conduit-demo" not in out.read_text(), "the demo passwords are never written"


def test_account_names_and_sites_are_checked():
    ok = parse_config(
        {"explorer": {"tasks": {"accounts": ["logged-in", "logged-out"]}, "grid": {"policy": ["random"]}}}
    )
    assert ok.explorer.task_keys() == [
        "1.2|/|logged-in",
        "1.2|/|logged-out",
        "1.3|/|logged-in",
        "1.3|/|logged-out",
    ]
    with pytest.raises(ConfigError, match="user-b needs site: conduit-htmx"):
        parse_config({"explorer": {"tasks": {"accounts": ["user-a", "user-b"]}, "grid": {}}})
    with pytest.raises(ConfigError, match="same account"):
        parse_config({"explorer": {"tasks": {"accounts": ["logged-in", "user-a"]}, "grid": {}}})
    with pytest.raises(ConfigError, match="conduit-htmx has no version"):
        parse_config({"explorer": {"site": "conduit-htmx", "tasks": {"versions": ["1.2"]}, "grid": {}}})
    with pytest.raises(ConfigError, match="not a page of conduit-htmx"):
        parse_config({"explorer": {"site": "conduit-htmx", "tasks": {"starts": ["/nope"]}, "grid": {}}})
    with pytest.raises(ConfigError, match="site"):
        parse_config({"explorer": {"site": "shop", "grid": {}}})


def test_user_a_is_the_24_page_sites_logged_in_view():
    from bughunt import site
    from bughunt.webapp.account import ACCOUNT_PAGES

    behind_wall = {site.PAGES[i].route for i in ACCOUNT_PAGES}
    cfg = ExplorerRunConfig(policy="frontier", budget=12)
    for task in ("1.2|/|logged-in", "1.2|/|user-a"):
        assert behind_wall & set(explorer_task(cfg, task, 0)["pages"]), task
    assert not behind_wall & set(explorer_task(cfg, "1.2|/|logged-out", 0)["pages"])
