"""The memory tool against a racing local process and odd files: descriptor-based walking, links acted on
as links, only plain files read, a file-count limit, names that cannot spoof a listing."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path, PurePosixPath

import pytest
from anthropic.lib.tools import ToolError

from memgpt_lite.tools.memory_paths import within
from memgpt_lite.tools.memory_tool import MemoryTool
from memgpt_lite.tools.redaction import redact


def outside_state(base: Path, root: Path) -> dict[str, tuple[bytes, int]]:
    """Bytes and mtime of every entry outside the memory root (links by their target text)."""
    out: dict[str, tuple[bytes, int]] = {}
    for dirpath, dirs, files in os.walk(base):
        # the root's own contents (thousands of files after a race) are not outside: not walked at all
        dirs[:] = [d for d in dirs if Path(dirpath) / d != root]
        for name in dirs + files:
            p = Path(dirpath) / name
            if p == root or root in p.parents:
                continue
            st = os.lstat(p)
            if p.is_symlink():
                data = b"->" + os.readlink(p).encode()
            elif p.is_file():
                data = p.read_bytes()
            else:
                data = b"<dir>"
            out[str(p)] = (data, st.st_mtime_ns)
    return out


@pytest.fixture
def setup(tmp_path: Path):
    root = tmp_path / "mem"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secrets.env").write_text("TOP=SECRET\n")
    (outside / "keep").mkdir()
    (outside / "keep" / "deep.txt").write_text("deep\n")
    tool = MemoryTool(root)
    return tool, tmp_path, outside


def test_within_compares_parts_not_string_prefixes():
    assert within(PurePosixPath("/t/mem/a"), PurePosixPath("/t/mem"))
    assert within(PurePosixPath("/t/mem"), PurePosixPath("/t/mem"))
    assert not within(PurePosixPath("/t/memX"), PurePosixPath("/t/mem"))
    assert not within(PurePosixPath("/t/memX/a"), PurePosixPath("/t/mem"))
    assert not within(PurePosixPath("/t"), PurePosixPath("/t/mem"))


def test_rename_to_a_sibling_whose_name_extends_the_old_one(setup):
    tool, _, _ = setup
    tool.call({"command": "create", "path": "/memories/mem/a.md", "file_text": "a"})
    assert tool.call({"command": "rename", "old_path": "/memories/mem", "new_path": "/memories/memX"}) == (
        "Successfully renamed /memories/mem to /memories/memX"
    )
    assert (tool.root / "memX" / "a.md").read_text() == "a"
    with pytest.raises(ToolError, match="into itself"):
        tool.call({"command": "rename", "old_path": "/memories/memX", "new_path": "/memories/memX/sub"})


def test_symlink_to_a_sibling_named_like_the_root_is_never_followed(setup):
    tool, base, _ = setup
    sibling = base / "memX"
    sibling.mkdir()
    (sibling / "f.md").write_text("sibling\n")
    os.symlink(sibling, tool.root / "link")
    os.symlink(sibling / "f.md", tool.root / "f.md")
    before = outside_state(base, tool.root)
    with pytest.raises(ToolError, match="symlink"):
        tool.call({"command": "view", "path": "/memories/link/f.md"})
    with pytest.raises(ToolError, match="symlink"):
        tool.call({"command": "view", "path": "/memories/f.md"})
    with pytest.raises(ToolError, match="symlink"):
        tool.call({"command": "create", "path": "/memories/link/new.md", "file_text": "x"})
    with pytest.raises(ToolError, match="symlink"):
        tool.call({"command": "str_replace", "path": "/memories/f.md", "old_str": "sibling", "new_str": "x"})
    assert outside_state(base, tool.root) == before


def test_delete_and_rename_of_a_link_act_on_the_link(setup):
    tool, base, outside = setup
    os.symlink(outside, tool.root / "escape_dir")
    os.symlink(outside / "secrets.env", tool.root / "escape_file.md")
    before = outside_state(base, tool.root)
    assert (
        tool.call({"command": "delete", "path": "/memories/escape_dir"})
        == "Successfully deleted /memories/escape_dir"
    )
    assert tool.call(
        {"command": "rename", "old_path": "/memories/escape_file.md", "new_path": "/memories/l.md"}
    )
    assert not os.path.lexists(tool.root / "escape_dir")
    assert os.readlink(tool.root / "l.md") == str(outside / "secrets.env")
    assert tool.call({"command": "delete", "path": "/memories/l.md"}) == "Successfully deleted /memories/l.md"
    assert outside_state(base, tool.root) == before
    assert (outside / "secrets.env").read_text() == "TOP=SECRET\n" and (
        outside / "keep" / "deep.txt"
    ).exists()


def test_a_fifo_is_refused_without_blocking_and_not_listed(setup):
    tool, _, _ = setup
    os.mkfifo(tool.root / "pipe.md")
    result: list[BaseException | str] = []

    def view() -> None:
        try:
            result.append(tool.call({"command": "view", "path": "/memories/pipe.md"}))
        except BaseException as err:  # noqa: BLE001 - handed to the main thread
            result.append(err)

    t = threading.Thread(target=view, daemon=True)
    t.start()
    t.join(5)
    assert not t.is_alive(), "view of a FIFO blocked"
    assert isinstance(result[0], ToolError) and "not a regular file" in str(result[0])
    with pytest.raises(ToolError, match="not a regular file"):
        tool.call({"command": "str_replace", "path": "/memories/pipe.md", "old_str": "a", "new_str": "b"})
    assert "pipe.md" not in tool.call({"command": "view", "path": "/memories"})


def test_a_hard_link_to_an_outside_file_is_neither_shown_nor_changed(setup):
    tool, base, outside = setup
    os.link(outside / "secrets.env", tool.root / "hl.md")
    before = outside_state(base, tool.root)
    with pytest.raises(ToolError, match="other hard links"):
        tool.call({"command": "view", "path": "/memories/hl.md"})
    with pytest.raises(ToolError, match="other hard links"):
        tool.call({"command": "insert", "path": "/memories/hl.md", "insert_line": 0, "insert_text": "x"})
    assert "hl.md" not in tool.call({"command": "view", "path": "/memories"})
    assert outside_state(base, tool.root) == before


def test_file_count_limit_counts_files_and_new_folders(tmp_path):
    tool = MemoryTool(tmp_path / "m", max_files=4)
    for i in range(3):
        tool.call({"command": "create", "path": f"/memories/f{i}.md", "file_text": "x"})
    with pytest.raises(ToolError, match=r"files and folders; the limit is 4"):
        tool.call({"command": "create", "path": "/memories/sub/f.md", "file_text": "x"})  # folder + file = 5
    tool.call({"command": "create", "path": "/memories/f3.md", "file_text": "x"})
    with pytest.raises(ToolError, match=r"the limit is 4"):
        tool.call({"command": "create", "path": "/memories/f4.md", "file_text": "x"})
    # Edits of existing files are not new entries.
    tool.call({"command": "str_replace", "path": "/memories/f0.md", "old_str": "x", "new_str": "y"})
    assert sorted(p.name for p in tool.root.iterdir()) == ["f0.md", "f1.md", "f2.md", "f3.md"]


def test_many_files_made_by_a_local_process_stop_writes_quickly(tmp_path):
    tool = MemoryTool(tmp_path / "m", max_files=100)
    for i in range(2000):
        (tool.root / f"e{i}.md").touch()
    t0 = time.perf_counter()
    with pytest.raises(ToolError, match=r"more than 100 files and folders"):
        tool.call({"command": "create", "path": "/memories/new.md", "file_text": "x"})
    assert time.perf_counter() - t0 < 1.0


@pytest.mark.parametrize(
    "char",
    [
        "\u2028",
        "\u2029",
        "\u3164",
        "\u115f",
        "\u1160",
        "\uffa0",
        "\u200b",
        "\u2060",
        "\u00a0",
        "\u3000",
        "\ufe0f",
    ],
)
def test_names_with_separators_or_invisible_characters_are_refused(tmp_path, char):
    tool = MemoryTool(tmp_path / "m")
    with pytest.raises(ToolError, match=rf"U\+{ord(char):04X}.*not allowed in names"):
        tool.call({"command": "create", "path": f"/memories/a{char}b.md", "file_text": "x"})
    assert not list(tool.root.iterdir())


def test_a_listing_leaves_out_names_that_could_spoof_it(tmp_path):
    tool = MemoryTool(tmp_path / "m")
    tool.call({"command": "create", "path": "/memories/real.md", "file_text": "x"})
    (tool.root / "x.md\u20284K\tfake.md").write_text("spoof")
    (tool.root / "\u3164.md").write_text("filler")
    lines = tool.call({"command": "view", "path": "/memories"}).splitlines()
    assert [line.split("\t")[1] for line in lines[1:]] == ["/memories", "/memories/real.md"]


def test_size_is_checked_before_redaction_runs(tmp_path):
    seen: list[int] = []

    def recording(text: str):
        seen.append(len(text))
        return redact(text)

    tool = MemoryTool(tmp_path / "m", max_file_bytes=1000, redactor=recording)
    with pytest.raises(ToolError, match="limit per file is 1000"):
        tool.call({"command": "create", "path": "/memories/big.md", "file_text": "a." * 100_000})
    assert max(seen) < 1000  # only the path was redacted, never the 200 kB text
    assert not list(tool.root.iterdir())


def test_redaction_placeholders_cannot_push_a_file_past_the_limit(tmp_path):
    tool = MemoryTool(tmp_path / "m", max_file_bytes=40)
    with pytest.raises(ToolError, match="limit per file is 40"):
        tool.call(
            {"command": "create", "path": "/memories/e.md", "file_text": "a@b.co " * 5}
        )  # 35 -> 85 bytes


def test_a_root_replaced_by_another_folder_is_refused(tmp_path):
    tool = MemoryTool(tmp_path / "m")
    os.rename(tool.root, tmp_path / "old")
    (tmp_path / "m").mkdir()
    with pytest.raises(ToolError, match="was replaced"):
        tool.call({"command": "create", "path": "/memories/a.md", "file_text": "x"})
    assert not list((tmp_path / "m").iterdir())


def _race(tmp_path: Path, seconds: float) -> tuple[int, int]:
    """A thread swaps /memories/d between a real folder and a symlink to a folder outside while the tool
    creates, edits, renames and deletes under it. Returns (tool operations, swaps)."""
    root = tmp_path / "mem"
    outside = tmp_path / "outside"
    (outside / "sub").mkdir(parents=True)
    (outside / "secret.md").write_text("outside\n")
    (outside / "sub" / "keep.md").write_text("keep\n")
    tool = MemoryTool(root)
    before = outside_state(tmp_path, tool.root)
    d = tool.root / "d"
    stop = threading.Event()
    swaps = [0]

    def racer() -> None:
        while not stop.is_set():
            try:
                if d.is_symlink():
                    d.unlink()
                    d.mkdir()
                    (d / "sub").mkdir()
                else:
                    tmp = tool.root / f".gone{swaps[0]}"
                    os.rename(d, tmp)
                    os.symlink(outside, d)
                swaps[0] += 1
            except OSError:
                pass

    # Switch threads every microsecond, not every 5 ms: otherwise the GIL lets the tool finish most
    # operations before the racer runs, and the race (which the old path-based tool lost within seconds,
    # writing temporary files into the outside folder) would hardly ever be tried.
    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    d.mkdir()
    t = threading.Thread(target=racer, daemon=True)
    t.start()
    ops = 0
    deadline = time.monotonic() + seconds
    i = 0
    try:
        while time.monotonic() < deadline:
            i += 1
            for cmd in (
                {"command": "create", "path": f"/memories/d/f{i}.md", "file_text": "x\n"},
                {"command": "create", "path": f"/memories/d/sub/g{i}.md", "file_text": "x\n"},
                {"command": "view", "path": "/memories/d/secret.md"},
                {
                    "command": "str_replace",
                    "path": "/memories/d/secret.md",
                    "old_str": "outside",
                    "new_str": "W",
                },
                {"command": "insert", "path": "/memories/d/secret.md", "insert_line": 0, "insert_text": "W"},
                {"command": "rename", "old_path": "/memories/d/secret.md", "new_path": "/memories/stolen.md"},
                {"command": "rename", "old_path": f"/memories/d/f{i}.md", "new_path": "/memories/d/sub/h.md"},
                {"command": "delete", "path": f"/memories/d/f{i}.md"},
                {"command": "delete", "path": "/memories/d/sub/keep.md"},
                {"command": "delete", "path": "/memories/d/sub"},
                {"command": "view", "path": "/memories/d"},
            ):
                try:
                    tool.call(cmd)
                except ToolError:
                    pass
                ops += 1
            # Start each round with a real folder sometimes, so the tool's writes do land.
            if i % 50 == 0:
                try:
                    tool.clear_all_memory()
                except ToolError:
                    pass  # the racer refilled a folder while it was being emptied: a tool error, not a leak
                try:
                    d.mkdir()
                except OSError:
                    pass
    finally:
        stop.set()
        t.join()
        sys.setswitchinterval(old_interval)
    assert outside_state(tmp_path, tool.root) == {
        k: v for k, v in outside_state(tmp_path, tool.root).items() if k in before
    }, "an entry was created outside the root"
    assert outside_state(tmp_path, tool.root) == before, "an entry outside the root was changed or deleted"
    return ops, swaps[0]


def test_racing_symlink_swap_touches_nothing_outside_short(tmp_path):
    ops, swaps = _race(tmp_path, 3.0)
    assert ops > 20 and swaps > 20  # the race really ran (few rounds on a loaded machine)


# The soak's length: 5 s by default (hundreds of tool operations against thousands of swaps even on
# a loaded machine), longer on demand:
# MEMORY_TOOL_RACE_SECONDS=300 python -m pytest tests/memgpt_lite/tools/test_memory_tool_fs.py -k soak
# Why 5 s is enough for the suite: the path-based tool this race was written against (d9596fa) lost it in
# 12 of 20 one-second races, 15/20 half-second ones and 10 of 10 three-second ones (2-core machine, load
# ~1.9), so the short test alone catches that regression; the soak's 5 s more take the chance of missing it
# to under 1e-3 and try rarer interleavings, and a longer soak is one variable away. (It was 30 s, then 10.)
SOAK_SECONDS = float(os.environ.get("MEMORY_TOOL_RACE_SECONDS", "5"))


@pytest.mark.slow
def test_racing_symlink_swap_touches_nothing_outside_in_a_soak(tmp_path):
    ops, swaps = _race(tmp_path, SOAK_SECONDS)
    # ~110 operations a second on a loaded 2-core machine, several hundred when it is quiet
    assert ops > 30 * SOAK_SECONDS and swaps > 30 * SOAK_SECONDS


def test_create_works_on_a_file_system_without_hard_links(tmp_path, monkeypatch):
    import errno

    def no_links(*args, **kwargs):
        raise OSError(errno.EPERM, "Operation not permitted")

    tool = MemoryTool(tmp_path / "m")
    monkeypatch.setattr(os, "link", no_links)
    assert tool.call({"command": "create", "path": "/memories/a.md", "file_text": "x"}).startswith(
        "File created"
    )
    with pytest.raises(ToolError, match="already exists"):
        tool.call({"command": "create", "path": "/memories/a.md", "file_text": "y"})
    assert (tool.root / "a.md").read_text() == "x" and [p.name for p in tool.root.iterdir()] == ["a.md"]
