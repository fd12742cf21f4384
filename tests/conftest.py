"""Suite-wide fixtures. Real network calls are blocked by pytest-socket (see pyproject addopts);
only loopback is allowed, for servers the tests start themselves."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import socketserver
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from loguru import logger

# No test may reach a real model, even when a key happens to be set in the environment.
os.environ.pop("ANTHROPIC_API_KEY", None)
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

# The shared helpers (tests/support) report a failed assert with its values, like a test module.
pytest.register_assert_rewrite("tests.support")
pytest_plugins = ["tests.support.hang_bound"]

FAST_TEMP_MIN_FREE = 2 << 30


def _use_memory_backed_temp() -> None:
    """Put the tests' temporary files (tmp_path, the stores the commands under test create, the README
    test's clones) on /dev/shm when it is a tmpfs with room, unless TMPDIR is set. The stores fsync every
    commit, and on a busy disk those flushes were half the wall time of the store-heavy tests; on tmpfs
    fsync returns at once. No test loses anything: the crash tests kill processes (kill -9), and what a
    killed process wrote is in the page cache either way — fsync only matters for power loss, which no
    test can simulate. xdist workers and subprocesses inherit TMPDIR from this (the controller's) process."""
    if "TMPDIR" in os.environ:
        return
    shm = "/dev/shm"
    try:
        st = os.statvfs(shm)
    except OSError:
        return
    if st.f_bavail * st.f_frsize < FAST_TEMP_MIN_FREE or not os.access(shm, os.W_OK):
        return  # a container's default 64 MiB /dev/shm would fill up: stay on disk
    root = os.path.join(shm, f"memgpt-lite-tests-{os.getuid()}")
    os.makedirs(root, mode=0o700, exist_ok=True)
    os.environ["TMPDIR"] = root
    tempfile.tempdir = None  # recomputed from TMPDIR on next use


_use_memory_backed_temp()


def _own_cache_dir() -> None:
    """Derived files (the token counter's rank files, memgpt_lite.context.rank_file) go to a directory
    of the tests' own, not the user's ~/.cache; the workers and the commands under test share it."""
    if "MEMGPT_LITE_CACHE_DIR" not in os.environ:
        os.environ["MEMGPT_LITE_CACHE_DIR"] = os.path.join(tempfile.gettempdir(), "memgpt-lite-cache")


_own_cache_dir()


def _quiet_handle_error(self: socketserver.BaseServer, request: object, client_address: object) -> None:
    # A loopback test server whose client went away (a timeout test, a killed browser) must not print a
    # traceback into whatever test happens to be capturing stderr in the same worker at that moment.
    logger.debug("test server {}: request from {} failed", self.server_address, client_address)


socketserver.BaseServer.handle_error = _quiet_handle_error  # type: ignore[method-assign,assignment]


@pytest.fixture
def store_dir(tmp_path):
    """A fresh, empty store directory."""
    d = tmp_path / "store"
    return d


def _fixture_store(tmp_path_factory: pytest.TempPathFactory, name: str, embedder: str) -> Path:
    """The evaluation fixture store, built once per test run (~1.6 s of CPU with MiniLM, 0.5 s hashing)
    and copied into this process's temporary directory. Under xdist the first worker to ask builds it in
    the run's own temporary directory (the parent of every worker's, new for each run) while the others
    wait on the lock (flock: Linux, like the rest of the suite); each then copies it, because a test
    opens its store for writing and a store admits one writing process. Without xdist it is built in place."""
    from evals.fixture import write_fixture

    own = tmp_path_factory.mktemp(name) / "store"
    if "PYTEST_XDIST_WORKER" not in os.environ:
        write_fixture(own, embedder=embedder)
        return own
    run_tmp = tmp_path_factory.getbasetemp().parent
    built = run_tmp / f"{name}-store"
    with open(run_tmp / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or when a worker dies
        if not built.exists():
            building = Path(tempfile.mkdtemp(dir=run_tmp, prefix=f"{name}-building-")) / "store"
            write_fixture(building, embedder=embedder)
            building.rename(built)  # whole or not at all: a build that failed is never copied
    shutil.copytree(built, own)
    return own


@pytest.fixture(scope="session")
def evals_store(tmp_path_factory):
    """The evaluation fixture store (MiniLM embedder), one copy per test process. Tests must not change
    it: copy it first (shutil.copytree) to damage or extend it."""
    return _fixture_store(tmp_path_factory, "evals", "default")


@pytest.fixture(scope="session")
def evals_hashing_store(tmp_path_factory):
    """The evaluation fixture store with the hashing embedder (fast), one copy per test process."""
    return _fixture_store(tmp_path_factory, "evals_hashing", "hashing")


@pytest.fixture(scope="module")
def site_12():
    """The built-in web app at version 1.2, served on loopback for the module; yields its URL."""
    from bughunt.webapp import running_site

    with running_site(app_version="1.2") as url:
        yield url


@pytest.fixture
def cli_json(capsys) -> Callable[..., dict]:
    """Runs `bughunt <argv>` in-process, checks it exits 0, and returns what it printed as JSON."""
    from bughunt.cli import main

    def run(*argv: str) -> dict:
        assert main(list(argv)) == 0
        return json.loads(capsys.readouterr().out)

    return run


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium for the module; skips when Debian's chromium or Playwright is missing."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from bughunt.explorer.chromium import CHROMIUM_ARGS

    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (scripts/test.sh installs it)")
    with sync_api.sync_playwright() as pw:
        # the engine's own flags: nothing of Chromium's own traffic leaves the machine
        instance = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        yield instance
        instance.close()


REAL_SERVER_ENV = "MEMGPT_LITE_REAL_SERVER"
NO_REAL_SERVER = (
    f"no real model server: {REAL_SERVER_ENV} is not set (the optional job `bash scripts/test-real-server.sh` "
    "builds llama-server, starts it on loopback and runs these)"
)


def pytest_collection_modifyitems(config, items):
    """Slow tests first: spread over the xdist workers from the start instead of leaving one worker a long
    tail at the end (the order of the others is kept; every test stays independent of order). Tests
    marked `real_server` are skipped, with the reason, unless a real server is configured."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
    if not os.environ.get(REAL_SERVER_ENV):
        skip = pytest.mark.skip(reason=NO_REAL_SERVER)
        for item in items:
            if item.get_closest_marker("real_server") is not None:
                item.add_marker(skip)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Drop the bytecode the run compiled for sources under its own temporary directory (the README
    test's clones, ~20 MB a run): scripts/test.sh keeps one bytecode cache between runs, and these
    sources are gone once pytest prunes old runs. Only the controller does it, after every worker."""
    prefix = sys.pycache_prefix
    factory = getattr(session.config, "_tmp_path_factory", None)
    if not prefix or factory is None or "PYTEST_XDIST_WORKER" in os.environ:
        return
    basetemp = factory.getbasetemp().resolve()
    shutil.rmtree(Path(prefix) / basetemp.relative_to(basetemp.anchor), ignore_errors=True)
