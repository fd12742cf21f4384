"""Instructions, not seconds: a process's user-space instructions counted by valgrind's callgrind.

`benchmarks.overhead --measure instructions` counts the explorer's runs and the bare loop this way, beside
their CPU time. CPU seconds on this shared machine move with its load (at load 40–50 the bare loop's CPU a
request doubles: a request between two context switches runs on cold caches), so a ratio of CPU times
at an uncontrolled load cannot judge a 10–20 % change; an instruction count (valgrind's `Ir`) does not
move with the load. Two runs of the same program on the same input count within ~0.1 % of each other
(the string hash is fixed, `PYTHONHASHSEED=0`, so dictionaries and sets iterate alike). What a count
leaves out: the kernel's work (system calls, page faults — CPU time has it) and what an instruction
costs (a cache miss counts once, like an add).

    python -m benchmarks.instructions --url URL --routes FILE [--login-url U --username N --password-env VAR]

is the bare loop (`benchmarks.scale_crawl.crawl`) in a process of its own, so that callgrind counts it:
log in when told to (the page's form, `benchmarks.scale_crawl.form_login`), then GET and parse each route
of FILE (one a line; an empty file: none) and print the crawl as JSON. Its count over N routes less
its count over none is what the N requests cost; the process's start-up and the login cancel out.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import httpx

from benchmarks.scale_crawl import crawl, form_login

HASH_SEED = "0"
"""PYTHONHASHSEED of every counted process: the same iteration orders, run after run."""


def available() -> bool:
    return shutil.which("valgrind") is not None


def counting(out: Path) -> list[str]:
    """The command prefix that counts a process's instructions into `out` (callgrind's file)."""
    return ["valgrind", "--tool=callgrind", "--quiet", f"--callgrind-out-file={out}"]


def counted(out: Path) -> int:
    """The instructions callgrind wrote to `out` (its `summary:` line: every thread, start to exit)."""
    match = re.search(rb"^summary:\s*(\d+)", out.read_bytes(), re.MULTILINE)
    if match is None:
        raise SystemExit(f"error: no instruction count in {out}")
    return int(match.group(1))


def counted_env(env: dict[str, str]) -> dict[str, str]:
    return {**env, "PYTHONHASHSEED": HASH_SEED}


def bare_loops_instructions(
    url: str,
    lists: Sequence[Sequence[str]],
    *,
    env: dict[str, str],
    login: tuple[str, str, str] | None,
    tmp: Path,
) -> tuple[list[int], int]:
    """([instructions of the bare loop's process over each list of `lists`], over none): the same
    process, the same login, so that each difference is that list's requests' (`benchmarks.overhead`
    counts a short run's and a long run's requests, for the steady cost a request)."""
    counts = []
    # a first run, not counted, over the longest list, writes the bytecode cache that the counted runs
    # then read (modules the first response or parse imports too: over no routes, the counted run
    # over the routes compiled them, ~1.2 M instructions a request more on the 24-page site)
    longest = max(lists, key=len, default=())
    runs = [("warm", longest)] + [(f"n{i}", some) for i, some in enumerate(lists)] + [("0", ())]
    for label, some in runs:
        listing, out = tmp / f"routes-{label}", tmp / f"bare-{label}.callgrind"
        listing.write_text("".join(f"{r}\n" for r in some), encoding="utf-8")
        cmd = [sys.executable, "-m", "benchmarks.instructions", "--url", url, "--routes", str(listing)]
        child = counted_env(env)
        if login is not None:
            child["BH_BARE_PASSWORD"] = login[2]  # never on a command line
            cmd += ["--login-url", login[0], "--username", login[1], "--password-env", "BH_BARE_PASSWORD"]
        wrap = counting(out) if label != "warm" else []
        p = subprocess.run(
            [*wrap, *cmd], cwd=Path(__file__).resolve().parent.parent, env=child,
            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=1800,
        )  # fmt: skip
        if p.returncode != 0:
            raise SystemExit(f"error: the counted bare loop exited {p.returncode}:\n{p.stderr[-2000:]}")
        if json.loads(p.stdout)["pages"] != len(some):
            raise SystemExit("error: the counted bare loop did not fetch every route")
        if label != "warm":
            counts.append(counted(out))
            out.unlink()
    return counts[:-1], counts[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.instructions", description="the bare loop")
    parser.add_argument("--url", required=True)
    parser.add_argument("--routes", type=Path, required=True, help="one route a line")
    parser.add_argument("--login-url")
    parser.add_argument("--username")
    parser.add_argument("--password-env", help="the variable holding the password")
    args = parser.parse_args(argv)
    routes = args.routes.read_text(encoding="utf-8").splitlines()
    prepare: Callable[[httpx.Client], object] | None = None
    if args.login_url:
        password = os.environ.get(args.password_env or "", "")
        login = (args.login_url, args.username or "", password)
        prepare = lambda client: form_login(client, *login)  # noqa: E731
    result = crawl(args.url, routes, prepare=prepare)
    print(json.dumps({"pages": result.pages, "links": result.links, "cpu_s": result.cpu_s}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
