"""Hostile and sloppy command-line input: one clear `error:` line, exit 2 (usage) or 1 (runtime), no
traceback, and nothing created or lost. Each case here was a traceback, a wrong exit code or a
half-made store before it was fixed."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from bughunt import cli as bughunt_cli
from bughunt.explorer.store import ExplorerStore
from evals.__main__ import main as evals_main
from evals.locomo.__main__ import main as locomo_main
from memgpt_lite import cli as memgpt_cli
from memgpt_lite.cli_dispatch import check_output_file, port_number, run_reporting_errors
from memgpt_lite.errors import ConfigError, ModelError, StoreError, UsageError


def _run(main, argv: list[str], capsys) -> tuple[int, str]:
    try:
        rc = main(argv)
    except SystemExit as e:  # argparse's own usage errors
        rc = e.code
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return rc, err


# -- the shared net under every command ------------------------------------------------------------
@pytest.mark.parametrize(
    ("exc", "code", "prefix"),
    [
        (UsageError("bad flag"), 2, "error: bad flag"),
        (ConfigError("x.yaml: field y"), 2, "error: x.yaml: field y"),
        (StoreError("corrupt"), 2, "error: corrupt"),
        (ModelError("overloaded"), 1, "model error: overloaded"),
        (FileNotFoundError(2, "No such file or directory", "/nope"), 1, "error: cannot use /nope"),
        (KeyboardInterrupt(), 130, "interrupted"),
    ],
)
def test_framework_errors_become_one_line_and_an_exit_code(exc, code, prefix, capsys):
    def command() -> int:
        raise exc

    assert run_reporting_errors(command) == code
    err = capsys.readouterr().err
    assert err.startswith(prefix) and err.count("\n") == 1


def test_port_numbers_are_checked_by_argparse():
    assert port_number("0") == 0 and port_number("65535") == 65535
    for bad in ("-1", "70000", "http"):
        with pytest.raises(argparse.ArgumentTypeError):
            port_number(bad)


def test_output_file_that_cannot_be_written_fails_before_the_work(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(UsageError, match="is a directory"):
        check_output_file(tmp_path, "--report")
    with pytest.raises(UsageError, match="is a file, not a directory"):
        check_output_file(tmp_path / "f" / "r.md", "--report")
    check_output_file(tmp_path / "new" / "dir" / "r.md", "--report")  # parents are created later


# -- bughunt ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--budget", "-1"], "--budget must be >= 0"),
        (["--capacity", "0"], "--capacity must be at least 1"),
        (["--expire-after", "-1"], "--expire-after must be a positive"),
        (["--timeout", "0"], "--timeout > 0"),
        (["--poison-file", "/nonexistent/poison.txt"], "--poison-file /nonexistent/poison.txt"),
    ],
)
def test_explore_bad_numbers_and_files_exit_2_and_create_no_store(tmp_path, capsys, extra, message):
    store = tmp_path / "store"
    rc, err = _run(bughunt_cli.main, ["explore", "--builtin-site", "--store", str(store), *extra], capsys)
    assert rc == 2 and message in err
    assert not store.exists()


def test_explore_without_a_site_is_a_usage_error(tmp_path, capsys):
    rc, err = _run(bughunt_cli.main, ["explore", "--store", str(tmp_path / "s")], capsys)
    assert rc == 2 and "give --url URL or --builtin-site" in err


def test_explore_report_into_a_directory_fails_before_exploring(tmp_path, capsys):
    store = tmp_path / "store"
    argv = ["explore", "--builtin-site", "--store", str(store), "--budget", "1", "--report", str(tmp_path)]
    rc, err = _run(bughunt_cli.main, argv, capsys)
    assert rc == 2 and "is a directory" in err and not store.exists()


def test_resume_with_unreadable_poison_file_names_it(tmp_path, capsys):
    poison = tmp_path / "poison.txt"
    poison.write_bytes(b"\xff\xfe not utf-8")
    rc, err = _run(
        bughunt_cli.main, ["resume", "--store", str(tmp_path / "s"), "--poison-file", str(poison)], capsys
    )
    assert rc == 2 and f"--poison-file {poison}" in err


@pytest.mark.parametrize("command", ["serve-site", "demo-page"])
@pytest.mark.parametrize("port", ["-1", "70000"])
def test_out_of_range_port_is_a_usage_error(command, port, capsys):
    rc, err = _run(bughunt_cli.main, [command, "--port", port], capsys)
    assert rc == 2 and "port must be 0-65535" in err


def test_demo_page_export_onto_a_file_names_it(tmp_path, capsys):
    target = tmp_path / "file"
    target.write_text("mine")
    rc, err = _run(bughunt_cli.main, ["demo-page", "--export", str(target)], capsys)
    assert rc == 2 and f"--export {target}" in err
    assert target.read_text() == "mine"


def test_ablate_config_that_is_not_utf8_names_the_file(tmp_path, capsys):
    cfg = tmp_path / "bad.yaml"
    cfg.write_bytes(b"\xff\xfe\x00garbage")
    rc, err = _run(bughunt_cli.main, ["ablate", "--config", str(cfg)], capsys)
    assert rc == 2 and str(cfg) in err and "not UTF-8" in err


@pytest.mark.parametrize("workers", ["0", "-2"])
def test_ablate_workers_below_one_is_a_usage_error(workers, capsys):
    rc, err = _run(bughunt_cli.main, ["ablate", "--config", "planner", "--workers", workers], capsys)
    assert rc == 2 and "--workers: must be at least 1" in err


def test_ablate_dask_address_without_port_is_a_usage_error(capsys):
    pytest.importorskip("distributed")
    argv = ["ablate", "--config", "planner", "--backend", "dask", "--address", "notanaddress"]
    rc, err = _run(bughunt_cli.main, argv, capsys)
    assert rc == 2 and "--address" in err


# -- memgpt-lite -----------------------------------------------------------------------------------
def test_demo_window_zero_is_one_line_naming_the_field(tmp_path, capsys):
    rc, err = _run(
        memgpt_cli.main,
        ["demo", "--store", str(tmp_path / "s"), "--context-window", "0", "--turns", "2"],
        capsys,
    )
    assert rc == 2 and "context_window: Input should be greater than 0" in err
    assert "pydantic" not in err and err.strip().count("\n") == 0


# -- evals -----------------------------------------------------------------------------------------
def test_case_file_that_is_not_utf8_names_the_file(tmp_path, capsys):
    case = tmp_path / "bad.yaml"
    case.write_bytes(b"\xff\xfe\x00")
    rc, err = _run(evals_main, ["layer1", "--cases", str(case)], capsys)
    assert rc == 2 and str(case) in err and "not UTF-8" in err


def test_fixture_onto_a_file_is_refused(tmp_path, capsys):
    target = tmp_path / "file"
    target.write_text("mine")
    rc, err = _run(evals_main, ["fixture", "--out", str(target)], capsys)
    assert rc == 2 and "is a file" in err and target.read_text() == "mine"


@pytest.mark.parametrize(("command", "flag"), [("layer1", "--report"), ("layer2", "--log")])
def test_eval_output_into_a_directory_fails_before_running(tmp_path, capsys, command, flag):
    argv = [command, flag, str(tmp_path)] + (["--agent", "baseline"] if command == "layer2" else [])
    rc, err = _run(evals_main, argv, capsys)
    assert rc == 2 and f"{flag} {tmp_path} is a directory" in err


def _locomo_file(tmp_path: Path) -> Path:
    data = tmp_path / "locomo.json"
    data.write_text('[{"sample_id": "x", "conversation": {}, "qa": []}]')
    return data


@pytest.mark.parametrize("limit", ["0", "-1"])
def test_locomo_limit_below_one_is_an_error_not_an_empty_table(tmp_path, capsys, limit):
    rc, err = _run(locomo_main, ["--data", str(_locomo_file(tmp_path)), "--limit", limit], capsys)
    assert rc == 2 and "--limit must be at least 1" in err


def test_locomo_report_into_a_directory_fails_before_the_run(tmp_path, capsys):
    argv = ["--data", str(_locomo_file(tmp_path)), "--embedder", "hashing", "--report", str(tmp_path)]
    rc, err = _run(locomo_main, argv, capsys)
    assert rc == 2 and "--report" in err and "is a directory" in err


def test_settings_validation_error_reaching_the_net_names_the_field(capsys):
    from memgpt_lite.agent import AgentConfig

    assert run_reporting_errors(lambda: AgentConfig(max_steps=0) and 0) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: invalid AgentConfig setting max_steps:") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--max-steps", "0"], "--max-steps:"),
        (["--max-tokens", "-1"], "--max-tokens:"),
        (["--base-url", "not a url"], "base_url: expected an http(s) URL"),
    ],
)
def test_run_bad_settings_exit_2_before_the_store_is_made(tmp_path, capsys, monkeypatch, extra, message):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test")
    store = tmp_path / "agent"
    argv = ["run", "--store", str(store), "--message", "hi", "--base-url", "http://127.0.0.1:9", *extra]
    rc, err = _run(memgpt_cli.main, argv, capsys)
    assert rc == 2 and message in " ".join(err.split())
    assert not store.exists()


def test_unreachable_site_exits_1_naming_url_and_keeps_the_attempt(tmp_path, capsys):
    store = tmp_path / "store"
    argv = ["explore", "--url", "http://127.0.0.1:9/", "--store", str(store), "--budget", "2", "--json"]
    rc, err = _run(bughunt_cli.main, argv, capsys)
    assert rc == 1
    assert "nothing could be explored at http://127.0.0.1:9/" in err and "network error" in err
    kept = ExplorerStore(store, create=False, lock=False)
    assert kept.history.steps()  # the attempt is on record
    kept.close()


def test_demo_page_export_never_overwrites_somebody_elses_page(tmp_path, capsys):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<h1>my own site</h1>")
    rc, err = _run(bughunt_cli.main, ["demo-page", "--export", str(site)], capsys)
    assert rc == 2 and "would overwrite index.html" in err
    assert (site / "index.html").read_text() == "<h1>my own site</h1>"
    assert sorted(p.name for p in site.iterdir()) == ["index.html"]
    again = tmp_path / "export"
    assert bughunt_cli.main(["demo-page", "--export", str(again)]) == 0
    assert bughunt_cli.main(["demo-page", "--export", str(again)]) == 0  # an earlier export is replaced


@pytest.mark.parametrize(("effect", "sd"), [("nan", "0.1"), ("0.05", "inf"), ("-inf", "0.1")])
def test_ablate_plan_non_finite_numbers_are_usage_errors(capsys, effect, sd):
    rc, err = _run(bughunt_cli.main, ["ablate", "plan", f"--effect={effect}", f"--sd={sd}"], capsys)
    assert rc == 2 and "must be a finite number" in err


@pytest.mark.parametrize("url", ["http://[::1", "http://127.0.0.1:99999/", "http:///x"])
def test_malformed_site_url_is_a_usage_error_before_a_store_exists(tmp_path, capsys, url):
    store = tmp_path / "store"
    rc, err = _run(bughunt_cli.main, ["explore", "--url", url, "--store", str(store)], capsys)
    assert rc == 2 and "--url: expected an http(s) URL" in err and not store.exists()


@pytest.mark.parametrize("url", ["http://[::1", "http://127.0.0.1:99999"])
def test_malformed_base_url_is_a_usage_error(tmp_path, capsys, monkeypatch, url):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test")
    argv = ["run", "--store", str(tmp_path / "agent"), "--message", "hi", "--base-url", url]
    rc, err = _run(memgpt_cli.main, argv, capsys)
    assert rc == 2 and "base_url: expected an http(s) URL" in err


def test_run_error_shows_the_path_verbatim_on_one_line(tmp_path, capsys, monkeypatch):
    # rich would read "[bold]" as markup and drop it from the path, and wrap a long line at 80 columns
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test")
    folder = tmp_path / ("[bold]" + "long-name-" * 8)
    folder.mkdir()
    (folder / "theirs.txt").write_text("x")
    rc, err = _run(memgpt_cli.main, ["run", "--store", str(folder), "--message", "hi"], capsys)
    assert rc == 2 and f"{folder} is not a memgpt_lite store" in err and err.count("\n") == 1


def test_locomo_bad_search_setting_is_one_line_naming_the_option(tmp_path, capsys):
    argv = ["--data", str(_locomo_file(tmp_path)), "--embedder", "hashing", "--radius", "-1"]
    rc, err = _run(locomo_main, argv, capsys)
    assert rc == 2 and err.startswith("error: --radius: ") and err.count("\n") == 1
