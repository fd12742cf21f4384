"""Start-up cost of the command lines: the modules a command needs, not Chroma/onnxruntime/Playwright (a
second or more of imports) when it has no agent memory to open or browser to drive."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("chromadb", "onnxruntime", "playwright")
# each step imports more; the heavy modules loaded after each step are reported (one fresh interpreter)
STEPS = {
    "storage's light modules": "import memgpt_lite.storage.lock, memgpt_lite.storage.directory",
    "explore, resume, serve-site": "import bughunt.commands.explore, bughunt.commands.resume, "
    "bughunt.commands.serve_site",
    "every bughunt command's parser (--help)": "from bughunt.cli import build_parser; build_parser(['--help'])",
    # recall search, its ablation and the report: archival storage only with --archival
    "python -m evals.locomo without --archival": "import evals.locomo.__main__",
    # archival storage (Chroma) loads when it is first used: opening, writing and closing a memory that
    # never reaches it (the demo's recall-only turns, a state check) does not import it
    "agent memory opened and closed without archival": "import tempfile\n"
    "from memgpt_lite.memory import AgentMemory\n"
    "from memgpt_lite.storage.embeddings import HashingEmbedder\n"
    "AgentMemory.open(tempfile.mkdtemp() + '/s', embedder=HashingEmbedder()).close()",
}
PROBE = f"""
import json, sys
out = {{}}
for step, code in {STEPS!r}.items():
    exec(code)
    out[step] = [m for m in {HEAVY!r} if m in sys.modules]
