"""Typed tool registry: schemas from signatures and docstrings; every model mistake becomes an error result."""

from __future__ import annotations

from typing import Literal

import pytest
from anthropic.lib.tools import ToolError as SdkToolError
from pydantic import ValidationError

from memgpt_lite.errors import ConfigError, StoreError, ToolError
from memgpt_lite.messages import ToolCallPart
from memgpt_lite.testing import tool_call
from memgpt_lite.tools.registry import (
    Tool,
    ToolContext,
    ToolRegistry,
    internal_error_result,
    requests_heartbeat,
)


def add_note(ctx: ToolContext, text: str, importance: int = 5, tags: list[str] | None = None) -> str:
    """Save a note for later.

    Notes outlive the session.

    Args:
        text: What to remember.
        importance: 1 (trivia) to 10 (essential).
        tags: Labels to find it by.
    """
    ctx.deps.append((text, importance, tags))
    return f"saved {text!r} ({importance})"


def pick(color: Literal["red", "green"]) -> dict[str, str]:
    """Pick a colour.

    :param color: The colour to pick.
    """
    return {"picked": color}


def test_schema_from_signature_and_google_docstring():
    reg = ToolRegistry(heartbeat=False)
    tool = reg.register(add_note)
    assert tool.takes_context
    spec = reg.spec()[0]
    assert spec.name == "add_note"
    assert spec.description == "Save a note for later.\n\nNotes outlive the session."
    assert spec.input_schema == {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "text": {"type": "string", "description": "What to remember."},
            "importance": {"type": "integer", "default": 5, "description": "1 (trivia) to 10 (essential)."},
            "tags": {
                "anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}],
                "default": None,
                "description": "Labels to find it by.",
            },
        },
        "required": ["text"],
    }


def test_sphinx_docstring_and_literal_enum():
    reg = ToolRegistry([pick], heartbeat=False)
    schema = reg.spec()[0].input_schema
    assert schema["properties"]["color"] == {
        "enum": ["red", "green"],
        "type": "string",
        "description": "The colour to pick.",
    }
    res = reg.call(tool_call("pick", color="red"), ToolContext())
    assert not res.is_error and res.content == '{"picked": "red"}'


def test_heartbeat_parameter_is_added_and_not_passed_to_the_function():
    reg = ToolRegistry()
    reg.register(pick)
    props = reg.spec()[0].input_schema["properties"]
    assert props["request_heartbeat"]["type"] == "boolean"
    call = tool_call("pick", color="green", request_heartbeat=True)
    assert not reg.call(call, ToolContext()).is_error
    assert requests_heartbeat(call)
    assert not requests_heartbeat(tool_call("pick", color="green"))


def test_call_with_context_and_coercion():
    notes: list = []
    reg = ToolRegistry([add_note], heartbeat=False)
    res = reg.call(tool_call("add_note", text="cats", importance="7", _id="c1"), ToolContext(deps=notes))
    assert (res.tool_call_id, res.name, res.is_error) == ("c1", "add_note", False)
    assert res.content == "saved 'cats' (7)"
    assert notes == [("cats", 7, None)]


@pytest.mark.parametrize(
    ("call", "needle"),
    [
        (tool_call("nope", x=1), "Unknown tool 'nope'. Available tools: add_note"),
        (tool_call("add_note", _raw='{"text": "unterminated'), "not valid JSON"),
        (tool_call("add_note"), "text: Field required"),
        (tool_call("add_note", text="a", importance="lots"), "importance: Input should be a valid integer"),
        (tool_call("add_note", text="a", colour="red"), "colour: Extra inputs are not permitted"),
    ],
)
def test_model_mistakes_become_error_results(call: ToolCallPart, needle: str):
    notes: list = []
    reg = ToolRegistry([add_note], heartbeat=False)
    res = reg.call(call, ToolContext(deps=notes))
    assert res.is_error and needle in res.content
    assert res.tool_call_id == call.id
    assert notes == []


def test_tool_errors_ours_and_sdk_are_model_visible():
    def ours() -> str:
        """Fails politely."""
        raise ToolError("no such block 'persona2'")

    def sdks() -> str:
        """Fails the SDK way."""
        raise SdkToolError("Path /x would escape /memories directory")

    reg = ToolRegistry([ours, sdks], heartbeat=False)
    assert reg.call(tool_call("ours"), ToolContext()).content == "no such block 'persona2'"
    res = reg.call(tool_call("sdks"), ToolContext())
    assert res.is_error and "escape /memories" in res.content


