"""Every command in README.md's bash blocks, run in a fresh `git clone` of this repository.

The clone is a temporary directory with no `../shared` beside it (what a user of the project has). Commands
that share a path under runs/ or a port (a chain: explore, resume, memory, report) run in order in one
clone; every other command runs in a clone of its own, as its own test, so xdist spreads them.
Each command runs as written, with these exceptions, all stated here:

- optional parts in brackets (`[--json]`, `[--store runs/demo]`) are included, so JSON output is checked;
- fast arguments where the README's would take minutes, or a smaller input where a named in-process test
  already makes the full run (FAST below, each with its reason; the last value of an option wins);
- ports: `8000` and `8001` become free loopback ports, and `demo-page` gets `--port` with a free one;
- commands that serve until Ctrl-C are started, checked to answer on their port, and stopped at the end;
- `runs/` exists in each clone (earlier README commands create it for a reader going top to bottom);
- `scripts/*.sh` find `./.venv` already current (a venv that sees this one's packages, with the install
  stamp written), because tests never reach the network and an install would; the install itself is
  therefore not exercised here (CI runs `scripts/test.sh` from a clean clone);
- `scripts/test.sh` runs one small test module instead of the whole suite (it would run this test again),
  on one xdist worker (`PYTEST_WORKERS=1`: three workers for one module cost ~1 s of CPU for nothing),
  with this checkout's mypy cache copied in when there is one (mypy re-checks what differs);
- commands whose comment says they need a key ("needs ANTHROPIC_API_KEY") run without one and must fail
  with exactly one line (on stderr; with `--json`, one JSON error line on stdout) and create nothing; SKIPPED lists the commands that need something the
  clone cannot have (with the reason the README itself gives).

Every other command must exit 0 (3 where its comment says "exits 3:", a CI gate shown failing); with `--json` its stdout must be one JSON document, and a file given to
`--json-file`/`--json FILE` must hold one.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FAST: dict[str, list[str]] = {
    "bash scripts/test.sh": ["tests/bughunt/test_site.py", "-q", "-p", "no:cacheprovider"],
    "memgpt-lite demo": ["--turns", "20"],  # 200 turns take ~10 s; 20 still warn, flush and evict
    "python -m benchmarks.reproduce": ["--repeats", "1"],
    # 3 x 30 clicks per engine and site: ~2 min. One site, the HTTP engine; tests/benchmarks/test_bench_engines.py
    # runs both sites with it and conduit-htmx with Chromium beside it (logged in, as here)
    "python -m benchmarks.engines": [
        "--repeats",
        "1",
        "--budget",
        "3",
        "--site",
        "conduit-htmx",
        "--engine",
        "http",
    ],
    # 100 and 1,000 clicks per policy on 14,678 pages: ~15 min of CPU. The site of the tests, a few
    # clicks; tests/test_bench_scale.py checks the figures of a --quick run
    "python -m benchmarks.scale": ["--quick", "--clicks", "5", "--policy", "frontier"],
    # 1k to 100k links: ~1 min of CPU, minutes of wall on a loaded machine. Two tiny pages still take the
    # whole path (the explorer's first step, the bare baseline, the table or JSON, the PNG)
    "python -m benchmarks.links": ["--sizes", "20,40"],
    "python -m evals.locomo": ["--embedder", "hashing", "--limit", "1"],  # MiniLM over both: ~1 min
    # MiniLM over every case: ~20 s each; tests/evals/test_evals_layer1.py and _layer2.py run them on MiniLM
    "python -m evals layer1": ["--embedder", "hashing"],
    # every case through the baseline and three trivial agents: ~10 s of CPU on hashing. One case file
    # still takes the whole path (temporary fixture, the agents, --log, --report and its JSON twin); every
    # case goes through the baseline in tests/evals/test_evals_layer2.py (MiniLM), the trivial agents through
    # seven picked cases there, the CLI with --report in test_evals_layer2_baseline.py
    "python -m evals layer2 --agent baseline": [
        "--embedder",
        "hashing",
        "--cases",
        "evals/datasets/own/current_vs_superseded.yaml",
    ],
    # the MiniLM fixture is tests/conftest.py's evals_store (the same write_fixture); ~1.5 s of CPU less
    "python -m evals fixture": ["--embedder", "hashing"],
}
# environment for a command (FAST's counterpart for what a script reads from the environment)
FAST_ENV: dict[str, dict[str, str]] = {
    "bash scripts/test.sh": {"PYTEST_WORKERS": "1"},
    # the README says to export it: the conduit-htmx site's demo password, named by --password-env
    "bughunt explore --url http://127.0.0.1:8001/ --store runs/c1": {"BH_PASS": "conduit-demo"},
    "bughunt resume  --store runs/c1": {"BH_PASS": "conduit-demo"},
}
SKIPPED: dict[str, str] = {
    "bughunt ablate --config my.yaml --backend dask": "needs the user's my.yaml and a running Dask scheduler",
}
NEEDS_KEY = "needs ANTHROPIC_API_KEY"
FAILS_THE_BUILD = "exits 3:"
"""A comment saying so marks a command that shows a failing CI gate: it must exit 3 (bugs per --fail-on)."""
SERVES = "serves until Ctrl-C"


def readme_commands(text: str) -> list[tuple[str, str]]:
    """(command, comment) for every line of every ```bash block."""
    out = []
    for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            command, _, comment = line.partition("  #")
            out.append((command.strip(), comment.strip()))
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_port(port: int, proc: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(
                f"server exited with {proc.returncode}: {proc.stderr.read() if proc.stderr else ''}"
            )
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"nothing answers on port {port} after {seconds} s")


def _files(root: Path) -> set[str]:
    return {
        str(p.relative_to(root)) for p in root.rglob("*") if ".git" not in p.parts and ".venv" not in p.parts
    }


def _prepare_venv(clone: Path) -> None:
    """A `.venv` in the clone that sees this interpreter's packages, stamped as current for both scripts
    (no pip in it: with the stamp current the scripts never call pip, and installing pip takes seconds)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(clone / ".venv")], check=True)
    site = next((clone / ".venv" / "lib").glob("python3*/site-packages"))
    (site / "outer-venv.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    env = {**os.environ, "PATH": f"{clone / '.venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"}
    stamp = subprocess.run(
        ["bash", "-c", ". scripts/venv.sh && venv_stamp"], cwd=clone, env=env, capture_output=True, text=True
    ).stdout.strip()
    assert len(stamp) == 64, stamp
    for extras in ("base", "test"):
        (clone / ".venv" / f".installed-{extras}").write_text(stamp + "\n", encoding="utf-8")


def _run_args(command: str, port: int, demo_port: int, port2: int = 0) -> list[str]:
    command = re.sub(r"\[([^\]]*)\]", r"\1", command)  # include the optional parts
    command = command.replace("8000", str(port)).replace("8001", str(port2 or _free_port()))
    args = shlex.split(command)
    for prefix, extra in FAST.items():
        if command.startswith(prefix):
            args += extra
    if command.startswith("bughunt demo-page") and "--export" not in args:
        args += ["--port", str(demo_port)]
    return args


def _json_targets(args: list[str]) -> tuple[bool, list[str]]:
    """Whether stdout must be JSON, and the files that must hold JSON."""
    on_stdout, files = False, []
    for i, a in enumerate(args):
        nxt = args[i + 1] if i + 1 < len(args) else None
        if a == "--json-file" and nxt:
            files.append(nxt)
        elif a == "--json":
            if nxt and not nxt.startswith("-") and nxt.endswith(".json"):
                files.append(nxt)
            else:
                on_stdout = True
    return on_stdout, files


def command_groups(commands: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """The README's commands in groups that must run in order in one clone, each group independent of
    the others: commands sharing a path under runs/ (a store, a report) or a port (a server and the
    command that explores it) are one group, in README order. Groups run as separate tests, so xdist
    spreads them over its workers instead of one worker running all 31 commands in a row."""
    parent = list(range(len(commands)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for i, (command, _) in enumerate(commands):
        for resource in RESOURCE.findall(command):
            if resource in owner:
                parent[root(i)] = root(owner[resource])
            else:
                owner[resource] = i
    groups: dict[int, list[tuple[str, str]]] = {}
    for i, entry in enumerate(commands):
        groups.setdefault(root(i), []).append(entry)
    return list(groups.values())


# what chains two commands: a path under runs/ (its first component) or a port number
RESOURCE = re.compile(r"\bruns/[\w-]+|(?<![\d.])80\d\d\b")
GROUPS = command_groups(readme_commands((ROOT / "README.md").read_text(encoding="utf-8")))
# a group of SKIPPED commands alone runs nothing: the parser test checks that the README says what they need
RUN_GROUPS = [g for g in GROUPS if not all(any(c.startswith(s) for s in SKIPPED) for c, _ in g)]


def _test_id(command: str) -> str:
    return re.sub(r"[^\w.-]+", "-", command).strip("-")[:60]


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """A fresh clone of this repository, with no `../shared` beside it and its `.venv` ready."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout")
    clone = tmp_path / "repo"  # nothing else in tmp_path: no ../shared beside the clone
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    assert not (clone.parent / "shared").exists()
    _prepare_venv(clone)
    # A reader going down the README has runs/ by the time a command writes a file into it (the first
    # explore creates it); a group run on its own gets it the same way.
    (clone / "runs").mkdir()
    return clone


def _seed_mypy_cache(clone: Path) -> None:
    """Copy this checkout's mypy cache, if any, into the clone: `scripts/test.sh` there then checks
    types incrementally (mypy re-checks whatever differs, so the verdict is the same) instead of cold,
    which costs ~15 s of CPU. A cache that changes while it is copied is simply left incomplete."""
    cache = ROOT / ".mypy_cache"
    if cache.is_dir():
        try:
            shutil.copytree(cache, clone / ".mypy_cache")
        except (shutil.Error, OSError):
            pass


def _clone_env(clone: Path) -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)
    env = {k: v for k, v in os.environ.items() if k not in ("ANTHROPIC_API_KEY", "VIRTUAL_ENV", "PYTHONPATH")}
    env |= {
        "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",  # this venv's `bughunt`, `ruff`, ...
        "PYTHONPATH": str(clone),  # ... importing the clone's code, not this checkout's
        "BROWSER": "false",  # `--open` finds no browser
        "COLUMNS": "80",
    }
    env.pop("DISPLAY", None)
    return env


def _run_bounded(
    args: list[str], cwd: Path, env: dict[str, str], timeout: float
) -> subprocess.CompletedProcess:
    """`subprocess.run` with a timeout that says where a stuck command was: Python's fault handler
    (on by PYTHONFAULTHANDLER) prints every thread's stack on SIGABRT, so a command that spins is
    stopped with that signal and its stack is the failure's message (CI once saw a command that takes
    seconds spin for the whole timeout, and a bare kill told nothing)."""
    proc = subprocess.Popen(
        args,
        cwd=cwd,
        env={**env, "PYTHONFAULTHANDLER": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        pytest.fail(f"{' '.join(args)} did not end in {timeout:.0f} s; its stacks:\n{err[-6000:]}")
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


@pytest.mark.slow
@pytest.mark.parametrize("group", RUN_GROUPS, ids=[_test_id(g[0][0]) for g in RUN_GROUPS])
def test_every_readme_command_works_in_a_fresh_clone(group: list[tuple[str, str]], clone: Path) -> None:
    env = _clone_env(clone)
    commands = readme_commands((clone / "README.md").read_text(encoding="utf-8"))
    assert group in command_groups(commands), "README.md differs from the committed one: commit it first"
    port, demo_port, port2 = _free_port(), _free_port(), _free_port()
    servers: list[subprocess.Popen] = []
    ran: list[str] = []
    try:
        for command, comment in group:
            if any(command.startswith(s) for s in SKIPPED):
                assert "needs" in comment, f"README must say what {command!r} needs"
                ran.append(command)
                continue
            args = _run_args(command, port, demo_port, port2)
            if command.startswith("bash scripts/test.sh"):
                _seed_mypy_cache(clone)
            if SERVES in comment:
                proc = subprocess.Popen(
                    args, cwd=clone, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
                )
                servers.append(proc)
                served = int(args[args.index("--port") + 1])
                _wait_for_port(served, proc)
                with urllib.request.urlopen(f"http://127.0.0.1:{served}/", timeout=10) as r:
                    assert r.status == 200
                ran.append(command)
                continue
            before = _files(clone)
            started = time.monotonic()
            extra_env = next((e for prefix, e in FAST_ENV.items() if command.startswith(prefix)), {})
            p = _run_bounded(args, clone, env | extra_env, timeout=600)
            took = time.monotonic() - started
            if NEEDS_KEY in comment:
                # one line on stderr; with --json the error is one JSON line on stdout instead
                out = p.stderr if p.stderr.strip() or "--json" not in args else p.stdout
                lines = [ln for ln in out.splitlines() if ln.strip()]
                assert p.returncode != 0 and len(lines) == 1, (command, p.returncode, p.stderr, p.stdout)
                if out is p.stdout:
                    assert "error" in json.loads(lines[0])
                assert "ANTHROPIC_API_KEY" in lines[0] and "--base-url" in lines[0], lines[0]
                assert _files(clone) == before, (command, _files(clone) - before)  # created nothing
                ran.append(command)
                continue
            expected = 3 if FAILS_THE_BUILD in comment else 0
            assert p.returncode == expected, (
                f"{command} (args {args}) exit {p.returncode} after {took:.1f} s:\n{p.stderr[-3000:]}"
            )
            on_stdout, files = _json_targets(args)
            if on_stdout:
                json.loads(p.stdout)
            for f in files:
                json.loads((clone / f).read_text(encoding="utf-8"))
            ran.append(command)
    finally:
        for proc in servers:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    assert ran == [c for c, _ in group]
    # what the commands wrote is ignored by git (runs/, plots/, out.json, site/ ...), nothing else is left
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"], cwd=clone, capture_output=True, text=True
    ).stdout
    assert status == "", status


def test_the_readme_commands_fall_into_groups_that_cover_each_once():
    commands = readme_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(commands) >= 25, commands
    assert sorted(c for g in GROUPS for c in g) == sorted(commands)  # each command in exactly one group
    assert all(g == sorted(g, key=commands.index) for g in GROUPS)  # in README order within its group
    by_first = {g[0][0]: [c for c, _ in g] for g in GROUPS}
    s1 = by_first["bughunt explore --builtin-site --store runs/s1 --budget 12"]
    assert [c.split()[1] for c in s1] == ["explore", "resume", "resume", "memory", "report", "repro"]
    served = next(g for first, g in by_first.items() if first.startswith("bughunt serve-site --port 8000"))
    assert served[1].startswith("bughunt explore --url http://127.0.0.1:8000/")
    assert len(GROUPS) > 10  # most commands stand alone, so the workers share them out


def test_the_readme_parser_sees_every_block_and_strips_comments():
    commands = readme_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    names = [c for c, _ in commands]
    assert "bash scripts/explore.sh" in names and "python -m benchmarks.reproduce" in names
    assert all("  #" not in c for c in names)
    assert any(NEEDS_KEY in comment for _, comment in commands)
    for skipped in SKIPPED:
        assert any(c.startswith(skipped) for c in names), (
            f"SKIPPED names a command the README no longer has: {skipped}"
        )
        comment = next(comment for c, comment in commands if c.startswith(skipped))
        assert "needs" in comment, f"README must say what {skipped!r} needs"
    args = _run_args("memgpt-lite demo --turns 200 [--store runs/demo] [--json]", 1, 2)
    assert args[-2:] == ["--turns", "20"] and "--json" in args and "runs/demo" in args
    assert _json_targets(["bughunt", "ablate", "--json-file", "out.json"]) == (False, ["out.json"])
    assert _json_targets(["x", "--json"]) == (True, [])
