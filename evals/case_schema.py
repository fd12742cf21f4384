"""Case specs: what a question may rest on, never what its answer says.

A case file is YAML holding one case (a mapping) or several (a list, or a mapping with `cases:`).
Loading validates every case with pydantic; a bad case raises `CaseError` naming the file, the case id
and the bad field, so nothing is silently skipped.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from evals.dataset_paths import DEFAULT_SET, dataset_dir, resolve_old_layout
from memgpt_lite.errors import UsageError, format_validation_error

Category = Literal[
    "current_vs_superseded",
    "exact_ticket_path",
    "root_cause_vs_symptom",
    "reusable_guidance",
    "no_match",
    "citation_integrity",
    "multi_workflow",
]
CATEGORIES: tuple[str, ...] = Category.__args__  # type: ignore[attr-defined]
Mode = Literal["memory_answer", "no_match"]
SupportLayer = Literal["user_authored_decision", "agent_inferred_summary", "fresh_inspection_required"]

DEFAULT_CASES_DIR = dataset_dir(DEFAULT_SET)
RECORDS_FILE_NAMES = ("records.yaml", "records.yml")
"""Files in a case directory that hold extra fixture records (`evals.fixture_records`), not cases."""


class CaseError(UsageError):
    """A case file or a case in it is invalid; the message names file, case id and field."""


class EvidenceGroup(BaseModel):
    """Evidence an answer needs together (`all_of`) or one of several equivalent items (`any_of`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    all_of: tuple[str, ...] = ()
    any_of: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _one_kind(self) -> EvidenceGroup:
        if bool(self.all_of) == bool(self.any_of):
            raise ValueError("an evidence group needs exactly one of all_of / any_of, non-empty")
        return self

    @property
    def mode(self) -> Literal["all_of", "any_of"]:
        return "all_of" if self.all_of else "any_of"

    @property
    def ids(self) -> tuple[str, ...]:
        return self.all_of or self.any_of


class Case(BaseModel):
    """One safety case. `evidence` and `must_not_reuse` only judge; they never steer retrieval.

    `evidence` is a list of ids (any one of them may support the answer, as in version 1 case files)
    and/or of groups `{all_of: [...]}` / `{any_of: [...]}`, each of which an answer must satisfy. After
    loading, `evidence` holds every id named and `evidence_groups` the groups."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    version: int = Field(ge=1)
    category: Category
    question: str = Field(min_length=1)
    expected_mode: Mode
    support_layer: SupportLayer
    evidence: tuple[str, ...] = ()
    """Evidence ids allowed to support the answer."""
    evidence_groups: tuple[EvidenceGroup, ...] = ()
    """The groups given in `evidence`; the plain ids there form one more `any_of` group."""
    must_not_reuse: tuple[str, ...] = ()
    """Evidence ids that must not support the answer: stale, symptom-only, or another workflow's."""
    about: tuple[str, ...] = ()
    """Identifiers the question names (tickets, paths, routes, versions, dates) — never an answer.
    For a `no_match` case no current trusted record may carry all of them."""
    notes: str = ""
    """Why the case exists (for the report reader); never read by the evaluator."""

    @model_validator(mode="before")
    @classmethod
    def _split_groups(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not isinstance(data.get("evidence"), list):
            return data
        ids: list[Any] = []
        groups: list[Any] = list(data.get("evidence_groups") or [])
        for entry in data["evidence"]:
            if isinstance(entry, dict):
                groups.append(entry)
                group_ids = entry.get("all_of") or entry.get("any_of") or []
                ids.extend(group_ids if isinstance(group_ids, list) else [])
            else:
                ids.append(entry)
        return {**data, "evidence": list(dict.fromkeys(ids)), "evidence_groups": groups}

    def required_groups(self) -> list[EvidenceGroup]:
        """Every group an answer must satisfy: the declared groups, and the plain ids as one `any_of`."""
        grouped = {i for g in self.evidence_groups for i in g.ids}
        plain = tuple(i for i in self.evidence if i not in grouped)
        return [*self.evidence_groups, *([EvidenceGroup(any_of=plain)] if plain else [])]

    @field_validator("about", mode="before")
    @classmethod
    def _about_as_text(cls, v: Any) -> Any:
        # YAML reads 2026-03-12 as a date and 1.4 as a number; an identifier is the text as written.
        if isinstance(v, list):
            return [
                x.isoformat() if isinstance(x, date) else str(x) if isinstance(x, int | float) else x
                for x in v
            ]
        return v

    @field_validator("question")
    @classmethod
    def _question_not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("question is blank")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> Case:
        overlap = sorted(set(self.evidence) & set(self.must_not_reuse))
        if overlap:
            raise ValueError(f"ids in both evidence and must_not_reuse: {overlap}")
        if self.expected_mode == "no_match":
            if self.support_layer != "fresh_inspection_required":
                raise ValueError("a no_match case needs support_layer fresh_inspection_required")
            if self.evidence:
                raise ValueError("a no_match case allows no evidence (evidence must be empty)")
        else:
            if self.support_layer == "fresh_inspection_required":
                raise ValueError(
                    "a memory_answer case cannot need fresh inspection; use expected_mode no_match"
                )
            if not self.evidence:
                raise ValueError("a memory_answer case needs at least one allowed evidence id")
        return self


def _raw_cases(data: Any, path: Path) -> list[Any]:
    if isinstance(data, list):
        return data
    if isinstance(data, dict) and set(data) == {"cases"} and isinstance(data["cases"], list):
        return data["cases"]
    if isinstance(data, dict):
        return [data]
    raise CaseError(f"{path}: expected a case mapping or a list of cases, got {type(data).__name__}")


def _describe(err: ValidationError) -> str:
    return format_validation_error(err, "(case)")


def load_case_file(path: Path) -> list[Case]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise CaseError(f"{path}: not valid YAML: {e}") from e
    except UnicodeDecodeError as e:
        raise CaseError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from e
    except OSError as e:
        raise CaseError(f"{path}: cannot be read: {e}") from e
    cases = []
    for n, raw in enumerate(_raw_cases(data, path)):
        case_id = raw.get("id", f"#{n + 1}") if isinstance(raw, dict) else f"#{n + 1}"
        if not isinstance(raw, dict):
            raise CaseError(f"{path}: case {case_id} is not a mapping")
        try:
            cases.append(Case.model_validate(raw))
        except ValidationError as e:
            raise CaseError(f"{path}: case {case_id}: {_describe(e)}") from e
    return cases


def load_cases(source: Path | str | None = None) -> list[Case]:
    """Load every `*.yaml`/`*.yml` case under a directory (or one file), sorted by file then order.
    A directory's `records.yaml` holds fixture records, not cases, and is skipped here."""
    root = resolve_old_layout(Path(source)) if source is not None else DEFAULT_CASES_DIR
    if not root.exists():
        # the datasets are not package data: an installed wheel has no evals/datasets/
        hint = (
            " (the case sets live in a clone's evals/datasets/; pass --cases)"
            if root == DEFAULT_CASES_DIR
            else ""
        )
        raise CaseError(f"{root}: no such case file or directory{hint}")
    files: Iterable[Path] = (
        [root]
        if root.is_file()
        else sorted(
            f for f in [*root.rglob("*.yaml"), *root.rglob("*.yml")] if f.name not in RECORDS_FILE_NAMES
        )
    )
    cases: list[Case] = []
    seen: dict[str, Path] = {}
    for f in files:
        for case in load_case_file(f):
            if case.id in seen:
                raise CaseError(f"{f}: case {case.id}: field 'id': duplicate (also in {seen[case.id]})")
            seen[case.id] = f
            cases.append(case)
    if not cases:
        raise CaseError(f"{root}: no cases found (expected *.yaml files)")
    return cases
