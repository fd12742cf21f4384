"""The baseline: plain Okapi BM25 over the same turns (k1=1.5, b=0.75, English stop words, no stemming).

Deliberately textbook (Okapi weighting with Lucene's idf, ln(1 + (N - n + 0.5) / (n + 0.5))) and
independent of the framework's search,
so the comparison shows what our pipeline adds over the standard lexical retriever.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

_WORD = re.compile(r"\w+", re.UNICODE)
STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers herself him himself his how i if in into is it its itself just me more most
    my myself no nor not now of off on once only or other our ours ourselves out over own same she should
    so some such than that the their theirs them themselves then there these they this those through to
    too under until up very was we were what when where which while who whom why will with would you
    your yours yourself yourselves""".split()
)


def tokenize(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS]


class BM25:
    def __init__(self, documents: Sequence[str], k1: float = 1.5, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        docs = [tokenize(d) for d in documents]
        self.tf = [Counter(d) for d in docs]
        self.length = [len(d) for d in docs]
        self.avg = (sum(self.length) / len(docs)) if docs else 0.0
        df = Counter(w for d in docs for w in set(d))
        n = len(docs)
        self.idf = {w: math.log((n - c + 0.5) / (c + 0.5) + 1.0) for w, c in df.items()}
        self.postings: dict[str, list[int]] = {}
        for i, tf in enumerate(self.tf):
            for w in tf:
                self.postings.setdefault(w, []).append(i)

    def scores(self, query: str) -> list[float]:
        out = [0.0] * len(self.tf)
        for w in set(tokenize(query)):
            idf = self.idf.get(w)
            if idf is None:
                continue
            for i in self.postings[w]:
                f = self.tf[i][w]
                norm = self.k1 * (1 - self.b + self.b * self.length[i] / (self.avg or 1.0))
                out[i] += idf * f * (self.k1 + 1) / (f + norm)
        return out

    def rank(self, query: str, limit: int) -> list[int]:
        """Document indices, best first (ties in document order); only documents sharing a word."""
        s = self.scores(query)
        order = sorted((i for i, v in enumerate(s) if v > 0), key=lambda i: (-s[i], i))
        return order[:limit]
