"""Models without a network: a scripted queue of responses and a model that is a plain function.

Both record every request they receive, so tests can assert on exactly what the agent sent.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from memgpt_lite.messages import ModelRequest, ModelResponse, TextPart, ThinkingPart, ToolCallPart
from memgpt_lite.testing.builders import response

ScriptItem = (
    ModelResponse | TextPart | ThinkingPart | ToolCallPart | Sequence[Any] | Callable[[ModelRequest], Any]
)
"""A response, a part or list of parts (wrapped into a response), or a callable of the request returning one."""


class UnexpectedModelCall(AssertionError):
    """The agent called a scripted model more often than the script foresaw.

    An `AssertionError` on purpose: it is a test failure, and the agent loop never swallows it.
    """


def _as_response(item: Any, request: ModelRequest) -> ModelResponse:
    if callable(item) and not isinstance(item, ModelResponse):
        item = item(request)
    if isinstance(item, ModelResponse):
        return item
    if isinstance(item, TextPart | ThinkingPart | ToolCallPart):
        return response(item)
    if isinstance(item, list | tuple):
        return response(*item)
    raise TypeError(
        f"a script item must be a ModelResponse, a part or a list of parts, got {type(item).__name__}"
    )


class ScriptedModel:
    """Returns the scripted responses in order; raises `UnexpectedModelCall` when asked for one more.

    >>> model = ScriptedModel([response(send_message("hi"))])
    """

    def __init__(self, script: Iterable[ScriptItem], name: str = "scripted") -> None:
        self.name = name
        self._script: deque[Any] = deque(script)
        self.requests: list[ModelRequest] = []

    @property
    def remaining(self) -> int:
        """How many scripted responses have not been used yet."""
        return len(self._script)

    def extend(self, items: Iterable[ScriptItem]) -> None:
        self._script.extend(items)

    def request(self, request: ModelRequest) -> ModelResponse:
        # A deep copy: the agent keeps mutating its own lists, and the test wants what was actually sent.
        self.requests.append(request.model_copy(deep=True))
        if not self._script:
            last = request.messages[-1].text[:200] if request.messages else ""
            raise UnexpectedModelCall(
                f"{self.name}: call #{len(self.requests)} was not scripted (script exhausted). "
                f"Last message in the request: {last!r}"
            )
        return _as_response(self._script.popleft(), request)

    def count_tokens(self, request: ModelRequest) -> int | None:
        return None

    def assert_exhausted(self) -> None:
        """Fail when scripted responses were left unused: the conversation went differently than scripted."""
        if self._script:
            raise AssertionError(
                f"{self.name}: {len(self._script)} scripted response(s) were never requested"
            )


class FunctionModel:
    """A model whose every answer is computed by `fn(request)` — for behaviour that depends on the prompt."""

    def __init__(
        self, fn: Callable[[ModelRequest], Any], name: str = "function", *, record: bool = True
    ) -> None:
        self.name = name
        self._fn = fn
        # `record=False` for a long-running driver (the demo): a deep copy of every request grows with
        # the square of the conversation and is only there for a test to read
        self._record = record
        self.requests: list[ModelRequest] = []

    def request(self, request: ModelRequest) -> ModelResponse:
        if self._record:
            self.requests.append(request.model_copy(deep=True))
        return _as_response(self._fn(request), request)

    def count_tokens(self, request: ModelRequest) -> int | None:
        return None
