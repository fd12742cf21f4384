"""The BugHunt explorer: load, read the page's facts, inspect, remember, choose, repeat.

Modules: `loop` (the one loop), `choose` (where to click next), `loading` (retries, click states),
`facts` (a page's facts, once), `hints` (what only the planner reads), `inspection` (the oracles with
what the explorer lends them), `versions` (what a page says its version is), `graph` (the exploration
over the store; one transaction per step), `harness` (what a step writes), `store` (SQLite structured
memory), `views` (what a policy may see; the working-context block), `policies`/`factory` (simulator
strategies, the planner, the llm agent), `retest` (version invalidation and the shortest re-test
tour), `summary` (one account of an exploration), `export` (read a store back); the engines:
`engine` (the protocol a session drives), `http_engine` (polite same-origin HTTP over `transport`)
and `browser` (the same in Chromium), `login`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memgpt_lite.lazy_names import lazy_names

if TYPE_CHECKING:
    from .export import load_exploration, memory_snapshot

# Loaded on first use (PEP 562), as `memgpt_lite.storage` does: `export` imports nearly every explorer
# module (~0.2 s CPU), and every `bughunt.explorer.X` import runs this file first.
_SUBMODULE: dict[str, str] = {"load_exploration": ".export", "memory_snapshot": ".export"}

__all__ = ["load_exploration", "memory_snapshot"]


__getattr__, __dir__ = lazy_names(__name__, _SUBMODULE)
