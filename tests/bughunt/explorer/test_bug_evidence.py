"""Issue 27: a bug a person can act on (the bug view, the same on every surface), screenshots of the
failing state in browser mode, and a replayable reproduction per bug (`bughunt repro`) that fails on
the buggy site and passes on the fixed one (`serve-site --fixed`), for every bug kind of both
built-in sites."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bughunt.cli import main
from bughunt.explorer.bugview import VIEW_KEYS
from bughunt.webapp import running_site
from bughunt.webapp.conduit import PLANTED, running_conduit
from bughunt.webapp.conduit.data import DEMO_PASSWORD, DEMO_USER

SIX = {"server_error", "unescaped_script", "duplicate_pagination", "count_mismatch", "form_drops_value",
       "unconfirmed_destructive"}  # fmt: skip
VIEW = {"severity", "cwe", "url", "request", "response_status", "curl", "observed", "click_path", "account",
             "occurrence_urls", "screenshots", "reproduce"}  # fmt: skip


@pytest.fixture(scope="module")
def builtin_store(tmp_path_factory) -> tuple[Path, dict]:
    store = tmp_path_factory.mktemp("s") / "store"
    argv = ["explore", "--builtin-site", "--store", str(store), "--budget", "30", "--json"]
    out = subprocess.run(
        [sys.executable, "-m", "bughunt.cli", *argv], capture_output=True, text=True, timeout=120, check=True
    )
    return store, json.loads(out.stdout)


def _run_repros(folder: Path, base: str, env: dict[str, str] | None = None) -> tuple[int, int, str]:
    """Run the generated files with pytest in a process of their own: (failed, passed, output)."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", str(folder)],
        capture_output=True, text=True, timeout=600, cwd=folder,
        env={**os.environ, **(env or {}), "BUGHUNT_BASE_URL": base},
    )  # fmt: skip
    tail = done.stdout[-3000:]
    failed = re.search(r"(\d+) failed", tail)
    passed = re.search(r"(\d+) passed", tail)
    return int(failed.group(1)) if failed else 0, int(passed.group(1)) if passed else 0, tail


def test_every_bug_says_what_it_is_in_json_text_and_memory(builtin_store, capsys):
    store, data = builtin_store
    assert {b["kind"] for b in data["bugs"]} == SIX
    for bug in data["bugs"]:
        assert VIEW <= set(bug) == VIEW_KEYS | {"suspected"} and {
            "fingerprint",
            "route",
            "kind",
            "status",
            "suspected",
        } <= set(bug)
        assert bug["url"].startswith("http://127.0.0.1:") and bug["url"].endswith(bug["route"])
        assert bug["request"]["method"] == "GET" and "User-Agent" in bug["request"]["headers"]
        path = bug["click_path"]
        assert path[0]["action"] == "open" and path[0]["route"] == "/" and path[-1]["route"] == bug["route"]
        obs = bug["observed"]
        assert obs["shown"] and obs["expected"] and obs["page_text"]["untrusted"] is True
        assert bug["account"] == "anonymous" and bug["reproduce"].startswith(
            f"bughunt repro {bug['fingerprint']}"
        )
    by_kind = {b["kind"]: b for b in data["bugs"]}
    assert by_kind["unescaped_script"]["cwe"] == "CWE-79"
    assert by_kind["unconfirmed_destructive"]["cwe"] == "CWE-650"
    assert by_kind["server_error"]["response_status"] == 500
    assert "the count says 3 but 2 items are listed" == by_kind["count_mismatch"]["observed"]["shown"]
    assert by_kind["form_drops_value"]["observed"]["page_text"]["detail"] == (
        "empty: tags; the resource page shows 'qa testing'"
    )
    assert by_kind["server_error"]["observed"]["page_text"]["detail"].startswith("IndexError: search offset")
    # the shortest path the explorer's own link table allows: Home → Search → Search page 2
    hops = by_kind["server_error"]["click_path"]
    assert [a["route"] for a in hops] == ["/", "/search", "/search/2"]
    assert hops[2]["label"] == {"text": "Next page »", "untrusted": True} and hops[2]["link_kind"] == "link"

    assert main(["memory", "--store", str(store), "--json"]) == 0
    memory = json.loads(capsys.readouterr().out)
    assert {b["fingerprint"]: b["click_path"] for b in memory["bugs"]} == {
        b["fingerprint"]: b["click_path"] for b in data["bugs"]
    }
    assert main(["report", "--store", str(store), "--out", str(store.parent / "r.html")]) == 0
    html = (store.parent / "r.html").read_text(encoding="utf-8")
    assert "click path from the start page" in html and "CWE-79" in html
    assert "&lt;script&gt;" not in html or "from-page" in html  # page text only as escaped data
    assert "<script>document.title" not in html


