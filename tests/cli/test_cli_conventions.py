"""Command-line conventions shared by `bughunt` and `memgpt-lite`: -v/-vv anywhere, formatted log
lines, --help with a description and examples, a quiet broken pipe, key checks before any work."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bughunt.cli import EXAMPLES as BUGHUNT_EXAMPLES
from bughunt.cli import build_parser as bughunt_parser
from bughunt.cli import main as bughunt
from memgpt_lite.cli import EXAMPLES as MEMGPT_EXAMPLES
from memgpt_lite.cli import build_parser as memgpt_parser
from memgpt_lite.cli_dispatch import _subparsers


@pytest.mark.parametrize(
    "argv", [["-v", "sim", "--seed", "1"], ["sim", "-v", "--seed", "1"], ["sim", "--seed", "1", "-vv"]]
)
def test_verbosity_is_accepted_before_and_after_the_sub_command(argv, capsys):
    assert bughunt(argv) == 0
    assert "strategy frontier, seed 1" in capsys.readouterr().out


def test_nested_sub_commands_take_verbosity_too(capsys):
    assert bughunt(["ablate", "plan", "--effect", "0.05", "--sd", "0.1", "-v", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tasks"] > 0


@pytest.mark.parametrize(
    "parser, examples", [(bughunt_parser, BUGHUNT_EXAMPLES), (memgpt_parser, MEMGPT_EXAMPLES)]
)
def test_every_sub_command_has_a_description_and_examples(parser, examples):
    top = parser([])  # no command named: every module registers
    subs = _subparsers(top)
    assert set(examples) >= set(subs), set(subs) - set(examples)
    for name, sp in subs.items():
        text = sp.format_help()
        assert sp.description, name
        assert "examples:" in text and all(
            line.split("   #")[0].strip() in text for line in examples[name]
        ), name
        prog = "bughunt" if parser is bughunt_parser else "memgpt-lite"
        assert all(line.startswith(f"{prog} {name}") for line in examples[name]), name


def test_ablate_help_lists_the_config_presets():
    from bughunt.ablation.files import preset_names

    text = _subparsers(bughunt_parser([]))["ablate"].format_help()
    assert all(p in text for p in preset_names())


def _cli(*args: str, **kw) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    return subprocess.run(
        [sys.executable, "-m", "bughunt", *args], capture_output=True, text=True, env=env, **kw
    )


def test_log_lines_are_formatted(tmp_path):
    p = _cli("explore", "--builtin-site", "--store", str(tmp_path / "s"), "--budget", "2", "-vv")
    assert p.returncode == 0, p.stderr
    site_lines = [ln for ln in p.stderr.splitlines() if " - site 127.0.0.1 " in ln]
    assert site_lines and all("%s" not in ln and '"GET /' in ln for ln in site_lines)


def test_a_broken_pipe_exits_quietly():
    proc = subprocess.Popen(
        [sys.executable, "-m", "bughunt", "sim", "--strategy", "random", "--until-all-bugs"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()  # `| head -1`
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0 and err == "", err


def test_llm_policy_checks_for_a_model_first_and_names_both_ways(tmp_path):
    store = tmp_path / "s3"
    p = _cli("explore", "--builtin-site", "--store", str(store), "--policy", "llm")
    assert p.returncode == 2 and not store.exists()
    assert p.stderr.count("\n") == 1 and "ANTHROPIC_API_KEY" in p.stderr and "--base-url" in p.stderr
    assert "--base-url" in _cli("explore", "--help").stdout


def test_layer2_checks_for_a_model_before_building_anything(tmp_path, monkeypatch, capsys):
    # in-process (the real entry point runs in test_readme_commands; what it imports before failing, in
    # test_import_cost.py)
    from evals.__main__ import main as evals_main

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    log = tmp_path / "l2.jsonl"
    assert evals_main(["layer2", "--agent", "anthropic", "--log", str(log)]) == 2 and not log.exists()
    err = capsys.readouterr().err
    assert (
        "ANTHROPIC_API_KEY" in err and "--base-url" in err and "base_url" not in err.replace("--base-url", "")
    )


def test_ablate_json_is_a_flag_and_a_file_option(tmp_path, capsys):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("seeds: {count: 5}\nconfigs: [{strategy: random}, {strategy: frontier}]\n")
    assert bughunt(["ablate", "--config", str(cfg), "--workers", "1", "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["tasks"] == 5 and "Per configuration" in out.err
    for flag in ("--json-file", "--json"):  # `--json FILE` keeps working
        f = tmp_path / f"out{flag}.json"
        assert bughunt(["ablate", "--config", str(cfg), "--workers", "1", flag, str(f)]) == 0
        assert json.loads(f.read_text())["tasks"] == 5
        assert "Per configuration" in capsys.readouterr().out
