"""Block real network access in tests, so a suite can never reach a real model by accident.

With pytest, the simplest is pytest-socket in `pyproject.toml`::

    [tool.pytest.ini_options]
    addopts = "--disable-socket --allow-unix-socket --allow-hosts=127.0.0.1,localhost,::1"

Without it, wrap code in `with block_network(): ...`.
"""

from __future__ import annotations

import socket
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

LOOPBACK: tuple[str, ...] = ("127.0.0.1", "::1", "localhost")


class NetworkBlockedError(RuntimeError):
    """A test tried to open a connection to a host outside the allow-list."""


def _host_of(address: Any) -> str | None:
    if isinstance(address, tuple) and address:
        return str(address[0])
    return None  # AF_UNIX paths and the like are local by nature


@contextmanager
def block_network(allow_hosts: Iterable[str] = LOOPBACK) -> Iterator[None]:
    """Within the block, connecting to or resolving any host not in `allow_hosts` raises `NetworkBlockedError`."""
    allowed = set(allow_hosts)
    original_connect = socket.socket.connect
    original_connect_ex = socket.socket.connect_ex
    original_getaddrinfo = socket.getaddrinfo

    def check(host: str | None) -> None:
        if host is not None and host not in allowed:
            raise NetworkBlockedError(
                f"network access to {host!r} is blocked in tests (allowed: {sorted(allowed)})"
            )

    def connect(self: socket.socket, address: Any) -> None:
        check(_host_of(address))
        return original_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        check(_host_of(address))
        return original_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        check(host.decode() if isinstance(host, bytes) else host)
        return original_getaddrinfo(host, *args, **kwargs)

    # typeshed types `self` as _socket.socket; the patch is the point, so these two are not checked
    socket.socket.connect = connect  # type: ignore[method-assign,assignment]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign,assignment]
    socket.getaddrinfo = getaddrinfo
    try:
        yield
    finally:
        socket.socket.connect = original_connect  # type: ignore[method-assign]
        socket.socket.connect_ex = original_connect_ex  # type: ignore[method-assign]
        socket.getaddrinfo = original_getaddrinfo
