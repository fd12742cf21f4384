"""Ablations: the same configurations (a memory or policy setting each) run on the same tasks and
compared pairwise, for the simulator and for the real explorer.

`config` is the one schema of an ablation config (simulator tasks at a file's top level, explorer
tasks in an `explorer:` section), `files` reads one (YAML, TOML or a built-in preset from `presets/`),
`run.run_ablation` runs it — `simulator` and `explorer` are the two kinds of task — and
`seed_experiment` recomputes the published experiment. Each returns an `outcome.Outcome` (JSON
document, tables, plots) for the caller to place; progress goes to the `on_done` callback the caller
passes down. The engine underneath (backends, grid runner, statistics, tables, plots) is `bughunt.sim`'s.

Nothing is imported here, so `bughunt --help` (which lists the presets) loads only what it names.
"""
