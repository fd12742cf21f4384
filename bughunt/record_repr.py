"""One `__repr__` for our dataclasses, read from their fields when called.

`@dataclass` (repr=True) writes and compiles a `__repr__` from source for each class as its module is
imported, which `explore` pays before its first click (perf38: 35 M instructions of a `--budget 0` run for
the records on its start path) though no run prints one. A class declared `@dataclass(repr=False)` with
`__repr__ = field_repr` gives a person debugging the same text for nothing at import.
"""

from __future__ import annotations

from dataclasses import fields
from reprlib import recursive_repr


@recursive_repr()
def field_repr(self: object) -> str:
    """`Name(field=value, ...)` over the fields declared with repr, as `dataclasses` writes it.

    Its qualified name and "..." for a record met again inside itself, as the generated one does.
    """
    shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)  # type: ignore[arg-type]
    return f"{type(self).__qualname__}({shown})"
