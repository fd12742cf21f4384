"""Ablation configs: validation errors that name the field, YAML and TOML runs, the generic runner."""

from __future__ import annotations

import json

import pytest

from bughunt.ablation.config import parse_config
from bughunt.ablation.files import load_config
from bughunt.cli import main
from bughunt.sim.backends import ProcessBackend, SerialBackend, make_backend
from bughunt.sim.engine import RunConfig
from bughunt.sim.runner import run_grid, sim_task
from bughunt.sim.summary import summarize
from memgpt_lite.errors import ConfigError, UsageError

YAML = """
name: eviction-at-12
seeds: {start: 1000, count: 40}
grid:
  strategy: [frontier]
  capacity: [12]
  policy: [fifo, lru, random]
configs:
  - {name: no-memory, strategy: random}
  - {name: bugs-only, strategy: frontier, memory: bugs}
baseline: no-memory
metrics: [coverage, duplicate_reports, tokens]
bootstrap: {resamples: 1000}
"""

TOML = """
name = "components"
runs_per_task = 3
metrics = ["coverage", "duplicate_reports"]
[seeds]
start = 1000
count = 10
[grid]
strategy = ["visited"]
memory = ["none", "visited", "bugs", "both"]
"""


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"grid": {"policy": ["fifo", "mru"]}}, "grid.policy.1"),
        ({"grid": {"strategy": ["teleport"]}}, "grid.strategy"),
        ({"configs": [{"strategy": "frontier", "capacity": 0}]}, "configs.0.capacity"),
        ({"configs": [{"strategy": "frontier"}], "seeds": {"count": 1}}, "seeds.count"),
        ({"configs": [{"strategy": "frontier"}], "baseline": "nope"}, "baseline"),
        ({"configs": [{"strategy": "frontier"}], "budjet": 30}, "budjet"),
        ({"configs": [{"strategy": "frontier"}], "metrics": ["speed"]}, "metrics.0"),
        ({}, "configs"),
    ],
)
def test_bad_config_names_the_field(data, field):
    with pytest.raises(ConfigError) as e:
        parse_config(data, "my.yaml")
    assert str(e.value).startswith("my.yaml: ") and field in str(e.value)


