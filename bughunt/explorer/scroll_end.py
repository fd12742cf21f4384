"""A loaded page scrolled to its end once, after its first read.

A list that loads its next batch when its end comes into view (an infinite scroll: an
`IntersectionObserver` on a sentinel after the last item, or a scroll listener measuring what is left
below) shows that batch only to a reader who scrolls; a list whose items draw themselves only once in
view (lazy cards) shows empty placeholders to one who does not. A person reading such a page scrolls
down it, so a page taller than its window that watches its scrolling (it observes elements coming into
view or listens for scroll events: `acting_elements.LISTEN`) is scrolled to its end, and read again when that drew
anything (elements added or removed within `DRAW_MS`) or made the page fetch (the engine counts its
requests): what the batch appended is then on the page the
oracles read (a batch repeating items already shown is a faulty pager's, `listed_twice`). A page no
taller than its window has no end to reach, one that watches no scrolling draws nothing when scrolled
(and is not made to wait `DRAW_MS` for nothing), and one whose end draws nothing is read once, as before.
"""

from __future__ import annotations

from typing import Any

TALLER = 1.1
"""How much taller than its window a page must be to have an end worth scrolling to (a page a scroll
bar's width too tall has nothing below)."""

DRAW_MS = 200
"""How long after the scroll a first added or removed element is waited for: an observer reports
what came into view after the next layout, and the app draws it on the following frames."""

SCROLL_END = """([name, taller, drawMs]) => {
  const root = document.scrollingElement || document.documentElement;
  const record = window[name];
  if (!record || !record.watches() || !root || !document.body || root.scrollHeight <= innerHeight * taller) {
    return false;
  }
  return new Promise(done => {
    let timer = 0;
    const drawn = new MutationObserver(() => { drawn.disconnect(); clearTimeout(timer); done(true); });
    drawn.observe(document.body, {childList: true, subtree: true});
    timer = setTimeout(() => { drawn.disconnect(); done(false); }, drawMs);
    root.scrollTop = root.scrollHeight;
  });
}"""


def scroll_to_end(page: Any, record: str) -> bool:
    """Scroll the tab's document to its end when it watches its scrolling (`record`: the name of the
    init script's record); True when that drew something within `DRAW_MS`."""
    return bool(page.evaluate(SCROLL_END, [record, TALLER, DRAW_MS]))
