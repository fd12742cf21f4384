"""Turning arbitrary user (or model) text into a safe FTS5 MATCH expression.

FTS5 has its own query language (`AND`, `OR`, `NEAR(`, `"`, `*`, `column:`), so raw text such as
`he said "hi` or `AND(` is a syntax error or worse, a different query. We never pass raw text: we
split it into word tokens and quote each one, so every term is a literal. Terms are OR-ed and bm25
ranks messages containing more (and rarer) terms first; stop words are dropped when other words
remain, because they match almost every message and only cost time.
"""

from __future__ import annotations

import re

from memgpt_lite.errors import UsageError

_WORD = re.compile(r"\w+", re.UNICODE)

STOP_WORDS = frozenset(
    """a an and are as at be been but by did do does for from had has have he her his how i if in
    into is it its me my no not of on or our she so than that the their them then there these they
    this to was we were what when where which who why will with would you your""".split()
)

MAX_TERMS = 32
"""A longer query adds little ranking signal but costs time per term."""


def query_terms(text: str) -> list[str]:
    """Lower-cased, de-duplicated word tokens of `text`, stop words removed unless nothing else is left."""
    if not isinstance(text, str):
        raise UsageError(f"query must be text, got {type(text).__name__}")
    seen: dict[str, None] = {}
    for w in _WORD.findall(text.lower()):
        seen.setdefault(w, None)
    words = list(seen)
    content = [w for w in words if w not in STOP_WORDS]
    return (content or words)[:MAX_TERMS]


def match_expression(text: str, mode: str = "any") -> str:
    """The FTS5 MATCH string for `text`: each term double-quoted, joined by OR (`any`) or AND (`all`)."""
    terms = query_terms(text)
    if not terms:
        raise UsageError(f"query {text!r} has no searchable words")
    if mode not in ("any", "all"):
        raise UsageError(f"match mode must be 'any' or 'all', got {mode!r}")
    quoted = ['"' + t.replace('"', '""') + '"' for t in terms]
    return (" OR " if mode == "any" else " AND ").join(quoted)
