"""Working context: named, size-limited blocks of editable facts rendered into the system prompt.

The model edits them through `core_memory_append` / `core_memory_replace`; every edit is all-or-nothing
— a missing block, a text that is not found exactly, or a result over the block's limit raises
`ToolError` (which the model sees) and leaves the block unchanged.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, Field, field_validator, model_validator

from memgpt_lite.errors import ConfigError, ToolError

DEFAULT_BLOCK_LIMIT = 2000


class Block(BaseModel):
    """One named block of working context; `limit` is its maximum size in characters."""

    name: str
    value: str = ""
    limit: int = Field(default=DEFAULT_BLOCK_LIMIT, gt=0)

    @field_validator("name")
    @classmethod
    def _name_is_identifier(cls, v: str) -> str:
        if not v or not all(c.isalnum() or c in "_-" for c in v):
            raise ValueError(f"block name must be letters, digits, '_' or '-', got {v!r}")
        return v

    @model_validator(mode="after")
    def _within_limit(self) -> Block:
        if len(self.value) > self.limit:
            raise ValueError(
                f"block {self.name!r} holds {len(self.value)} chars, over its limit {self.limit}"
            )
        return self

    def render(self) -> str:
        return f'<{self.name} chars="{len(self.value)}/{self.limit}">\n{self.value}\n</{self.name}>'


class WorkingContext:
    """An ordered set of blocks. `version` increases on every change (cheap change detection)."""

    def __init__(
        self, blocks: list[Block] | None = None, on_change: Callable[[], None] | None = None
    ) -> None:
        self.on_change = on_change
        self._blocks: dict[str, Block] = {}
        for b in blocks or []:
            if b.name in self._blocks:
                raise ConfigError(f"duplicate working-context block {b.name!r}")
            self._blocks[b.name] = b
        self.version = 0
        self._rendered: tuple[int, str] | None = None

    @property
    def blocks(self) -> list[Block]:
        return list(self._blocks.values())

    def get(self, name: str) -> Block:
        block = self._blocks.get(name)
        if block is None:
            known = ", ".join(self._blocks) or "none"
            raise ToolError(f"no memory block named {name!r} (blocks: {known})")
        return block

    def _set(self, block: Block, value: str) -> None:
        if len(value) > block.limit:
            raise ToolError(
                f"edit would make block {block.name!r} {len(value)} chars, over its limit of {block.limit}; "
                f"nothing was changed — shorten it or replace old text first"
            )
        self._blocks[block.name] = block.model_copy(update={"value": value})
        self.version += 1
        if self.on_change is not None:
            self.on_change()  # persists the edit (AgentMemory saves the agent state)

    def append(self, name: str, text: str) -> Block:
        """Append `text` on a new line of block `name`."""
        if not text:
            raise ToolError("nothing to append: text is empty")
        block = self.get(name)
        value = f"{block.value}\n{text}" if block.value else text
        self._set(block, value)
        return self._blocks[name]

    def replace(self, name: str, old: str, new: str) -> Block:
        """Replace the exact text `old` with `new` in block `name` (`new` may be empty to delete).

        `old` must occur exactly once, so an edit never lands somewhere the model did not mean.
        """
        if not old:
            raise ToolError("old text is empty; give the exact text to replace")
        block = self.get(name)
        count = block.value.count(old)
        if count == 0:
            raise ToolError(f"text not found in block {name!r}; nothing was changed (match is exact)")
        if count > 1:
            raise ToolError(
                f"text occurs {count} times in block {name!r}; include more surrounding text so it is unique"
            )
        self._set(block, block.value.replace(old, new, 1))
        return self._blocks[name]

    def render(self) -> str:
        if self._rendered is None or self._rendered[0] != self.version:
            body = "\n".join(b.render() for b in self._blocks.values())
            self._rendered = (self.version, f"<working_context>\n{body}\n</working_context>" if body else "")
        return self._rendered[1]

    def to_list(self) -> list[Block]:
        return self.blocks
