"""The prompt of ``fracas play`` hears a Ctrl-C that comes before the terminal is read.

A signal's C handler only notes it; Python raises ``KeyboardInterrupt`` at its next step.
A Ctrl-C noted just before the read of the terminal began (while the prompt was written)
used to wait behind that read until the GM pressed Enter: ``fracas play`` looked hung (CI
saw it once in ~20 runs of the pty test in ``test_gm_at_table``). Here the Ctrl-C is made
to come at that moment every time: it is sent to another thread while the main thread
already waits for the terminal, so the main thread's wait is not interrupted by it.
"""

from __future__ import annotations

import io
import os
import pty
import signal
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import pytest

from fracas.cli.typed import typed_line

# system calls that wait for a terminal to be readable (x86-64 and aarch64 numbers)
WAITING = {"0", "7", "23", "270", "271",  # x86-64: read, poll, select, pselect6, ppoll
           "63", "72", "73"}  # aarch64: read, pselect6, ppoll


@dataclass
class Terminal:
    """A pseudo-terminal: its master end (what the GM types goes in there), its slave end
    as a text file, and what is written to stdout."""

    master: int
    tty: TextIO
    shown: io.StringIO

    def use(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Make it stdin and stdout (in the test itself: the test runner's capture sets
        sys.stdin and sys.stdout again between a fixture and its test)."""
        monkeypatch.setattr(sys, "stdin", self.tty)
        monkeypatch.setattr(sys, "stdout", self.shown)


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    """A pseudo-terminal, and Ctrl-C raising KeyboardInterrupt as in a command (a test
    worker may have it ignored)."""
    master, slave = pty.openpty()
    tty = open(slave, encoding="utf-8")  # noqa: SIM115 - closed below
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield Terminal(master, tty, io.StringIO())
    finally:
        signal.signal(signal.SIGINT, before)
        tty.close()
        os.close(master)


def _waiting(tid: int) -> bool:
    """Thread ``tid`` of this process is blocked in a system call that waits for input."""
    try:
        call = Path(f"/proc/self/task/{tid}/syscall").read_text().split()[0]
    except (OSError, IndexError):
        return False
    return call in WAITING


def _ctrl_c_once_waiting(main: int, master: int, done: threading.Event) -> None:
    """Once the main thread waits for the terminal, Ctrl-C to this thread (the main
    thread's wait goes on); if the main thread is not done 10 s later, type a line so the
    test ends and fails instead of hanging."""
    deadline = time.monotonic() + 30
    while not _waiting(main) and time.monotonic() < deadline:
        time.sleep(0.005)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.pthread_kill(threading.get_ident(), signal.SIGINT)
    if not done.wait(10):
        os.write(master, b"the Ctrl-C was lost\n")


def test_a_ctrl_c_noted_before_the_terminal_is_read_ends_the_wait(
        terminal: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    terminal.use(monkeypatch)
    done = threading.Event()
    helper = threading.Thread(target=_ctrl_c_once_waiting,
                              args=(threading.get_native_id(), terminal.master, done))
    helper.start()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            typed_line("> ")
    finally:
        done.set()
        helper.join()
    assert time.monotonic() - started < 10
    assert terminal.shown.getvalue() == "> "


def test_a_line_typed_is_read_without_its_newline(
        terminal: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    terminal.use(monkeypatch)
    os.write(terminal.master, "hurt Gorr 3 — ☠\n".encode())
    assert typed_line("> ") == "hurt Gorr 3 — ☠"


def test_ctrl_d_on_an_empty_line_ends_the_input(
        terminal: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    terminal.use(monkeypatch)
    os.write(terminal.master, b"\x04")
    with pytest.raises(EOFError):
        typed_line("> ")


def test_the_signal_wake_up_is_given_back(
        terminal: Terminal, monkeypatch: pytest.MonkeyPatch) -> None:
    terminal.use(monkeypatch)
    keep_r, keep_w = os.pipe()
    os.set_blocking(keep_w, False)
    before = signal.set_wakeup_fd(keep_w)
    try:
        os.write(terminal.master, b"q\n")
        assert typed_line("> ") == "q"
        assert signal.set_wakeup_fd(keep_w) == keep_w  # what was set before is set again
    finally:
        signal.set_wakeup_fd(before)
        os.close(keep_r)
        os.close(keep_w)