def test_text_output_has_the_evidence_and_no_python_repr(tmp_path, capsys):
    assert main(["explore", "--builtin-site", "--store", str(tmp_path / "s"), "--budget", "30"]) == 0
    text = capsys.readouterr().out
    assert "expected: the displayed count equal to the number of items listed" in text
    assert "page text (untrusted): 'IndexError: search offset 6 is out of range for 5 results'" in text
    # the route of each hop, with the words of the link the explorer followed (page text, quoted)
    assert "path: / → /search (link 'Search articles') → /search/2 (link 'Next page »')" in text
    assert "curl: curl -i http://127.0.0.1:" in text
    assert "{'" not in text and "'}" not in text


def test_repro_of_every_kind_fails_on_the_24_page_site_and_passes_on_the_fixed_one(builtin_store, tmp_path):
    store, data = builtin_store
    out = tmp_path / "repro"
    assert main(["repro", "--all", "--store", str(store), "--out", str(out)]) == 0
    files = sorted(p.name for p in out.iterdir())
    assert len(files) == 6 and {f.split("_")[1] for f in files} <= {"server", "unescaped", "duplicate", "count",
                                                                   "form", "unconfirmed"}  # fmt: skip
    with running_site() as buggy:
        failed, passed, tail = _run_repros(out, buggy)
    assert (failed, passed) == (6, 0), tail
    with running_site(fixed=True) as fixed:
        failed, passed, tail = _run_repros(out, fixed)
    assert (failed, passed) == (0, 6), tail


def test_repro_of_one_bug_to_stdout_is_read_only(builtin_store, capsys):
    store, data = builtin_store
    before = sorted((p.name, p.stat().st_mtime_ns) for p in store.iterdir())
    fp = data["bugs"][0]["fingerprint"]
    assert main(["repro", fp[:8], "--store", str(store)]) == 0
    text = capsys.readouterr().out
    assert text.startswith('"""Reproduction of a BugHunt finding') and "def test_reproduces" in text
    compile(text, "repro.py", "exec")
    assert sorted((p.name, p.stat().st_mtime_ns) for p in store.iterdir()) == before
    assert main(["repro", "ffffffffffff", "--store", str(store)]) == 2
    assert "no single live bug" in capsys.readouterr().err
    mine = store.parent / "notes.py"
    mine.write_text("keep me\n", encoding="utf-8")
    assert main(["repro", fp, "--store", str(store), "--out", str(mine)]) == 2
    assert mine.read_text(encoding="utf-8") == "keep me\n" and "not replaced" in capsys.readouterr().err
    ours = store.parent / "test_bug.py"
    for _ in range(2):  # its own file is replaced
        assert main(["repro", fp, "--store", str(store), "--out", str(ours)]) == 0
    assert ours.read_text(encoding="utf-8") == text


