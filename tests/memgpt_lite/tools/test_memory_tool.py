"""The Claude memory tool: SDK formats, hostile paths that must touch nothing outside root, redaction, expiry."""

from __future__ import annotations

import json
import os
from pathlib import Path

import anthropic
import httpx2
import pytest
from anthropic.lib.tools import BetaAbstractMemoryTool, ToolError

from memgpt_lite.testing import tool_call
from memgpt_lite.tools.memory_tool import MemoryTool
from memgpt_lite.tools.registry import ToolContext, ToolRegistry


@pytest.fixture
def world(tmp_path: Path):
    """A memory root plus, beside it, files that must never be touched."""
    root = tmp_path / "mem"
    outside = tmp_path / "outside"
    outside.mkdir()
    sentinel = outside / "secrets.env"
    sentinel.write_text("TOP=SECRET\n")
    (tmp_path / "memoriesX").mkdir()
    (tmp_path / "secrets.env").write_text("ROOT=LEVEL\n")
    tool = MemoryTool(root)
    (root / "notes.md").write_text("line one\nline two\n")
    os.symlink(outside, root / "escape_dir")
    os.symlink(sentinel, root / "escape_file.md")
    os.symlink(outside / "not-yet.md", root / "dangling.md")
    return tool, tmp_path


def snapshot(base: Path) -> dict[str, tuple[bytes, int]]:
    """Bytes and mtime of every file outside the memory root, and the names of everything there."""
    out: dict[str, tuple[bytes, int]] = {}
    for p in sorted(base.rglob("*")):
        if (base / "mem") in p.parents or p == base / "mem":
            continue
        out[str(p)] = (p.read_bytes() if p.is_file() else b"<dir>", p.stat().st_mtime_ns)
    return out


HOSTILE = [
    ({"command": "view", "path": "/memories/../secrets.env"}, "would escape /memories"),
    ({"command": "view", "path": "/memories/../../secrets.env"}, "would escape /memories"),
    ({"command": "view", "path": "/memories/..\\secrets.env"}, "backslash"),
    ({"command": "view", "path": "/memories/%2e%2e/secrets.env"}, "percent-encoded"),
    ({"command": "view", "path": "/memories/%2E%2E%2Fsecrets.env"}, "percent-encoded"),
    ({"command": "view", "path": "/memories/%252e%252e/secrets.env"}, "percent-encoded"),
    ({"command": "view", "path": "/memories/./../outside/secrets.env"}, "would escape /memories"),
    ({"command": "view", "path": "/memoriesX"}, "must start with /memories"),
    ({"command": "view", "path": "/memoriesX/../outside/secrets.env"}, "must start with /memories"),
    ({"command": "view", "path": "/etc/passwd"}, "must start with /memories"),
    ({"command": "view", "path": "memories/notes.md"}, "must start with /memories"),
    ({"command": "view", "path": "/memories/notes.md\x00.png"}, "U\\+0000"),
    ({"command": "view", "path": "/memories//notes.md"}, "would escape /memories"),
    ({"command": "view", "path": "/memories/" + "a" * 300}, "too long"),
    ({"command": "view", "path": "/memories/" + "/".join(["d"] * 20)}, "nested too deeply"),
    ({"command": "view", "path": "/memories/escape_dir"}, "symlink"),
    ({"command": "view", "path": "/memories/escape_dir/secrets.env"}, "symlink"),
    ({"command": "view", "path": "/memories/escape_file.md"}, "symlink"),
    ({"command": "view", "path": "/memories/.hidden"}, "Hidden names"),
    ({"command": "view", "path": "/memories/\u202egnp.md"}, "U\\+202E"),
    (
        {"command": "create", "path": "/memories/../outside/new.md", "file_text": "x"},
        "would escape /memories",
    ),
    ({"command": "create", "path": "/memories/escape_dir/new.md", "file_text": "x"}, "symlink"),
    ({"command": "create", "path": "/memories/dangling.md", "file_text": "x"}, "already exists"),
    ({"command": "create", "path": "/memories/escape_file.md", "file_text": "overwrite"}, "already exists"),
    (
        {"command": "create", "path": "/memories/alice@example.com.md", "file_text": "x"},
        "secret or personal data",
    ),
    (
        {"command": "create", "path": "/memories", "file_text": "x"},
        "Cannot create a file at /memories itself",
    ),
    (
        {"command": "str_replace", "path": "/memories/escape_file.md", "old_str": "TOP", "new_str": "PWNED"},
        "symlink",
    ),
    (
        {
            "command": "str_replace",
            "path": "/memories/../outside/secrets.env",
            "old_str": "TOP",
            "new_str": "X",
        },
        "would escape /memories",
    ),
    (
        {"command": "insert", "path": "/memories/escape_file.md", "insert_line": 0, "insert_text": "x"},
        "symlink",
    ),
    (
        {
            "command": "insert",
            "path": "/memories/escape_dir/secrets.env",
            "insert_line": 0,
            "insert_text": "x",
        },
        "symlink",
    ),
    ({"command": "delete", "path": "/memories/escape_dir/secrets.env"}, "symlink"),
    ({"command": "delete", "path": "/memories/.."}, "would escape /memories"),
    ({"command": "delete", "path": "/memories"}, "Cannot delete the /memories directory itself"),
    (
        {
            "command": "rename",
            "old_path": "/memories/notes.md",
            "new_path": "/memories/../outside/secrets.env",
        },
        "would escape /memories",
    ),
    (
        {
            "command": "rename",
            "old_path": "/memories/notes.md",
            "new_path": "/memories/escape_dir/secrets.env",
        },
        "symlink",
    ),
    (
        {"command": "rename", "old_path": "/memories/notes.md", "new_path": "/memories/escape_file.md"},
        "destination /memories/escape_file.md already exists",
    ),
    (
        {"command": "rename", "old_path": "/memories/../outside", "new_path": "/memories/stolen"},
        "would escape /memories",
    ),
    (
        {"command": "rename", "old_path": "/memories", "new_path": "/memories/sub"},
        "Cannot rename the /memories directory itself",
    ),
    ({"command": "view", "path": 42}, "needs `path` \\(str\\)"),
    ({"command": "explode", "path": "/memories"}, "Unknown memory command 'explode'"),
    (
        {"command": "insert", "path": "/memories/notes.md", "insert_line": True, "insert_text": "x"},
        "needs `insert_line` \\(int\\)",
    ),
]


