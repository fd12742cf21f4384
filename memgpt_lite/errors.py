"""Errors, split by who reads them.

- `ToolError`: shown to the model as an error tool result; the model can fix its call. Never a crash.
- `ConfigError` / `UsageError`: for the programmer or the CLI user; raised on bad configuration or input.
- `ServerMismatch`: for the person running a model server: it cannot serve this agent as it is set up
  (a context smaller than the store's window, a chat template that drops the tools); names the fix.
- `StoreError`: a store directory that is corrupt or not ours; `ModelError`: the model provider failed
  after retries; `ContextWindowExceeded`: a prompt that cannot fit even after eviction. These are runtime
  failures that stop the current operation without losing state.

A tool that raises anything but `ToolError` (or has its arguments rejected) does not hand the model a
result: the error ends the turn, unless the tool opted in with a failure handler (`tools/registry.py`).
The command line turns each of these into one line and an exit code in one place
(`memgpt_lite.cli_dispatch.run_reporting_errors`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError


class MemgptLiteError(Exception):
    """Base class of every error the framework raises on purpose."""


class ToolError(MemgptLiteError):
    """A model-visible error: becomes a tool result with is_error=True."""


class ConfigError(MemgptLiteError, ValueError):
    """Bad configuration (names the bad field)."""


class UsageError(MemgptLiteError, ValueError):
    """A caller used the API or CLI wrongly."""


class ServerMismatch(ConfigError):
    """The model server cannot serve this agent as set up (its context is smaller than the store's window,
    or its chat template drops the tools); raised before a request that would fail or mislead."""


class StoreError(MemgptLiteError):
    """A store directory is corrupt, locked, of a newer format, or not a memgpt_lite store."""


class ModelError(MemgptLiteError):
    """The model provider failed (after retries) or returned something unusable."""


class ContextWindowExceeded(MemgptLiteError, RuntimeError):
    """Even after evicting everything allowed, the request does not fit the window (a runtime failure)."""


def format_validation_error(err: ValidationError, top: str = "(top level)", every: bool = True) -> str:
    """A pydantic `ValidationError` as one line: `field.path: message` for each problem (or the first).

    `top` names the location of a problem that belongs to no field (a whole-object validator).
    """
    problems = err.errors(include_url=False)
    shown = problems if every else problems[:1]
    # a validator's ValueError arrives as "Value error, <its message>": the message is what matters
    return "; ".join(
        f"{'.'.join(str(x) for x in e['loc']) or top}: {e['msg'].removeprefix('Value error, ')}"
        for e in shown
    )