@pytest.mark.slow  # a logged-in browser exploration (~40 s) and 14 browser reproductions
def test_conduit_in_the_browser_keeps_screenshots_and_every_repro_fails_then_passes(tmp_path):
    if shutil.which("chromium") is None:
        pytest.skip("Debian's chromium is not installed (scripts/test.sh installs it)")
    store = tmp_path / "s"
    env = {**os.environ, "CONDUIT_PW": DEMO_PASSWORD}
    with running_conduit() as site:
        argv = [
            sys.executable, "-m", "bughunt.cli", "explore", "--url", site + "/", "--store", str(store),
            "--engine", "browser", "--budget", "30", "--login-url", site + "/login", "--username", DEMO_USER,
            "--password-env", "CONDUIT_PW", "--timeout", "30", "--json",
        ]  # fmt: skip
        done = subprocess.run(argv, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads(done.stdout)
    assert {b["kind"] for b in data["bugs"]} == {b.kind for b in PLANTED}
    for bug in data["bugs"]:
        assert bug["account"] == f"{DEMO_USER} (form login)"
        (shot,) = bug["screenshots"]
        assert Path(shot).read_bytes().startswith(b"\x89PNG") and Path(shot).stat().st_size < 2_000_000
        assert Path(bug["dom_snapshots"][0]).is_file()
    assert main(["report", "--store", str(store), "--out", str(tmp_path / "r.html")]) == 0
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == len(data["bugs"])
    assert all(b["screenshots"][0] in html for b in data["bugs"])

    out = tmp_path / "repro"
    assert main(["repro", "--all", "--store", str(store), "--out", str(out)]) == 0
    texts = [p.read_text(encoding="utf-8") for p in out.iterdir()]
    assert len(texts) == len(PLANTED) and all("sync_playwright" in t for t in texts)
    assert not any(DEMO_PASSWORD in t for t in texts) and all("'CONDUIT_PW'" in t for t in texts)
    with running_conduit() as buggy:
        failed, passed, tail = _run_repros(out, buggy, {"CONDUIT_PW": DEMO_PASSWORD})
    assert (failed, passed) == (len(PLANTED), 0), tail
    with running_conduit(fixed=True) as fixed:
        failed, passed, tail = _run_repros(out, fixed, {"CONDUIT_PW": DEMO_PASSWORD})
    assert (failed, passed) == (0, len(PLANTED)), tail


def test_memory_text_shows_the_live_bugs_view(builtin_store, capsys):
    store, data = builtin_store
    assert main(["memory", "--store", str(store)]) == 0
    text = capsys.readouterr().out
    assert text.count("reproduce: bughunt repro ") == len(data["bugs"]) and "expected: " in text


def test_a_store_from_before_the_bug_view_still_shows_and_reproduces_its_bugs(
    builtin_store, tmp_path, capsys
):
    # Older stores: no meta login_details, observations without the oracle's field names.
    import sqlite3

    old = tmp_path / "old"
    shutil.copytree(builtin_store[0], old)
    (old / "bughunt.lock").unlink(missing_ok=True)
    db = sqlite3.connect(old / "bughunt.sqlite")
    with db:
        db.execute("DELETE FROM meta WHERE key = 'login_details'")
        for oid, prov in db.execute("SELECT id, provenance FROM observations").fetchall():
            data = json.loads(prov)
            data.pop("fields", None)
            db.execute("UPDATE observations SET provenance = ? WHERE id = ?", (json.dumps(data), oid))
    db.close()
    assert main(["memory", "--store", str(old), "--json"]) == 0
    bugs = {b["kind"]: b for b in json.loads(capsys.readouterr().out)["bugs"]}
    assert bugs["unescaped_script"]["observed"]["page_text"]["fields"]["code"].startswith("document.title")
    assert bugs["unescaped_script"]["account"] == "anonymous"
    assert main(["repro", "--all", "--store", str(old), "--out", str(tmp_path / "r")]) == 0
    assert len(list((tmp_path / "r").iterdir())) == 6


def test_trace_is_for_the_browser_and_never_with_a_typed_password(tmp_path, capsys, monkeypatch):
    argv = ["explore", "--builtin-site", "--store", str(tmp_path / "s"), "--budget", "1"]
    assert main([*argv, "--trace", str(tmp_path / "t.zip")]) == 2
    assert "--trace records the browser" in capsys.readouterr().err
    assert not (tmp_path / "t.zip").exists()
    monkeypatch.setenv("BH_PW", "secret-pw")
    login = ["--login-url", "/login", "--username", "u", "--password-env", "BH_PW", "--engine", "browser"]
    assert main([*argv, *login, "--trace", str(tmp_path / "t.zip")]) == 2
    assert "the password too" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*argv, "--trace", str(tmp_path / "t.txt")])
    assert "ends in .zip" in capsys.readouterr().err


@pytest.mark.slow  # Chromium: a few page loads
def test_browser_engine_keeps_a_screenshot_per_bug_and_the_trace(tmp_path):
    if shutil.which("chromium") is None:
        pytest.skip("Debian's chromium is not installed (scripts/test.sh installs it)")
    store, trace = tmp_path / "s", tmp_path / "session.zip"
    argv = [sys.executable, "-m", "bughunt.cli", "explore", "--builtin-site", "--engine", "browser", "--store",
            str(store), "--budget", "3", "--trace", str(trace), "--json"]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads(done.stdout)
    assert data["bugs"]
    for bug in data["bugs"]:
        assert bug["engine"] == "browser"
        assert Path(bug["screenshots"][0]).read_bytes()[:4] == b"\x89PNG"
        assert Path(bug["screenshots"][0]).parent == store / "evidence"
    import zipfile

    assert "trace.trace" in zipfile.ZipFile(trace).namelist()  # what `playwright show-trace` opens
    out = tmp_path / "repro.py"
    assert main(["repro", data["bugs"][0]["fingerprint"], "--store", str(store), "--out", str(out)]) == 0
    assert "executable_path=CHROMIUM" in out.read_text(encoding="utf-8")


