"""Typed Python functions as model tools: JSON schema from the signature, descriptions from the docstring.

    registry = ToolRegistry()

    @registry.tool
    def add_note(ctx: ToolContext, text: str, importance: int = 5) -> str:
        '''Save a note.

        Args:
            text: What to remember.
            importance: 1 (trivia) to 10 (essential).
        '''

A first parameter annotated `ToolContext` receives the agent's memory and is left out of the schema.
`registry.call(part, ctx)` never raises for model mistakes: an unknown tool, arguments that are not JSON,
arguments that fail validation and `ToolError`s all become error results the model sees. Anything else a
tool raises (`StoreError`, a failing `assert`, a bug) is not the model's to fix: it propagates and ends
the turn — unless the tool opted in with `on_failure=` (as openai-agents' `failure_error_function`), a
function that turns the exception into the text of an error result.
"""

from __future__ import annotations

import copy
import functools
import inspect
import json
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, get_type_hints

import docstring_parser
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from memgpt_lite.errors import ConfigError, ToolError, format_validation_error
from memgpt_lite.log import logger
from memgpt_lite.messages import ToolCallPart, ToolResultPart, ToolSpec

if TYPE_CHECKING:
    from memgpt_lite.memory import AgentMemory

HEARTBEAT_PARAM = "request_heartbeat"
HEARTBEAT_DESCRIPTION = (
    "Request an immediate heartbeat after this call: true when you need another step (for example to use "
    "this result) before waiting for the user; false to yield."
)


@dataclass
class ToolContext:
    """What a tool can reach besides its arguments. Set per call by the agent loop."""

    memory: AgentMemory | Any = None
    agent: Any = None
    call: ToolCallPart | None = None
    deps: Any = None
    """Whatever the application passes along (a browser session, a database handle, ...)."""
    outbox: list[str] = field(default_factory=list)
    """Messages for the user produced during this step (`send_message` appends here)."""
    page_size: int = 5
    """Results per page for the search tools."""


NativeHandler = Callable[[dict[str, Any], ToolContext], Any]
FailureHandler = Callable[[Exception, ToolCallPart], str]
"""Opt-in for one tool: the text the model reads when the tool raised something other than `ToolError`."""


def internal_error_result(err: Exception, call: ToolCallPart) -> str:
    """A ready-made `on_failure=`: name the exception to the model (it may retry or work around it)."""
    return f"Tool {call.name} failed with an internal error ({type(err).__name__}: {err})."


def _strip_titles(schema: Any) -> Any:
    """Drop pydantic's auto-generated titles: they cost tokens and tell the model nothing."""
    if isinstance(schema, dict):
        out = {}
        for key, value in schema.items():
            if key == "title" and isinstance(value, str):
                continue
            if key in ("properties", "$defs", "definitions") and isinstance(value, dict):
                out[key] = {name: _strip_titles(sub) for name, sub in value.items()}
            else:
                out[key] = _strip_titles(value)
        return out
    if isinstance(schema, list):
        return [_strip_titles(v) for v in schema]
    return schema


def _is_context(annotation: Any) -> bool:
    return annotation is ToolContext or (isinstance(annotation, str) and annotation.endswith("ToolContext"))


def _render_result(value: Any) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return "OK"
    if isinstance(value, BaseModel):
        return value.model_dump_json()
    return json.dumps(value, ensure_ascii=False, default=str)


