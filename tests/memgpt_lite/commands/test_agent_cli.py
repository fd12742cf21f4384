"""`memgpt-lite run` and `memgpt-lite chat` against a loopback server that speaks the Messages API.

This is the `--base-url` path a user takes with Ollama or vLLM: the real SDK, real HTTP, real store.
"""

from __future__ import annotations

import io
import json
import socket
import threading
from http.server import BaseHTTPRequestHandler

import pytest

from memgpt_lite.cli import main
from tests.support.loopback import send_json, serving


def wire(content, stop_reason="tool_use"):
    return {
        "id": "msg_x",
        "type": "message",
        "role": "assistant",
        "model": "local-model",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }


def say(text_, i):
    return wire(
        [
            {"type": "text", "text": "thinking privately"},
            {"type": "tool_use", "id": f"toolu_{i}", "name": "send_message", "input": {"message": text_}},
        ]
    )


@pytest.fixture
def server():
    """Serves queued replies on 127.0.0.1; records every request body."""
    state = {"replies": [], "bodies": [], "summaries": 0}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers["content-length"])))
            state["bodies"].append(body)
            if "tools" not in body:  # the summarizer's request: no tools, just text in and out
                state["summaries"] += 1
                status, payload = (
                    200,
                    wire([{"type": "text", "text": "SUMMARY: user sent long updates."}], "end_turn"),
                )
            elif not state["replies"]:
                status, payload = (
                    500,
                    {"type": "error", "error": {"type": "api_error", "message": "script exhausted"}},
                )
            else:
                status, payload = state["replies"].pop(0)
            send_json(self, status, payload)

        def log_message(self, *a):
            pass

    with serving(Handler) as url:
        state["url"] = url
        yield state


