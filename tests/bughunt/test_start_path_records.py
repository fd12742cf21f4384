"""What the start path defers (perf39): one `__repr__` read from the fields instead of one compiled per
dataclass, with the text dataclasses would have written."""

from __future__ import annotations

from dataclasses import dataclass, field

from bughunt.explorer.login import Credentials
from bughunt.record_repr import field_repr


@dataclass
class _Generated:
    name: str
    items: list[object] = field(default_factory=list)
    secret: str = field(default="s", repr=False)


@dataclass(repr=False)
class _Shared:
    __repr__ = field_repr

    name: str
    items: list[object] = field(default_factory=list)
    secret: str = field(default="s", repr=False)


def test_field_repr_writes_what_dataclasses_generates():
    generated, shared = _Generated("a", [1, "b"]), _Shared("a", [1, "b"])
    generated.items.append(generated)  # a record met again inside itself
    shared.items.append(shared)
    assert repr(shared) == repr(generated).replace("_Generated", "_Shared")
    assert repr(shared) == "_Shared(name='a', items=[1, 'b', ...])"


def test_credentials_repr_still_hides_secrets():
    shown = repr(Credentials(username="u", password="hunter2", cookies=(("sid", "c00kie"),)))
    assert shown.startswith("Credentials(") and "username='u'" in shown
    assert "hunter2" not in shown and "c00kie" not in shown
