"""Reading an ablation config: a YAML (.yaml/.yml) or TOML (.toml) file, or a built-in preset by name
(`presets/*.yaml` beside this module), into the one schema of `bughunt.ablation.config`."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from memgpt_lite.errors import ConfigError

from .config import AblationConfig, parse_config

PRESETS_DIR = Path(__file__).parent / "presets"


def preset_names() -> list[str]:
    return sorted(p.stem for p in PRESETS_DIR.glob("*.yaml"))


def load_config(path: str | Path) -> AblationConfig:
    """Read and validate a config file or a built-in preset; every problem is a `ConfigError` that
    starts with the file's name."""
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
    data = _parse_text(p, text)
    return parse_config(data if data is not None else {}, str(p))


def _parse_text(p: Path, text: str) -> Any:
    suffix = p.suffix.lower()
    if suffix == ".toml":
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{p}: not valid TOML: {e}") from None
    if suffix in (".yaml", ".yml"):
        # only when a YAML file is read; PyYAML ships no types and types-PyYAML is not a dependency
        import yaml

        try:
            return yaml.safe_load(text)
        except Exception as e:  # yaml.YAMLError (with line and column), or e.g. a date out of range
            raise ConfigError(f"{p}: not valid YAML: {e}") from None
    raise ConfigError(f"{p}: unknown config format {suffix or '(none)'!r}; use .yaml, .yml or .toml")