@pytest.mark.parametrize(
    "exc", [StoreError("recall.sqlite is locked"), AssertionError("invariant"), ZeroDivisionError("x")]
)
def test_programmer_and_runtime_errors_propagate(exc):
    def broken(x: int) -> str:
        """Always breaks."""
        raise exc

    reg = ToolRegistry([broken], heartbeat=False)
    with pytest.raises(type(exc)):
        reg.call(tool_call("broken", x=3), ToolContext())


def test_a_tool_may_opt_in_to_report_its_failures_to_the_model():
    def broken(x: int) -> str:
        """Always breaks."""
        return str(1 // (x - x))

    reg = ToolRegistry(heartbeat=False)
    reg.register(broken, on_failure=internal_error_result)
    res = reg.call(tool_call("broken", x=3), ToolContext())
    assert res.is_error and "ZeroDivisionError" in res.content
    reg.register(Tool.from_function(broken, name="custom", on_failure=lambda err, call: f"{call.name}: busy"))
    assert reg.call(tool_call("custom", x=3), ToolContext()).content == "custom: busy"


def test_a_validation_error_raised_inside_a_tool_is_not_an_argument_error():
    from pydantic import BaseModel

    class Strict(BaseModel):
        n: int

    def parse() -> str:
        """Parses something internal."""
        return str(Strict.model_validate({"n": "many"}))

    with pytest.raises(ValidationError):
        ToolRegistry([parse], heartbeat=False).call(tool_call("parse"), ToolContext())


def test_decorator_native_tools_and_configuration_errors():
    reg = ToolRegistry(heartbeat=False)

    @reg.tool
    def ping() -> None:
        """Ping."""

    assert ping() is None and reg.call(tool_call("ping"), ToolContext()).content == "OK"
    reg.register(
        Tool.native({"type": "memory_20250818", "name": "memory"}, lambda args, ctx: f"ran {args['command']}")
    )
    assert [s.name for s in reg.spec()] == ["ping"]
    assert reg.definitions() == [{"type": "memory_20250818", "name": "memory"}]
    assert (
        reg.call(tool_call("memory", command="view", path="/memories"), ToolContext()).content == "ran view"
    )
    with pytest.raises(ConfigError, match="already registered"):
        reg.register(ping)

    def undocumented(x: int) -> int:
        return x

    with pytest.raises(ConfigError, match="docstring"):
        reg.register(undocumented)

    def ctx_late(x: int, ctx: ToolContext) -> int:
        """Bad."""
        return x

    with pytest.raises(ConfigError, match="first parameter"):
        reg.register(ctx_late)


def test_null_for_an_optional_argument_means_its_default():
    notes: list = []
    reg = ToolRegistry([add_note], heartbeat=False)
    res = reg.call(tool_call("add_note", text="x", importance=None, tags=None), ToolContext(deps=notes))
    assert not res.is_error and notes == [("x", 5, None)]
    res = reg.call(tool_call("add_note", text=None), ToolContext(deps=notes))
    assert res.is_error and "text" in res.content


def _closure_tool(limit_default: int, answer: str) -> Tool:
    def lookup(query: str, limit: int = limit_default) -> str:
        """Look something up.

        Args:
            query: what to find
            limit: how many results
        """
        return f"{answer}:{query}:{limit}"

    return Tool.from_function(lookup)


def test_closures_of_one_definition_share_a_description_but_never_a_function():
    a, b = _closure_tool(5, "a"), _closure_tool(5, "b")
    assert a.args_model is b.args_model  # described once
    assert a.run({"query": "q"}, None) == "a:q:5" and b.run({"query": "q"}, None) == "b:q:5"
    c = _closure_tool(7, "c")  # another default is another schema
    assert c.args_model is not a.args_model
    assert c.input_schema["properties"]["limit"]["default"] == 7
    assert a.input_schema["properties"]["limit"]["default"] == 5
    renamed = Tool.from_function(a.function, name="find")
    assert renamed.name == "find" and a.name == "lookup"
    a.input_schema["properties"].clear()  # a caller changing its copy changes nobody else's
    assert "query" in b.input_schema["properties"]