def test_bad_files(tmp_path):
    (tmp_path / "a.yaml").write_text("grid: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(tmp_path / "a.yaml")
    (tmp_path / "a.toml").write_text("name = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(tmp_path / "a.toml")
    (tmp_path / "a.ini").write_text("")
    with pytest.raises(ConfigError, match="unknown config format"):
        load_config(tmp_path / "a.ini")
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.yaml")
    (tmp_path / "b.yaml").write_text("- just\n- a list\n")
    with pytest.raises(ConfigError, match="mapping"):
        load_config(tmp_path / "b.yaml")


def test_cli_bad_config_is_a_clear_error_without_traceback(tmp_path, capsys):
    f = tmp_path / "bad.yaml"
    f.write_text("grid:\n  strategy: [frontier]\n  policy: [fifo, mru]\n")
    assert main(["ablate", "--config", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "grid.policy.1" in err and "Traceback" not in err


def test_grid_collapses_policy_without_capacity():
    cfg = parse_config({"grid": {"strategy": ["frontier"], "capacity": [None, 8], "policy": ["fifo", "lru"]}})
    assert [s.label() for s in cfg.specs()] == ["frontier", "frontier/cap8/fifo", "frontier/cap8/lru"]
    assert cfg.baseline_name() == "frontier"


def test_yaml_ablation_end_to_end(tmp_path, capsys):
    f = tmp_path / "abl.yaml"
    f.write_text(YAML)
    out = tmp_path / "out.json"
    assert main(["ablate", "--config", str(f), "--json", str(out), "--plots", str(tmp_path / "p")]) == 0
    printed = capsys.readouterr().out
    assert "eviction-at-12" in printed and "frontier/cap12/random" in printed
    d = json.loads(out.read_text())
    assert d["tasks"] == 40 and d["baseline"] == "no-memory"
    assert set(d["configs"]) == {
        "frontier/cap12/fifo",
        "frontier/cap12/lru",
        "frontier/cap12/random",
        "no-memory",
        "bugs-only",
    }
    bugs_only = d["paired"]["bugs-only_vs_no-memory"]
    # a bug list alone walks like random but never reports twice
    assert bugs_only["coverage"]["mean"] == 0 and bugs_only["duplicate_reports"]["mean"] < 0
    assert d["paired"]["frontier/cap12/random_vs_no-memory"]["coverage"]["wins"] > 30
    assert (tmp_path / "p" / "coverage_by_config.png").exists()
    assert (tmp_path / "p" / "coverage_vs_step.png").exists()


def test_toml_ablation_averages_runs_per_task(tmp_path, capsys):
    f = tmp_path / "abl.toml"
    f.write_text(TOML)
    assert main(["ablate", "--config", str(f), "--json", "-", "--workers", "1"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["runs_per_task"] == 3 and d["tasks"] == 10
    assert d["baseline"] == "visited/mem-none"
    assert d["paired"]["visited/mem-bugs_vs_visited/mem-none"]["coverage"]["mean"] == 0


def _toy_task(config: float, task: int, run: int) -> dict:
    return {"score": config * task + run}


def test_generic_runner_pairs_per_task_means():
    grid = run_grid(_toy_task, {"a": 2.0, "b": 1.0}, [1, 2, 3], runs_per_task=2, unit_size=2)
    assert grid.values("a", "score") == {1: [2.0, 3.0], 2: [4.0, 5.0], 3: [6.0, 7.0]}
    s = summarize(grid, ["score"], baseline="b", resamples=200)
    p = s.paired["a"]["score"]
    assert p.mean == pytest.approx(2.0)  # per-task mean differences 1, 2, 3
    assert p.wins.wins == 3 and s.intervals["b"]["score"].mean == pytest.approx(2.5)
    with pytest.raises(UsageError):
        summarize(grid, ["score"], baseline="c")
    with pytest.raises(UsageError):
        run_grid(_toy_task, {}, [1])


def test_backends_agree():
    configs = {"f12": RunConfig("frontier", capacity=12, policy="random"), "r": RunConfig("random")}
    tasks = list(range(1000, 1030))
    serial = run_grid(sim_task, configs, tasks, backend=SerialBackend(), unit_size=7)
    local = run_grid(sim_task, configs, tasks, backend=ProcessBackend(2), unit_size=7)
    assert serial.records == local.records
    with pytest.raises(UsageError):
        make_backend("dask")  # needs an address
    with pytest.raises(UsageError):
        make_backend("spark")


def test_ray_backend_without_ray_is_a_clear_error(tmp_path, capsys):
    pytest.importorskip("yaml")
    try:
        import ray  # noqa: F401

        pytest.skip("ray is installed here")
    except ImportError:
        pass
    f = tmp_path / "c.yaml"
    f.write_text("seeds: {count: 5}\nconfigs: [{strategy: random}]\n")
    assert main(["ablate", "--config", str(f), "--backend", "ray"]) == 2
    assert "ray" in capsys.readouterr().err


def test_presets_load_by_name_and_validate():
    from bughunt.ablation.files import preset_names

    assert {"planner", "planner-all-bugs", "components", "eviction"} <= set(preset_names())
    for name in preset_names():
        cfg = load_config(name)
        assert cfg.run_configs() and cfg.baseline_name() in cfg.run_configs()
    with pytest.raises(ConfigError, match="built-in presets: .*planner"):
        load_config("no-such-preset")


def test_complete_metric(tmp_path, capsys):
    f = tmp_path / "c.yaml"
    f.write_text("seeds: {count: 10}\nbudget: 200\nconfigs: [{strategy: frontier}]\nmetrics: [complete]\n")
    assert main(["ablate", "--config", str(f), "--json", "-", "--workers", "1"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["configs"]["frontier"]["complete"]["mean"] == 1.0  # frontier always finishes given 200 steps
