"""`bughunt sim` and `bughunt ablate --reproduce`: the acceptance figures, printed and in JSON."""

from __future__ import annotations

import argparse
import json

import pytest

from bughunt.cli import main
from bughunt.sim.stats import pct


def test_sim_seed_1000_trace(capsys):
    assert main(["sim", "--strategy", "random", "--seed", "1000"]) == 0
    out = capsys.readouterr().out
    assert "Pages seen: 12 of 24" in out
    assert "Home 6×" in out and "My Profile 4×" in out
    assert "duplicate reports 2" in out
    assert "Delete account" in out.split("Never reached:")[1]


def test_sim_json_keys(capsys):
    assert (
        main(
            [
                "sim",
                "--strategy",
                "frontier",
                "--seed",
                "1000",
                "--capacity",
                "12",
                "--policy",
                "lru",
                "--json",
            ]
        )
        == 0
    )
    d = json.loads(capsys.readouterr().out)
    assert list(d) == [
        "path",
        "coverage",
        "repeat_rate",
        "bugs_found",
        "reports",
        "duplicate_reports",
        "tokens",
        "steps",
    ]
    assert d["path"][0] == 0 and len(d["path"]) == d["steps"] + 1


def test_sim_eviction_flag_and_its_deprecated_alias(capsys):
    base = ["sim", "--strategy", "frontier", "--seed", "1003", "--capacity", "4", "--json"]
    assert main([*base, "--eviction", "random"]) == 0
    new = capsys.readouterr()
    assert main([*base, "--policy", "random"]) == 0
    old = capsys.readouterr()
    assert json.loads(old.out) == json.loads(new.out) and "deprecated" in old.err and not new.err
    assert json.loads(new.out) != json.loads(main([*base]) == 0 and capsys.readouterr().out)  # fifo differs
    assert main([*base, "--policy", "lru", "--eviction", "random"]) == 2
    assert "contradicts" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["sim", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--eviction" in help_text and "deprecated alias of --eviction" in help_text


def test_sim_bad_strategy_is_a_clear_error(capsys):
    assert main(["sim", "--strategy", "teleport"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "strategy" in err  # the shared net's prefix, as every command


@pytest.fixture(scope="module")
def reproduction(tmp_path_factory):
    d = tmp_path_factory.mktemp("repro")
    rc = main(["ablate", "--reproduce", "--json", str(d / "r.json"), "--plots", str(d / "plots")])
    assert rc == 0
    return d, json.loads((d / "r.json").read_text())


def test_reproduce_acceptance_figures(reproduction):
    _, r = reproduction
    v, f = r["paired"]["visited_vs_random"], r["paired"]["frontier_vs_random"]
    assert [pct(v[k], True) for k in ("mean", "lo", "hi")] == ["+29.3", "+27.9", "+30.6"]
    assert [pct(f[k], True) for k in ("mean", "lo", "hi")] == ["+45.1", "+44.0", "+46.1"]
    assert (v["wins"], f["wins"]) == (199, 200)
    for p in (v, f):
        assert abs(p["bootstrap"]["lo"] - p["lo"]) <= 0.001 and abs(p["bootstrap"]["hi"] - p["hi"]) <= 0.001
    assert f"{(v['hi'] - v['lo']) / 2 * 100:.2f}/{v['unpaired_half_width'] * 100:.2f}" == "1.30/1.39"
    assert f"{(f['hi'] - f['lo']) / 2 * 100:.2f}/{f['unpaired_half_width'] * 100:.2f}" == "1.08/1.10"
    assert pct(r["strategies"]["visited"]["coverage"]["mean"]) == "78.0"
    assert round(r["strategies"]["frontier"]["tokens"]) == 105_359
    assert r["strategies"]["random"]["tokens"] == 90_000
    ratio = r["until_all_bugs"]["frontier"]["tokens_mean"] / r["until_all_bugs"]["random"]["tokens_mean"]
    assert pct(ratio) == "5.8"
    c = r["capacity_12_random_vs_fifo"]
    assert [pct(c[k], True) for k in ("mean", "lo", "hi")] == ["+3.8", "+2.7", "+4.8"]
    assert set(r["capacity"]) == {"4", "8", "12", "16", "20"}
    assert set(r["capacity"]["12"]) == {"fifo", "lru", "random"}
    for s in ("random", "visited", "frontier"):
        assert set(r["strategies"][s]) >= {
            "coverage",
            "repeat_rate",
            "bugs_found",
            "duplicate_reports",
            "tokens",
        }
        assert set(r["until_all_bugs"][s]) >= {"steps_mean", "tokens_mean"}


def test_reproduce_plots(reproduction):
    d, _ = reproduction
    for name in ("coverage_by_strategy.png", "capacity_sweep.png", "coverage_vs_step.png"):
        data = (d / "plots" / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


def test_reproduce_prints_the_figures(capsys):
    assert main(["ablate", "--reproduce", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "+29.3 [+27.9, +30.6]" in out and "199/200" in out
    assert "+45.1 [+44.0, +46.1]" in out and "200/200" in out
    assert "1.30 / 1.39" in out and "1.08 / 1.10" in out
    assert "105,359" in out and "90,000" in out
    assert "+3.8 pp [+2.7, +4.8]" in out


def test_ablate_plan(capsys):
    assert main(["ablate", "plan", "--effect", "0.05", "--sd", "0.1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tasks"] == 32
    assert main(["ablate", "plan", "--effect", "0.05", "--sd", "0.1", "--unpaired"]) == 0
    assert capsys.readouterr().out.startswith("63 tasks per configuration")
    assert main(["ablate", "plan", "--effect", "0", "--sd", "0.1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "effect" in err


def test_ablate_without_mode_is_a_usage_error(capsys):
    assert main(["ablate"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "--reproduce" in err


def test_bad_output_paths_fail_before_the_work(tmp_path, capsys):
    (tmp_path / "afile").write_text("x")
    assert main(["ablate", "--reproduce", "--json", str(tmp_path / "afile" / "r.json")]) == 2
    assert "is a file, not a directory" in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    assert main(["ablate", "--reproduce", "--plots", str(tmp_path / "file")]) == 2
    assert "--plots" in capsys.readouterr().err


def test_ablate_plan_from_a_pilot(reproduction, capsys):
    d, r = reproduction
    pilot = str(d / "r.json")
    assert (
        main(
            [
                "ablate",
                "plan",
                "--pilot",
                pilot,
                "--comparison",
                "visited_vs_random",
                "--effect",
                "0.05",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    v = r["paired"]["visited_vs_random"]
    sd = (v["hi"] - v["lo"]) / 2 * 200**0.5 / 1.96  # SD of per-seed differences, about 0.094
    assert out["sd"] == pytest.approx(sd) and out["tasks"] == 28  # ((1.96 + 0.8416) * 0.0939 / 0.05)^2 = 27.7
    assert out["pilot"]["n_tasks"] == 200
    assert main(["ablate", "plan", "--pilot", pilot]) == 2  # two comparisons: which one?
    assert "visited_vs_random" in capsys.readouterr().err
    assert main(["ablate", "plan", "--sd", "0.1"]) == 2
    assert "--effect" in capsys.readouterr().err


def test_dispatcher_loads_only_the_named_command():
    from bughunt.cli import COMMANDS, build_parser

    def commands(parser):
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return set(sub.choices)

    assert commands(build_parser(["-v", "ablate", "--reproduce"])) == {"ablate"}
    assert commands(build_parser(["sim", "--json"])) == {"sim"}
    assert len(commands(build_parser(["--help"]))) == len(COMMANDS)  # help lists every command
    assert len(commands(build_parser(["no-such-command"]))) == len(COMMANDS)
