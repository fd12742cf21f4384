"""The explorer's first step on one page of many links, beside a bare fetch and parse of the same page.

    python -m benchmarks.links [--sizes 1000,2000,5000,10000,20000,50000,100000] [--repeats 1]
                               [--json] [--plot links.png]

A loopback server (a thread of this process) serves a start page of N links (`<li><a href="/item/i">`,
every target distinct) and a small page for each target. For each N, a fresh store and the HTTP
engine with the planner run a session of budget 0: the landing on the start page is the first
step (fetch, parse, actions, item places, selectors, oracles, the step's write), timed from the
session's start to the step's callback. Beside it, in the same run and on the same page:

- **bare** — an HTTP GET of the page, a selectolax (lexbor) parse and its `<a href>` values: the
  least any client that reads the links must do;
- **cpu s** — the CPU time of this process over the first step (the explorer's threads, and the
  server's, which only writes prebuilt bytes): what the step costs whatever the machine's load;
- **× bare** — first step ÷ bare; **µs/link** — first step ÷ N (flat when the growth is linear).

The explorer reads at most `bughunt.explorer.transport.MAX_BODY_BYTES` (2 MB) of a body (the page of
50,000 links here is 2.2 MB: about 44,800 of its links are read), parses at most `bughunt.dom.MAX_NODES`
nodes and keeps at most `bughunt.actions.MAX_ACTIONS` actions, so past ~40,000 links the first step
stops growing; the bare baseline parses the whole page. `--repeats` runs each size that
many times (the median is shown), after one unmeasured exploration of a 10-link page (imports and
first-use costs). `--json` prints one object; `--plot` draws both curves (PNG).
Progress goes to stderr; `os.getloadavg()` is recorded before and after (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_engine, make_policy
from bughunt.explorer.harness import StepOutcome
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore

SIZES: tuple[int, ...] = (1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000)
TARGET_S = 10.0
"""The first step at 100,000 links must take at most this (at load ≤ 2)."""


def links_page(n: int) -> bytes:
    items = "".join(f'<li><a href="/item/{i}">Item {i}</a></li>' for i in range(n))
    return (
        "<!doctype html><html><head><title>Many links</title></head><body><h1>Items</h1>"
        f"<ul>{items}</ul></body></html>"
    ).encode()


_ITEM = b"<!doctype html><html><head><title>Item</title></head><body><p>An item.</p><a href='/'>Home</a></body></html>"


@contextmanager
def serving(start: bytes) -> Iterator[str]:
    """A loopback server of `start` at `/` and a small page elsewhere; yields its base URL."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 — the http.server name
            body = start if self.path == "/" else _ITEM
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client stopped reading at its own size cap

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 — the base's signature
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def bare(url: str) -> tuple[float, int]:
    """Seconds to GET `url`, parse it with selectolax and read its hrefs; and how many there were."""
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 — a loopback URL of ours
        text = response.read().decode("utf-8")
    hrefs = [a.attributes.get("href") for a in LexborHTMLParser(text).css("a[href]")]
    return time.perf_counter() - started, len(hrefs)


def first_step(url: str) -> tuple[float, float]:
    """Wall and CPU seconds from the start of an exploration of `url` (fresh store, budget 0) to its
    first step. The CPU is the whole process's (the explorer's HTTP thread included, and the loopback
    server's thread too, which only writes prebuilt bytes): the figure that depends least on the load."""
    with tempfile.TemporaryDirectory(prefix="bh-links-") as tmp:
        store = ExplorerStore(Path(tmp) / "store", create=True)
        try:
            engine, _ = make_engine("http", url, delay=0.0, timeout=60.0)
            done: list[tuple[float, float]] = []

            def on_step(_: StepOutcome) -> None:
                done.append((time.perf_counter(), time.process_time()))

            with make_policy("planner", store=store) as policy:
                explorer = Explorer(store, engine, policy, SessionConfig(budget=0), on_step=on_step)
                started, cpu = time.perf_counter(), time.process_time()
                explorer.run()
            engine.close()
        finally:
            store.close()
    if not done:
        raise RuntimeError("the exploration made no step")
    return done[0][0] - started, done[0][1] - cpu


