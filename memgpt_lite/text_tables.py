"""Text tables that fold between words, never inside one, in any terminal width.

Rich shrinks a column below its longest word when the table is wider than the terminal, and then cuts
that word (`citation_integri / ty`) or a header. `print_table` gives each column at least its longest
word (up to `WORD_CAP` characters: a longer token, a path or a hash, still folds), and when even that
does not fit the terminal it prints the rows as records — one `header: value` line per cell — which
fit any width.
"""

from __future__ import annotations

from rich.console import Console, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

__all__ = ["WORD_CAP", "print_table"]

WORD_CAP = 32


def _plain(cell: RenderableType) -> str:
    if isinstance(cell, Text):
        return cell.plain
    if isinstance(cell, str):
        return Text.from_markup(cell).plain
    return ""


def _longest_word(texts: list[str]) -> int:
    return max((len(w) for t in texts for w in t.split()), default=1)


def print_table(console: Console, table: Table) -> None:
    columns = table.columns
    lows, highs = [], []
    for column in columns:
        texts = [_plain(column.header), *(_plain(c) for c in column.cells)]
        lows.append(min(WORD_CAP, _longest_word(texts)))
        highs.append(max(1, *(len(line) for t in texts for line in t.splitlines() or [""])))
    highs = [max(lo, hi) for lo, hi in zip(lows, highs, strict=True)]
    # Borders and padding as rich draws them: the natural width less the columns' own.
    overhead = Measurement.get(console, console.options.update(width=10**6), table).maximum - sum(highs)
    room = console.width - overhead
    if sum(lows) > room:
        _print_records(console, table)
        return
    # Rich's own shrinking may cut a word even when every word could fit; widths are set here instead:
    # each column gets its longest word, and the rest of the room goes where the text is longest.
    spare, wants = room - sum(lows), [hi - lo for lo, hi in zip(lows, highs, strict=True)]
    total = sum(wants)
    for column, lo, want in zip(columns, lows, wants, strict=True):
        column.width = lo + (want if total <= spare else want * spare // total)
        column.overflow = "fold"
    console.print(table)


def _print_records(console: Console, table: Table) -> None:
    """One block per row: `header: value` lines, wrapped by the console at word boundaries."""
    if table.title:
        console.print(Text(_plain(table.title), style="bold"))
    rows = list(zip(*(list(c.cells) for c in table.columns), strict=True))
    headers = [_plain(c.header) for c in table.columns]
    for i, row in enumerate(rows):
        if i:
            console.print()
        for header, cell in zip(headers, row, strict=True):
            line = Text(f"{header}: ", style="bold")
            line.append_text(
                cell
                if isinstance(cell, Text)
                else Text.from_markup(cell)
                if isinstance(cell, str)
                else Text("")
            )
            console.print(line)