@pytest.mark.slow  # ~80 clicks over HTTP and 12 reproductions in processes of their own (~15 s)
def test_conduit_over_http_logged_in_every_kind_reproduces_with_httpx(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BH_REPRO_PW", DEMO_PASSWORD)
    store = tmp_path / "s"
    with running_conduit() as site:
        argv = ["explore", "--url", site + "/", "--store", str(store), "--budget", "100", "--login-url", "/login",
                "--username", DEMO_USER, "--password-env", "BH_REPRO_PW", "--json"]  # fmt: skip
        assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert {b["kind"] for b in data["bugs"]} == SIX
    editor = next(b for b in data["bugs"] if b["kind"] == "form_drops_value")
    assert editor["account"] == f"{DEMO_USER} (form login)" and "-b cookies.txt" in editor["curl"]
    out = tmp_path / "repro"
    assert main(["repro", "--all", "--store", str(store), "--out", str(out)]) == 0
    texts = [p.read_text(encoding="utf-8") for p in out.iterdir()]
    assert len(texts) == 6 and all("import httpx" in t and "playwright" not in t for t in texts)
    assert not any(DEMO_PASSWORD in t for t in texts)
    env = {"BH_REPRO_PW": DEMO_PASSWORD}
    with running_conduit() as buggy:
        failed, passed, tail = _run_repros(out, buggy, env)
    assert (failed, passed) == (6, 0), tail
    with running_conduit(fixed=True) as fixed:
        failed, passed, tail = _run_repros(out, fixed, env)
    assert (failed, passed) == (0, 6), tail


def test_each_bug_names_the_login_of_the_session_that_saw_it(tmp_path, capsys):
    store = str(tmp_path / "s")
    assert main(["explore", "--builtin-site", "--store", store, "--budget", "4", "--json"]) == 0
    first = {b["fingerprint"] for b in json.loads(capsys.readouterr().out)["bugs"]}
    assert main(["resume", "--store", store, "--budget", "30", "--cookie", "sid=s3cr3t-value", "--json"]) == 0
    bugs = json.loads(capsys.readouterr().out)["bugs"]
    later = [b for b in bugs if b["fingerprint"] not in first]
    assert first and later
    assert all(b["account"] == "anonymous" for b in bugs if b["fingerprint"] in first)
    assert all(b["account"] == "unnamed user (cookies sid)" for b in later)
    assert all('-b "sid=$BUGHUNT_COOKIE_SID"' in b["curl"] for b in later)
    assert all(b["request"]["headers"]["Cookie"] == "sid=<redacted>" for b in later)
    assert main(["repro", later[0]["fingerprint"], "--store", store]) == 0
    text = capsys.readouterr().out
    assert "'cookies': {'sid': 'BUGHUNT_COOKIE_SID'}" in text and "s3cr3t-value" not in text
    assert not any(b"s3cr3t-value" in f.read_bytes() for f in (tmp_path / "s").iterdir() if f.is_file())


def test_repro_json_lists_the_files_written_and_needs_out(builtin_store, tmp_path, capsys):
    store, data = builtin_store
    out = tmp_path / "repro"
    assert main(["repro", "--all", "--store", str(store), "--out", str(out), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert sorted(doc["written"]) == sorted(str(p) for p in out.iterdir()) and len(doc["written"]) == 6
    assert doc["skipped"] == [] and doc["store"] == str(store)
    fp = data["bugs"][0]["fingerprint"]
    one = tmp_path / "test_one.py"
    assert main(["repro", fp, "--store", str(store), "--out", str(one), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["written"] == [str(one)]
    # without --out stdout is the reproduction itself: --json there is bad input, and writes nothing
    assert main(["repro", fp, "--store", str(store), "--json"]) == 2
    said = capsys.readouterr()
    assert "--json needs --out" in said.out + said.err
