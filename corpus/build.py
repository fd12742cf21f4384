"""Checking an application out at its commit, setting it up once, and building its clean or buggy tree.

The checkout is reset to the pinned commit before every build (`git reset --hard`: tracked files only,
so the set-up virtualenv and other untracked files stay), then the `[[patches]]` (offline fixes, in
both builds) and, for the buggy build, every bug's `[[bugs.inject]]` are applied.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shlex
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from corpus.spec import App, Edit

CORPUS_DIR = Path(__file__).resolve().parent
SETUP_TIMEOUT_S = 1800.0
SEED_TIMEOUT_S = 300.0
GIT_TIMEOUT_S = 600.0
Progress = Callable[[str], None]


class BuildError(RuntimeError):
    """A step of checking out, setting up, patching or seeding an application failed (message says which)."""


@dataclass(frozen=True)
class Checkout:
    app: App
    src: Path  # the git checkout
    root: Path  # src / subdir: where commands run

    @property
    def venv(self) -> Path:
        return self.root / ".corpus-venv"

    def fill(self, text: str, port: int = 0) -> str:
        """The placeholders of a command or env value: {root} {venv} {port} {corpus} {python}."""
        return text.format(
            root=self.root, venv=self.venv, port=port, corpus=CORPUS_DIR, python=sys.executable
        )

    def env(self, port: int = 0) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
        env.update({k: self.fill(v, port) for k, v in self.app.env.items()})
        return env


def _git(args: list[str], timeout_s: float = GIT_TIMEOUT_S) -> str:
    try:
        done = subprocess.run(["git", *args], capture_output=True, text=True, timeout=timeout_s, check=False)
    except subprocess.TimeoutExpired:
        raise BuildError(f"git {' '.join(args[:3])} took longer than {timeout_s:.0f} s") from None
    if done.returncode != 0:
        raise BuildError(f"git {' '.join(args)}: {done.stderr.strip().splitlines()[-1:]}")
    return done.stdout


def _mirror(mirror: Path, repo: str) -> Path | None:
    """The git dir the search tool's fetch left for `owner/name`: `<mirror>/<owner>+<name>[/repo]`, bare,
    or `.../repo/.git` when the fetch left a clone with its work tree."""
    base = mirror / repo.replace("/", "+")
    for candidate in (base / "repo", base, base / "repo" / ".git"):
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    return None


@contextlib.contextmanager
def exclusive(app: App, work: Path) -> Iterator[None]:
    """One corpus command at a time per application and work folder: builds share one checkout."""
    (work / app.name).mkdir(parents=True, exist_ok=True)
    with (work / app.name / "lock").open("w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BuildError(
                f"{app.name}: another `python -m corpus` command is using {work / app.name} (its builds share one checkout)"
            ) from None
        yield


def checkout(app: App, work: Path, mirror: Path | None, clone: bool, progress: Progress) -> Checkout:
    """`work/<name>/src` at `app.commit`, cloned from the mirror (or GitHub with `clone`) the first time."""
    src = work / app.name / "src"
    if not (src / ".git").exists():
        if clone:
            origin = f"https://github.com/{app.repo}.git"
        else:
            found = _mirror(mirror, app.repo) if mirror else None
            if found is None:
                raise BuildError(
                    f"{app.name}: no mirror of {app.repo} in {mirror} (fetch it, or give --clone)"
                )
            origin = str(found)
        progress(f"{app.name}: cloning {app.repo} from {origin}")
        src.parent.mkdir(parents=True, exist_ok=True)
        _git(["clone", "-q", "--no-checkout", origin, str(src)])
        if app.subdir:
            # only the app's folder: a mirror may lack the big blobs of the rest of a monorepo
            _git(["-C", str(src), "config", "core.sparseCheckout", "true"])
            (src / ".git" / "info").mkdir(parents=True, exist_ok=True)
            (src / ".git" / "info" / "sparse-checkout").write_text(
                f"/{app.subdir.strip('/')}/\n", encoding="utf-8"
            )
        elif app.absent:
            _git(["-C", str(src), "config", "core.sparseCheckout", "true"])
            (src / ".git" / "info").mkdir(parents=True, exist_ok=True)
            lines = ["/*"] + [f"!/{path.strip('/')}" for path in app.absent]
            (src / ".git" / "info" / "sparse-checkout").write_text("\n".join(lines) + "\n", encoding="utf-8")
    try:
        _git(["-C", str(src), "cat-file", "-e", f"{app.commit}^{{commit}}"])
    except BuildError:
        raise BuildError(f"{app.name}: commit {app.commit} is not in {src}'s history") from None
    _git(["-C", str(src), "reset", "-q", "--hard", app.commit])
    root = src / app.subdir if app.subdir else src
    if not root.is_dir():
        raise BuildError(f"{app.name}: subdir {app.subdir!r} is not in the checkout")
    return Checkout(app, src, root)


def run_commands(
    co: Checkout, commands: Iterable[str], timeout_s: float, log: Path, progress: Progress, what: str
) -> None:
    """Run each command in the checkout (no shell), appending its output to `log`; fail on the first error."""
    log.parent.mkdir(parents=True, exist_ok=True)
    for command in commands:
        argv = shlex.split(co.fill(command))
        progress(f"{co.app.name}: {what}: {' '.join(argv)[:120]}")
        with log.open("a", encoding="utf-8") as out:
            out.write(f"$ {shlex.join(argv)}\n")
            out.flush()
            try:
                done = subprocess.run(
                    argv,
                    cwd=co.root,
                    env=co.env(),
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    timeout=timeout_s,
                    check=False,
                    start_new_session=True,
                )
            except subprocess.TimeoutExpired:
                raise BuildError(
                    f"{co.app.name}: {what} `{command}` took longer than {timeout_s:.0f} s (see {log})"
                ) from None
            except OSError as error:
                raise BuildError(f"{co.app.name}: {what} `{command}`: {error}") from None
        if done.returncode != 0:
            raise BuildError(f"{co.app.name}: {what} `{command}` exited {done.returncode} (see {log})")


def set_up(co: Checkout, work: Path, progress: Progress) -> None:
    """Run `setup` once; a marker naming the commit and the commands caches it across runs."""
    marker = work / co.app.name / "setup.done"
    stamp = "\n".join([co.app.commit, *co.app.setup])
    if marker.is_file() and marker.read_text(encoding="utf-8") == stamp:
        return
    run_commands(co, co.app.setup, SETUP_TIMEOUT_S, work / co.app.name / "setup.log", progress, "setup")
    marker.write_text(stamp, encoding="utf-8")


def apply_edits(co: Checkout, edits: Iterable[Edit], what: str) -> None:
    """Apply find/replace edits; each `find` must occur exactly once in its file (else nothing is guessed)."""
    for edit in edits:
        path = co.root / edit.file
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise BuildError(f"{co.app.name}: {what}: cannot read {edit.file} ({error})") from None
        n = text.count(edit.find)
        if n != 1:
            raise BuildError(
                f"{co.app.name}: {what}: `find` occurs {n} times in {edit.file}, it must occur once: "
                f"{edit.find[:60]!r}"
            )
        path.write_text(text.replace(edit.find, edit.replace), encoding="utf-8")


def build(co: Checkout, buggy: bool) -> None:
    """The clean tree (patches only) or the buggy one (patches and every bug's injection)."""
    _git(["-C", str(co.src), "reset", "-q", "--hard", co.app.commit])
    apply_edits(co, co.app.patches, "patches")
    if buggy:
        for bug in co.app.bugs:
            apply_edits(co, bug.inject, f"bug {bug.id}")
