"""The wire path against a real Messages-API server: llama.cpp's `llama-server` serving SmolLM2-135M.

Run by the optional job `bash scripts/test-real-server.sh`, which builds the server, starts it twice on
loopback — `MEMGPT_LITE_REAL_SERVER` with a chat template that renders tools, `MEMGPT_LITE_REAL_SERVER_PLAIN`
with the model's own template, which drops them — and runs `pytest -m real_server`. Without the
variables every test here is skipped with that reason (tests/conftest.py).

A 135M model cannot drive the agent: these tests prove the wire (replies, tool schemas, a parsed tool
call, token counts, usage, errors and exit codes, memory pressure with a summary the model writes), not
behaviour. The client does not stream, so there is no streaming to test.
"""

from __future__ import annotations

import io
import json
import os
import re
from http.server import BaseHTTPRequestHandler

import httpx2
import pytest

from memgpt_lite.cli import main
from memgpt_lite.errors import ModelError, ServerMismatch
from memgpt_lite.llm.anthropic import AnthropicModel
from memgpt_lite.messages import Message, ModelRequest
from memgpt_lite.tools import ToolRegistry
from memgpt_lite.tools.memory_functions import register_memory_functions
from tests.support.loopback import serving

pytestmark = pytest.mark.real_server

URL = os.environ.get("MEMGPT_LITE_REAL_SERVER", "")
PLAIN_URL = os.environ.get("MEMGPT_LITE_REAL_SERVER_PLAIN", "")
# ~1,100 tokens of SmolLM2's tokenizer per line (measured through count_tokens in the tests below)
REPORT = (
    "Status report {n}: the settings page saves the profile form, the export page crashes when the list "
    "is empty, the search pager skips page three, and the login form keeps the old password field. "
) * 22


def agent_tools():
    registry = ToolRegistry(heartbeat=True)
    register_memory_functions(registry)
    return registry.spec()


def model(url: str = URL, **kw) -> AnthropicModel:
    return AnthropicModel("smollm2", base_url=url, max_retries=0, timeout=300, **kw)


def ask(text: str, *, tools=(), max_tokens: int = 24, **extra) -> ModelRequest:
    return ModelRequest(
        system="You are a terse assistant.",
        messages=[Message.user(text)],
        tools=list(tools),
        max_tokens=max_tokens,
        temperature=0.0,
        extra=extra,
    )


def test_the_server_states_its_context():
    stated = model().stated_window()
    props = httpx2.get(f"{URL}/props", timeout=30).json()
    assert stated is not None and stated.tokens == props["default_generation_settings"]["n_ctx"] > 0
    assert stated.source.endswith("/props n_ctx")


def test_a_text_reply_with_usage_and_cache_fields():
    client = model()
    first = client.request(ask("Say hello."))
    assert first.message.text.strip() and not first.message.tool_calls
    assert first.stop_reason in ("end_turn", "max_tokens")
    assert first.usage.input_tokens > 0 and 0 < first.usage.output_tokens <= 24
    again = client.request(ask("Say hello."))  # the same prompt: the server reuses its cached prefix
    assert again.usage.cache_read_tokens > 0
    assert again.usage.input_tokens + again.usage.cache_read_tokens == first.usage.input_tokens


def test_count_tokens_counts_the_prompt_the_server_runs():
    client = model()
    request = ask("Count me, please.")
    counted = client.count_tokens(request)
    reply = client.request(request)
    assert counted is not None and counted == reply.usage.input_tokens + reply.usage.cache_read_tokens


def test_the_agents_tool_schemas_are_accepted_and_reach_the_prompt():
    client = model()
    tools = agent_tools()
    request = ask("Remember that I like green tea.", tools=tools)
    with_tools, without = (
        client.count_tokens(request),
        client.count_tokens(ask("Remember that I like green tea.")),
    )
    assert with_tools is not None and without is not None and with_tools > without + 200
    client.check_tools_rendered(request)  # passes: the template renders them
    assert client.request(request).usage.input_tokens > 0


