"""Child processes the tests kill in the middle of their work."""

from __future__ import annotations


def kill_writer_when_ready(script: str, path, settle: float) -> None:
    """Run `script` (Python source, argv[1] = path) until it prints "ready", let it keep writing for
    `settle` seconds, then SIGKILL it: a write is almost certainly in flight when it dies."""
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-c", script, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(settle)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
