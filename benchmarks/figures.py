"""How the benchmarks print their figures (one spelling for every table)."""

from __future__ import annotations


def num(v: float | None, spec: str) -> str:
    """`v` formatted to `spec`, or a dash when there is no figure."""
    return "—" if v is None else format(v, spec)


def load_text(v: list[float]) -> str:
    """The 1/5/15-minute load averages."""
    return " ".join(f"{x:.2f}" for x in v)
