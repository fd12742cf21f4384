"""Extra fixture records that a case set brings along (`records.yaml`, or `--records FILE`).

Held-out material may need records the fixture does not hold (a new ticket family, say). Such a file
holds entries of the fixture's own record shape (`evals.records_schema.FixtureItem`; the fixture itself
is such a file, `evals/datasets/fixture/records.yaml`) and is appended to the fixture's records when
a store is built for that run; `fixture_version` stays, and the manifest lists
each file with its SHA-256 and the ids it added, so a report says exactly what the store held.

Validation is strict and happens before anything is written: unknown or missing fields, an id used
twice (in the file, across files, or by the generator), and a `provenance`, `supersedes` or
`superseded_by` that names no record are errors naming the file, the record and the field.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from evals.case_schema import RECORDS_FILE_NAMES
from evals.dataset_paths import resolve_old_layout
from evals.records_schema import FixtureItem
from memgpt_lite.errors import UsageError


class RecordsError(UsageError):
    """A records file or a record in it is invalid; the message names file, record id and field."""


class ExtraRecordsEntry(BaseModel):
    """How the manifest lists one records file that went into the store."""

    file: str
    sha256: str
    ids: list[str]


@dataclass(frozen=True)
class ExtraRecords:
    """One parsed records file: its records as written (before supersession is resolved)."""

    path: Path
    sha256: str
    items: tuple[FixtureItem, ...]

    def entry(self) -> ExtraRecordsEntry:
        return ExtraRecordsEntry(file=str(self.path), sha256=self.sha256, ids=[i.id for i in self.items])


def records_files_for(cases: Path | str | None) -> list[Path]:
    """The records files a case source brings: every `records.yaml` under a case directory (as deep as
    case files are found), or the one beside a single case file."""
    if cases is None:
        return []
    root = resolve_old_layout(Path(cases))
    if root.is_file():
        return [p for name in RECORDS_FILE_NAMES if (p := root.parent / name).is_file()]
    if root.is_dir():
        return sorted(p for name in RECORDS_FILE_NAMES for p in root.rglob(name) if p.is_file())
    return []


def unique_files(paths: Iterable[Path]) -> list[Path]:
    """`paths` without repeats of one file named two ways (a directory's records.yaml and --records)."""
    seen: set[Path] = set()
    out = []
    for p in paths:
        key = p.resolve()
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _as_utc(value: Any) -> Any:
    # YAML gives naive datetimes for "2026-03-14 10:00" and plain dates for "2026-03-14"; the generator's
    # records are all UTC, and mixing naive and aware times would break every comparison downstream.
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=UTC)
    return value


def _raw_records(data: Any, path: Path) -> list[Any]:
    if isinstance(data, list):
        return data
    if isinstance(data, dict) and set(data) == {"records"} and isinstance(data["records"], list):
        return data["records"]
    raise RecordsError(
        f"{path}: expected a list of records (or a mapping with `records:`), got {type(data).__name__}"
    )


def _describe(err: ValidationError) -> str:
    """Every problem as `field 'x': why`; an unknown field says so (the model's fields are the schema)."""
    known = ", ".join(FixtureItem.model_fields)
    parts = []
    for e in err.errors(include_url=False):
        field = ".".join(str(x) for x in e["loc"]) or "(record)"
        why = f"unknown field (a record has: {known})" if e["type"] == "extra_forbidden" else e["msg"]
        parts.append(f"field '{field}': {why}")
    return "; ".join(parts)


