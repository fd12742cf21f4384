"""Strip secrets and personal data from text before it is stored anywhere.

`redact(text)` replaces each finding with a placeholder such as `[REDACTED:api_key]` and reports what it
found (kind and position, never the secret itself). Rules are ordered: the most specific run first, so
an Anthropic key is reported as `anthropic_key`, not as a generic `api_key`.

Matching uses RE2 (google-re2), whose automata run in time linear in the text for every pattern: the
text comes from a model or a web page, and a backtracking engine lets such text cost quadratic time
(a 64 KiB write took 13.8 s with Python's `re`). RE2 has no look-around, so a rule that must not start
in the middle of a word matches the character before it too and names the secret's group; its `\\b` and
`\\s` are ASCII-only, so full-width separators are listed explicitly. `python -m
benchmarks.redaction` times these rules beside the old backtracking ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import re2

__all__ = ["Finding", "Redacted", "RedactionRule", "DEFAULT_RULES", "redact", "contains_secrets"]


@dataclass(frozen=True)
class RedactionRule:
    kind: str
    pattern: Any
    """A compiled RE2 pattern (anything with `finditer` whose matches have `span(group)` works)."""
    group: int = 0
    """The regex group that is the secret; the rest of the match (e.g. `password=`) is kept."""


@dataclass(frozen=True)
class Finding:
    kind: str
    start: int
    end: int
    """Offsets in the original text."""


@dataclass(frozen=True)
class Redacted:
    text: str
    findings: list[Finding] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.findings)

    def summary(self) -> str:
        """e.g. `2 redactions (anthropic_key, email)`; empty when nothing was found."""
        if not self.findings:
            return ""
        kinds = sorted({f.kind for f in self.findings})
        n = len(self.findings)
        return f"{n} redaction{'s' if n != 1 else ''} ({', '.join(kinds)})"


def _rule(kind: str, pattern: str, group: int = 0) -> RedactionRule:
    return RedactionRule(kind, re2.compile(pattern), group)


# Separators a human reads as ":" / "=" / a space, including the full-width forms (U+FF1A, U+FF1D, U+3000).
_SEP = r"[:=\x{FF1A}\x{FF1D}]"
_SPACE = r"[\s\x{3000}]"
# Not preceded by a letter or digit (start of text, punctuation, space, or `_` as in `x_sk-ant-…`).
_START = r"(?:^|[^A-Za-z0-9])"

DEFAULT_RULES: tuple[RedactionRule, ...] = (
    _rule(
        "private_key",
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?s:.*?)(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\z)",
    ),
    # Distinctive prefixes: found even glued to a word (`x_sk-ant-…`, `keysk-ant-…`).
    _rule("anthropic_key", r"sk-ant-[A-Za-z0-9_\-]{8,}"),
    _rule("api_key", r"sk-(?:proj|live|test)-[A-Za-z0-9_\-]{16,}"),
    _rule("api_key", _START + r"(sk-[A-Za-z0-9_\-]{16,})", group=1),
    _rule("aws_access_key", r"(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}(?:[^A-Z0-9]|$)"),
    _rule("github_token", r"gh[pousr]_[A-Za-z0-9]{20,}"),
    _rule("bearer_token", r"(?i)\bbearer" + _SPACE + r"+([A-Za-z0-9\-._~+/]{8,}=*)", group=1),
    _rule("jwt", r"eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    # key=value / key: value pairs whose key names a credential (also as the end of a longer name, as in
    # `db_password=`); the value is redacted, the key kept.
    _rule(
        "credential",
        r"(?i)(?:password|passwd|pwd|passphrase|secret|api[_-]?key|access[_-]?key|auth[_-]?token|"
        r"access[_-]?token|refresh[_-]?token|token)[\"']?"
        + _SPACE
        + "*"
        + _SEP
        + _SPACE
        + r"*(\"[^\"\n]+\"|'[^'\n]+'|[^\s,;\"'}\]\x{3000}]+)",
        group=1,
    ),
    _rule("email", r"\b[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}\b"),
)

_PLACEHOLDER = "[REDACTED:"


_AWS_KEY_LENGTH = 20


def _spans(rule: RedactionRule, text: str) -> list[tuple[int, int]]:
    """The secret spans one rule finds (sorted, disjoint: RE2 matches do not overlap)."""
    group = rule.group
    out = []
    for m in rule.pattern.finditer(text):
        start, end = m.span(group)
        if start < 0 or start == end or text.startswith(_PLACEHOLDER, start):
            continue
        out.append((start, end))
    if rule.kind == "aws_access_key":
        # The rule matches the character after the key (RE2 has no look-ahead); keep only the key.
        out = [(s, min(e, s + _AWS_KEY_LENGTH)) for s, e in out]
    return out


def redact(text: str, rules: tuple[RedactionRule, ...] = DEFAULT_RULES) -> Redacted:
    """Replace every secret in `text` by `[REDACTED:<kind>]`. Idempotent: placeholders are never re-matched.

    Linear in `len(text)` for the default rules (RE2), plus linear merging of each rule's findings."""
    accepted: list[tuple[int, int, str]] = []  # sorted, disjoint
    for rule in rules:
        found = _spans(rule, text)
        if not found:
            continue
        if not accepted:
            accepted = [(s, e, rule.kind) for s, e in found]
            continue
        # Merge two sorted lists; a span overlapping one already taken by an earlier (more specific)
        # rule is left out, so nothing is reported twice.
        merged: list[tuple[int, int, str]] = []
        i, n = 0, len(accepted)
        for s, e in found:
            while i < n and accepted[i][1] <= s:
                merged.append(accepted[i])
                i += 1
            if i < n and accepted[i][0] < e:
                continue
            merged.append((s, e, rule.kind))
        merged.extend(accepted[i:])
        accepted = merged
    if not accepted:
        return Redacted(text, [])
    out: list[str] = []
    pos = 0
    for s, e, kind in accepted:
        out.append(text[pos:s])
        out.append(f"{_PLACEHOLDER}{kind}]")
        pos = e
    out.append(text[pos:])
    return Redacted("".join(out), [Finding(kind, s, e) for s, e, kind in accepted])


def contains_secrets(text: str, rules: tuple[RedactionRule, ...] = DEFAULT_RULES) -> bool:
    return redact(text, rules).changed
