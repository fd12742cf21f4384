"""`Page[T]`: one page of a search result, with the true total of matches and the true page count."""

from __future__ import annotations

from typing import Generic, TypeVar

from pydantic import BaseModel, Field

from memgpt_lite.errors import UsageError

T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    items: list[T] = Field(default_factory=list)
    total: int = 0
    """How many results match in all, not how many are on this page."""
    page: int = 0
    """0-based page number."""
    page_size: int = 10
    pages: int = 0
    """True page count: ceil(total / page_size); 0 when nothing matches."""

    @classmethod
    def of(cls, items: list[T], total: int, page: int, page_size: int) -> Page[T]:
        return cls(
            items=items, total=total, page=page, page_size=page_size, pages=page_count(total, page_size)
        )

    @property
    def has_more(self) -> bool:
        return self.page + 1 < self.pages


def page_count(total: int, page_size: int) -> int:
    return -(-total // page_size) if total > 0 else 0


def check_paging(page: int, page_size: int, max_page_size: int = 1000) -> None:
    """Reject paging arguments that cannot mean anything, before any work is done."""
    if isinstance(page, bool) or not isinstance(page, int) or page < 0:
        raise UsageError(f"page must be an integer >= 0 (0-based), got {page!r}")
    if isinstance(page_size, bool) or not isinstance(page_size, int) or not 1 <= page_size <= max_page_size:
        raise UsageError(f"page_size must be an integer in 1..{max_page_size}, got {page_size!r}")
