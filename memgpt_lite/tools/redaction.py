"""Strip secrets and personal data from text before it is stored anywhere.

`redact(text)` replaces each finding with a placeholder such as `[REDACTED:api_key]` and reports what it
found (kind and position, never the secret itself). Rules are ordered: the most specific run first, so
an Anthropic key is reported as `anthropic_key`, not as a generic `api_key`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Finding", "Redacted", "RedactionRule", "DEFAULT_RULES", "redact", "contains_secrets"]


@dataclass(frozen=True)
class RedactionRule:
    kind: str
    pattern: re.Pattern[str]
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


def _rule(kind: str, pattern: str, group: int = 0, flags: int = 0) -> RedactionRule:
    return RedactionRule(kind, re.compile(pattern, flags), group)


DEFAULT_RULES: tuple[RedactionRule, ...] = (
    _rule(
        "private_key",
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)",
    ),
    _rule("anthropic_key", r"\bsk-ant-[A-Za-z0-9_\-]{8,}"),
    _rule("api_key", r"\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_\-]{16,}"),
    _rule("aws_access_key", r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b"),
    _rule("github_token", r"\bgh[pousr]_[A-Za-z0-9]{20,}\b"),
    _rule("bearer_token", r"(?i)\bbearer\s+([A-Za-z0-9\-._~+/]{8,}=*)", group=1),
    _rule("jwt", r"\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    # key=value / key: value pairs whose key names a credential; the value is redacted, the key kept.
    _rule(
        "credential",
        r"(?i)\b(?:password|passwd|pwd|passphrase|secret|client_secret|api[_-]?key|access[_-]?key|"
        r"secret[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|token)\b[\"']?\s*[:=]\s*"
        r"(\"[^\"\n]+\"|'[^'\n]+'|[^\s,;\"'}\]]+)",
        group=1,
    ),
    _rule("email", r"\b[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}\b"),
)


def redact(text: str, rules: tuple[RedactionRule, ...] = DEFAULT_RULES) -> Redacted:
    """Replace every secret in `text` by `[REDACTED:<kind>]`. Idempotent: placeholders are never re-matched."""
    spans: list[Finding] = []
    for rule in rules:
        for m in rule.pattern.finditer(text):
            start, end = m.span(rule.group)
            if start == end or text[start:end].startswith("[REDACTED:"):
                continue
            # A span already covered by an earlier (more specific) rule is not reported twice.
            if any(s.start < end and start < s.end for s in spans):
                continue
            spans.append(Finding(rule.kind, start, end))
    if not spans:
        return Redacted(text, [])
    spans.sort(key=lambda f: f.start)
    out: list[str] = []
    pos = 0
    for f in spans:
        out.append(text[pos : f.start])
        out.append(f"[REDACTED:{f.kind}]")
        pos = f.end
    out.append(text[pos:])
    return Redacted("".join(out), spans)


def contains_secrets(text: str, rules: tuple[RedactionRule, ...] = DEFAULT_RULES) -> bool:
    return redact(text, rules).changed
