"""Run a validated ablation config, whichever kind of task it has."""

from __future__ import annotations

from bughunt.sim.backends import Backend, OnDone

from .config import AblationConfig, SimulatorAblation
from .outcome import AblationOutcome


def total_runs(cfg: AblationConfig) -> int:
    """How many runs `run_ablation` makes (the size of a progress bar)."""
    return cfg.total_runs() if isinstance(cfg, SimulatorAblation) else cfg.explorer.total_runs()


def run_ablation(
    cfg: AblationConfig, backend: Backend | None = None, on_done: OnDone | None = None
) -> AblationOutcome:
    """Every configuration on every task, on `backend` (default: this process); `on_done(k)` is called
    as runs finish, `k` at a time."""
    if isinstance(cfg, SimulatorAblation):
        from .simulator import run_simulator_ablation

        return run_simulator_ablation(cfg, backend, on_done)
    from .explorer import run_explorer_ablation  # loads the explorer (and its HTTP stack) only when needed

    return run_explorer_ablation(cfg, backend, on_done)