def test_a_tool_call_is_parsed_when_the_model_makes_one():
    # tool_choice "any" becomes llama.cpp's "required": the server constrains the reply to a call
    request = ask(
        "Tell the user hello.",
        tools=[t for t in agent_tools() if t.name == "send_message"],
        max_tokens=96,
        body={"tool_choice": {"type": "any"}},
    )
    reply = model().request(request)
    # SmolLM2-135M answers this prompt with a call (greedy decoding: the same one every time); what it
    # puts in the arguments, and whether it goes on writing after the call (a max_tokens stop), is its
    # own business: the client's is that the call arrives parsed, arguments as an object
    (call,) = reply.message.tool_calls
    assert call.name == "send_message" and isinstance(call.arguments, dict) and call.raw_arguments is None
    assert re.fullmatch(r"[A-Za-z0-9_-]+", call.id)


def test_a_template_that_drops_the_tools_is_refused_in_one_line(tmp_path, capsys):
    plain = model(PLAIN_URL)
    tools = agent_tools()
    assert plain.count_tokens(ask("hi", tools=tools)) == plain.count_tokens(ask("hi"))  # the failure itself
    with pytest.raises(ServerMismatch, match="drops the tools"):
        model(PLAIN_URL, check_tools=True).request(ask("hi", tools=tools))
    code = main(["run", "--store", str(tmp_path / "s"), "--base-url", PLAIN_URL, "--message", "hi"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "--chat-template-file" in err


@pytest.fixture
def props_hidden():
    """The real server behind a proxy that hides `/props`: a server that states no context size."""

    class Proxy(BaseHTTPRequestHandler):
        def _forward(self, method: str) -> None:
            if self.path.startswith("/props"):
                status, headers, data = 404, {"content-type": "application/json"}, b'{"error": "hidden"}'
            else:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else None
                wanted = {
                    k: v
                    for k, v in self.headers.items()
                    if k.lower() in ("content-type", "anthropic-version")
                }
                r = httpx2.request(method, URL + self.path, content=body, headers=wanted, timeout=300)
                status, headers, data = (
                    r.status_code,
                    {"content-type": r.headers.get("content-type", "")},
                    r.content,
                )
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):  # noqa: N802
            self._forward("GET")

        def do_POST(self):  # noqa: N802
            self._forward("POST")

        def log_message(self, *a):
            pass

    with serving(Proxy) as url:
        yield url


def test_overflow_is_a_model_error_with_exit_code_1(props_hidden, tmp_path, capsys):
    huge = " ".join(REPORT.format(n=n) for n in range(9))  # ~10k tokens: past the 8k context
    with pytest.raises(ModelError, match="exceeds the available context size"):
        model().request(ask(huge))
    # A store that assumes 32,000 tokens on a server that states nothing: the server refuses the request
    args = ["run", "--store", str(tmp_path / "s"), "--base-url", props_hidden, "--context-window", "32000"]
    code = main([*args, "--max-tokens", "16", "--message", huge, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["kind"] == "ModelError" and "HTTP 400" in out["error"]
    assert "exceeds the available context size" in out["error"]


def test_a_default_store_chats_within_the_servers_context_and_flushes_with_a_model_summary(
    tmp_path, capsys, monkeypatch
):
    store = tmp_path / "agent"
    n_ctx = model().stated_window().tokens
    lines = [REPORT.format(n=n) for n in range(8)]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines) + "/quit\n"))
    code = main(["chat", "--store", str(store), "--base-url", URL, "--max-tokens", "32", "--max-steps", "2"])
    out = capsys.readouterr()
    assert code == 0
    assert "model error" not in out.out + out.err, out.err
    state = json.loads((store / "state.json").read_text())
    assert state["config"]["context_window"] == n_ctx  # sized to the server, not the 32,000 default
    assert state["counters"]["warnings"] >= 1 and state["counters"]["flushes"] >= 1
    assert state["counters"]["summary_failures"] == 0
    # the model wrote the summary: not the deterministic summarizer's "[YYYY-MM-DD HH:MM] role:" lines
    assert state["summary"].strip() and not re.match(r"\[\d{4}-\d\d-\d\d \d\d:\d\d\] \w+:", state["summary"])
    flushes = re.findall(r"\(flush: (\d+) → (\d+) tokens\)", out.out)
    assert flushes and all(int(after) < int(before) for before, after in flushes)