@dataclass(frozen=True)
class Row:
    links: int
    first_step_s: float
    first_step_cpu_s: float
    bare_s: float
    hrefs_seen: int

    @property
    def times_bare(self) -> float:
        return self.first_step_s / self.bare_s if self.bare_s else float("inf")

    @property
    def us_per_link(self) -> float:
        return self.first_step_s / self.links * 1e6


def measure(sizes: tuple[int, ...], repeats: int) -> list[Row]:
    with serving(links_page(10)) as url:
        first_step(url)  # imports and first-use costs of the explorer: not the page's
    rows = []
    for n in sizes:
        with serving(links_page(n)) as url:
            steps, cpus, bares = [], [], []
            hrefs = 0
            for _ in range(repeats):
                took, hrefs = bare(url)
                bares.append(took)
                wall, cpu = first_step(url)
                steps.append(wall)
                cpus.append(cpu)
        row = Row(n, statistics.median(steps), statistics.median(cpus), statistics.median(bares), hrefs)
        print(
            f"{n:>7} links: first step {row.first_step_s:.2f} s ({row.first_step_cpu_s:.2f} s CPU), bare {row.bare_s:.3f} s",
            file=sys.stderr,
        )
        rows.append(row)
    return rows


HEADER = ("links", "first step s", "cpu s", "bare s", "× bare", "µs/link")


def table(rows: list[Row]) -> str:
    lines = ["  ".join(f"{h:>12}" for h in HEADER)]
    for r in rows:
        cells = (
            f"{r.links}",
            f"{r.first_step_s:.2f}",
            f"{r.first_step_cpu_s:.2f}",
            f"{r.bare_s:.3f}",
            f"{r.times_bare:.1f}",
            f"{r.us_per_link:.1f}",
        )
        lines.append("  ".join(f"{c:>12}" for c in cells))
    return "\n".join(lines)


def plot(rows: list[Row], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    xs = [r.links for r in rows]
    ax.plot(xs, [r.first_step_s for r in rows], "o-", label="explorer: first step (wall)")
    ax.plot(xs, [r.first_step_cpu_s for r in rows], "^-", label="explorer: first step (process CPU)")
    ax.plot(xs, [r.bare_s for r in rows], "s--", label="bare: GET + selectolax parse + hrefs")
    ax.axhline(
        TARGET_S, color="grey", linewidth=0.8, linestyle=":", label=f"target at 100k links ({TARGET_S:.0f} s)"
    )
    ax.set_xlabel("links on the page")
    ax.set_ylabel("seconds")
    ax.set_title("First step on one page of N links")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    plt.close(fig)


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(s) for s in text.split(",") if s.strip())
    except ValueError:
        sizes = ()
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(
            f"--sizes: {text!r} is not a comma-separated list of positive counts"
        )
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.links", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=_sizes, default=SIZES, help="links per page, comma-separated")
    parser.add_argument("--repeats", type=int, default=1, help="runs per size (median shown)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--plot", type=Path, help="draw the curves into this PNG")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be >= 1")
    load_before = os.getloadavg()
    rows = measure(args.sizes, args.repeats)
    load_after = os.getloadavg()
    if args.plot is not None:
        plot(rows, args.plot)
    if args.json:
        out: dict[str, Any] = {
            "rows": [asdict(r) | {"times_bare": r.times_bare, "us_per_link": r.us_per_link} for r in rows],
            "load_before": load_before,
            "load_after": load_after,
            "repeats": args.repeats,
        }
        print(json.dumps(out, indent=2))
    else:
        print(table(rows))
        print(f"load before {load_before[0]:.2f}, after {load_after[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
