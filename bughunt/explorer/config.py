"""A session's settings, checked once (`SessionConfig`), and why a session ends (`STOP_REASONS`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bughunt.record_repr import field_repr
from memgpt_lite.errors import UsageError

from .versions import check_version
from .views import MemoryConfig

STOP_REASONS: dict[str, str] = {
    "budget": "the click budget is spent",
    "done": "nothing left that memory knows",
    "site_unreachable": "the site stopped answering",
    "interrupted": "interrupted (Ctrl-C or SIGTERM)",
    "login_lost": "the login was lost and could not be restored",
}
"""Why a session ended (contract 4); "completed" is what stores written before these reasons hold."""


@dataclass(repr=False, slots=True, eq=False)
class SessionConfig:
    __repr__ = field_repr

    budget: int = 30
    seed: int = 1000
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    app_version_hint: str | None = None
    expire_after_s: float | None = None
    builtin: bool = False
    stop_at_bugs: int | None = None
    """Stop once this many bugs are open (ablations that measure steps to find all bugs)."""
    retries: int = 2
    """Extra attempts of a failed fetch within its step, after `retry_backoff_s`, doubled each time."""
    retry_backoff_s: float = 0.5
    max_consecutive_failures: int = 3
    """This many failed clicks in a row (each after its retries) end the session: site_unreachable."""
    force_retest: bool = False
    """`resume --retest`: every remembered page is due for re-test, as after a version change."""
    allow_destructive: bool = False
    """`--allow-destructive` (disposable environments): the oracles may open GET actions that read as
    destructive and confirm them by effect; this session only (`destructive_mode`)."""

    def __post_init__(self) -> None:
        # The one check of these options: the CLI builds a SessionConfig before it opens a store.
        if self.budget < 0:
            raise UsageError("--budget must be >= 0")
        if self.app_version_hint is not None and check_version(self.app_version_hint) is None:
            raise UsageError(
                f"--app-version: {self.app_version_hint!r} is not a version number (like 1.2, 2.0.1 or 1.3-rc1)"
            )