@dataclass
class Tool:
    """One tool: a typed function (schema generated) or a native definition passed to the provider as is."""

    name: str
    description: str
    function: Callable[..., Any]
    takes_context: bool = False
    heartbeat: bool = False
    args_model: type[BaseModel] | None = None
    definition: dict[str, Any] | None = None
    """For provider-defined tools (e.g. `{"type": "memory_20250818", "name": "memory"}`)."""
    on_failure: FailureHandler | None = None
    """When set, an unexpected exception becomes the error result it returns instead of ending the turn."""

    @classmethod
    def from_function(
        cls,
        fn: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        heartbeat: bool = False,
        on_failure: FailureHandler | None = None,
    ) -> Tool:
        if inspect.iscoroutinefunction(fn):
            raise ConfigError(
                f"tool {fn.__name__}: async functions are not supported; wrap it in a sync function"
            )
        described = _describe_cached(fn, name, description, heartbeat)
        return cls(function=fn, on_failure=on_failure, **described)

    @staticmethod
    def _describe(
        fn: Callable[..., Any], name: str | None, description: str | None, heartbeat: bool
    ) -> dict[str, Any]:
        """What the model is told about `fn`: name, description, argument model (what from_function builds)."""
        sig = inspect.signature(fn)
        try:
            hints = get_type_hints(fn, localns={"ToolContext": ToolContext})
        except Exception as err:
            raise ConfigError(f"tool {fn.__name__}: cannot resolve type hints: {err}") from err
        doc = docstring_parser.parse(inspect.getdoc(fn) or "")
        param_docs = {p.arg_name: p.description or "" for p in doc.params}
        params = list(sig.parameters.values())
        takes_context = bool(params) and _is_context(hints.get(params[0].name, params[0].annotation))
        if takes_context:
            params = params[1:]
        fields: dict[str, Any] = {}
        for p in params:
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise ConfigError(f"tool {fn.__name__}: *args/**kwargs cannot be described to a model")
            if _is_context(hints.get(p.name, p.annotation)):
                raise ConfigError(f"tool {fn.__name__}: ToolContext must be the first parameter")
            annotation = hints.get(p.name, Any)
            default = ... if p.default is inspect.Parameter.empty else p.default
            fields[p.name] = (annotation, Field(default, description=param_docs.get(p.name) or None))
        if heartbeat and HEARTBEAT_PARAM not in fields:
            fields[HEARTBEAT_PARAM] = (bool, Field(False, description=HEARTBEAT_DESCRIPTION))
        tool_name = name or fn.__name__
        args_model = create_model(f"{tool_name}_arguments", __config__=ConfigDict(extra="forbid"), **fields)
        desc = description or "\n\n".join(x for x in (doc.short_description, doc.long_description) if x)
        if not desc:
            raise ConfigError(f"tool {tool_name}: needs a docstring or description= (the model reads it)")
        return {
            "name": tool_name,
            "description": desc.strip(),
            "takes_context": takes_context,
            "heartbeat": heartbeat,
            "args_model": args_model,
        }

    native_schema: dict[str, Any] | None = None
    """For native tools: a stand-in schema, so the context manager can count what the provider expands."""

    @classmethod
    def native(
        cls,
        definition: Mapping[str, Any],
        handler: NativeHandler,
        description: str = "",
        input_schema: dict[str, Any] | None = None,
        on_failure: FailureHandler | None = None,
    ) -> Tool:
        """A provider-defined tool: `definition` goes to the provider unchanged; `handler(args, ctx)` runs calls.

        `description` and `input_schema` are never sent; they stand in for the provider's own expansion of
        the tool when the prompt is counted.
        """
        if "name" not in definition:
            raise ConfigError("a native tool definition needs a 'name'")
        return cls(
            name=definition["name"],
            description=description or definition.get("type", ""),
            function=handler,
            definition=dict(definition),
            native_schema=input_schema,
            on_failure=on_failure,
        )

    @property
    def input_schema(self) -> dict[str, Any]:
        if self.args_model is None:
            return self.native_schema or {"type": "object"}
        # Every model request lists every tool: pydantic's schema generation (~15 ms a tool) once per
        # argument model, a copy per use so no caller can change the kept one.
        return copy.deepcopy(_schema_of(self.args_model))

    def spec(self) -> ToolSpec:
        return ToolSpec(name=self.name, description=self.description, input_schema=self.input_schema)

    def run(self, arguments: dict[str, Any], ctx: ToolContext) -> Any:
        """Validate and call. Raises `ValidationError`, `ToolError` or whatever the function raises."""
        return self.invoke(self.bind(arguments), ctx)

    def bind(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """The call's keyword arguments, validated; raises `ValidationError` (the model's mistake)."""
        if self.definition is not None:
            return arguments
        if self.args_model is None:
            raise ConfigError(f"tool {self.name}: neither a native definition nor an argument model")
        fields = self.args_model.model_fields
        # Models often send null for an optional argument they mean to leave out: use its default.
        arguments = {
            k: v
            for k, v in arguments.items()
            if not (v is None and k in fields and not fields[k].is_required())
        }
        validated = self.args_model.model_validate(arguments)
        kwargs = {k: getattr(validated, k) for k in type(validated).model_fields}
        if self.heartbeat and HEARTBEAT_PARAM not in inspect.signature(self.function).parameters:
            kwargs.pop(HEARTBEAT_PARAM, None)
        return kwargs

    def invoke(self, kwargs: dict[str, Any], ctx: ToolContext) -> Any:
        """Call the function with arguments from `bind`."""
        if self.definition is not None:
            return self.function(kwargs, ctx)
        return self.function(ctx, **kwargs) if self.takes_context else self.function(**kwargs)


def requests_heartbeat(call: ToolCallPart) -> bool:
    """Did the model ask for another step after this call?"""
    value = call.arguments.get(HEARTBEAT_PARAM)
    return value is True or (isinstance(value, str) and value.strip().lower() == "true")


def _is_tool_error(err: Exception) -> bool:
    if isinstance(err, ToolError):
        return True
    # The SDK's own ToolError (raised by BetaAbstractMemoryTool subclasses) is model-visible too.
    return type(err).__name__ == "ToolError" and type(err).__module__.startswith("anthropic")


class ToolRegistry:
    """The tools an agent offers the model, by name."""

    def __init__(self, tools: Iterable[Callable[..., Any] | Tool] = (), *, heartbeat: bool = True) -> None:
        self.heartbeat = heartbeat
        self._tools: dict[str, Tool] = {}
        for t in tools:
            self.register(t)

    # -- registration ------------------------------------------------------------------------------
    def register(
        self,
        fn: Callable[..., Any] | Tool,
        *,
        name: str | None = None,
        description: str | None = None,
        heartbeat: bool | None = None,
        on_failure: FailureHandler | None = None,
    ) -> Tool:
        tool = (
            fn
            if isinstance(fn, Tool)
            else Tool.from_function(
                fn,
                name=name,
                description=description,
                heartbeat=self.heartbeat if heartbeat is None else heartbeat,
                on_failure=on_failure,
            )
        )
        if tool.name in self._tools:
            raise ConfigError(f"a tool named {tool.name!r} is already registered")
        self._tools[tool.name] = tool
        return tool

    def tool(self, fn: Callable[..., Any] | None = None, **kw: Any) -> Any:
        """Decorator form of `register`; returns the function unchanged."""

        def deco(f: Callable[..., Any]) -> Callable[..., Any]:
            self.register(f, **kw)
            return f

        return deco(fn) if fn is not None else deco

    def remove(self, name: str) -> None:
        self._tools.pop(name, None)

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __len__(self) -> int:
        return len(self._tools)

    # -- what the model sees -----------------------------------------------------------------------
    def spec(self) -> list[ToolSpec]:
        """Function tools as `ToolSpec`s (native tools travel in `definitions()`)."""
        return [t.spec() for t in self._tools.values() if t.definition is None]

    def definitions(self) -> list[dict[str, Any]]:
        """Provider-defined tool definitions, for `ModelRequest.extra["tools"]`."""
        return [dict(t.definition) for t in self._tools.values() if t.definition is not None]

    # -- execution ---------------------------------------------------------------------------------
    def call(self, part: ToolCallPart, ctx: ToolContext) -> ToolResultPart:
        """Run one call. Model mistakes and `ToolError`s come back as `is_error` results; anything else a
        tool raises propagates (ending the turn) unless the tool has an `on_failure` handler."""

        def error(msg: str) -> ToolResultPart:
            return ToolResultPart(tool_call_id=part.id, name=part.name, content=msg, is_error=True)

        tool = self._tools.get(part.name)
        if tool is None:
            return error(
                f"Unknown tool {part.name!r}. Available tools: {', '.join(self._tools) or '(none)'}."
            )
        if part.raw_arguments is not None:
            shown = part.raw_arguments if len(part.raw_arguments) <= 300 else part.raw_arguments[:300] + "…"
            return error(
                f"The arguments for {part.name} were not valid JSON: {shown!r}. Send one JSON object."
            )
        try:
            kwargs = tool.bind(part.arguments)
        except ValidationError as err:
            return error(f"Invalid arguments for {part.name}: {format_validation_error(err, '(arguments)')}")
        ctx.call = part
        try:
            result = tool.invoke(kwargs, ctx)
        except Exception as err:
            if _is_tool_error(err):
                return error(str(err))
            if tool.on_failure is None:
                raise
            logger.opt(exception=err).warning("tool {} failed; its failure handler answers", part.name)
            return error(tool.on_failure(err, part))
        return ToolResultPart(tool_call_id=part.id, name=part.name, content=_render_result(result))


_DESCRIBED: dict[tuple[Any, ...], dict[str, Any]] = {}
_DESCRIBED_LOCK = threading.Lock()


def _describe_cached(
    fn: Callable[..., Any], name: str | None, description: str | None, heartbeat: bool
) -> dict[str, Any]:
    """`Tool._describe`, once per function *definition*: every agent registers the same memory functions
    as fresh closures over its own memory, and building their pydantic argument models (~3 ms a tool)
    was most of an agent's construction. Closures of one definition share code, defaults, annotations
    and docstring, so they share the description; anything else unhashable is described afresh."""
    code = getattr(fn, "__code__", None)
    key = (
        code,
        getattr(fn, "__qualname__", None),
        getattr(fn, "__defaults__", None),
        tuple(sorted((getattr(fn, "__kwdefaults__", None) or {}).items())),
        tuple(getattr(fn, "__annotations__", {}).items()),
        getattr(fn, "__doc__", None),
        name,
        description,
        heartbeat,
    )
    try:
        hash(key)
    except TypeError:
        code = None
    if code is None:
        return Tool._describe(fn, name, description, heartbeat)
    with _DESCRIBED_LOCK:
        if key not in _DESCRIBED:
            _DESCRIBED[key] = Tool._describe(fn, name, description, heartbeat)
        return _DESCRIBED[key]


@functools.cache
def _schema_of(args_model: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of an argument model, generated once per model (shared by the tools of every agent
    that `_describe_cached` gave the same model). Callers copy it before handing it out."""
    schema: dict[str, Any] = _strip_titles(args_model.model_json_schema())
    return schema