@pytest.mark.parametrize(("cmd", "match"), HOSTILE, ids=[json.dumps(c)[:70] for c, _ in HOSTILE])
def test_hostile_input_is_refused_and_nothing_outside_root_changes(world, cmd, match):
    tool, base = world
    before = snapshot(base)
    notes_before = (tool.root / "notes.md").read_bytes()
    # `match`: refused for the right reason, not merely because something else failed on the way.
    with pytest.raises(ToolError, match=match):
        tool.call(cmd)
    assert snapshot(base) == before
    assert (tool.root / "notes.md").read_bytes() == notes_before


def test_listing_never_shows_what_lies_outside(world):
    tool, _ = world
    out = tool.call({"command": "view", "path": "/memories"})
    assert "notes.md" in out
    assert "escape_dir" not in out and "escape_file" not in out and "secrets.env" not in out


def test_sdk_formats_for_all_six_commands(tmp_path):
    tool = MemoryTool(tmp_path / "m")
    assert isinstance(tool, BetaAbstractMemoryTool)
    assert tool.to_dict() == {"type": "memory_20250818", "name": "memory"}
    assert tool.call(
        {"command": "create", "path": "/memories/p/a.md", "file_text": "alpha\nbeta\ngamma\n"}
    ) == ("File created successfully at: /memories/p/a.md")
    with pytest.raises(ToolError, match="already exists"):
        tool.call({"command": "create", "path": "/memories/p/a.md", "file_text": "again"})
    view = tool.call({"command": "view", "path": "/memories/p/a.md", "view_range": [2, 3]})
    assert view == "Here's the content of /memories/p/a.md with line numbers:\n     2\tbeta\n     3\tgamma"
    listing = tool.call({"command": "view", "path": "/memories"}).splitlines()
    assert (
        listing[0]
        == "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items:"
    )
    assert [line.split("\t")[1] for line in listing[1:]] == ["/memories", "/memories/p/", "/memories/p/a.md"]
    assert listing[3].split("\t")[0] == "17B"
    out = tool.call(
        {"command": "str_replace", "path": "/memories/p/a.md", "old_str": "beta", "new_str": "BETA"}
    )
    assert out.startswith("The memory file has been edited.") and "     2\tBETA" in out
    with pytest.raises(ToolError, match="did not appear verbatim"):
        tool.call({"command": "str_replace", "path": "/memories/p/a.md", "old_str": "zeta", "new_str": "x"})
    tool.call({"command": "insert", "path": "/memories/p/a.md", "insert_line": 1, "insert_text": "a2"})
    assert (tool.root / "p/a.md").read_text() == "alpha\na2\nBETA\ngamma\n"
    with pytest.raises(ToolError, match=r"range \[0, 4\]"):
        tool.call({"command": "insert", "path": "/memories/p/a.md", "insert_line": 9, "insert_text": "x"})
    assert tool.call({"command": "rename", "old_path": "/memories/p", "new_path": "/memories/q"}) == (
        "Successfully renamed /memories/p to /memories/q"
    )
    assert tool.call({"command": "delete", "path": "/memories/q"}) == "Successfully deleted /memories/q"
    with pytest.raises(ToolError, match="does not exist"):
        tool.call({"command": "view", "path": "/memories/q/a.md"})
    assert not list(tool.root.iterdir())


