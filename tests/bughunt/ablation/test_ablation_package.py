"""The ablation package: one schema for simulator and explorer tasks, and a package the command layer
calls without being called back (`tests/test_layers.py` checks the import contracts)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from pydantic import BaseModel

from bughunt.ablation import config
from bughunt.ablation.config import ExplorerAblationFile, SimulatorAblation, parse_config
from bughunt.ablation.files import load_config
from memgpt_lite.errors import ConfigError

SIMULATOR = {"seeds": {"count": 4}, "grid": {"strategy": ["frontier"], "capacity": [None, 8]}}
EXPLORER = {"name": "e", "explorer": {"grid": {"policy": ["random", "frontier"], "capacity": [None, 8]}}}


def test_one_schema_reads_both_kinds_of_task(tmp_path):
    sim = parse_config(SIMULATOR)
    ex = parse_config(EXPLORER)
    assert isinstance(sim, SimulatorAblation) and isinstance(ex, ExplorerAblationFile)
    # one grid rule: the product in field order, eviction collapsed where nothing is evicted
    assert [s.label() for s in sim.specs()] == ["frontier", "frontier/cap8/fifo"]
    assert list(ex.explorer.run_configs()) == [
        "random/mem-both", "random/mem-both/cap8/fifo", "frontier/mem-both", "frontier/mem-both/cap8/fifo",
    ]  # fmt: skip
    assert sim.task_keys() == [1000, 1001, 1002, 1003] and sim.total_runs() == 8
    assert ex.explorer.task_keys() == ["1.2|/|logged-in", "1.3|/|logged-in"] and ex.explorer.total_runs() == 8
    # the same file formats as before: YAML or TOML, the kind told by an `explorer:` section
    (tmp_path / "e.toml").write_text('name = "e"\n[explorer.grid]\npolicy = ["random", "frontier"]\n')
    assert isinstance(load_config(tmp_path / "e.toml"), ExplorerAblationFile)
    assert isinstance(load_config("planner"), SimulatorAblation)


def test_every_setting_is_strict_and_frozen():
    models = [
        v
        for v in vars(config).values()
        if isinstance(v, type) and issubclass(v, BaseModel) and v.__module__ == config.__name__
    ]
    assert len(models) > 10
    for model in models:
        assert issubclass(model, config.Strict), model
        assert model.model_config.get("extra") == "forbid" and model.model_config.get("frozen"), model


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"grid": {"capacity": [0]}}, "grid.capacity: capacity must be at least 1"),
        ({"explorer": {"grid": {"capacity": [0]}}}, "explorer.grid.capacity: capacity must be at least 1"),
        ({"explorer": {"grid": {"policy": ["teleport"]}}}, "explorer.grid.policy: unknown policy 'teleport'"),
        (
            {"explorer": {"grid": {}, "bootstrap": {"resample": 5}}},
            "explorer.bootstrap.resample: Extra inputs",
        ),
        ({"explorer": {"grid": {}, "metrics": []}}, "explorer.metrics: List should have at least 1 item"),
        ({"explorer": {}}, "explorer: configs: give at least one configuration"),
        (
            {"explorer": {"grid": {"policy": ["frontier"]}, "configs": [{"policy": "frontier"}]}},
            "explorer: configs: duplicate configuration names ['frontier/mem-both']",
        ),
        ({"configs": [{"strategy": "frontier"}], "explorer": {"grid": {}}}, "configs: Extra inputs"),
        ({"explorer": {"grid": {}}, "baseline": "x"}, "baseline: Extra inputs"),
        ([1, 2], "expected a mapping of settings at the top level, got list"),
    ],
)
def test_malformed_configs_of_either_kind_name_the_field(data, message):
    with pytest.raises(ConfigError) as e:
        parse_config(data, "my.yaml")
    assert str(e.value).startswith("my.yaml: ") and message in str(e.value), str(e.value)


PROBE = """
import json, sys
from bughunt.ablation.config import parse_config
from bughunt.ablation.run import run_ablation, total_runs
cfg = parse_config({"seeds": {"count": 3}, "configs": [{"strategy": "random"}, {"strategy": "frontier"}],
                    "bootstrap": {"resamples": 100}})
done = []
outcome = run_ablation(cfg, None, done.append)
print(json.dumps({"done": sum(done), "total": total_runs(cfg), "tasks": outcome.document["tasks"],
                  "commands": sorted(m for m in sys.modules if m.startswith("bughunt.commands"))}))
"""


def test_the_package_runs_without_the_command_layer_and_reports_progress_down_the_callback():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == {"done": 6, "total": 6, "tasks": 3, "commands": []}
