"""Where ablation work runs: in-process, local processes (default), Dask distributed or Ray.

A backend maps one picklable function over a list of work units and returns the results in unit
order, calling `on_done(n)` as units finish. Every unit is deterministic on its own, so the results are
identical whatever the backend and however units are scheduled. Dask and Ray are optional extras
(`pip install 'memgpt-lite[cluster]'` for Dask); they are imported only when chosen.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from memgpt_lite.errors import ConfigError, UsageError

BACKENDS = ("local", "serial", "dask", "ray")

OnDone = Callable[[int], None]


class Backend(Protocol):
    name: str

    def map(
        self, fn: Callable[..., Any], units: Sequence[tuple[Any, ...]], on_done: OnDone | None = None
    ) -> list[Any]:
        """Return `[fn(*u) for u in units]`, in unit order."""
        ...


class SerialBackend:
    name = "serial"

    def map(
        self, fn: Callable[..., Any], units: Sequence[tuple[Any, ...]], on_done: OnDone | None = None
    ) -> list[Any]:
        out = []
        for u in units:
            out.append(fn(*u))
            if on_done:
                on_done(1)
        return out


class ProcessBackend:
    """A pool of local processes (one per core by default)."""

    name = "local"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1

    def map(
        self, fn: Callable[..., Any], units: Sequence[tuple[Any, ...]], on_done: OnDone | None = None
    ) -> list[Any]:
        if self.workers <= 1 or len(units) <= 1:
            return SerialBackend().map(fn, units, on_done)
        # fork starts workers in milliseconds and inherits the imported engine; the pool forks all
        # of them here, before any caller-started thread could be half-way through an import.
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
        out: list[Any] = [None] * len(units)
        pool = ctx.Pool(min(self.workers, len(units)))
        try:
            jobs = [(i, fn, u) for i, u in enumerate(units)]
            for i, result in pool.imap_unordered(_call_indexed, jobs):
                out[i] = result
                if on_done:
                    on_done(1)
        except BaseException:
            pool.terminate()  # Ctrl-C or a failing unit: stop now rather than finish the queue
            raise
        else:
            pool.close()
        finally:
            pool.join()
        return out


def _call_indexed(job: tuple[int, Callable[..., Any], tuple[Any, ...]]) -> tuple[int, Any]:
    i, fn, args = job
    return i, fn(*args)


class DaskBackend:
    """Dask distributed: a running scheduler at `address` (tcp://host:port) or a `Client` given directly."""

    name = "dask"

    def __init__(self, address: str | None = None, client: Any = None) -> None:
        if address is None and client is None:
            raise UsageError("--backend dask needs --address tcp://HOST:PORT of a running scheduler")
        self.address = address
        self.client = client

    def map(
        self, fn: Callable[..., Any], units: Sequence[tuple[Any, ...]], on_done: OnDone | None = None
    ) -> list[Any]:
        try:
            from distributed import Client
            from distributed import as_completed as dask_completed
        except ImportError as e:
            raise ConfigError(
                "backend dask: install the cluster extra (pip install 'memgpt-lite[cluster]')"
            ) from e
        try:
            client = self.client or Client(self.address, timeout="30s")  # type: ignore[no-untyped-call]  # distributed leaves Client.__init__ unannotated
        except ValueError as e:  # distributed's message names the address and what is wrong with it
            raise UsageError(f"--address: {e}; expected tcp://HOST:PORT of a running scheduler") from None
        except OSError as e:
            raise OSError(f"cannot reach the Dask scheduler at {self.address}: {e}") from None
        try:
            columns = list(zip(*units, strict=True)) if units else []
            futures = client.map(fn, *columns, pure=False)
            index = {f.key: i for i, f in enumerate(futures)}
            out: list[Any] = [None] * len(units)
            for f in dask_completed(futures):  # type: ignore[no-untyped-call]  # unannotated in distributed
                out[index[f.key]] = f.result()
                if on_done:
                    on_done(1)
            return out
        finally:
            if self.client is None:
                client.close()


class RayBackend:
    """Ray: `address` of a running cluster ("auto", "ray://host:port"), or a local one when None."""

    name = "ray"

    def __init__(self, address: str | None = None) -> None:
        self.address = address

    def map(
        self, fn: Callable[..., Any], units: Sequence[tuple[Any, ...]], on_done: OnDone | None = None
    ) -> list[Any]:
        try:
            import ray  # type: ignore[import-not-found]  # optional and not installed here (no extra names it)
        except ImportError as e:
            raise ConfigError("backend ray: the 'ray' package is not installed") from e
        started = not ray.is_initialized()
        if started:
            ray.init(address=self.address, ignore_reinit_error=True, log_to_driver=False)
        try:
            remote = ray.remote(fn)
            refs = [remote.remote(*u) for u in units]
            index = {r: i for i, r in enumerate(refs)}
            out: list[Any] = [None] * len(units)
            pending = list(refs)
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for r in done:
                    out[index[r]] = ray.get(r)
                    if on_done:
                        on_done(1)
            return out
        finally:
            if started:
                ray.shutdown()


def make_backend(name: str = "local", address: str | None = None, workers: int | None = None) -> Backend:
    """Backend by name: local (processes), serial, dask (needs address), ray."""
    if workers is not None and workers < 1:
        raise UsageError(f"--workers: must be at least 1, got {workers}")
    if name == "local":
        return ProcessBackend(workers)
    if name == "serial":
        return SerialBackend()
    if name == "dask":
        return DaskBackend(address)
    if name == "ray":
        return RayBackend(address)
    raise UsageError(f"backend: unknown {name!r}; choose one of {', '.join(BACKENDS)}")
