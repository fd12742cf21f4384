"""Time values the stores accept from callers (and models): datetimes, dates and ISO strings.

Stored times are UTC epoch seconds (sortable, compact). Naive datetimes are taken as UTC.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from memgpt_lite.errors import UsageError

TimeLike = datetime | date | str | float | int


def to_datetime(value: TimeLike, *, end_of_day: bool = False, name: str = "time") -> datetime:
    """Parse a time bound. A bare date means the start of that day, or its last instant when `end_of_day`.

    `end_of_day` makes `end_date="2024-05-01"` include all of May 1st, which is what a person means.
    """
    if isinstance(value, bool):
        raise UsageError(f"{name} must be a date or time, got {value!r}")
    if isinstance(value, int | float):
        return datetime.fromtimestamp(float(value), UTC)
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, date):
        return _day_bound(value, end_of_day)
    if isinstance(value, str):
        s = value.strip()
        if s.endswith(("Z", "z")):
            s = s[:-1] + "+00:00"
        try:
            if len(s) == 10:
                return _day_bound(date.fromisoformat(s), end_of_day)
            dt = datetime.fromisoformat(s)
        except ValueError:
            raise UsageError(
                f"{name} {value!r} is not an ISO date or time (e.g. 2024-05-01 or 2024-05-01T13:30:00Z)"
            ) from None
        return dt if dt.tzinfo else dt.replace(tzinfo=UTC)
    raise UsageError(f"{name} must be a date or time, got {type(value).__name__}")


def _day_bound(d: date, end_of_day: bool) -> datetime:
    start = datetime.combine(d, time(0), tzinfo=UTC)
    return start + timedelta(days=1, microseconds=-1) if end_of_day else start


def to_epoch(value: TimeLike, *, end_of_day: bool = False, name: str = "time") -> float:
    return to_datetime(value, end_of_day=end_of_day, name=name).timestamp()


def from_epoch(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def check_range(start: float | None, end: float | None, names: tuple[str, str]) -> None:
    if start is not None and end is not None and start > end:
        raise UsageError(f"{names[0]} is after {names[1]}; nothing can match")
