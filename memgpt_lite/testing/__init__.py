"""Test helpers for agents built on memgpt_lite: models that need no network and builders for their replies.

    from memgpt_lite.testing import ScriptedModel, response, send_message, text, tool_call

    model = ScriptedModel([
        response(text("User greets me."), send_message("Hello!")),
    ])

`ScriptedModel` records every request in `model.requests` and raises `UnexpectedModelCall` when the agent
asks for a response the script does not have. `FunctionModel(fn)` computes each reply from the request.
"""

from memgpt_lite.testing.builders import response, send_message, text, thinking, tool_call
from memgpt_lite.testing.models import FunctionModel, ScriptedModel, UnexpectedModelCall
from memgpt_lite.testing.network import NetworkBlockedError, block_network

__all__ = [
    "FunctionModel",
    "NetworkBlockedError",
    "ScriptedModel",
    "UnexpectedModelCall",
    "block_network",
    "response",
    "send_message",
    "text",
    "thinking",
    "tool_call",
]
