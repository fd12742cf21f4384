"""The explorer's CPU over its clicks alone, read in its own process: `bughunt` launched with a mark
around the click loop (`Explorer._loop`).

A run's CPU after start-up was its process's CPU less a `--budget 0` run's (another process): the
difference of two ~0.25 s figures each as noisy as a short process is on a shared machine, for ~0.1 s
of clicks on the 24-page site. The process's CPU clock read when the loop begins and when it ends (all
threads, `time.process_time`) is the clicks' own cost, with nothing else subtracted: the landing, the
hand-over note, the report and the exit fall outside it. A tree without that method runs unmarked (the
figure is then missing, not wrong).
"""

from __future__ import annotations

LAUNCH = """
import os, runpy, time
try:
    from bughunt.explorer import loop as _loop_module
except ImportError:
    _loop_module = None
_inner = getattr(getattr(_loop_module, "Explorer", None), "_loop", None)
if _inner is not None:
    def _marked(self, *args, **kwargs):
        begun = time.process_time()
        try:
            return _inner(self, *args, **kwargs)
        finally:
            with open(os.environ["BH_BENCH_LOOP_MARKS"], "a", encoding="ascii") as out:
                out.write(f"{begun!r} {time.process_time()!r}\\n")
    _loop_module.Explorer._loop = _marked
runpy.run_module("bughunt", run_name="__main__", alter_sys=True)
"""
"""Run with `python -c LAUNCH explore ...` (like `-m bughunt`, the working directory first on the path:
the source tree measured). `BH_BENCH_LOOP_MARKS` names the file each loop appends `begun ended` to."""

ENV = "BH_BENCH_LOOP_MARKS"


def loop_cpu_s(text: str) -> float | None:
    """The CPU seconds of the loops a marks file records (a session has one), or None without a mark."""
    spans = [line.split() for line in text.splitlines() if line.strip()]
    return sum(float(end) - float(begun) for begun, end in spans) if spans else None