def test_size_limits_per_file_and_in_total(tmp_path):
    tool = MemoryTool(tmp_path / "m", max_file_bytes=100, max_total_bytes=150)
    with pytest.raises(ToolError, match="limit per file is 100"):
        tool.call({"command": "create", "path": "/memories/big.md", "file_text": "x" * 101})
    tool.call({"command": "create", "path": "/memories/a.md", "file_text": "x" * 90})
    with pytest.raises(ToolError, match="Memory is full"):
        tool.call({"command": "create", "path": "/memories/b.md", "file_text": "y" * 61})
    with pytest.raises(ToolError, match="limit per file"):
        tool.call(
            {"command": "str_replace", "path": "/memories/a.md", "old_str": "x" * 90, "new_str": "z" * 120}
        )
    assert (tool.root / "a.md").read_text() == "x" * 90
    assert not (tool.root / "b.md").exists() and not (tool.root / "big.md").exists()


SECRETS = [
    "sk-ant-api03-" + "Q" * 40,
    "AKIAABCDEFGHIJKLMNOP",
    "Bearer abcdefghijklmnop1234",
    "hunter2hunter2",
    "carol@example.org",
]


def test_no_secret_ever_reaches_the_disk(tmp_path):
    tool = MemoryTool(tmp_path / "m")
    note = f"key {SECRETS[0]}\naws {SECRETS[1]}\nAuthorization: {SECRETS[2]}\npassword={SECRETS[3]}\n"
    out = tool.call({"command": "create", "path": "/memories/handover.md", "file_text": note})
    assert "redactions" in out
    tool.call(
        {"command": "insert", "path": "/memories/handover.md", "insert_line": 0, "insert_text": SECRETS[4]}
    )
    # A secret assembled from two harmless-looking halves by an edit is caught too.
    tool.call({"command": "create", "path": "/memories/split.md", "file_text": "half: sk-ant-\n"})
    tool.call(
        {
            "command": "str_replace",
            "path": "/memories/split.md",
            "old_str": "sk-ant-",
            "new_str": "sk-ant-" + "Z" * 30,
        }
    )
    tool.call({"command": "rename", "old_path": "/memories/split.md", "new_path": "/memories/moved.md"})
    disk = b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
    for secret in [*SECRETS, "sk-ant-" + "Z" * 30, "abcdefghijklmnop1234"]:
        assert secret.encode() not in disk, secret
    assert b"[REDACTED:anthropic_key]" in disk and b"[REDACTED:email]" in disk


def test_expiry_lists_and_clears_files_not_accessed(tmp_path):
    now = [1_000_000.0]
    tool = MemoryTool(tmp_path / "m", expire_after=3600, clock=lambda: now[0])
    for name in ("old.md", "read.md", "new.md"):
        tool.call({"command": "create", "path": f"/memories/{name}", "file_text": name})
    for name in ("old.md", "read.md"):
        os.utime(tool.root / name, (now[0] - 7200, now[0] - 7200))
    tool.call({"command": "view", "path": "/memories/read.md"})  # reading counts as access
    assert tool.expired() == ["/memories/old.md"]
    now[0] += 3000
    assert tool.expired(older_than=1000) == ["/memories/new.md", "/memories/old.md", "/memories/read.md"]
    assert tool.clear_expired() == ["/memories/old.md"]
    assert sorted(p.name for p in tool.root.iterdir()) == ["new.md", "read.md"]