print(json.dumps(out))
"""


def test_no_heavy_import_where_none_is_needed():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == {step: [] for step in STEPS}


# `bughunt explore --budget 0 --json` over plain http with a strategy policy, stderr no terminal: nothing
# it never uses — no agent memory (Chroma, onnxruntime), no browser, no plots, no export of a store, no
# message models nor pydantic (no model is asked, no setting validated), no tokenizer ranks (nothing is
# counted before the first click), no TLS context (no https origin), no httpx command line (click,
# pygments, rich), no progress bar (rich: nothing to draw on), no CI files (none asked for), no simulator
# engine, no config-file parser (no config file), no baseline reader (no baseline given), no loguru (quiet:
# nothing could show a message; it imports asyncio and multiprocessing); what start-up built is frozen out of
# the collector's sweeps (`gc.freeze`) before the first click
EXPLORE_PROBE = """
import gc, json, sys
from bughunt.cli import main
argv = ["explore", "--builtin-site", "--store", sys.argv[1], "--budget", "0", "--policy", "frontier", "--json"]
code = main(argv)
from bughunt.explorer.transport import _CLIENT
from memgpt_lite.context.tokens import load_encoding, load_ranks
print(json.dumps({
    "code": code,
    "heavy": [m for m in ("chromadb", "onnxruntime", "playwright", "matplotlib", "bughunt.explorer.export",
                          "memgpt_lite.messages", "pydantic", "httpx._main", "click", "pygments", "rich",
                          "bughunt.reporters.files", "bughunt.reporters.records", "bughunt.sim.engine",
                          "tiktoken", "tomllib", "loguru", "asyncio", "multiprocessing",
                          "bughunt.reporters.baseline") if m in sys.modules],
    "encodings loaded": load_encoding.cache_info().currsize,
    "ranks loaded": load_ranks.cache_info().currsize,
    "start-up set aside from the collector": gc.get_freeze_count() > 0,
    "tls transport built": _CLIENT.tls is not None and _CLIENT.tls._inner is not None,
}))
"""


def test_explore_before_its_first_click_loads_only_what_it_uses(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", EXPLORE_PROBE, str(tmp_path / "s")], capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout.splitlines()[-1]) == {
        "code": 0,
        "heavy": [],
        "encodings loaded": 0,
        "ranks loaded": 0,
        "start-up set aside from the collector": True,
        "tls transport built": False,
    }, done.stderr[-2000:]
    assert done.stderr == "\n", "what rich's quiet bar wrote where it draws nothing: one blank line"


@pytest.mark.parametrize(
    "quiet, env, tty, shows",
    [
        (False, {}, False, True),  # a loud bar prints its last state even where it cannot draw
        (True, {}, False, False),  # quiet (--json), no terminal: rich would draw nothing
        (True, {}, True, True),
        (True, {"FORCE_COLOR": "1"}, False, True),  # rich may see a terminal: rich decides
        (True, {"TTY_COMPATIBLE": "1"}, False, True),
    ],
)
def test_the_progress_bar_is_left_out_only_where_rich_would_draw_nothing(quiet, env, tty, shows, monkeypatch):
    import io

    from bughunt.commands.explore import _bar_shows

    class Stream(io.StringIO):
        def isatty(self) -> bool:
            return tty

    monkeypatch.delitem(sys.modules, "IPython", raising=False)  # a notebook: rich decides
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "stderr", Stream())
    assert _bar_shows(quiet) is shows


def test_httpx_main_still_runs_its_command_line(tmp_path):
    # the explorer imports httpx without its command line (`httpx_client`); `httpx.main` loads it on call
    probe = (
        "import sys\n"
        "import bughunt.explorer.transport\n"
        "import httpx\n"
        "print([m for m in ('httpx._main', 'click') if m in sys.modules], file=sys.stderr)\n"
        "sys.argv = ['httpx', '--help']\n"
        "httpx.main()\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path)
    assert done.stderr.splitlines()[0] == "[]", done.stderr
    assert done.returncode == 0 and "A next generation HTTP client." in done.stdout, done.stderr[-2000:]


# an httpx whose __init__ needs its command line: imported as it is, not refused
_STRICT_HTTPX = {
    "__init__.py": "from ._main import main\nclass AsyncClient: pass\n",
    "_main.py": "def main():\n    print('the real main')\n",
}


def test_an_httpx_that_needs_its_command_line_is_imported_with_it(tmp_path):
    (tmp_path / "httpx").mkdir()
    for name, text in _STRICT_HTTPX.items():
        (tmp_path / "httpx" / name).write_text(text)
    probe = (
        f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\n"
        "from bughunt.explorer.httpx_client import httpx\n"
        "assert httpx.__file__.startswith(sys.path[0]), httpx.__file__\n"
        "httpx.main()\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "the real main\n", done.stderr[-2000:]


def test_the_tokenizer_loads_on_the_first_count_and_counts_as_before():
    from memgpt_lite.context.tokens import TokenCounter, load_encoding
    from memgpt_lite.errors import ConfigError

    with pytest.raises(ConfigError, match="unknown token encoding 'nope'"):
        TokenCounter("nope")  # a bad name is still refused when the counter is made
    counter = TokenCounter("o200k_base")
    assert counter._enc is None
    text = "/articles?page=2, /tags/python\nSearch results"
    assert (
        counter.count_lines(text) == counter.count_text(text) == len(load_encoding("o200k_base").encode(text))
    )


def test_an_https_origin_gets_a_verifying_transport_on_its_first_request():
    import socket

    from bughunt.explorer.transport import _CLIENT, FetchError, fetch_page

    with socket.socket() as s:  # a loopback port nobody listens on: the request is refused
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(FetchError):
        fetch_page(f"https://127.0.0.1:{port}/", timeout=5)
    assert _CLIENT.tls is not None
    built = _CLIENT.tls._inner
    assert built is not None and built._pool._ssl_context.verify_mode.name == "CERT_REQUIRED"
    assert built._pool._ssl_context.get_ca_certs()  # certifi's bundle, as httpx's default transport


def test_the_explorer_package_still_offers_its_names():
    import bughunt.explorer as explorer
    from bughunt.explorer.export import load_exploration, memory_snapshot

    assert (explorer.load_exploration, explorer.memory_snapshot) == (load_exploration, memory_snapshot)
    assert sorted(explorer.__all__) == sorted(explorer._SUBMODULE)
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        explorer.Nope  # noqa: B018


def test_the_sim_package_still_offers_its_names():
    import importlib

    import bughunt.sim as sim

    assert sorted(sim.__all__) == sorted(sim._SUBMODULE)
    for name, module in sim._SUBMODULE.items():
        assert getattr(sim, name) is getattr(importlib.import_module(module, "bughunt.sim"), name)
    assert "run" in dir(sim)
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        sim.Nope  # noqa: B018


def test_the_context_package_still_offers_its_names():
    import memgpt_lite.context as context

    assert sorted(context.__all__) == sorted(context._MODULE)
    for name in context.__all__:
        value = getattr(context, name)
        assert getattr(value, "__name__", name) == name
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        context.Nope  # noqa: B018


def test_the_storage_package_still_offers_its_names():
    import memgpt_lite.storage as storage

    assert sorted(storage.__all__) == sorted(storage._SUBMODULE)
    for name in storage.__all__:
        assert getattr(storage, name).__name__ == name
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        storage.Nope  # noqa: B018


@pytest.mark.parametrize("command", ["run", "chat", "layer2"])
def test_a_missing_key_is_reported_before_chroma_is_imported(command, tmp_path, monkeypatch):
    # `run` is registered by the chat module: naming it loads that module alone (not `demo`'s memory
    # imports), and the key is checked before the agent and its memory are imported (~1 s of CPU);
    # `python -m evals layer2 --agent anthropic` checks it before the run's modules load (~0.8 s)
    if command == "layer2":
        entry = "from evals.__main__ import main"
        argv = ["layer2", "--agent", "anthropic", "--log", str(tmp_path / "s")]
    else:
        entry = "from memgpt_lite.cli import main"
        argv = [command, "--store", str(tmp_path / "s"), *(["--message", "hi"] if command == "run" else [])]
    probe = (
        f"import sys\n{entry}\n"
        f"code = main({argv!r})\n"
        f"print('heavy:', [m for m in {HEAVY!r} if m in sys.modules], code, file=sys.stderr)\n"
    )
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    err = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stderr
    assert ("needs a model" in err or "--agent anthropic" in err) and "ANTHROPIC_API_KEY" in err, err
    assert err.splitlines()[-1] == "heavy: [] 2", err
    assert not (tmp_path / "s").exists()


# the `bughunt` process leaves what is alive at its exit to the OS (gc.freeze), not to a last walk of
# every object; a caller of `main(argv)` in its own process (these tests) keeps its collector as it was
EXIT_PROBE = """
import atexit, gc, sys
atexit.register(lambda: print("frozen at exit:", gc.get_freeze_count() > 0, file=sys.stderr))
from bughunt.cli import main
program = sys.argv[1] == "program"
sys.argv = ["bughunt", "memory", "--help"]
main(None if program else sys.argv[1:])
"""


@pytest.mark.parametrize("how, frozen", [("program", True), ("in-process", False)])
def test_the_command_process_skips_the_last_collection(how, frozen):
    done = subprocess.run([sys.executable, "-c", EXIT_PROBE, how], capture_output=True, text=True)
    assert done.returncode == 0 and "--store" in done.stdout, done.stderr[-2000:]
    assert done.stderr.splitlines()[-1] == f"frozen at exit: {frozen}", done.stderr[-2000:]


# the `bughunt` process's imports are not swept by the young collector: what they make lives as long as the
# process (`cli._import_quietly`); at CPython's default pace ~60 young collections fall among them
YOUNG_PROBE = """
import gc, sys
young = []
gc.callbacks.append(lambda phase, info: phase == "start" and info["generation"] < 2 and young.append(1))
threshold = gc.get_threshold()
sys.argv = ["bughunt", "explore", "--builtin-site", "--store", sys.argv[1], "--budget", "0", "--json"]
from bughunt.cli import main
code = main()
print(code, len(young), gc.get_threshold() == threshold)
"""


def test_the_command_s_imports_are_not_swept_by_the_young_collector(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", YOUNG_PROBE, str(tmp_path / "s")], capture_output=True, text=True, check=True
    )
    code, young, restored = done.stdout.split()[-3:]
    assert (code, restored) == ("0", "True")
    assert int(young) < 20, f"{young} young collections in a --budget 0 run"


# the methods `dataclasses` writes for a class are made from source text at import, each one parsed and
# compiled on its own (Python 3.11: ~0.75 M instructions a method, 29 % of a --budget 0 run when it made
# 396): the records on the start path are typed NamedTuples where nothing needs a dataclass, and no
# dataclass there has an `__eq__` nothing calls (docs/benchmarks.md, Session 38: this count was 319, 112 after)
GENERATED_PROBE = """
import dataclasses, sys
from bughunt.cli import main
code = main(["explore", "--builtin-site", "--store", sys.argv[1], "--budget", "0", "--json"])
made = [
    name
    for module in list(sys.modules.values())
    for cls in list(vars(module).values())
    if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == module.__name__
    for name, f in vars(cls).items()
    # a generated __repr__ is wrapped (its recursion guard): its own code is the wrapped function's
    if getattr(getattr(getattr(f, "__wrapped__", f), "__code__", None), "co_filename", "") == "<string>"
]
print(code, len(made))
"""


def test_explore_s_start_path_makes_few_dataclass_methods(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", GENERATED_PROBE, str(tmp_path / "s")],
        capture_output=True,
        text=True,
        check=True,
    )
    code, made = done.stdout.split()[-2:]
    assert code == "0"
    # perf39: 112 (main 149: the 37 generated __repr__ counted); the records' repr is `record_repr.field_repr`
    assert int(made) <= 120, f"{made} methods generated by dataclasses before the first click"
