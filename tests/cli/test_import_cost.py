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


# `bughunt explore --budget 0` over plain http with a strategy policy: nothing it never uses — no agent
# memory (Chroma, onnxruntime), no browser, no plots, no export of a store, no message models nor pydantic
# (no model is asked, no setting validated), no tokenizer ranks (nothing is counted before the first
# click) and no TLS context (no https origin); what start-up built is frozen out of the collector's
# sweeps (`gc.freeze`) before the first click
EXPLORE_PROBE = """
import gc, json, sys
from bughunt.cli import main
code = main(["explore", "--builtin-site", "--store", sys.argv[1], "--budget", "0", "--policy", "frontier"])
from bughunt.explorer.transport import _CLIENT
from memgpt_lite.context.tokens import load_encoding, load_ranks
print(json.dumps({
    "code": code,
    "heavy": [m for m in ("chromadb", "onnxruntime", "playwright", "matplotlib", "bughunt.explorer.export",
                          "memgpt_lite.messages", "pydantic") if m in sys.modules],
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
