"""Options from a config file (`bughunt.toml`, `[tool.bughunt]` of pyproject.toml, `--config FILE`) under
the flags; its errors as one line; `resume` taking every non-secret option from the store and asking
only for the secrets; the login's discoverability (no abbreviations, `--password` refused, "logged in
as")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bughunt import settings
from bughunt.cli import main
from bughunt.explorer.store import ExplorerStore
from bughunt.webapp.conduit import DEMO_PASSWORD, DEMO_USER, running_conduit


def _run(capsys, *argv: str) -> tuple[int, dict, str]:
    capsys.readouterr()
    rc = main(list(argv))
    out = capsys.readouterr()
    # JSON when asked for, by --json or by the config file
    return rc, json.loads(out.out) if out.out.startswith("{") else {}, out.err


def _remembered(store: Path) -> dict:
    s = ExplorerStore(store, create=False, lock=False)
    try:
        return json.loads(s.meta.get(settings.STORE_KEY) or "{}")
    finally:
        s.close()


def test_the_config_file_gives_options_and_flags_override_it(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("bughunt.toml").write_text(
        'store = "runs/s"\nbuiltin_site = true\nbudget = 2\njson = true\nseed = 7\n'
    )
    rc, data, _ = _run(capsys, "explore")
    assert rc == 0 and data["clicks"] == 2 and (tmp_path / "runs" / "s").is_dir()
    assert _remembered(tmp_path / "runs" / "s")["seed"] == 7
    rc, data, _ = _run(capsys, "resume", "--budget", "3", "--seed", "9")  # the flags win
    assert rc == 0 and data["clicks"] == 3 and _remembered(tmp_path / "runs" / "s")["seed"] == 9


def test_pyproject_tool_table_and_an_explicit_config(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.bughunt]\nbudget = 1\njson = true\n')
    store = tmp_path / "s"
    rc, data, _ = _run(capsys, "explore", "--builtin-site", "--store", str(store))
    assert rc == 0 and data["clicks"] == 1
    other = tmp_path / "ci" / "bughunt.toml"
    other.parent.mkdir()
    other.write_text('store = "store2"\nbuiltin_site = true\nbudget = 2\njson = true\n')
    rc, data, _ = _run(capsys, "explore", "--config", str(other))
    # paths in a file are relative to the file: the store lands beside it
    assert rc == 0 and data["clicks"] == 2 and (tmp_path / "ci" / "store2").is_dir()


@pytest.mark.parametrize(
    "text, message",
    [
        ('password = "conduit-demo"\n', "'password' refused: a password is never read from a file: set password_env"),
        ("budgett = 3\n", "unknown key 'budgett'; valid keys: store, url, builtin_site"),
        ('budget = 3\nengine = = "http"\n', "bughunt.toml:2: not valid TOML"),
        ('budget = "three"\n', "budget must be an integer, got 'three'"),
        ('engine = "lynx"\n', "engine must be one of http, browser, auto"),
        ('header = ["X-Token: abc"]\n', "'header' refused: header values may be secrets"),
        ('allow_destructive = true\n', "'allow_destructive' refused"),
    ],
)  # fmt: skip
def test_config_errors_are_one_line_and_leave_nothing(tmp_path, monkeypatch, capsys, text, message):
    monkeypatch.chdir(tmp_path)
    Path("bughunt.toml").write_text(text)
    rc, _, err = _run(capsys, "explore", "--builtin-site", "--store", "s")
    assert rc == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert "abc" not in err and not (tmp_path / "s").exists()


def test_abbreviations_are_refused_and_password_points_to_password_env(tmp_path, capsys):
    store = tmp_path / "s"
    with pytest.raises(SystemExit) as exc:
        main(["explore", "--builtin-site", "--store", str(store), "--budg", "2"])
    assert exc.value.code == 2 and "unrecognized arguments: --budg" in capsys.readouterr().err
    rc, _, err = _run(capsys, "explore", "--builtin-site", "--store", str(store), "--password", DEMO_PASSWORD)
    assert rc == 2 and "--password-env" in err and DEMO_PASSWORD not in err and not store.exists()
    # the password given as the variable's name: not echoed either
    rc, _, err = _run(
        capsys, "explore", "--builtin-site", "--store", str(store), "--password-env", DEMO_PASSWORD
    )
    assert rc == 2 and "NAME of an environment variable" in err and DEMO_PASSWORD not in err
    with pytest.raises(SystemExit):  # nested sub-commands take no abbreviation either
        main(["baseline", "check", "--store", str(store), "--base", "b.json"])
    assert "unrecognized arguments: --base" in capsys.readouterr().err


@pytest.fixture
def conduit():
    with running_conduit() as base:
        yield base


def test_resume_remembers_every_non_secret_option_and_asks_only_for_secrets(conduit, tmp_path, monkeypatch, capsys):  # fmt: skip
    monkeypatch.setenv("BH_CI_PASS", DEMO_PASSWORD)
    store = tmp_path / "s"
    login = ["--login-url", "/login", "--username", DEMO_USER, "--password-env", "BH_CI_PASS"]
    rc, _, err = _run(capsys, "explore", "--url", conduit + "/", "--store", str(store), "--budget", "2", *login, "--timeout", "7", "--delay", "0.01")  # fmt: skip
    assert rc == 0 and f"logged in as {DEMO_USER} at {conduit}/login" in err
    kept = _remembered(store)
    assert kept["username"] == DEMO_USER and kept["password_env"] == "BH_CI_PASS" and kept["timeout"] == 7
    assert DEMO_PASSWORD not in json.dumps(kept)
    # resume with nothing but the store: logged in again as the same account, same settings
    rc, data, _ = _run(capsys, "resume", "--store", str(store), "--budget", "1", "--json")
    assert rc == 0 and data["account"] == DEMO_USER and data["clicks"] == 1
    assert _remembered(store)["timeout"] == 7 and _remembered(store)["delay"] == 0.01
    # the secret it cannot keep: named, nothing run
    monkeypatch.delenv("BH_CI_PASS")
    rc, _, err = _run(capsys, "resume", "--store", str(store), "--budget", "1")
    assert rc == 2 and f"logged in as {DEMO_USER} with --password-env BH_CI_PASS; set BH_CI_PASS" in err


def test_resume_asks_for_header_values_by_name(conduit, tmp_path, capsys):
    store = tmp_path / "s"
    rc, _, _ = _run(capsys, "explore", "--url", conduit + "/", "--store", str(store), "--budget", "1", "--header", "X-Extra: v-secret-1")  # fmt: skip
    assert rc == 0 and _remembered(store)["header_names"] == ["X-Extra"]
    rc, _, err = _run(capsys, "resume", "--store", str(store), "--budget", "1")
    assert rc == 2 and "--header 'X-Extra: …'" in err and "v-secret-1" not in err
    assert (
        _run(capsys, "resume", "--store", str(store), "--budget", "1", "--header", "X-Extra: v-secret-1")[0]
        == 0
    )
