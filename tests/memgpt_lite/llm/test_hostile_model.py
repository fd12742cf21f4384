"""A "Messages API" server that answers 200 with something else (a proxy's page, another API's JSON)
is a `ModelError` naming the server, not an AttributeError/TypeError from deep in the parser."""

from __future__ import annotations

import anthropic
import httpx2
import pytest

from memgpt_lite.errors import ModelError
from memgpt_lite.llm.anthropic import AnthropicModel
from memgpt_lite.messages import Message, ModelRequest


@pytest.mark.parametrize(
    "reply",
    [
        httpx2.Response(200, json={"a": 1}),
        httpx2.Response(200, text="<html>login required</html>", headers={"content-type": "text/html"}),
        httpx2.Response(200, json=[1, 2, 3]),
    ],
)
def test_non_messages_reply_is_a_model_error_naming_the_server(reply):
    http = httpx2.Client(transport=httpx2.MockTransport(lambda request: reply))
    client = anthropic.Anthropic(
        api_key="test", base_url="http://mock.invalid", http_client=http, max_retries=0
    )
    model = AnthropicModel("claude-test", client=client)
    with pytest.raises(ModelError, match=r"mock\.invalid.* not a Messages API message"):
        model.request(ModelRequest(system="s", messages=[Message.user("hi")], max_tokens=16))
