"""Write the BugHunt memory fixture into a memgpt_lite store through the public storage API.

The fixture's records are data, not code: `evals/datasets/fixture/records.yaml`, in the same records
format as the records a held-out set brings (`evals.fixture_records`, schema `evals.records_schema`).
The raw session log goes to recall storage (one message per log line, its fixture id as message id);
everything else goes to archival storage with its fixture id as passage id, provenance, `supersedes`
and the structured fields in `meta`. Next to the store, `evals_fixture.json` keeps the generator's
records so layer 1 can check that what comes back out of storage is what went in.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from evals.dataset_paths import FIXTURE_SET, dataset_dir
from evals.fixture_records import (
    ExtraRecordsEntry,
    RecordsError,
    file_sha256,
    load_extra_records,
    load_records_file,
    merge_records,
)
from evals.records_schema import FixtureItem
from memgpt_lite.errors import StoreError, UsageError, format_validation_error
from memgpt_lite.memory import AgentMemory
from memgpt_lite.messages import Message, TextPart
from memgpt_lite.storage.embeddings import Embedder, HashingEmbedder, default_embedder
from memgpt_lite.storage.embeddings import make_embedder as choose_embedder

MANIFEST_NAME = "evals_fixture.json"
MANIFEST_FORMAT = "memgpt_lite-evals-fixture"
EMBEDDERS = ("default", "hashing", "multilingual")
FIXTURE_VERSION = 2
"""Version 1 had the first 24 archival items and 50 log lines; its stores still audit (layer 1 skips the
fields version 1 did not store)."""
FIXTURE_RECORDS = dataset_dir(FIXTURE_SET) / "records.yaml"
LEAD = "maria"
"""The team lead: her raw-log lines are stored as the user's messages, everyone else's as the assistant's."""


def fixture_records() -> list[FixtureItem]:
    """The generated fixture's records in write order, supersession resolved (`superseded_by` set on
    every record a later one supersedes)."""
    if not FIXTURE_RECORDS.is_file():
        raise UsageError(
            f"{FIXTURE_RECORDS}: no such file (the datasets are not package data: run from a clone)"
        )
    return merge_records([], [load_records_file(FIXTURE_RECORDS)])


class FixtureManifest(BaseModel):
    format: str = MANIFEST_FORMAT
    fixture_version: int
    embedder: str
    as_of: datetime
    """A fixed "now" for retrieval, one day after the last record, so recency never depends on the clock."""
    items: list[FixtureItem]
    extra_records: list[ExtraRecordsEntry] = []
    """Records files appended to the generated records (`--records`, a case directory's records.yaml)."""

    def by_id(self) -> dict[str, FixtureItem]:
        return {i.id: i for i in self.items}


def make_embedder(name: str) -> Embedder:
    """`default` (MiniLM, offline), `hashing` (fast and deterministic, for tests) or `multilingual`
    (USE multilingual v3: Chinese questions meet English records)."""
    if name == "default":
        return default_embedder()
    if name.startswith("hashing"):
        return HashingEmbedder()
    if name == "multilingual":
        return choose_embedder("multilingual")
    raise UsageError(f"unknown embedder {name!r}; choose one of {', '.join(EMBEDDERS)}")


def item_meta(item: FixtureItem) -> dict[str, Any]:
    """The structured fields stored with an item (recall message meta or archival passage meta)."""
    return {
        "evidence_id": item.id,
        "kind": item.kind,
        "claim": item.claim,
        "support_layer": item.support_layer,
        "source": item.source,
        "author": item.author,
        "speaker": item.author,
        "date": item.date.isoformat(),
        "app_version": item.app_version,
        "workflow": item.workflow,
        "tickets": list(item.tickets),
        "paths": list(item.paths),
        "routes": list(item.routes),
        "bug_status": item.bug_status,
        "fingerprint": item.fingerprint,
        "trust": item.trust,
        "renamed_from": item.renamed_from,
        "fixture_version": FIXTURE_VERSION,
    }


def _message(item: FixtureItem) -> Message:
    role = "user" if item.author == LEAD else "assistant"
    return Message(
        id=item.id, role=role, parts=[TextPart(text=item.content)], created_at=item.date, meta=item_meta(item)
    )


def write_fixture(
    out: str | Path,
    embedder: str | Embedder = "default",
    records: Sequence[str | Path] = (),
) -> FixtureManifest:
    """Read the fixture's records, append those of the `records` files (validated before anything is
    written), and store them all in a new store directory `out`. `embedder` is a name of `EMBEDDERS`
    or an `Embedder` (benchmarks: pass the same one to `run_layer1`)."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out} is a file; the fixture is written into a new store directory")
    if out.exists() and any(out.iterdir()):
        raise UsageError(f"{out} is not empty; the fixture is written into a new store directory")
    extras = load_extra_records([Path(r) for r in records])
    items = merge_records(fixture_records(), extras)
    manifest = FixtureManifest(
        fixture_version=FIXTURE_VERSION,
        embedder=embedder if isinstance(embedder, str) else embedder.name,
        as_of=max(i.date for i in items) + timedelta(days=1),
        items=items,
        extra_records=[e.entry() for e in extras],
    )
    memory = AgentMemory.open(
        out, embedder=make_embedder(embedder) if isinstance(embedder, str) else embedder
    )
    try:
        for item in items:
            if item.store == "recall":
                memory.recall.append(_message(item))
                continue
            # One at a time: a passage's `supersedes` target must already be stored.
            memory.archival.insert_many(
                [
                    {
                        "id": item.id,
                        "content": item.content,
                        "importance": item.importance,
                        "tags": [item.kind, item.claim, item.support_layer, item.workflow, *item.tickets]
                        + (["quarantined"] if item.trust == "quarantined" else []),
                        "provenance": list(item.provenance),
                        "meta": item_meta(item),
                        "created_at": item.date,
                        "supersedes": item.supersedes,
                    }
                ]
            )
    finally:
        memory.close()
    (out / MANIFEST_NAME).write_text(manifest.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return manifest


def read_manifest(store: str | Path) -> FixtureManifest:
    path = Path(store) / MANIFEST_NAME
    if not path.exists():
        raise StoreError(
            f"{store} has no {MANIFEST_NAME}: layer 1 needs a store written by `python -m evals fixture --out DIR`"
        )
    try:
        return FixtureManifest.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except ValidationError as e:
        raise StoreError(
            f"{path} is not a valid fixture manifest: {format_validation_error(e, every=False)} "
            f"({e.error_count()} problem(s))"
        ) from e
    except (ValueError, OSError) as e:
        raise StoreError(f"{path} is not a valid fixture manifest: {e}") from e


def check_store_records(store: str | Path, records: Sequence[Path]) -> None:
    """A given store must already hold these records files (same content): records are added when a
    store is built, never to an existing one."""
    if not records:
        return
    held = {e.sha256 for e in read_manifest(store).extra_records}
    for path in records:
        try:
            digest = file_sha256(path)
        except OSError as e:
            raise RecordsError(f"{path}: cannot be read: {e}") from e
        if digest not in held:
            raise RecordsError(
                f"{path}: the store {store} was not built with this records file (or with another version "
                f"of it); build one with `python -m evals fixture --out DIR --records {path}`, or omit --store"
            )
