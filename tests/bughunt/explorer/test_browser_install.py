"""The browser engine installs with the project: Playwright's client is a default dependency, and
Chromium is Debian's (or the one named by `--browser-path` / `$BUGHUNT_CHROMIUM`) — when there is none,
one line says how to get it, with no traceback and nothing written."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from bughunt.cli import main
from bughunt.explorer import chromium
from bughunt.explorer.chromium import CHROMIUM_ENV, chromium_path
from memgpt_lite.errors import UsageError

ROOT = Path(__file__).resolve().parents[3]


def test_playwright_is_a_default_dependency_not_a_test_extra():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = [d.split("[")[0].split(">")[0].split("=")[0].strip() for d in project["dependencies"]]
    assert "playwright" in names
    assert not any(d.startswith("playwright") for d in project["optional-dependencies"]["test"])


def test_a_named_chromium_that_is_not_there_is_one_clear_error(monkeypatch, tmp_path):
    monkeypatch.delenv(CHROMIUM_ENV, raising=False)
    with pytest.raises(UsageError, match=r"--browser-path .*nowhere.*apt-get install chromium"):
        chromium_path(str(tmp_path / "nowhere"))
    monkeypatch.setenv(CHROMIUM_ENV, str(tmp_path / "elsewhere"))
    with pytest.raises(UsageError, match=rf"{CHROMIUM_ENV} .*elsewhere"):
        chromium_path()
    not_a_program = tmp_path / "chromium"
    not_a_program.write_text("", encoding="utf-8")
    with pytest.raises(UsageError, match="no Chromium executable"):
        chromium_path(str(not_a_program))


def test_no_chromium_anywhere_says_how_to_get_it(monkeypatch):
    monkeypatch.delenv(CHROMIUM_ENV, raising=False)
    monkeypatch.setattr(chromium.shutil, "which", lambda name: None)
    monkeypatch.setattr(chromium.Path, "exists", lambda self: False)
    with pytest.raises(UsageError, match=r"/usr/bin/chromium not found \(apt-get install chromium"):
        chromium_path()


def test_without_playwright_the_error_names_the_install(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "playwright" else real(name, *a)
    )
    with pytest.raises(UsageError, match="pip install"):
        chromium_path()


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")
def test_debians_chromium_is_found_by_default_by_name_or_by_path(monkeypatch):
    monkeypatch.delenv(CHROMIUM_ENV, raising=False)
    found = chromium_path()
    assert Path(found).is_file()
    assert chromium_path("chromium") == shutil.which("chromium")
    monkeypatch.setenv(CHROMIUM_ENV, found)
    assert chromium_path() == found


def test_the_cli_says_one_line_and_writes_no_store(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(CHROMIUM_ENV, raising=False)
    store = tmp_path / "store"
    argv = ["explore", "--url", "http://127.0.0.1:9/", "--store", str(store), "--engine", "browser"]
    code = main([*argv, "--browser-path", str(tmp_path / "nowhere")])
    err = capsys.readouterr().err
    assert code != 0 and "Traceback" not in err
    assert "apt-get install chromium" in err and len(err.strip().splitlines()) == 1
    assert not store.exists()
    # --browser-path is the browser's: with the HTTP engine it is refused.
    code = main(
        ["explore", "--url", "http://127.0.0.1:9/", "--store", str(tmp_path / "s2"), "--browser-path", "x"]
    )
    assert code != 0 and "--browser-path" in capsys.readouterr().err
