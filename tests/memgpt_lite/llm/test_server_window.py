"""A `--base-url` server's context size sizes the store, and a server that drops the tools is named.

Offline: `tests/support/llama_emulator.py` plays llama.cpp's server (it states `n_ctx` in `/props`, counts with a
tokenizer that is not ours, refuses a prompt of `n_ctx` tokens or more with HTTP 400); the real server
runs the same checks in `tests/memgpt_lite/llm/test_real_server.py`.
"""

from __future__ import annotations

import io
import json

import httpx2
import pytest

from memgpt_lite.cli import main
from memgpt_lite.errors import ServerMismatch
from memgpt_lite.llm.anthropic import AnthropicModel
from memgpt_lite.memory import AgentMemory
from memgpt_lite.messages import Message, ModelRequest, ToolSpec
from tests.support.llama_emulator import LlamaEmulator

# ~900 of the emulator's tokens per line: a 4096-token server fills up within a few turns
LONG = "Status update: the settings page saves, the export page crashes on empty input, search pages. " * 28
TOOL = ToolSpec(
    name="send_message",
    description="Send a message to the user.",
    input_schema={"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]},
)


def model_on(emulator: LlamaEmulator, **kw) -> AnthropicModel:
    http = httpx2.Client(transport=emulator.transport())
    return AnthropicModel("local", base_url="http://llama.test", http_client=http, max_retries=0, **kw)


def chat(store, url, lines, capsys, monkeypatch, *extra) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines) + "/quit\n"))
    code = main(["chat", "--store", str(store), "--base-url", url, "--model", "local", *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_default_store_never_exceeds_the_servers_context(tmp_path, capsys, monkeypatch):
    emulator = LlamaEmulator(n_ctx=4096)
    store = tmp_path / "agent"
    with emulator.serve() as url:
        code, out, err = chat(store, url, [f"{i}: {LONG}" for i in range(10)], capsys, monkeypatch)
    assert code == 0, err
    assert "model error" not in out + err and not emulator.refused
    state = json.loads((store / "state.json").read_text())
    assert state["config"]["context_window"] == 4096  # sized to the server, not the 32,000 default
    assert state["counters"]["flushes"] >= 1 and "SUMMARY:" in state["summary"]
    assert max(emulator.prompts) < 4096
    assert max(emulator.prompts) > 4096 * 0.6  # the window was used, not avoided


def test_the_same_chat_overflows_a_server_that_states_no_context(tmp_path, capsys, monkeypatch):
    """The issue's failure, kept as the control: without a stated size the store assumes 32,000 tokens."""
    emulator = LlamaEmulator(n_ctx=4096, states_window=False)
    with emulator.serve() as url:
        code, out, err = chat(
            tmp_path / "agent", url, [f"{i}: {LONG}" for i in range(6)], capsys, monkeypatch
        )
    assert code == 0
    assert emulator.refused and "exceeds the available context size" in err


def test_a_store_larger_than_the_server_is_refused_before_the_first_request(tmp_path, capsys):
    store = tmp_path / "agent"
    AgentMemory.open(store, context_window=32_000).close()
    emulator = LlamaEmulator(n_ctx=4096)
    with emulator.serve() as url:
        code = main(["run", "--store", str(store), "--base-url", url, "--message", "hi"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "32000" in err and "4096" in err and "llama-server -c 32000" in err
    assert not any(p.startswith("POST /v1/messages") for p in emulator.paths)
    # a store keeps its window: nothing was rewritten to fit the server
    assert json.loads((store / "state.json").read_text())["config"]["context_window"] == 32_000


def test_an_explicit_window_larger_than_the_server_creates_nothing(tmp_path, capsys):
    emulator = LlamaEmulator(n_ctx=4096)
    with emulator.serve() as url:
        args = ["run", "--store", str(tmp_path / "s"), "--base-url", url, "--context-window", "9000"]
        assert main([*args, "--message", "hi"]) == 2
    assert "--context-window 9000" in capsys.readouterr().err
    assert not (tmp_path / "s").exists()


def test_a_smaller_explicit_window_is_kept(tmp_path, capsys):
    emulator = LlamaEmulator(n_ctx=4096)
    with emulator.serve() as url:
        args = ["run", "--store", str(tmp_path / "s"), "--base-url", url, "--context-window", "3000"]
        assert main([*args, "--message", "hi"]) == 0
    assert json.loads((tmp_path / "s" / "state.json").read_text())["config"]["context_window"] == 3000


@pytest.mark.parametrize("command", ["run", "chat"])
def test_a_server_that_drops_the_tools_fails_with_one_line(command, tmp_path, capsys, monkeypatch):
    emulator = LlamaEmulator(n_ctx=8192, drop_tools=True)
    with emulator.serve() as url:
        if command == "run":
            code = main(["run", "--store", str(tmp_path / "s"), "--base-url", url, "--message", "hi"])
            err = capsys.readouterr().err
        else:
            code, _, err = chat(tmp_path / "s", url, ["hi"], capsys, monkeypatch)
    assert code == 2
    line = err.strip()
    assert "\n" not in line and line.startswith("error: ") and "drops the tools" in line
    assert "--chat-template-file" in line and "--jinja" in line
    assert "POST /v1/messages" not in emulator.paths  # found by counting, before any reply was asked for


def test_run_json_names_the_mismatch(tmp_path, capsys):
    emulator = LlamaEmulator(drop_tools=True)
    with emulator.serve() as url:
        code = main(["run", "--store", str(tmp_path / "s"), "--base-url", url, "--message", "hi", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 2 and out["kind"] == "ServerMismatch" and "drops the tools" in out["error"]


# -- the model client alone ---------------------------------------------------------------------------


def request(*tools: ToolSpec) -> ModelRequest:
    return ModelRequest(
        system="You are terse.", messages=[Message.user("hi")], tools=list(tools), max_tokens=16
    )


def test_tools_are_checked_once_per_set_of_tools():
    emulator = LlamaEmulator()
    model = model_on(emulator, check_tools=True)
    for _ in range(3):
        model.request(request(TOOL))
    assert emulator.count_requests == 2  # with and without, once
    model.request(request())  # no tools: nothing to check
    assert emulator.count_requests == 2


def test_dropped_tools_raise_server_mismatch():
    model = model_on(LlamaEmulator(drop_tools=True), check_tools=True)
    with pytest.raises(ServerMismatch, match=r"1 tools; \d+ input tokens with them, \d+ without"):
        model.request(request(TOOL))


def test_a_server_that_cannot_count_is_not_checked():
    emulator = LlamaEmulator(drop_tools=True, counts_tokens=False)
    model = model_on(emulator, check_tools=True)
    assert model.request(request(TOOL)).message.tool_calls  # nothing to compare: the request goes out


def test_the_check_is_on_for_servers_that_state_their_context():
    stated = model_on(LlamaEmulator(drop_tools=True))
    assert stated.stated_window() is not None
    with pytest.raises(ServerMismatch):
        stated.request(request(TOOL))
    silent = model_on(LlamaEmulator(drop_tools=True, states_window=False))
    assert silent.stated_window() is None
    silent.request(request(TOOL))  # an unknown server (or Anthropic's API) is not asked to count


def serve_json(routes):
    def respond(request: httpx2.Request) -> httpx2.Response:
        key = f"{request.method} {request.url.path}"
        if key not in routes:
            return httpx2.Response(404, json={"error": "not found"})
        value = routes[key]
        return value if isinstance(value, httpx2.Response) else httpx2.Response(200, json=value)

    return AnthropicModel(
        "qwen3",
        base_url="http://srv.test",
        http_client=httpx2.Client(transport=httpx2.MockTransport(respond)),
    )


@pytest.mark.parametrize(
    ("routes", "tokens", "source"),
    [
        ({"GET /props": {"default_generation_settings": {"n_ctx": 8192}}}, 8192, "/props n_ctx"),
        ({"GET /props": {"n_ctx": 2048}}, 2048, "/props n_ctx"),  # older llama.cpp builds
        (
            {
                "GET /api/version": {"version": "0.12.0"},
                "GET /api/ps": {"models": [{"name": "qwen3", "model": "qwen3", "context_length": 4096}]},
            },
            4096,
            "/api/ps context_length",
        ),
        (
            {
                "GET /api/version": {"version": "0.12.0"},
                "GET /api/ps": {"models": []},
                "POST /api/show": {"parameters": "temperature 0.7\nnum_ctx 16384", "model_info": {}},
            },
            16384,
            "/api/show num_ctx",
        ),
    ],
)
def test_stated_window_reads_llama_cpp_and_ollama(routes, tokens, source):
    stated = serve_json(routes).stated_window()
    assert stated is not None and stated.tokens == tokens and stated.source.endswith(source)


@pytest.mark.parametrize(
    "routes",
    [
        {},  # states nothing
        {"GET /props": httpx2.Response(200, text="<html>not json</html>")},
        {"GET /props": {"default_generation_settings": {"n_ctx": 0}}},
        {"GET /props": {"n_ctx": "8192"}},
        # Ollama without the model loaded or a num_ctx: its model_info's context_length is the
        # training length, not what it serves
        {
            "GET /api/version": {"version": "0.12.0"},
            "GET /api/ps": {"models": []},
            "POST /api/show": {"parameters": "", "model_info": {"qwen3.context_length": 40960}},
        },
        {"POST /api/show": {"parameters": "num_ctx 4096"}},  # not Ollama: /api/show is never asked
    ],
)
def test_stated_window_is_none_when_nothing_is_stated(routes):
    assert serve_json(routes).stated_window() is None


def test_an_unreachable_server_is_probed_once_and_briefly():
    calls = []

    def refuse(request: httpx2.Request) -> httpx2.Response:
        calls.append(request.url.path)
        raise httpx2.ConnectError("connection refused", request=request)

    http = httpx2.Client(transport=httpx2.MockTransport(refuse))
    model = AnthropicModel("m", base_url="http://down.test", http_client=http)
    assert model.stated_window() is None and model.stated_window() is None
    assert calls == ["/props"]
