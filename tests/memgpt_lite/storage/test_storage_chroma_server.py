"""Archival storage through a real Chroma server (`chroma run`) on loopback."""

import os
import shutil
import socket
import subprocess
import time
import urllib.request
from datetime import UTC, datetime, timedelta

import pytest

from memgpt_lite.errors import StoreError
from memgpt_lite.storage.archival import ArchivalStore
from memgpt_lite.storage.embeddings import HashingEmbedder

CHROMA = shutil.which("chroma")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(CHROMA is None, reason="chroma CLI not installed")]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def chroma_url(tmp_path_factory):
    port = _free_port()
    data = tmp_path_factory.mktemp("chroma-server")
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False"}
    proc = subprocess.Popen(
        [CHROMA, "run", "--path", str(data), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/v2/heartbeat", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None:
                pytest.fail(f"chroma server exited: {proc.stderr.read().decode(errors='replace')[-2000:]}")
            if time.monotonic() > deadline:
                pytest.fail("chroma server did not start within 60 s")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_insert_and_search_through_server(chroma_url):
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    with ArchivalStore(url=chroma_url, embedder=HashingEmbedder(), collection="server-test") as a:
        first = a.insert(
            "the profile page shows a blank avatar", tags=["bug"], provenance=["msg-1"], created_at=t0
        )
        a.insert_many(
            [{"content": f"routine note {i}", "importance": 2, "created_at": t0} for i in range(12)]
        )
        fixed = a.insert("the profile avatar bug is fixed", supersedes=first.id, tags=["bug"])
        page = a.search("profile avatar", page_size=5, now=t0 + timedelta(days=1))
        assert page.total == 14 and page.pages == 3 and len(page.items) == 5
        assert {h.passage.id for h in page.items[:2]} == {first.id, fixed.id}
        assert a.search("avatar", tags=["bug"], include_superseded=False).total == 1
        assert a.get(first.id).superseded_by == fixed.id
    # a second client sees the same data: the server, not the process, holds it
    with ArchivalStore(url=chroma_url, embedder=HashingEmbedder(), collection="server-test") as b:
        assert b.count() == 14 and b.get(fixed.id).provenance == []
        assert b.get(first.id).provenance == ["msg-1"]


def test_unreachable_server_is_store_error():
    with pytest.raises(StoreError):
        ArchivalStore(url=f"http://127.0.0.1:{_free_port()}", embedder=HashingEmbedder())