def test_run_json_one_turn_then_resume(server, tmp_path, capsys):
    store = tmp_path / "agent"
    server["replies"] = [(200, say("Hello from the store!", 1))]
    code = main(
        [
            "run",
            "--store",
            str(store),
            "--base-url",
            server["url"],
            "--model",
            "local-model",
            "--message",
            "hi",
            "--json",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["messages"] == ["Hello from the store!"] and out["stopped"] == "yield" and out["steps"] == 1
    assert out["usage"]["input_tokens"] == 10
    assert out["tool_calls"][0]["name"] == "send_message"
    body = server["bodies"][0]
    assert body["model"] == "local-model" and body["messages"][-1]["content"][0]["text"] == "hi"
    assert "send_message" in {t["name"] for t in body["tools"]}

    server["replies"] = [(200, say("I remember you said hi.", 2))]
    assert main(["run", "--store", str(store), "--base-url", server["url"], "--message", "again"]) == 0
    assert capsys.readouterr().out.strip() == "I remember you said hi."
    texts = [
        b.get("text") for m in server["bodies"][1]["messages"] for b in m["content"] if b["type"] == "text"
    ]
    assert "hi" in texts and "again" in texts  # resumed: the first turn is still in context


def test_run_model_failure_keeps_the_message(server, tmp_path, capsys):
    store = tmp_path / "agent"
    code = main(
        [
            "run",
            "--store",
            str(store),
            "--base-url",
            server["url"],
            "--max-retries",
            "0",
            "--message",
            "are you up?",
            "--json",
        ]
    )
    assert code == 1
    assert "error" in json.loads(capsys.readouterr().out)
    server["replies"] = [(200, say("Yes.", 3))]
    assert main(["run", "--store", str(store), "--base-url", server["url"], "--message", "now?"]) == 0
    texts = [
        b.get("text") for m in server["bodies"][-1]["messages"] for b in m["content"] if b["type"] == "text"
    ]
    assert "are you up?" in texts


def test_no_key_and_no_base_url_is_a_clear_message(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert main(["run", "--store", str(tmp_path / "s"), "--message", "hi"]) == 2
    assert "ANTHROPIC_API_KEY" in capsys.readouterr().err
    assert main(["chat", "--store", str(tmp_path / "s")]) == 2
    assert "--base-url" in capsys.readouterr().err
    assert main(["run", "--store", str(tmp_path / "s"), "--message", "hi", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["kind"] == "NoModel"
    assert not (tmp_path / "s").exists()  # nothing is created when there is nothing to talk to


def test_chat_interactive_session(server, tmp_path, capsys, monkeypatch):
    server["replies"] = [(200, say("Hi! I'm listening.", 4))]
    monkeypatch.setattr("sys.stdin", io.StringIO("hello\n/memory\n/quit\n"))
    code = main(["chat", "--store", str(tmp_path / "c"), "--base-url", server["url"]])
    out = capsys.readouterr().out
    assert code == 0
    assert "new agent" in out and "Hi! I'm listening." in out and "<working_context>" in out
    assert "thinking privately" not in out


def test_run_with_the_memory_tool(server, tmp_path, capsys):
    store = tmp_path / "agent"
    create = {
        "command": "create",
        "path": "/memories/prefs.md",
        "file_text": "Prefers tea. api_key=abc123secret",
    }
    server["replies"] = [
        (200, wire([{"type": "tool_use", "id": "toolu_m", "name": "memory", "input": create}])),
        (200, say("Saved your preference.", 5)),
    ]
    args = [
        "run",
        "--store",
        str(store),
        "--base-url",
        server["url"],
        "--memory-tool",
        "--message",
        "I like tea",
    ]
    assert main(args) == 0
    assert capsys.readouterr().out.strip() == "Saved your preference."
    assert {"type": "memory_20250818", "name": "memory"} in server["bodies"][0]["tools"]
    saved = (store / "memories" / "prefs.md").read_text()
    assert "Prefers tea." in saved and "abc123secret" not in saved


def test_flush_uses_the_model_as_summarizer_by_default(server, tmp_path, capsys):
    store = tmp_path / "agent"
    long_update = "status update with many details about pages and forms. " * 60
    for i in range(4):
        server["replies"] = [(200, say(f"ack {i}", 10 + i))]
        args = ["run", "--store", str(store), "--base-url", server["url"], "--context-window", "4000"]
        assert main([*args, "--message", f"{i}: {long_update}", "--json"]) == 0
        events = json.loads(capsys.readouterr().out)["events"]
        if any(e["type"] == "flush" for e in events):
            break
    else:
        pytest.fail("no flush happened")
    assert server["summaries"] >= 1
    agent_requests = [b for b in server["bodies"] if "tools" in b]
    assert "SUMMARY: user sent long updates." in json.dumps(agent_requests[-1]["messages"])


@pytest.fixture
def silent_server():
    """Accepts connections on 127.0.0.1 and reads requests but never answers."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept():
        sock.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
            except OSError:
                continue
            held.append(conn)  # kept open, never written to

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    stop.set()
    thread.join(2)
    for conn in held:
        conn.close()
    sock.close()


def test_run_timeout_gives_up_on_a_server_that_never_answers(silent_server, tmp_path, capsys):
    import time

    store = tmp_path / "agent"
    argv = ["run", "--store", str(store), "--base-url", silent_server, "--max-retries", "0"]
    started = time.monotonic()
    code = main([*argv, "--timeout", "1", "--message", "hello?", "--json"])
    elapsed = time.monotonic() - started
    assert code == 1
    out = json.loads(capsys.readouterr().out)
    assert out["kind"] == "ModelError" and "unreachable or failed" in out["error"]
    assert elapsed < 30  # the SDK's default would hold the run for 600 s


@pytest.mark.parametrize("value", ["0", "-3", "nan", "inf"])
def test_run_timeout_must_be_positive(value, tmp_path, capsys):
    argv = ["run", "--store", str(tmp_path / "s"), "--base-url", "http://127.0.0.1:9", "--timeout", value]
    assert main([*argv, "--message", "hi"]) == 2
    assert "--timeout" in capsys.readouterr().err
    assert not (tmp_path / "s").exists()


def test_a_dead_server_fails_at_once_with_one_line_and_keeps_the_message(tmp_path, capsys):
    # A port nobody listens on: before, each of the first call's retries waited out its backoff
    # (13–22 s) before "Connection error."; now one connection attempt says so (the message is kept).
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    store = tmp_path / "agent"
    argv = ["run", "--store", str(store), "--base-url", f"http://127.0.0.1:{port}", "--message", "hi there"]
    assert main([*argv, "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["kind"] == "ModelError" and "unreachable: no server answers" in out["error"]
    assert "ConnectError" in out["error"] and "--base-url" in out["error"]
    assert "Connection error." not in out["error"]  # the SDK's message after its retries
    from memgpt_lite.memory import AgentMemory

    with AgentMemory.open(store, create=False, read_only=True) as memory:
        assert [m.text for m in memory.context.in_context] == ["hi there"]
