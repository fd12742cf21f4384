"""The import rules of docs/architecture.md, checked on the source (static: nothing is imported)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# module prefix -> prefixes it must never import
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "memgpt_lite": ("bughunt", "evals"),
    "bughunt": ("evals",),
    "memgpt_lite.messages": ("memgpt_lite.storage", "memgpt_lite.context", "memgpt_lite.tools", "memgpt_lite.llm"),
    "memgpt_lite.storage": ("memgpt_lite.context", "memgpt_lite.tools", "memgpt_lite.agent", "memgpt_lite.memory",
                            "memgpt_lite.search", "memgpt_lite.llm"),
    "memgpt_lite.context": ("memgpt_lite.tools", "memgpt_lite.agent", "memgpt_lite.memory"),
    "memgpt_lite.search": ("memgpt_lite.tools", "memgpt_lite.agent", "memgpt_lite.memory", "memgpt_lite.context"),
    "memgpt_lite.tools": ("memgpt_lite.agent",),
    "memgpt_lite.llm": ("memgpt_lite.storage", "memgpt_lite.context", "memgpt_lite.tools", "memgpt_lite.agent"),
}  # fmt: skip


def _modules() -> list[tuple[str, Path]]:
    out = []
    for package in ("memgpt_lite", "bughunt", "evals"):
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            out.append((".".join(p for p in parts if p != "__init__"), path))
    return out


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


@pytest.mark.parametrize(("module", "path"), _modules(), ids=lambda v: str(v) if isinstance(v, str) else "")
def test_module_respects_the_layers(module, path):
    bad = [
        (imported, rule)
        for rule, banned in FORBIDDEN.items()
        if _under(module, rule)
        for imported in _imports(path)
        if any(_under(imported, b) for b in banned)
    ]
    assert not bad, f"{module} imports across layers: {bad}"


def test_the_rules_can_fail(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from evals.layer1 import run\n")
    assert any(_under(i, "evals") for i in _imports(bad))
