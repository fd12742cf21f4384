"""Suite-wide fixtures. Real network calls are blocked by pytest-socket (see pyproject addopts);
only loopback is allowed, for servers the tests start themselves."""

from __future__ import annotations

import os

import pytest

# No test may reach a real model, even when a key happens to be set in the environment.
os.environ.pop("ANTHROPIC_API_KEY", None)
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")


@pytest.fixture
def store_dir(tmp_path):
    """A fresh, empty store directory."""
    d = tmp_path / "store"
    return d
