"""Ablation config files (YAML or TOML), validated with pydantic; a bad field is named in the error.

Example (YAML)::

    name: eviction-at-12
    seeds: {start: 1000, count: 200}     # tasks: one per seed
    runs_per_task: 1                     # >1: extra runs use derived seeds, averaged per task
    budget: 30
    until_all_bugs: false                # true: run to the sixth bug (cap max_steps)
    tokens: {base: 3000, per_entry: 40, per_bug_entry: 0}
    grid:                                # cartesian product (eviction is ignored without a capacity)
      strategy: [frontier]
      capacity: [12]
      eviction: [fifo, lru, random]       # what a full memory forgets (`policy:` is the old name)
      memory: [both]                     # none | visited | bugs | both; null = the strategy's default
    configs:                             # extra named configurations
      - {name: no-memory, strategy: random}
    baseline: no-memory                  # paired comparisons are against this one
    metrics: [coverage, duplicate_reports, tokens]
    bootstrap: {resamples: 10000, seed: 0}
"""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from memgpt_lite.errors import ConfigError, format_validation_error

from .engine import MAX_STEPS, MemoryComponents, RunConfig
from .memory import Eviction
from .runner import SIM_METRICS
from .strategies import strategy_names

Metric = Literal["coverage", "repeat_rate", "bugs_found", "duplicate_reports", "tokens", "steps", "complete"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SeedRange(_Strict):
    start: int = Field(1000, ge=0, lt=2**32)
    count: int = Field(200, ge=2, le=1_000_000)


class TokenModel(_Strict):
    base: int = Field(3000, ge=0)
    per_entry: int = Field(40, ge=0)
    per_bug_entry: int = Field(0, ge=0)


class BootstrapSettings(_Strict):
    resamples: int = Field(10_000, ge=100, le=1_000_000)
    seed: int = Field(0, ge=0)


def _check_strategy(name: str) -> str:
    if name not in strategy_names():
        raise ValueError(f"unknown strategy {name!r}; choose one of {', '.join(strategy_names())}")
    return name


class ConfigSpec(_Strict):
    name: str | None = None
    strategy: str
    capacity: int | None = Field(None, ge=1)
    eviction: Eviction = Field("fifo", validation_alias=AliasChoices("eviction", "policy"))
    memory: MemoryComponents | None = None

    _strategy = field_validator("strategy")(_check_strategy)

    def label(self) -> str:
        if self.name:
            return self.name
        parts = [self.strategy]
        if self.capacity is not None:
            parts += [f"cap{self.capacity}", self.eviction]
        if self.memory is not None:
            parts.append(f"mem-{self.memory}")
        return "/".join(parts)


class GridSpec(_Strict):
    strategy: list[str] = Field(default_factory=lambda: ["random", "visited", "frontier"], min_length=1)
    capacity: list[int | None] = Field(default_factory=lambda: [None], min_length=1)
    eviction: list[Eviction] = Field(
        default_factory=lambda: ["fifo"], min_length=1, validation_alias=AliasChoices("eviction", "policy")
    )
    memory: list[MemoryComponents | None] = Field(default_factory=lambda: [None], min_length=1)

    @field_validator("strategy")
    @classmethod
    def _strategies(cls, v: list[str]) -> list[str]:
        return [_check_strategy(s) for s in v]

    @field_validator("capacity")
    @classmethod
    def _capacities(cls, v: list[int | None]) -> list[int | None]:
        for c in v:
            if c is not None and c < 1:
                raise ValueError(f"capacity must be at least 1 or null (unlimited), got {c}")
        return v

    def expand(self) -> list[ConfigSpec]:
        out: list[ConfigSpec] = []
        seen: set[str] = set()
        for s, c, e, m in itertools.product(self.strategy, self.capacity, self.eviction, self.memory):
            spec = ConfigSpec(strategy=s, capacity=c, eviction=e if c is not None else "fifo", memory=m)
            if spec.label() not in seen:  # without a capacity nothing is evicted: one config
                seen.add(spec.label())
                out.append(spec)
        return out


class AblationConfig(_Strict):
    name: str = "ablation"
    seeds: SeedRange = SeedRange()
    runs_per_task: int = Field(1, ge=1, le=1000)
    budget: int = Field(30, ge=1, le=100_000)
    until_all_bugs: bool = False
    max_steps: int = Field(MAX_STEPS, ge=1, le=1_000_000)
    tokens: TokenModel = TokenModel()
    grid: GridSpec | None = None
    configs: list[ConfigSpec] = Field(default_factory=list)
    baseline: str | None = None
    metrics: list[Metric] = Field(default_factory=lambda: list(SIM_METRICS), min_length=1)
    bootstrap: BootstrapSettings = BootstrapSettings()

    @model_validator(mode="after")
    def _consistent(self) -> AblationConfig:
        specs = self.specs()
        if not specs:
            raise ValueError("configs: give at least one configuration (in `grid` or `configs`)")
        labels = [s.label() for s in specs]
        dupes = sorted({x for x in labels if labels.count(x) > 1})
        if dupes:
            raise ValueError(f"configs: duplicate configuration names {dupes}")
        if self.baseline is not None and self.baseline not in labels:
            raise ValueError(f"baseline: {self.baseline!r} is not one of the configurations {labels}")
        return self

    def specs(self) -> list[ConfigSpec]:
        return (self.grid.expand() if self.grid else []) + list(self.configs)

    def run_configs(self) -> dict[str, RunConfig]:
        return {
            s.label(): RunConfig(
                strategy=s.strategy,
                capacity=s.capacity,
                eviction=s.eviction,
                memory=s.memory,
                budget=self.budget,
                until_all_bugs=self.until_all_bugs,
                max_steps=self.max_steps,
                base_tokens=self.tokens.base,
                entry_tokens=self.tokens.per_entry,
                bug_entry_tokens=self.tokens.per_bug_entry,
            )
            for s in self.specs()
        }

    def tasks(self) -> list[int]:
        return list(range(self.seeds.start, self.seeds.start + self.seeds.count))

    def baseline_name(self) -> str:
        return self.baseline or self.specs()[0].label()


def parse_config(data: Any, source: str = "config") -> AblationConfig:
    if not isinstance(data, dict):
        raise ConfigError(
            f"{source}: expected a mapping of settings at the top level, got {type(data).__name__}"
        )
    try:
        return AblationConfig.model_validate(data)
    except ValidationError as e:
        raise ConfigError(f"{source}: {format_validation_error(e)}") from None


PRESETS_DIR = Path(__file__).parent / "presets"


def preset_names() -> list[str]:
    return sorted(p.stem for p in PRESETS_DIR.glob("*.yaml"))


def load_config(path: str | Path) -> AblationConfig:
    """Read and validate a YAML (.yaml/.yml) or TOML (.toml) ablation config, or a built-in preset by name."""
    p = Path(path)
    if not p.exists() and p.suffix == "" and (PRESETS_DIR / f"{p.name}.yaml").exists():
        p = PRESETS_DIR / f"{p.name}.yaml"
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        hint = f"; built-in presets: {', '.join(preset_names())}" if p.suffix == "" else ""
        raise ConfigError(f"{p}: cannot read the config file ({e.strerror or e}){hint}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{p}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    suffix = p.suffix.lower()
    try:
        if suffix == ".toml":
            data: Any = tomllib.loads(text)
        elif suffix in (".yaml", ".yml"):
            import yaml

            data = yaml.safe_load(text)
        else:
            raise ConfigError(f"{p}: unknown config format {suffix or '(none)'!r}; use .yaml, .yml or .toml")
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{p}: not valid TOML: {e}") from None
    except ConfigError:
        raise
    except Exception as e:  # yaml.YAMLError and friends; the message carries line and column
        raise ConfigError(f"{p}: not valid YAML: {e}") from None
    return parse_config(data if data is not None else {}, str(p))
