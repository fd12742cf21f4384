"""Text tables fold between words, never inside one, at any terminal width."""

from __future__ import annotations

import io
import re

from rich.console import Console
from rich.table import Table

from memgpt_lite.text_tables import print_table

WORDS = ["citation_integrity", "temporal_reasoning", "multi_hop", "adversarial_poisoning"]


def _table() -> Table:
    t = Table(title="layer 2")
    for header in ("category", "runs", "passed", "violations (first run that failed)"):
        t.add_column(header, overflow="fold")
    for w in WORDS:
        t.add_row(w, "3", "[red]FAIL[/]", "an answer cited evidence_id_42 that the store never held")
    return t


def _render(width: int) -> str:
    buf = io.StringIO()
    print_table(Console(file=buf, width=width, force_terminal=False, color_system=None), _table())
    return buf.getvalue()


def test_words_stay_whole_in_every_width():
    for width in (30, 50, 70, 90, 140):
        out = _render(width)
        assert all(len(line) <= width for line in out.splitlines()), width
        tokens = set(re.findall(r"[\w()]+", out))
        for w in [*WORDS, "evidence_id_42", "violations"]:
            assert w in tokens, (width, w, out)


def test_a_table_too_wide_for_the_terminal_becomes_records():
    narrow = _render(40)
    assert "category: citation_integrity" in narrow and "passed: FAIL" in narrow
    wide = _render(160)
    assert "category:" not in wide and "citation_integrity" in wide