def test_atomic_write_leaves_old_content_when_the_write_fails(tmp_path, monkeypatch):
    tool = MemoryTool(tmp_path / "m")
    tool.call({"command": "create", "path": "/memories/a.md", "file_text": "stable\n"})

    def boom(src, dst, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        tool.call(
            {"command": "str_replace", "path": "/memories/a.md", "old_str": "stable", "new_str": "changed"}
        )
    monkeypatch.undo()
    assert (tool.root / "a.md").read_text() == "stable\n"
    assert [p.name for p in tool.root.iterdir()] == ["a.md"]


def test_usable_as_a_registry_tool(tmp_path):
    tool = MemoryTool(tmp_path / "m")
    reg = ToolRegistry([tool.as_tool()])
    assert reg.definitions() == [{"type": "memory_20250818", "name": "memory"}] and reg.spec() == []
    ok = reg.call(tool_call("memory", command="create", path="/memories/x.md", file_text="hi"), ToolContext())
    assert not ok.is_error
    bad = reg.call(tool_call("memory", command="view", path="/memories/../etc"), ToolContext())
    assert bad.is_error and "escape" in bad.content


def test_works_with_the_sdk_tool_runner_offline(tmp_path):
    tool = MemoryTool(tmp_path / "m")
    replies = [
        {
            "content": [
                {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "memory",
                    "input": {"command": "create", "path": "/memories/pref.md", "file_text": "likes coffee"},
                }
            ],
            "stop_reason": "tool_use",
        },
        {
            "content": [
                {
                    "type": "tool_use",
                    "id": "toolu_2",
                    "name": "memory",
                    "input": {"command": "view", "path": "/memories/../../etc/passwd"},
                }
            ],
            "stop_reason": "tool_use",
        },
        {"content": [{"type": "text", "text": "Noted."}], "stop_reason": "end_turn"},
    ]
    bodies = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        bodies.append(json.loads(request.content))
        r = replies.pop(0)
        return httpx2.Response(
            200,
            json={
                "id": "msg",
                "type": "message",
                "role": "assistant",
                "model": "m",
                "stop_sequence": None,
                "usage": {"input_tokens": 1, "output_tokens": 1},
                **r,
            },
        )

    client = anthropic.Anthropic(
        api_key="test",
        base_url="http://mock",
        http_client=httpx2.Client(transport=httpx2.MockTransport(handler)),
    )
    runner = client.beta.messages.tool_runner(
        model="claude-test",
        max_tokens=256,
        tools=[tool],
        thread=False,
        messages=[{"role": "user", "content": "Remember that I like coffee"}],
    )
    final = list(runner)[-1]
    assert final.content[0].text == "Noted."
    assert (tool.root / "pref.md").read_text() == "likes coffee"
    assert bodies[0]["tools"] == [{"type": "memory_20250818", "name": "memory"}]
    results = [
        b
        for m in bodies[2]["messages"]
        if m["role"] == "user"
        for b in m["content"]
        if isinstance(b, dict) and b.get("type") == "tool_result"
    ]
    assert results[0]["tool_use_id"] == "toolu_1" and not results[0].get("is_error")
    assert results[1]["tool_use_id"] == "toolu_2" and results[1]["is_error"] is True


@pytest.mark.parametrize("command", [{"view": "/memories"}, ["view"], 7, None])
def test_a_command_that_is_not_a_string_is_a_tool_error_the_model_sees(tmp_path, command):
    tool = MemoryTool(tmp_path / "mem")
    with pytest.raises(ToolError, match="Unknown memory command") as err:
        tool.call({"command": command, "path": "/memories"})
    assert "view" in str(err.value) and len(str(err.value)) < 200


def test_concurrent_writes_respect_the_total_size_limit(tmp_path):
    # The size check and the write are one locked unit: eight writers racing through a slow disk do
    # not all pass the check before any of them writes.
    import threading
    import time

    tool = MemoryTool(tmp_path / "mem", max_file_bytes=1000, max_total_bytes=2000)
    write = tool._tree.write

    def slow_write(*args, **kwargs):
        time.sleep(0.05)
        return write(*args, **kwargs)

    tool._tree.write = slow_write
    outcomes: list[str] = []

    def create(i: int) -> None:
        try:
            tool.call({"command": "create", "path": f"/memories/f{i}.txt", "file_text": "x" * 600})
            outcomes.append("ok")
        except ToolError as err:
            outcomes.append(str(err))

    threads = [threading.Thread(target=create, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    total = sum(p.stat().st_size for p in (tmp_path / "mem").rglob("*") if p.is_file())
    assert total <= 2000 and outcomes.count("ok") == 3
    assert all(o == "ok" or "Memory is full" in o for o in outcomes)
