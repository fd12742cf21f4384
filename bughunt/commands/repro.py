"""`bughunt repro`: write a standalone, replayable test per bug (read-only on the store).

`bughunt repro FINGERPRINT --store S [--out FILE]` writes one bug's reproduction (to stdout without
`--out`); `bughunt repro --all --store S --out DIR` writes one file per open bug into DIR. Each file
is a pytest test that fails while the bug is there and passes once it is fixed
(`bughunt.explorer.repro`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from memgpt_lite.errors import UsageError

MARK = b'"""Reproduction of a BugHunt finding'
"""How every file this command writes begins (so it replaces only its own files)."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "repro",
        help="write a replayable pytest reproduction of a bug (or of every open bug)",
        description="Write a standalone pytest file that replays the click path to a bug and asserts its "
        "evidence: it fails while the bug is there and passes once it is fixed. Reads the store only.",
    )
    p.add_argument(
        "fingerprint", nargs="?", help="the bug's fingerprint (or a unique prefix of 6+ characters)"
    )
    p.add_argument("--all", action="store_true", help="every open bug, one file each, into --out DIR")
    p.add_argument("--store", required=True, type=Path, help="store directory")
    p.add_argument("--out", type=Path, help="the file to write (a folder with --all); default: stdout")
    p.add_argument(
        "--json", action="store_true", help="print the files written (and bugs skipped) as JSON; needs --out"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bughunt.explorer.bugview import Login, bug_view, bug_views
    from bughunt.explorer.repro import NotReproducible, file_name, render
    from bughunt.explorer.store import ExplorerStore

    if args.all == bool(args.fingerprint):
        raise UsageError("give a bug's FINGERPRINT or --all (not both)")
    if args.all and args.out is None:
        raise UsageError("--all writes one file per bug: give --out DIR")
    if args.json and args.out is None:
        # without --out stdout is the reproduction itself, so it cannot also be a JSON document
        raise UsageError("--json needs --out (without it the reproduction itself is printed)")
    store = ExplorerStore(args.store, create=False, lock=False)
    try:
        base_url = store.meta.get("base_url") or ""
        if args.all:
            views = [v for v in bug_views(store, store.bug_table.live()) if _open(v)]
        else:
            one = bug_view(store, args.fingerprint)
            if one is None:
                known = ", ".join(b.fingerprint for b in store.bug_table.live()) or "none"
                raise UsageError(f"no single live bug {args.fingerprint!r} in {args.store} (bugs: {known})")
            views = [one]
    finally:
        store.close()
    texts: list[tuple[str, str]] = []
    skipped: list[str] = []
    for view in views:
        try:
            login = Login.from_dict(view["login"])
            texts.append((file_name(view), render(view, base_url, login, str(args.store))))
        except NotReproducible as exc:
            skipped.append(str(exc))
            print(f"skipped: {exc}", file=sys.stderr)
    if not args.all:
        if not texts:
            _print_json(args, [], skipped)
            return 1
        if args.out is None:
            sys.stdout.write(texts[0][1])
        else:
            _write(args.out, texts[0][1])
            print(f"wrote {args.out}", file=sys.stderr)
            _print_json(args, [args.out], skipped)
        return 0
    if args.out.exists() and not args.out.is_dir():
        raise UsageError(f"--out {args.out}: exists and is not a folder")
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in texts:
        _write(args.out / name, text)
    print(f"wrote {len(texts)} reproductions to {args.out}", file=sys.stderr)
    _print_json(args, [args.out / name for name, _ in texts], skipped)
    return 0 if len(texts) == len(views) else 1


def _print_json(args: argparse.Namespace, written: list[Path], skipped: list[str]) -> None:
    if args.json:
        doc = {"store": str(args.store), "out": str(args.out), "written": [str(p) for p in written]}
        print(json.dumps({**doc, "skipped": skipped}, indent=2))


def _ours(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(len(MARK)) == MARK
    except OSError:
        return False


def _open(view: dict[str, object]) -> bool:
    return view.get("status", "open") == "open"


def _write(path: Path, text: str) -> None:
    """Write `path` whole (temporary file + rename). Bad input loses nothing: an existing file is
    replaced only when it is a reproduction this command wrote."""
    if path.is_symlink() or path.is_dir():
        raise UsageError(
            f"--out {path}: is a {'symlink' if path.is_symlink() else 'folder'}; give a file name"
        )
    if path.exists() and not _ours(path):
        raise UsageError(
            f"--out {path}: exists and is not a reproduction `bughunt repro` wrote; not replaced"
        )
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
