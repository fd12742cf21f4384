"""Read-only commands never write: `memgpt-lite inspect`, `bughunt memory` and `bughunt report` leave every
byte of the store as it was (hashes of every file before and after), and a damaged, empty or foreign
file is one clear error naming it. Writers never create a store over existing bytes nor empty the
passage index when Chroma cannot be read."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from bughunt import cli as bughunt_cli
from memgpt_lite import AgentMemory
from memgpt_lite.cli import main as memgpt_main
from memgpt_lite.errors import StoreError
from memgpt_lite.messages import Message
from memgpt_lite.storage.archival import ArchivalStore
from memgpt_lite.storage.embeddings import HashingEmbedder


def tree_hashes(root: Path) -> dict[str, str]:
    """sha256 of every file under `root` (and `<dir>` for every folder): any write or new file shows."""
    out = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        out[rel] = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "<dir>"
    return out


def make_agent_store(path: Path) -> Path:
    with AgentMemory.open(path, context_window=4000, embedder=HashingEmbedder()) as memory:
        for i in range(3):
            memory.append(Message.user(f"remember the blue door number {i}"))
        for i in range(4):
            memory.archival.insert(f"passage {i} about doors", tags=["doors"], provenance=["test"])
    return path


@pytest.fixture(scope="module")
def agent_template(tmp_path_factory) -> Path:
    return make_agent_store(tmp_path_factory.mktemp("agent") / "store")


@pytest.fixture
def agent_store(agent_template, tmp_path) -> Path:
    dst = tmp_path / "store"
    shutil.copytree(agent_template, dst)
    return dst


@pytest.fixture(scope="module")
def hunt_template(tmp_path_factory) -> Path:
    store = tmp_path_factory.mktemp("hunt") / "store"
    assert bughunt_cli.main(["explore", "--builtin-site", "--store", str(store), "--budget", "4"]) == 0
    return store


@pytest.fixture
def hunt_store(hunt_template, tmp_path) -> Path:
    dst = tmp_path / "hunt"
    shutil.copytree(hunt_template, dst)
    return dst


def garble(path: Path) -> None:
    data = bytearray(path.read_bytes())
    for i in range(4096, len(data), 7):  # the header page stays: SQLite opens the file, then trips
        data[i] = (data[i] * 31 + 7) % 256
    path.write_bytes(bytes(data))


def foreign(path: Path) -> None:
    path.unlink()
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    db.execute("INSERT INTO invoices VALUES (1, 99.5)")
    db.commit()
    db.close()


DAMAGE = {
    "empty": lambda p: p.write_bytes(b""),
    "not sqlite": lambda p: p.write_bytes(b"%PDF-1.4 somebody's document\n" * 200),
    "foreign sqlite": foreign,
    "garbled middle": garble,
}


def test_inspect_writes_nothing_and_counts_archival_without_chroma(agent_store, capsys):
    before = tree_hashes(agent_store)
    assert memgpt_main(["inspect", "--store", str(agent_store), "--json"]) == 0
    import json

    report = json.loads(capsys.readouterr().out)
    assert report["recall_messages"] == 3 and report["archival_passages"] == 4
    assert tree_hashes(agent_store) == before


def test_inspect_beside_a_killed_writers_wal_writes_nothing(tmp_path, capsys):
    # Copy a store while its writer holds it open: what a kill -9 leaves (a non-empty -wal and -shm).
    live = tmp_path / "live"
    memory = AgentMemory.open(live, context_window=4000, embedder=HashingEmbedder())
    try:
        memory.append(Message.user("written while open"))
        memory.save()
        left = tmp_path / "left"
        shutil.copytree(live, left, ignore=shutil.ignore_patterns("*.lock"))
    finally:
        memory.close()
    assert Path(f"{left / 'recall.sqlite'}-wal").stat().st_size > 0
    before = tree_hashes(left)
    assert memgpt_main(["inspect", "--store", str(left), "--json"]) == 0
    assert '"recall_messages": 1' in capsys.readouterr().out
    assert tree_hashes(left) == before


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
@pytest.mark.parametrize("name", ["archival/chroma.sqlite3", "recall.sqlite"])
def test_inspect_on_a_damaged_file_is_one_error_naming_it_and_writes_nothing(
    agent_store, capsys, damage, name
):
    target = agent_store / name
    DAMAGE[damage](target)
    before = tree_hashes(agent_store)
    capsys.readouterr()
    assert memgpt_main(["inspect", "--store", str(agent_store), "--json"]) == 2
    err = capsys.readouterr().err
    assert str(target) in err and "Traceback" not in err and "Panic" not in err
    assert err.strip().count("\n") == 0, err
    assert tree_hashes(agent_store) == before


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_a_writer_never_opens_chroma_over_a_damaged_file_nor_empties_the_index(agent_store, damage):
    chroma = agent_store / "archival" / "chroma.sqlite3"
    DAMAGE[damage](chroma)
    before = tree_hashes(agent_store / "archival")
    with pytest.raises(StoreError, match=rf"Chroma database {chroma}"):
        ArchivalStore(agent_store / "archival", embedder=HashingEmbedder())
    assert tree_hashes(agent_store / "archival") == before


def test_an_index_is_not_emptied_when_chroma_lost_its_passages(agent_store):
    archival = agent_store / "archival"
    index = archival / "archival.index.sqlite"
    held = sqlite3.connect(index).execute("SELECT count(*) FROM passages").fetchone()[0]
    assert held == 4
    # A fresh, empty Chroma database (valid, so it opens) beside an index that still has every text.
    for p in archival.iterdir():
        if p != index:
            shutil.rmtree(p) if p.is_dir() else p.unlink()
    ArchivalStore(archival.parent / "fresh", embedder=HashingEmbedder()).close()
    shutil.copy(archival.parent / "fresh" / "chroma.sqlite3", archival / "chroma.sqlite3")
    with pytest.raises(StoreError, match=r"refusing to empty it"):
        ArchivalStore(archival, embedder=HashingEmbedder())
    assert sqlite3.connect(index).execute("SELECT count(*) FROM passages").fetchone()[0] == 4


def test_missing_state_beside_a_recall_history_is_a_clear_error(agent_store, capsys):
    (agent_store / "state.json").unlink()
    before = tree_hashes(agent_store)
    with pytest.raises(StoreError, match=r"state\.json is missing but .*recall\.sqlite holds 3 messages"):
        AgentMemory.open(agent_store, context_window=4000)
    assert memgpt_main(["inspect", "--store", str(agent_store)]) == 2
    assert "state.json is missing" in capsys.readouterr().err
    assert tree_hashes(agent_store) == before


def test_bughunt_memory_and_report_write_nothing_in_the_store(hunt_store, tmp_path, capsys):
    before = tree_hashes(hunt_store)
    assert bughunt_cli.main(["memory", "--store", str(hunt_store), "--json"]) == 0
    assert bughunt_cli.main(["memory", "--store", str(hunt_store)]) == 0
    assert bughunt_cli.main(["report", "--store", str(hunt_store), "--out", str(tmp_path / "r.html")]) == 0
    assert (tmp_path / "r.html").stat().st_size > 1000
    assert tree_hashes(hunt_store) == before


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_bughunt_readers_on_a_damaged_store_are_one_error_and_write_nothing(
    hunt_store, tmp_path, capsys, damage
):
    db = hunt_store / "bughunt.sqlite"
    for extra in ("-wal", "-shm"):
        Path(f"{db}{extra}").unlink(missing_ok=True)
    DAMAGE[damage](db)
    before = tree_hashes(hunt_store)
    capsys.readouterr()
    for argv in (
        ["memory", "--store", str(hunt_store)],
        ["memory", "--store", str(hunt_store), "--json"],
        ["report", "--store", str(hunt_store), "--out", str(tmp_path / "r.html")],
    ):
        assert bughunt_cli.main(argv) == 2, argv
        err = capsys.readouterr().err
        assert str(db) in err and "not a readable BugHunt store" in err and "Traceback" not in err, err
        assert err.strip().count("\n") == 0, err
    assert tree_hashes(hunt_store) == before
    assert not (tmp_path / "r.html").exists()


def test_report_out_replaces_only_its_own_reports(hunt_store, tmp_path, capsys):
    out = tmp_path / "report.html"
    out.write_text("<html>my own notes, years of work</html>")
    capsys.readouterr()
    assert bughunt_cli.main(["report", "--store", str(hunt_store), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"refusing to overwrite {out}" in err and err.strip().count("\n") == 0
    assert out.read_text() == "<html>my own notes, years of work</html>"
    fresh = tmp_path / "fresh.html"
    assert bughunt_cli.main(["report", "--store", str(hunt_store), "--out", str(fresh)]) == 0
    first = fresh.read_bytes()
    assert b'<meta name="generator" content="bughunt report">' in first[:4096]
    assert bughunt_cli.main(["report", "--store", str(hunt_store), "--out", str(fresh)]) == 0  # its own
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "hunt") == ["fresh.html", "report.html"]


@pytest.mark.parametrize("kind", ["folder", "symlink"])
def test_report_out_onto_a_folder_or_link_is_refused_and_leaves_no_tmp(hunt_store, tmp_path, capsys, kind):
    target = tmp_path / "target"
    if kind == "folder":
        target.mkdir()
        (target / "inside.txt").write_text("x")
    else:
        (tmp_path / "real.html").write_text("<html>not a report</html>")
        target.symlink_to(tmp_path / "real.html")
    before = sorted(str(p) for p in tmp_path.rglob("*") if hunt_store not in p.parents)
    assert bughunt_cli.main(["report", "--store", str(hunt_store), "--out", str(target)]) == 2
    assert "is not a regular file" in capsys.readouterr().err
    assert sorted(str(p) for p in tmp_path.rglob("*") if hunt_store not in p.parents) == before
    assert not list(tmp_path.rglob("*.tmp"))


def test_bughunt_memory_reads_the_llm_agents_archival_without_writing(hunt_store, capsys):
    import json

    from bughunt.explorer.llm_policy import AGENT_DIR

    agent = hunt_store / AGENT_DIR
    with AgentMemory.open(agent, context_window=4000, embedder=HashingEmbedder()) as memory:
        ids = [memory.archival.insert(f"agent note {i}", provenance=["step 3"]).id for i in range(2)]
        memory.extra["archival_ids"] = {"all": ids}
    before = tree_hashes(hunt_store)
    capsys.readouterr()
    assert bughunt_cli.main(["memory", "--store", str(hunt_store), "--json"]) == 0
    archival = json.loads(capsys.readouterr().out)["archival"]
    agent_items = [a for a in archival if not a["quarantined"] and a["text"].startswith("agent note")]
    assert [a["text"] for a in agent_items] == ["agent note 0", "agent note 1"]
    assert agent_items[0]["provenance"] == {"source": ["step 3"], "status": "current"}
    assert tree_hashes(hunt_store) == before
