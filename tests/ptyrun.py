"""Run ``fracas`` on a real pseudo-terminal and press Ctrl-C as a terminal does: SIGINT to
the whole process group (the command and every worker it started).

Waiting is by what the child does, never by a guessed time: ``importing`` (fracas's own
code runs and loads numpy: start-up; earlier, Python itself is starting and no program
can answer Ctrl-C with a clean line), ``workers`` (it
has child processes: worker processes starting) or ``printed(marker)`` (its output shows
the work is under way). Timeouts are generous for a loaded 2-core machine.
"""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

FRACAS = [sys.executable, "-m", "fracas"]
Ready = Callable[[int, bytes], bool]  # (pid, output so far) -> ready to interrupt


def importing(pid: int, seen: bytes) -> bool:
    """numpy's compiled core is mapped: the command is loading its modules."""
    try:
        return b"_multiarray_umath" in Path(f"/proc/{pid}/maps").read_bytes()
    except OSError:
        return False


def workers(pid: int, seen: bytes) -> bool:
    """The command has child processes (its pool is starting them)."""
    try:
        return bool(Path(f"/proc/{pid}/task/{pid}/children").read_text().split())
    except OSError:
        return False


def printed(marker: bytes) -> Ready:
    """The output shows ``marker``."""
    return lambda pid, seen: marker in seen


def _as_a_shell_starts_it() -> None:
    """In the child, before fracas starts: SIGINT at its default and not blocked, as a
    terminal's shell starts a command (the test runner's process may have inherited it
    ignored or blocked, and a child inherits both)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def interrupt(args: list[str], ready: Ready, delay: float = 0.0, cwd: Path | None = None,
              timeout: float = 120.0) -> tuple[int, str]:
    """Start ``fracas ARGS`` on a terminal, wait until ``ready``, then ``delay`` seconds,
    send Ctrl-C; its exit code and everything it printed."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [*FRACAS, *args], stdin=slave, stdout=slave, stderr=slave, cwd=cwd,
        start_new_session=True, preexec_fn=_as_a_shell_starts_it,
        env={**os.environ, "COLUMNS": "100", "TERM": "xterm"})
    # the slave end stays open until the child is gone: Linux drops what a pty still
    # buffers once every slave end is closed, which would lose the last lines
    seen = b""

    def read(wait: float) -> bool:
        nonlocal seen
        if not select.select([master], [], [], wait)[0]:
            return False
        seen += os.read(master, 65536)
        return True

    try:
        deadline = time.monotonic() + timeout
        while not ready(proc.pid, seen):
            assert proc.poll() is None, f"ended before it was ready: {seen[-2000:]!r}"
            assert time.monotonic() < deadline, f"never ready: {seen[-2000:]!r}"
            read(0.01)
        end = time.monotonic() + delay
        while time.monotonic() < end:
            read(max(0.0, end - time.monotonic()))
        os.killpg(proc.pid, signal.SIGINT)
        deadline = time.monotonic() + timeout
        while proc.poll() is None and time.monotonic() < deadline:
            read(0.2)
        code = proc.wait(timeout=30)
        while read(0.3):
            pass
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(slave)
        os.close(master)
    return code, seen.decode("utf-8", "replace")


def assert_interrupted(code: int, text: str) -> None:
    """Exit 130, the one line ``fracas: interrupted``, no traceback from any process."""
    assert code == 130, text[-2000:]
    assert text.count("fracas: interrupted") == 1, text[-2000:]
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text[-3000:]
