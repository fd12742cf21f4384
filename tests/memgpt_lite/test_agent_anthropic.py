"""The agent loop over the real Anthropic client (SDK + httpx2.MockTransport): the production path, offline."""

from __future__ import annotations

import json

import httpx2
import pytest

from memgpt_lite.agent import Agent
from memgpt_lite.llm.anthropic import AnthropicModel
from memgpt_lite.memory import AgentMemory
from memgpt_lite.storage.embeddings import HashingEmbedder


def wire(content, stop_reason):
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 100, "output_tokens": 20},
    }


@pytest.fixture
def memory(tmp_path):
    with AgentMemory.open(tmp_path / "s", context_window=16_000, embedder=HashingEmbedder()) as mem:
        yield mem


def test_parallel_calls_truncation_and_overload_through_the_sdk(memory):
    overloaded = (529, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
    replies = [
        overloaded,
        (
            200,
            wire(
                [
                    {"type": "text", "text": "Saving both facts."},
                    {
                        "type": "tool_use",
                        "id": "toolu_a",
                        "name": "core_memory_append",
                        "input": {"name": "human", "content": "Name: Ada"},
                    },
                    {
                        "type": "tool_use",
                        "id": "toolu_b",
                        "name": "core_memory_append",
                        "input": {"name": "human"},
                    },
                ],
                "max_tokens",
            ),
        ),
        (
            200,
            wire(
                [
                    {
                        "type": "tool_use",
                        "id": "toolu_c",
                        "name": "send_message",
                        "input": {"message": "Got it, Ada."},
                    }
                ],
                "tool_use",
            ),
        ),
    ]
    bodies = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        bodies.append(json.loads(request.content))
        status, body = replies.pop(0)
        return httpx2.Response(status, json=body, headers={"retry-after-ms": "1"})

    http = httpx2.Client(transport=httpx2.MockTransport(handler))
    model = AnthropicModel(
        "claude-test", api_key="test", base_url="http://mock", http_client=http, max_retries=2
    )
    result = Agent(model, memory).step("I'm Ada")

    assert result.messages == ["Got it, Ada."]
    assert result.steps == 2 and result.errors == 1
    assert result.usage.input_tokens == 200 and result.usage.output_tokens == 40
    assert len(bodies) == 3 and bodies[0] == bodies[1]  # the 529 was retried with the same request
    human = next(b for b in memory.working_context.blocks if b.name == "human")
    assert human.value == "Name: Ada"  # the complete call ran; the cut-off one did not

    last = bodies[2]
    assert last["model"] == "claude-test" and "Name: Ada" in last["system"]
    assistant, results = last["messages"][-2], last["messages"][-1]
    assert [b["type"] for b in assistant["content"]] == ["text", "tool_use", "tool_use"]
    assert results["role"] == "user"
    assert [(b["tool_use_id"], b.get("is_error", False)) for b in results["content"]] == [
        ("toolu_a", False),
        ("toolu_b", True),
    ]
    assert "cut off" in results["content"][1]["content"]
    assert {t["name"] for t in last["tools"]} >= {
        "send_message",
        "core_memory_append",
        "archival_memory_search",
    }
    schema = next(t for t in last["tools"] if t["name"] == "core_memory_append")["input_schema"]
    assert schema["required"] == ["name", "content"] and "request_heartbeat" in schema["properties"]
