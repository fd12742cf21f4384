"""A server that drips its page a byte at a time must not hold a fetch past `--timeout`: the socket
timeout bounds each read, not the whole response."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.transport import FETCH_SLACK_S, fetch_page
from tests.support.loopback import raw_serving


@pytest.fixture
def drip_server() -> Iterator[str]:
    def handle(conn: socket.socket, stopping: threading.Event) -> None:
        conn.recv(65536)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body>")
        for _ in range(100):  # ~10 s, then the page ends: a regression fails instead of hanging
            if stopping.is_set():
                return
            conn.sendall(b"x")
            time.sleep(0.1)

    with raw_serving(handle) as url:
        yield url + "/"


def test_dripping_page_times_out_within_the_timeout(drip_server):
    started = time.monotonic()
    with pytest.raises(TimeoutError, match="longer than 1s"):
        fetch_page(drip_server, timeout=1.0)
    assert time.monotonic() - started < 3.0


def test_explorer_records_a_dripping_page_as_a_timeout(drip_server):
    result = HttpEngine(drip_server, timeout=1.0, respect_robots=False).fetch("/")
    assert result.outcome == "timeout"


def test_a_dripping_robots_txt_does_not_hold_the_session(drip_server):
    started = time.monotonic()
    result = HttpEngine(drip_server, timeout=1.0).fetch("/")  # robots.txt first, then the page
    # RFC 9309: an unreachable robots.txt disallows everything; the page is not requested at all.
    assert (
        result.outcome == "timeout" and result.detail == "not fetched: robots.txt unreachable (TimeoutError)"
    )
    assert time.monotonic() - started < 1.0 + FETCH_SLACK_S
