"""The `llm` policy over the real Anthropic client path (SDK + httpx2 MockTransport, no network):
the wire request carries the harness block and the delimited page, and tool_use replies drive clicks."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx2
import pytest

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.summary import summary
from bughunt.webapp import running_site
from memgpt_lite.llm.anthropic import AnthropicModel
from memgpt_lite.storage.embeddings import HashingEmbedder
from tests.support.tester_model import scripted_tester


class FakeClaude:
    """A Messages-API endpoint that always clicks the first link it has not been told is visited."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        self.bodies.append(body)
        last = body["messages"][-1]
        content = (
            last["content"]
            if isinstance(last["content"], list)
            else [{"type": "text", "text": last["content"]}]
        )
        # The adapter sends the previous turn's tool results and the new prompt as one user message:
        # only a message that ENDS with tool results is the end of a turn.
        if content[-1].get("type") == "tool_result":
            reply = [{"type": "text", "text": "ok"}]
            stop = "end_turn"
        else:
            prompt = "".join(block.get("text", "") for block in content if block.get("type") == "text")
            system = (
                body["system"]
                if isinstance(body["system"], str)
                else "".join(b["text"] for b in body["system"])
            )
            visited = set(re.search(r"^visited \(\d+\): (.*)$", system, re.M).group(1).split(", "))
            links = re.search(r"^Links on this page: (.*)$", prompt, re.M).group(1).split(", ")
            fresh = [link for link in links if link not in visited] or links
            reply = [
                {
                    "type": "tool_use",
                    "id": f"toolu_{len(self.bodies)}",
                    "name": "open_link",
                    "input": {"url": fresh[0]},
                }
            ]
            stop = "tool_use"
        usage = {
            "input_tokens": 900,
            "output_tokens": 20,
            "cache_read_input_tokens": 0,
            "cache_creation_input_tokens": 0,
        }
        message = {"id": "msg", "type": "message", "role": "assistant", "model": "claude-test", "content": reply,
                   "stop_reason": stop, "stop_sequence": None, "usage": usage}  # fmt: skip
        return httpx2.Response(200, json=message)


def test_llm_policy_over_the_anthropic_client(tmp_path):
    server = FakeClaude()
    model = AnthropicModel(
        model="claude-test",
        api_key="test",
        base_url="http://anthropic.invalid",
        http_client=httpx2.Client(transport=httpx2.MockTransport(server)),
        max_retries=0,
    )
    with running_site() as url:
        store = ExplorerStore(tmp_path / "s")
        with make_policy("llm", store=store, model=model, embedder=HashingEmbedder()) as policy:
            result = Explorer(store, HttpEngine(url), policy, SessionConfig(budget=8, builtin=True)).run()
        data = summary(store, result)
        store.close()
    assert data["steps"] == 8 and len(data["pages_visited"]) >= 7
    assert data["tokens"] >= 8 * 900, "provider-reported input tokens count when they exceed our estimate"
    first_tools = {t["name"] for t in server.bodies[0]["tools"]}
    assert {"open_link", "report_bug", "write_note", "finish"} <= first_tools
    wire = json.dumps(server.bodies[1])
    assert "<exploration" in wire and 'page_content untrusted=\\"true\\"' in wire


@pytest.mark.slow
def test_llm_session_resumes_with_its_agent_memory(tmp_path):
    from memgpt_lite.memory import AgentMemory

    def session(store_dir, budget):
        store = ExplorerStore(store_dir)
        model = scripted_tester(follow_poison=False)
        with make_policy("llm", store=store, model=model, embedder=HashingEmbedder()) as policy:
            result = Explorer(
                store, HttpEngine(url), policy, SessionConfig(budget=budget, builtin=True)
            ).run()
        data = summary(store, result)
        store.close()
        with AgentMemory.open(store_dir / "agent", create=False) as memory:
            return data, memory.recall.count()

    with running_site() as url:
        whole, _ = session(tmp_path / "whole", 24)
        _, first_count = session(tmp_path / "split", 10)
        split, second_count = session(tmp_path / "split", 14)
    assert split["session"] == "session-2" and split["steps"] == 14
    # The model decides from the harness-rendered memory, which survives the break intact.
    assert split["pages_visited"] == whole["pages_visited"]
    # the same bugs (their view differs by what names the store: `reproduce` holds its path)
    same = ("fingerprint", "route", "kind", "status", "suspected", "severity", "url")
    assert [{k: b[k] for k in same} for b in split["bugs"]] == [
        {k: b[k] for k in same} for b in whole["bugs"]
    ]
    assert split["duplicate_reports"] == 0
    assert second_count > first_count > 0, "the second session's trace joins the same recall storage"
