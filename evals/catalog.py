"""The datasets' manifest (`evals/datasets/manifest.yaml`): every set, who wrote it and when, its first
blind score, and the commits tuned on it since.

A held-out set is held out only until rules are written on its misses; the manifest keeps that
history beside the data so a figure is read for what it is. `check_catalog` holds the manifest to the
folders: every set on disk is listed, every listed set exists, its files are the ones listed (SHA-256:
a changed set needs a new version and digest), its counts are right, and its cases and records
validate against their schemas (`evals.case_schema.Case`, `evals.records_schema.FixtureItem`), and
the record ids its cases name are the fixture's or its own.
"""

from __future__ import annotations

import hashlib
from datetime import date
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from evals.case_schema import RECORDS_FILE_NAMES, load_cases
from evals.dataset_paths import DATASETS_DIR, FIXTURE_SET
from evals.fixture_records import load_records_file, merge_records

MANIFEST_FILE = DATASETS_DIR / "manifest.yaml"
_COMMIT = r"^[0-9a-f]{7,40}$"
_SCORE = r"^\d+/\d+$"


class BlindScore(BaseModel):
    """A set's first measurement, by an agent that had never seen it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    file: str | None = None
    """The case file it is of, when a set's files were measured apart (None: the whole set)."""
    baseline: str = Field(pattern=_SCORE)
    """The offline baseline's passes, MiniLM fixture."""
    hashing: str | None = Field(default=None, pattern=_SCORE)
    """The same with the hashing embedder, where it was measured."""
    layer1: str | None = Field(default=None, pattern=_SCORE)
    """Layer 1's cases without violations, where it was measured blind."""
    agent: str
    """The agent measured: a commit, or where no commit is recorded, which session's agent."""
    recorded_in: str = Field(pattern=_COMMIT)
    """The commit whose subject or docs first give the figure."""


class TunedCommit(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    commit: str = Field(pattern=_COMMIT)
    subject: str = Field(min_length=1)


class DatasetEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z][a-z0-9_-]*$")
    kind: Literal["cases", "records"]
    """`cases`: a case set (with the records it brings, if any); `records`: records only (the fixture)."""
    version: int = Field(ge=1)
    files: dict[str, str]
    """Each file of the set and its SHA-256."""
    cases: int = Field(ge=0)
    records: int = Field(ge=0)
    written_by: str = Field(min_length=1)
    written: date
    """When it was written (its first commit's date)."""
    written_in: list[str] = Field(min_length=1)
    """The commits that added its files."""
    first_blind: list[BlindScore] = []
    not_blind: str | None = None
    """Why there is no blind score (a set written beside the agent)."""
    tuned_since: list[TunedCommit] = []
    """Commits after its first blind score whose subject names the set or one of its cases: the rules
    (or the audit) were measured on it, so its later figures are development figures."""
    notes: str = ""

    @model_validator(mode="after")
    def _blind_or_why_not(self) -> DatasetEntry:
        if self.kind == "cases" and bool(self.first_blind) == bool(self.not_blind):
            raise ValueError("a case set needs either first_blind or not_blind (why it has no blind score)")
        return self


class Catalog(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal[1]
    sets: list[DatasetEntry]

    def by_name(self) -> dict[str, DatasetEntry]:
        return {s.name: s for s in self.sets}


def load_catalog(path: Path = MANIFEST_FILE) -> Catalog:
    return Catalog.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def set_files(folder: Path) -> dict[str, str]:
    """Every YAML file of a set folder (as deep as case files are read) and its SHA-256."""
    files = sorted(p for p in [*folder.rglob("*.yaml"), *folder.rglob("*.yml")] if p.is_file())
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def check_catalog(catalog: Catalog, root: Path = DATASETS_DIR) -> list[str]:
    """What is wrong between the manifest and the folders, one line each (empty: they agree). Loading a
    set validates it: a bad case or record raises, naming file, id and field."""
    problems: list[str] = []
    on_disk = {p.name for p in root.iterdir() if p.is_dir()}
    listed = catalog.by_name()
    problems += [f"{n}: a set folder the manifest does not list" for n in sorted(on_disk - set(listed))]
    problems += [f"{n}: listed, but there is no folder {root / n}" for n in sorted(set(listed) - on_disk)]
    fixture = merge_records([], [load_records_file(root / FIXTURE_SET / "records.yaml")])
    for name in sorted(on_disk & set(listed)):
        entry, folder = listed[name], root / name
        files = set_files(folder)
        if files != entry.files:
            problems.append(
                f"{name}: its files are not the ones listed (a changed set needs a new version and "
                f"digests): {sorted(set(files.items()) ^ set(entry.files.items()))}"
            )
        records_files = [folder / f for f in files if Path(f).name in RECORDS_FILE_NAMES]
        loaded = [load_records_file(f) for f in records_files]
        records = sum(len(r.items) for r in loaded)
        # every reference resolves against the fixture
        known = {i.id for i in (merge_records(fixture, loaded) if name != FIXTURE_SET else fixture)}
        set_cases = load_cases(folder) if entry.kind == "cases" else []
        unknown = sorted({i for c in set_cases for i in (*c.evidence, *c.must_not_reuse)} - known)
        if unknown:
            problems.append(
                f"{name}: its cases name records neither the fixture nor the set holds: {unknown}"
            )
        cases = len(set_cases)
        if (cases, records) != (entry.cases, entry.records):
            problems.append(
                f"{name}: holds {cases} cases and {records} records, "
                f"the manifest says {entry.cases} and {entry.records}"
            )
    return problems
