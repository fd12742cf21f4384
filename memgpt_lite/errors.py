"""Errors, split by who reads them.

- `ToolError`: shown to the model as an error tool result; the model can fix its call. Never a crash.
- `ConfigError` / `UsageError`: for the programmer or the CLI user; raised on bad configuration or input.
- `StoreError`: a store directory that is corrupt or not ours; `ModelError`: the model provider failed
  after retries. These are runtime failures that stop the current operation without losing state.
"""


class MemgptLiteError(Exception):
    """Base class of every error the framework raises on purpose."""


class ToolError(MemgptLiteError):
    """A model-visible error: becomes a tool result with is_error=True."""


class ConfigError(MemgptLiteError, ValueError):
    """Bad configuration (names the bad field)."""


class UsageError(MemgptLiteError, ValueError):
    """A caller used the API or CLI wrongly."""


class StoreError(MemgptLiteError):
    """A store directory is corrupt, locked, of a newer format, or not a memgpt_lite store."""


class ModelError(MemgptLiteError):
    """The model provider failed (after retries) or returned something unusable."""
