"""A notice board shared by one simulation's processes (issue 39): what each works out,
posted as it goes, and who is working out which answer.

It is a directory (in memory, ``/dev/shm``, where the platform has it with room; else in
the temporary directory):

* ``logs/<pid>``: each process appends what it posts, records of a length and the bytes;
  the others read each log from where they stood, whole records only (a record being
  written is read next time).
* ``claims/<id>``: made with ``O_EXCL``, so of two processes that claim the same answer at
  once exactly one has it; ``claims/<id>.done`` once its owner has posted it.

Files need no server process, no pipe that a process must drain before it may end, and
no lock: a process that dies leaves nothing the others wait for (they stop waiting).
"""

from __future__ import annotations

import contextlib
import copy
import os
import shutil
import struct
import tempfile

_LENGTH = struct.Struct("<Q")
_SILENT = -1  # a process's log once it can no longer post


#: Free space ``/dev/shm`` must have for the board to go there (bytes): a run posts some
#: megabytes (2,000 c22 boarding fights 6 MB, contest gate 72 MB); a container's small
#: ``/dev/shm`` (64 MB by default) leaves it to the temporary directory.
MEMORY_DIR_FREE = 1 << 30


def _memory_dir() -> str | None:
    """A directory in memory for the board, where the platform has one with room."""
    try:
        stat = os.statvfs("/dev/shm")
    except OSError:
        return None
    room = stat.f_bavail * stat.f_frsize >= MEMORY_DIR_FREE
    return "/dev/shm" if room and os.access("/dev/shm", os.W_OK) else None


class Board:
    """One run's board, made by the main process; its copies in the workers (forked, or
    pickled for a spawned one) read every log from where the main process stood."""

    def __init__(self) -> None:
        self.root = tempfile.mkdtemp(prefix="fracas-board-", dir=_memory_dir())
        os.mkdir(os.path.join(self.root, "logs"))
        os.mkdir(os.path.join(self.root, "claims"))
        self.pid = os.getpid()
        self.posted = 0  # bytes this process has posted
        self.offsets: dict[str, int] = {}  # per log (a pid): bytes read so far
        self.fd: int | None = None

    def snapshot(self) -> Board:
        """A copy as the board stands now, for a worker given what this process knows
        now: it reads this process's log from here on."""
        board = copy.copy(self)
        board.offsets = dict(self.offsets)
        board.fd = None
        return board

    def __getstate__(self) -> dict[str, object]:
        return {**self.__dict__, "fd": None}

    def _here(self) -> None:
        """In a new process: the log of the process this board was copied from is read
        from where it stood as the copy was made (all before, this process knows)."""
        pid = os.getpid()
        if pid != self.pid:
            self.offsets[str(self.pid)] = self.posted
            self.pid, self.posted, self.fd = pid, 0, None

    def post(self, blob: bytes) -> None:
        """Append ``blob`` to this process's log, for the others to read."""
        self._here()
        if self.fd == _SILENT:
            return
        data = memoryview(_LENGTH.pack(len(blob)) + blob)
        try:
            if self.fd is None:
                self.fd = os.open(os.path.join(self.root, "logs", str(self.pid)),
                                  os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            while data:
                data = data[os.write(self.fd, data):]
        except OSError:  # the run has ended, or the board's disk is full: the others
            # work out what this process would have posted (its claims end as they do)
            self.fd = _SILENT
            return
        self.posted += _LENGTH.size + len(blob)

    def read(self) -> list[bytes]:
        """What the other processes posted since this one last read, whole records."""
        self._here()
        found: list[bytes] = []
        try:
            entries = list(os.scandir(os.path.join(self.root, "logs")))
        except FileNotFoundError:  # the run has ended
            return found
        for entry in entries:
            if entry.name == str(self.pid):
                continue
            start = self.offsets.get(entry.name, 0)
            if entry.stat().st_size <= start:
                continue
            with open(entry.path, "rb") as log:
                log.seek(start)
                data = log.read()
            at = 0
            while at + _LENGTH.size <= len(data):
                (size,) = _LENGTH.unpack_from(data, at)
                if at + _LENGTH.size + size > len(data):
                    break  # still being written
                found.append(data[at + _LENGTH.size:at + _LENGTH.size + size])
                at += _LENGTH.size + size
            self.offsets[entry.name] = start + at
        return found

    def claim(self, name: str) -> bool:
        """Whether this process has the claim ``name`` (no other had it)."""
        try:
            os.close(os.open(os.path.join(self.root, "claims", name),
                             os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            return False
        except OSError:  # the run has ended, or the board is full: work it out here
            return True
        return True

    def finish(self, name: str) -> None:
        """The claim ``name`` is done: what it found is posted."""
        with contextlib.suppress(OSError):  # the run has ended, or the board is full
            os.close(os.open(os.path.join(self.root, "claims", name + ".done"),
                             os.O_WRONLY | os.O_CREAT, 0o600))

    def finished(self, name: str) -> bool:
        """Whether the claim ``name`` is done (or the run has ended)."""
        return (os.path.exists(os.path.join(self.root, "claims", name + ".done"))
                or not os.path.isdir(self.root))

    def close(self) -> None:
        """Remove the board (the main process, once the run has ended)."""
        if self.fd is not None and self.fd != _SILENT:
            os.close(self.fd)
        self.fd = None
        shutil.rmtree(self.root, ignore_errors=True)
