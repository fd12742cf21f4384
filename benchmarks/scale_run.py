"""One `bughunt explore` of the scale site in a process of its own, measured by the kernel.

The explorer runs through its public command line (`python -m bughunt explore --url ... --json`), in a
fresh store that is removed afterwards. Its CPU time (user + system) comes from `os.wait4`'s rusage —
this child's own, not the benchmark's nor the site server's —, its peak resident size from its own
high-water mark (VmHWM) read every 0.1 s while it runs. The walk (each
step's route, where it ended, outcome, status and tokens) is read back from the store, so two runs
can be compared step by step.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import loop_marks
from bughunt.explorer.store import ExplorerStore

REPO = Path(__file__).resolve().parent.parent
Progress = Callable[[int], None]
"""Told the number of steps the store holds so far, about once a second."""


@dataclass(frozen=True, slots=True)
class Bug:
    kind: str
    route: str
    suspected: bool


@dataclass(slots=True)
class Run:
    policy: str
    budget: int
    clicks: int
    fetches: int
    pages_visited: int
    tokens: int
    stop_reason: str
    cpu_s: float
    peak_rss_mb: float
    store_bytes: int
    wall_s: float
    bugs: list[Bug] = field(default_factory=list)
    walk: list[list[Any]] = field(default_factory=list)
    """[route, final route, outcome, status, tokens] per step, the free landing first."""
    loop_cpu_s: float | None = None
    """With `marked`: the CPU of the click loop alone, read in the process (`benchmarks.loop_marks`)."""
    cpu_by_step: list[tuple[int, float]] = field(default_factory=list)
    """(steps in the store, the process's CPU seconds so far) at each look while it ran (about twice
    a second; /proc/<pid>/stat): what the clicks of a stretch of the run cost (`marginal`)."""

    def marginal(self, fraction: float = 0.2) -> tuple[int, float] | None:
        """(first click, CPU ms per click) over the last `fraction` of the clicks: from the first look
        that saw that many steps left to the first look that saw the last step (what follows is the
        session's end, not clicks). Steps count the free landing, so after n steps the next click is
        the n-th. None when the looks are too few to tell."""
        looks = self.cpu_by_step
        if not looks:
            return None
        last = max(n for n, _ in looks)
        end = next((n, c) for n, c in looks if n == last)
        start = next(((n, c) for n, c in looks if n >= last - max(1, round(self.clicks * fraction))), None)
        if start is None or end[0] <= start[0]:
            return None
        return start[0], 1000 * (end[1] - start[1]) / (end[0] - start[0])

    @property
    def routes(self) -> list[str]:
        return [str(step[0]) for step in self.walk]

    @property
    def walk_digest(self) -> str:
        return hashlib.sha256(json.dumps(self.walk).encode()).hexdigest()[:12]

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["walk_digest"] = self.walk_digest
        return out


def child_env(code: Path | None, pycache: Path) -> dict[str, str]:
    """The explorer's environment: `code` (a source tree) first on the path when given, and a bytecode
    cache, so that start-up is an installed program's rather than a compile of every module at every
    start (PYTHONDONTWRITEBYTECODE=1 in a source tree costs ~0.3 s CPU per process)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if code is not None:
        env["PYTHONPATH"] = str(code)
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def _steps_so_far(db: Path) -> int:
    from bughunt.explorer.store import ExplorerStore
    from memgpt_lite.errors import StoreError

    try:
        store = ExplorerStore(db.parent, create=False, lock=False)  # a reader: writes nothing
    except StoreError:  # not created yet, or busy: the next look will tell
        return 0
    try:
        return store.history.step_count()
    except Exception:  # noqa: BLE001 — mid-write by the explorer: the next look will tell
        return 0
    finally:
        store.close()


def _peak_rss_kib(pid: int) -> int:
    """The process's own high-water resident size (VmHWM; it never goes down, so a late look sees an
    early peak). wait4's ru_maxrss is no substitute: it also carries the launcher's size at fork."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


_TICK_S = 1 / os.sysconf("SC_CLK_TCK")


def _cpu_s(pid: int) -> float | None:
    """The process's own user + system CPU seconds so far (/proc/<pid>/stat, fields 14 and 15)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) * _TICK_S
    except (OSError, ValueError, IndexError):
        return None


def _store_bytes(store: Path) -> int:
    return sum(p.stat().st_size for p in store.rglob("*") if p.is_file())


def _walk(store: Path) -> list[list[Any]]:
    explorer = ExplorerStore(store, create=False, lock=False)  # a reader: writes nothing
    try:
        return [[s.route, s.final_route, s.outcome, s.status, s.tokens] for s in explorer.history.steps()]
    finally:
        explorer.close()


def explore(
    url: str,
    policy: str,
    budget: int,
    *,
    seed: int,
    env: dict[str, str],
    code: Path | None = None,
    progress: Progress | None = None,
    extra: Sequence[str] = (),
    wrap: Sequence[str] = (),
    marked: bool = False,
) -> Run:
    """Explore `url` for `budget` clicks with `policy` in a fresh process and store; measure it. The
    process runs in `code` (a source tree; default this one): `python -m` puts its working directory
    first on the path, before PYTHONPATH. `extra`: more options of `explore` (a login's). `wrap`: a
    command the explorer runs under (`benchmarks.instructions`' valgrind). `marked`: launched with a
    mark around its click loop, whose CPU is then `loop_cpu_s` (`benchmarks.loop_marks`)."""
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        store = Path(tmp) / "store"
        marks = Path(tmp) / "loop-marks"
        launch = ["-c", loop_marks.LAUNCH] if marked else ["-m", "bughunt"]
        if marked:
            env = {**env, loop_marks.ENV: str(marks)}
        cmd = [
            *wrap, sys.executable, *launch, "explore", "--url", url.rstrip("/") + "/", "--store", str(store),
            "--budget", str(budget), "--policy", policy, "--seed", str(seed), "--json", *extra,
        ]  # fmt: skip
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            start = time.perf_counter()
            p = subprocess.Popen(
                cmd, cwd=code or REPO, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL
            )
            peak_kib, looks = 0, 0
            cpu_by_step: list[tuple[int, float]] = []
            try:
                while True:
                    # wait4, not Popen.wait: its rusage is the child's own CPU time
                    pid, status, usage = os.wait4(p.pid, os.WNOHANG)
                    if pid:
                        break
                    # the last look, not the largest: a look before exec would see the launcher's memory
                    peak_kib = _peak_rss_kib(p.pid) or peak_kib
                    if looks % 5 == 0:
                        steps = _steps_so_far(store / "bughunt.sqlite")
                        cpu = _cpu_s(p.pid)
                        if cpu is not None and steps:
                            cpu_by_step.append((steps, cpu))
                        if progress is not None:
                            progress(steps)
                    looks += 1
                    time.sleep(0.1)
            except BaseException:
                # interrupted (Ctrl-C, SIGTERM): the exploration must not outlive the benchmark
                p.terminate()
                p.wait()
                raise
            wall = time.perf_counter() - start
            exit_code = os.waitstatus_to_exitcode(status)
            p.returncode = exit_code  # reaped here: Popen must not wait for it again
            out.seek(0)
            err.seek(0)
            stdout, stderr = out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace")
        if exit_code != 0:
            raise SystemExit(
                f"error: bughunt {' '.join(cmd[cmd.index('explore') : cmd.index('explore') + 3])} ... exited {exit_code}:\n"
                f"{stderr[-2000:]}"
            )
        result = json.loads(stdout)
        walk = _walk(store)
        if progress is not None:
            progress(len(walk))
        counts = result.get("counts", {})
        return Run(
            policy=policy,
            budget=budget,
            clicks=int(result["clicks"]),
            fetches=int(result["fetches"]),
            pages_visited=int(counts.get("pages_visited", len(result.get("pages_visited", [])))),
            tokens=int(result.get("tokens", 0)),
            stop_reason=str(result.get("stop_reason")),
            cpu_s=usage.ru_utime + usage.ru_stime,
            peak_rss_mb=peak_kib / 1024,
            store_bytes=_store_bytes(store),
            wall_s=wall,
            bugs=[Bug(b["kind"], b["route"], bool(b.get("suspected"))) for b in result.get("bugs", [])],
            walk=walk,
            loop_cpu_s=loop_marks.loop_cpu_s(marks.read_text("ascii")) if marked and marks.exists() else None,
            cpu_by_step=cpu_by_step,
        )
