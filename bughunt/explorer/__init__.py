"""The BugHunt explorer: fetch, inspect, remember (harness-written structured memory), choose, repeat.

Modules: `engine` (the protocol a session drives), `http_engine` (polite same-origin HTTP over
`transport`) and `browser` (the same in Chromium), `login`, `store` (SQLite structured memory, one transaction per
step), `harness` (what each step writes), `views` (what a policy may see; the working-context block),
`policies`/`factory` (simulator strategies, the planner, the llm agent), `retest` (version
invalidation and the shortest retest tour), `session` (the loop), `export` (read a store back).
"""

from .export import load_exploration, memory_snapshot

__all__ = ["load_exploration", "memory_snapshot"]
