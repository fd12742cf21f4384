"""A stand-in for llama.cpp's `llama-server` as the agent meets it over HTTP, for offline tests.

It behaves like the real server where the agent depends on it:
- `GET /props` states the context size (`default_generation_settings.n_ctx`), unless `states_window` is off;
- prompts are counted with the server's own tokenizer, which is not ours: here one token per
  `bytes_per_token` bytes of the rendered chat (3 by default: ~1.4x what cl100k counts for English, more
  than our 1.3 safety margin covers), tools rendered into the system turn unless `drop_tools` (what a
  chat template without tools does);
- `POST /v1/messages/count_tokens` answers that count; `POST /v1/messages` refuses a prompt of `n_ctx`
  tokens or more with llama.cpp's HTTP 400, and otherwise replies (a `send_message` call to requests
  with tools, a summary to those without).

`handle(method, path, body)` is the whole server; `serve()` puts it on a loopback port, `transport()`
behind an `httpx2.MockTransport`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

import httpx2

from tests.support.loopback import send_json, serving


@dataclass
class LlamaEmulator:
    n_ctx: int = 4096
    states_window: bool = True
    drop_tools: bool = False
    counts_tokens: bool = True
    bytes_per_token: float = 3.0
    prompts: list[int] = field(default_factory=list)
    """Tokens of every prompt `/v1/messages` was asked to run (refused ones included)."""
    refused: list[int] = field(default_factory=list)
    count_requests: int = 0
    paths: list[str] = field(default_factory=list)

    def render(self, body: dict[str, Any]) -> str:
        system = body.get("system") or ""
        if isinstance(system, list):
            system = "\n".join(b.get("text", "") for b in system)
        if body.get("tools") and not self.drop_tools:
            system += "\n<tools>\n" + "\n".join(json.dumps(t) for t in body["tools"]) + "\n</tools>"
        turns = [f"<|im_start|>system\n{system}<|im_end|>"]
        for message in body.get("messages", []):
            content = message["content"]
            text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
            turns.append(f"<|im_start|>{message['role']}\n{text}<|im_end|>")
        return "\n".join(turns) + "\n<|im_start|>assistant\n"

    def count(self, body: dict[str, Any]) -> int:
        return math.ceil(len(self.render(body).encode()) / self.bytes_per_token)

    def handle(self, method: str, path: str, body: dict[str, Any] | None) -> tuple[int, dict[str, Any]]:
        self.paths.append(f"{method} {path}")
        if method == "GET" and path == "/props" and self.states_window:
            return 200, {"default_generation_settings": {"n_ctx": self.n_ctx}, "total_slots": 1}
        if method == "POST" and path == "/v1/messages/count_tokens" and self.counts_tokens and body:
            self.count_requests += 1
            return 200, {"input_tokens": self.count(body)}
        if method == "POST" and path == "/v1/messages" and body:
            return self._message(body)
        return 404, {"error": {"code": 404, "message": "File Not Found", "type": "not_found_error"}}

    def _message(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        n = self.count(body)
        self.prompts.append(n)
        if n >= self.n_ctx:
            self.refused.append(n)
            message = (
                f"request ({n} tokens) exceeds the available context size ({self.n_ctx} tokens), "
                "try increasing it"
            )
            error = {"code": 400, "message": message, "type": "exceed_context_size_error"}
            return 400, {"error": {**error, "n_prompt_tokens": n, "n_ctx": self.n_ctx}}
        if body.get("tools"):
            content: list[dict[str, Any]] = [
                {
                    "type": "tool_use",
                    "id": f"call_{len(self.prompts)}",
                    "name": "send_message",
                    "input": {"message": f"noted ({n} tokens)"},
                }
            ]
            stop = "tool_use"
        else:
            content, stop = (
                [{"type": "text", "text": "SUMMARY: the user sent long status updates."}],
                "end_turn",
            )
        return 200, {
            "id": f"msg_{len(self.prompts)}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "emulated"),
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": n, "output_tokens": 8, "cache_read_input_tokens": 0},
        }

    def transport(self) -> httpx2.MockTransport:
        def respond(request: httpx2.Request) -> httpx2.Response:
            body = json.loads(request.content) if request.content else None
            status, payload = self.handle(request.method, request.url.path, body)
            return httpx2.Response(status, json=payload, headers={"x-should-retry": "false"})

        return httpx2.MockTransport(respond)

    @contextmanager
    def serve(self) -> Iterator[str]:
        emulator = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self, method: str) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length)) if length else None
                status, payload = emulator.handle(method, self.path.split("?")[0], body)
                send_json(self, status, payload)

            def do_GET(self) -> None:  # noqa: N802
                self._answer("GET")

            def do_POST(self) -> None:  # noqa: N802
                self._answer("POST")

            def log_message(self, *args: Any) -> None:
                pass

        with serving(Handler) as url:
            yield url
