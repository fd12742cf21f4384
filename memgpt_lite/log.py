"""The libraries' logger: loguru's, imported when something can show a message: `logger`.

Our libraries are quiet by default (each disables itself in loguru), so in a run that asks for no
logging no message of ours reaches a sink — yet importing loguru costs a quarter of `bughunt explore`'s
start-up (it imports asyncio and multiprocessing for sinks we never add). `logger` stands for
`loguru.logger` without importing it:

- a message (`debug`, `info`, `warning`, ...) while loguru is not imported is dropped: no sink exists
  that could show it, since adding one (`logger.add`, or any use of loguru's own logger) imports loguru;
- the calls that only set loguru's state (`disable`, `enable`, `remove`, `configure`) are kept and made,
  in order, the moment loguru is imported — by `logger`'s first other use or by anyone's `import loguru`
  (a hook on that one import) — so loguru ends in the state the same calls made on it directly would;
- anything else (`add`, `opt`, `bind`, ...) imports loguru and is loguru's own.

Once loguru is imported, `logger.X` is `loguru.logger.X`: a message is logged from its caller's frame,
so its module name, function and line — and the per-library enable/disable — are loguru's as before.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from loguru import Logger

# what only sets loguru's state: kept until it is imported
_STATE_CALLS = frozenset({"disable", "enable", "remove", "configure"})
# what makes a message: nothing can show one before loguru is imported
_MESSAGES = frozenset(
    {"trace", "debug", "info", "success", "warning", "error", "critical", "exception", "log"}
)


def _drop(*args: Any, **kwargs: Any) -> None:
    return None


class LazyLogger:
    """`loguru.logger`, imported on the first use that could show a message (module docstring)."""

    def __init__(self) -> None:
        self._loaded: Logger | None = None
        self._pending: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Any:
        loaded = self._loaded
        if loaded is None:
            if "loguru" not in sys.modules:
                if name in _MESSAGES:
                    return _drop
                if name in _STATE_CALLS:
                    return lambda *args, **kwargs: self._set(name, args, kwargs)
            loaded = self._load()
        return getattr(loaded, name)

    def _set(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        # decided at the call, not when the name was read (a callback may run after loguru's import)
        if self._loaded is None and "loguru" not in sys.modules:
            self._pending.append((name, args, kwargs))
            return None
        return getattr(self._load(), name)(*args, **kwargs)

    def _load(self) -> Logger:
        if self._loaded is None:
            # importing loguru replays the kept calls through the hook; it already ran if loguru was imported
            from loguru import logger

            self._replay(logger)
        return self._loaded  # type: ignore[return-value]

    def _replay(self, logger: Logger) -> None:
        if self._loaded is None:
            self._loaded = logger
            pending, self._pending = self._pending, []
            for name, args, kwargs in pending:
                getattr(logger, name)(*args, **kwargs)


logger: Logger = LazyLogger()  # type: ignore[assignment]


class _Loader(importlib.abc.Loader):
    """loguru's own loader, then the kept calls replayed on its logger."""

    def __init__(self, inner: importlib.abc.Loader) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)  # the rest of the loader's protocol (resources, source) as loguru's

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.inner.exec_module(module)
        logger._replay(module.logger)  # type: ignore[attr-defined]


class _OnLoguruImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: when `loguru` is imported, wraps its loader so the kept calls are made
    before the importer's first line with it (whoever imports it: a test, an application, a sink)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "loguru":
            return None
        sys.meta_path.remove(self)  # once: the spec below is found by the other finders
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader)
        return spec


def _install_hook() -> None:
    if "loguru" in sys.modules:
        logger._replay(sys.modules["loguru"].logger)  # type: ignore[attr-defined]
    elif not any(isinstance(f, _OnLoguruImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _OnLoguruImport())


_install_hook()

__all__ = ["LazyLogger", "logger"]
