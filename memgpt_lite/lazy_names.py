"""Names a package offers but loads on first use (PEP 562): importing the package, or one light module
of it, does not import every module behind its names."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(
    package: str, modules: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """`package`'s `__getattr__` and `__dir__`: each name of `modules` is read from its module (".x" is
    `package`'s submodule x) on its first use and kept in the package, so later look-ups skip
    `__getattr__`."""
    namespace = vars(sys.modules[package])

    def getattr_(name: str) -> Any:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted(set(namespace) | set(modules))

    return getattr_, dir_
