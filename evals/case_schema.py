"""Case specs: what a question may rest on, never what its answer says.

A case file is YAML holding one case (a mapping) or several (a list, or a mapping with `cases:`).
Loading validates every case with pydantic; a bad case raises `CaseError` naming the file, the case id
and the bad field, so nothing is silently skipped.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

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

DEFAULT_CASES_DIR = Path(__file__).parent / "cases"


class CaseError(UsageError):
    """A case file or a case in it is invalid; the message names file, case id and field."""


class Case(BaseModel):
    """One safety case. `evidence` and `must_not_reuse` only judge; they never steer retrieval."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    version: int = Field(ge=1)
    category: Category
    question: str = Field(min_length=1)
    expected_mode: Mode
    support_layer: SupportLayer
    evidence: tuple[str, ...] = ()
    """Evidence ids allowed to support the answer."""
    must_not_reuse: tuple[str, ...] = ()
    """Evidence ids that must not support the answer: stale, symptom-only, or another workflow's."""
    notes: str = ""
    """Why the case exists (for the report reader); never read by the evaluator."""

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
    """Load every `*.yaml`/`*.yml` case under a directory (or one file), sorted by file then order."""
    root = Path(source) if source is not None else DEFAULT_CASES_DIR
    if not root.exists():
        raise CaseError(f"{root}: no such case file or directory")
    files: Iterable[Path] = (
        [root] if root.is_file() else sorted([*root.rglob("*.yaml"), *root.rglob("*.yml")])
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
