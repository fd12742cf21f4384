"""The ablation runner on a Dask distributed cluster started by the test: same results as in-process."""

from __future__ import annotations

import json

import pytest

from bughunt.cli import main
from bughunt.sim.backends import DaskBackend, SerialBackend
from bughunt.sim.engine import RunConfig
from bughunt.sim.runner import run_grid, sim_task

distributed = pytest.importorskip("distributed")

CONFIG = """
name: dask-check
seeds: {start: 1000, count: 30}
grid:
  strategy: [random, frontier]
  capacity: [null, 8]
  policy: [random]
baseline: random
metrics: [coverage, tokens]
bootstrap: {resamples: 500}
"""


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster

    with LocalCluster(
        host="127.0.0.1", n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as c:
        yield c


@pytest.mark.slow
def test_dask_backend_matches_serial(cluster):
    configs = {
        "frontier/cap8/random": RunConfig("frontier", capacity=8, policy="random"),
        "random/all": RunConfig("random", until_all_bugs=True),
    }
    tasks = list(range(1000, 1040))
    done = []
    dask = run_grid(
        sim_task,
        configs,
        tasks,
        backend=DaskBackend(cluster.scheduler_address),
        on_done=done.append,
        unit_size=9,
    )
    serial = run_grid(sim_task, configs, tasks, backend=SerialBackend())
    assert dask.records == serial.records
    assert sum(done) == len(configs) * len(tasks)


@pytest.mark.slow
def test_cli_dask_backend_same_json(cluster, tmp_path, capsys):
    f = tmp_path / "c.yaml"
    f.write_text(CONFIG)
    assert (
        main(
            [
                "ablate",
                "--config",
                str(f),
                "--backend",
                "dask",
                "--address",
                cluster.scheduler_address,
                "--json",
                "-",
            ]
        )
        == 0
    )
    via_dask = json.loads(capsys.readouterr().out)
    assert main(["ablate", "--config", str(f), "--backend", "serial", "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == via_dask
    assert via_dask["paired"]["frontier_vs_random"]["coverage"]["wins"] == 30
