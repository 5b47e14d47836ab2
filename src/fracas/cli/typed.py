"""Reading a line the GM types at a terminal, with Ctrl-C always heard.

Python's ``input()`` can lose a Ctrl-C: the signal's handler runs only between Python
steps, so a Ctrl-C pressed while the prompt is being written (after the last step, before
the terminal is read) is noted and then waits behind a read that blocks until Enter. The
command looks hung. Here the wait for the line is a ``select`` on the terminal and on a
wake-up pipe (:func:`signal.set_wakeup_fd`) that the signal itself writes to: the wait ends
at once, and the handler's ``KeyboardInterrupt`` is raised as the next Python step runs.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import threading
from collections.abc import Iterator


def typed_line(prompt: str) -> str:
    """One line typed at the terminal after ``prompt`` (without its newline); EOFError at
    Ctrl-D on an empty line, as ``input()``. Where a signal cannot wake the wait (not the
    main thread, no ``select`` on a terminal), it is ``input()`` itself."""
    if os.name != "posix" or threading.current_thread() is not threading.main_thread():
        return input(prompt)
    sys.stdout.write(prompt)
    sys.stdout.flush()
    with _woken() as wake:
        fd = sys.stdin.fileno()
        while fd not in select.select([fd, wake], [], [])[0]:
            _drain(wake)  # a signal came; its handler (if it raises) runs at this step
    line = sys.stdin.readline()  # a terminal hands over one whole line per read
    if line == "":
        raise EOFError
    return line.rstrip("\n")


@contextlib.contextmanager
def _woken() -> Iterator[int]:
    """A pipe's read end that becomes readable when any signal arrives, for this block."""
    read, write = os.pipe()
    os.set_blocking(read, False)
    os.set_blocking(write, False)
    before = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    try:
        yield read
    finally:
        signal.set_wakeup_fd(before)
        os.close(read)
        os.close(write)


def _drain(fd: int) -> None:
    """Empty the wake-up pipe (the bytes name the signals; their handlers already know)."""
    with contextlib.suppress(BlockingIOError):
        while os.read(fd, 512):
            pass
