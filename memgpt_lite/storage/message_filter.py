"""Recall search filters (roles, speakers, a time range), parsed once and rendered as SQL."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memgpt_lite.errors import UsageError
from memgpt_lite.storage.times import TimeLike, check_range, to_epoch

ROLES = frozenset({"system", "user", "assistant", "tool"})


def _as_list(value: Sequence[str] | str | None, name: str) -> list[str] | None:
    if value is None:
        return None
    items = [value] if isinstance(value, str) else list(value)
    if not items or not all(isinstance(v, str) for v in items):
        raise UsageError(f"{name} must be a non-empty list of strings, got {value!r}")
    return items


@dataclass(frozen=True)
class MessageFilter:
    roles: list[str] | None
    speakers: list[str] | None
    lo: float | None
    hi: float | None

    @classmethod
    def parse(
        cls,
        roles: Sequence[str] | str | None,
        start: TimeLike | None,
        end: TimeLike | None,
        speakers: Sequence[str] | str | None,
    ) -> MessageFilter:
        role_list = _as_list(roles, "roles")
        if role_list is not None:
            bad = sorted(set(role_list) - ROLES)
            if bad:
                raise UsageError(f"unknown role(s) {bad}; roles are {sorted(ROLES)}")
        lo = to_epoch(start, name="start_date") if start is not None else None
        hi = to_epoch(end, end_of_day=True, name="end_date") if end is not None else None
        check_range(lo, hi, ("start_date", "end_date"))
        return cls(role_list, _as_list(speakers, "speakers"), lo, hi)

    def sql(self, roles: bool = True, dates: bool = True) -> tuple[list[str], list[Any]]:
        """WHERE clauses on the messages table (alias `m`)."""
        clauses: list[str] = []
        params: list[Any] = []
        if roles and self.roles is not None:
            clauses.append(f"m.role IN ({','.join('?' * len(self.roles))})")
            params += self.roles
        if self.speakers is not None:
            clauses.append(f"m.speaker IN ({','.join('?' * len(self.speakers))})")
            params += self.speakers
        if dates and self.lo is not None:
            clauses.append("m.created_at >= ?")
            params.append(self.lo)
        if dates and self.hi is not None:
            clauses.append("m.created_at <= ?")
            params.append(self.hi)
        return clauses, params
