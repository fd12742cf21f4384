"""Time redaction on adversarial 64 KiB inputs, the RE2 rules beside the old backtracking ones.

    python -m benchmarks.redaction [--size 65536] [--old-size 65536] [--no-old] [--json]

(`python -m memgpt_lite.tools.bench_redaction` is the same command, kept for scripts.)

Each family is a text that makes a backtracking engine restart a long scan at every position (quadratic
time). The old rules are kept here, and only here, as the baseline: they are what `redaction.py` used
before RE2 (Python `re`, the same patterns). Exit status 1 when a new-rule time is over `--limit-ms`.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from memgpt_lite.tools.redaction import DEFAULT_RULES, RedactionRule, redact


def _old(kind: str, pattern: str, group: int = 0) -> RedactionRule:
    return RedactionRule(kind, re.compile(pattern), group)


OLD_RULES: tuple[RedactionRule, ...] = (
    _old(
        "private_key",
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)",
    ),
    _old("anthropic_key", r"\bsk-ant-[A-Za-z0-9_\-]{8,}"),
    _old("api_key", r"\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_\-]{16,}"),
    _old("aws_access_key", r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b"),
    _old("github_token", r"\bgh[pousr]_[A-Za-z0-9]{20,}\b"),
    _old("bearer_token", r"(?i)\bbearer\s+([A-Za-z0-9\-._~+/]{8,}=*)", group=1),
    _old("jwt", r"\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    _old(
        "credential",
        r"(?i)\b(?:password|passwd|pwd|passphrase|secret|client_secret|api[_-]?key|access[_-]?key|"
        r"secret[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|token)\b[\"']?\s*[:=]\s*"
        r"(\"[^\"\n]+\"|'[^'\n]+'|[^\s,;\"'}\]]+)",
        group=1,
    ),
    _old("email", r"\b[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}\b"),
)


def families(size: int) -> dict[str, str]:
    """Adversarial texts of `size` characters (each restarts a long failing scan at every position)."""

    def fill(unit: str) -> str:
        return (unit * (size // len(unit) + 1))[:size]

    return {
        "email local part (a.a.a.…)": fill("a."),
        "email local part (1+1+…)": fill("1+"),
        "email domain (a@b.b.b.…)": "a@" + fill("b.")[: size - 2],
        "key prefix (sk-sk-…)": fill("sk-"),
        "key body (a-a-a-…)": fill("a-"),
        "credential (token token …)": fill("token "),
        "private key header (-----BEGIN …)": fill("-----BEGIN "),
        "many findings (a@b.co a@b.co …)": fill("a@b.co "),
    }


def best_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.redaction", description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=64 * 1024, help="characters per input (default 65536)")
    ap.add_argument("--old-size", type=int, default=64 * 1024, help="input size for the old rules")
    ap.add_argument("--no-old", action="store_true", help="skip the (slow) old rules")
    ap.add_argument("--repeat", type=int, default=5, help="runs per input for the new rules (best kept)")
    ap.add_argument("--limit-ms", type=float, default=100.0, help="fail when a new-rule time exceeds this")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = ap.parse_args(argv)
    rows: list[dict[str, Any]] = []
    old_inputs = families(args.old_size)
    for name, text in families(args.size).items():
        new_ms = best_ms(partial(redact, text, DEFAULT_RULES), args.repeat)
        old_ms = None
        if not args.no_old:
            old_text = old_inputs[name]
            old_ms = best_ms(partial(redact, old_text, OLD_RULES), 1)
        old_rounded = None if old_ms is None else round(old_ms, 1)
        rows.append({"family": name, "size": len(text), "new_ms": round(new_ms, 2), "old_ms": old_rounded})
    worst = max(r["new_ms"] for r in rows)
    ok = worst < args.limit_ms
    if args.json:
        print(json.dumps({"rows": rows, "worst_new_ms": worst, "limit_ms": args.limit_ms, "ok": ok}))
    else:
        print(f"{'family':36} {'size':>7} {'RE2 (ms)':>9} {'old re (ms)':>12}")
        for r in rows:
            old = "skipped" if r["old_ms"] is None else f"{r['old_ms']:.1f} @{args.old_size}"
            print(f"{r['family']:36} {r['size']:>7} {r['new_ms']:>9.2f} {old:>12}")
        print(f"worst RE2 time {worst:.2f} ms (limit {args.limit_ms:g} ms): {'ok' if ok else 'TOO SLOW'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