def load_records_file(path: Path | str) -> ExtraRecords:
    """Parse and validate one records file on its own (fields and ids within the file)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
        data = yaml.safe_load(raw.decode("utf-8"))
    except OSError as e:
        raise RecordsError(f"{path}: cannot be read: {e}") from e
    except UnicodeDecodeError as e:
        raise RecordsError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from e
    except yaml.YAMLError as e:
        raise RecordsError(f"{path}: not valid YAML: {e}") from e
    entries = _raw_records(data, path)
    if not entries:
        raise RecordsError(f"{path}: no records (an empty records file is almost certainly a mistake)")
    items: list[FixtureItem] = []
    seen: set[str] = set()
    for n, entry in enumerate(entries):
        label = entry.get("id", f"#{n + 1}") if isinstance(entry, dict) else f"#{n + 1}"
        if not isinstance(entry, dict):
            raise RecordsError(f"{path}: record {label} is not a mapping")
        fields = {k: _as_utc(v) if k == "date" else v for k, v in entry.items()}
        try:
            item = FixtureItem.model_validate(fields)
        except ValidationError as e:
            raise RecordsError(f"{path}: record {label}: {_describe(e)}") from e
        if item.id in seen:
            raise RecordsError(f"{path}: record {item.id}: field 'id': duplicate within the file")
        seen.add(item.id)
        if item.renamed_from is not None and item.renamed_from not in item.paths:
            raise RecordsError(
                f"{path}: record {item.id}: field 'renamed_from': {item.renamed_from!r} is not one of its "
                f"paths {list(item.paths)} (a rename note carries both the old and the new path)"
            )
        if item.store == "recall" and (item.supersedes or item.superseded_by):
            raise RecordsError(
                f"{path}: record {item.id}: field 'supersedes': a recall (raw log) record has no supersession"
            )
        items.append(item)
    return ExtraRecords(path=path, sha256=hashlib.sha256(raw).hexdigest(), items=tuple(items))


def merge_records(base: Sequence[FixtureItem], extras: Sequence[ExtraRecords]) -> list[FixtureItem]:
    """The generated records followed by the extra ones, with every cross-reference checked and
    supersession resolved on both sides (`supersedes` and `superseded_by`), in a write order where every
    record comes after what it refers to (the store needs a passage's `supersedes` target first)."""
    merged: dict[str, FixtureItem] = {i.id: i for i in base}
    origin: dict[str, Path] = {}
    for rec in extras:
        for item in rec.items:
            if item.id in merged:
                where = origin.get(item.id)
                also = f"also in {where}" if where else "the generated fixture already has it"
                raise RecordsError(f"{rec.path}: record {item.id}: field 'id': duplicate ({also})")
            merged[item.id] = item
            origin[item.id] = rec.path

    def fail(item_id: str, field: str, why: str) -> RecordsError:
        return RecordsError(f"{origin[item_id]}: record {item_id}: field '{field}': {why}")

    def missing(ref: str) -> str:
        return f"no record {ref!r} in the fixture or the records files"

    # 1. references resolve; `superseded_by` is turned into the successor's `supersedes`
    supersedes: dict[str, str] = {}  # new -> old, for the extra records only
    declared_at: dict[str, tuple[str, str]] = {}  # new -> (record, field) the user wrote it on
    for new_id in origin:
        item = merged[new_id]
        for ref in item.provenance:
            if ref not in merged:
                raise fail(new_id, "provenance", missing(ref))
            if ref == new_id:
                raise fail(new_id, "provenance", "a record cannot rest on itself")
        if item.supersedes is not None:
            if item.supersedes not in merged:
                raise fail(new_id, "supersedes", missing(item.supersedes))
            supersedes[new_id] = item.supersedes
            declared_at[new_id] = (new_id, "supersedes")
    for old_id in origin:
        succ = merged[old_id].superseded_by
        if succ is None:
            continue
        if succ not in merged:
            raise fail(old_id, "superseded_by", missing(succ))
        declared = supersedes.get(succ) if succ in origin else merged[succ].supersedes
        if declared is None and succ in origin:
            supersedes[succ] = old_id
            declared_at[succ] = (old_id, "superseded_by")
        elif declared != old_id:
            raise fail(
                old_id, "superseded_by",
                f"{succ!r} does not supersede it (its `supersedes` is {declared!r}); give the relation once, "
                f"as `supersedes: {old_id}` on {succ}",
            )  # fmt: skip

    # 2. each supersession is one archival step onto a live record
    by_old: dict[str, str] = {}
    for new_id, old_id in supersedes.items():
        at = declared_at[new_id]  # (record, field) the relation was written on
        step = f"{new_id!r} superseding {old_id!r}"
        if old_id == new_id:
            raise fail(*at, "a record cannot supersede itself")
        if merged[old_id].store != "archival" or merged[new_id].store != "archival":
            raise fail(*at, f"{step}: only archival records supersede (recall is the raw log)")
        if old_id in by_old:
            raise fail(
                *at, f"{step}: {old_id!r} is also superseded by {by_old[old_id]!r}; one successor each"
            )
        if old_id not in origin and merged[old_id].superseded_by is not None:
            raise fail(
                *at,
                f"{step}: {old_id!r} is already superseded by {merged[old_id].superseded_by!r}; "
                "supersede the chain's live entry",
            )
        by_old[old_id] = new_id

    for new_id, old_id in supersedes.items():
        merged[new_id] = merged[new_id].model_copy(update={"supersedes": old_id})
        merged[old_id] = merged[old_id].model_copy(update={"superseded_by": new_id})

    # 3. write order: generated records as generated, then the extra ones after what they refer to
    placed = {i.id for i in base}
    order: list[str] = [i.id for i in base]
    pending = list(origin)
    while pending:
        ready = next(
            (x for x in pending if all(r in placed for r in (*merged[x].provenance, *filter(None, [merged[x].supersedes])))),
            None,
        )  # fmt: skip
        if ready is None:
            raise fail(pending[0], "provenance", f"the records {pending} refer to each other in a cycle")
        pending.remove(ready)
        placed.add(ready)
        order.append(ready)
    return [merged[i] for i in order]


def load_extra_records(paths: Sequence[Path]) -> list[ExtraRecords]:
    return [load_records_file(p) for p in unique_files(paths)]
