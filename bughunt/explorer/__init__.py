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

from .export import load_exploration, memory_snapshot

__all__ = ["load_exploration", "memory_snapshot"]
