"""Helpers for tests and the benchmark: a tracker server in a child process on a free
loopback port, and a throwaway PostgreSQL server from Debian's ``postgresql`` package.

Both bind 127.0.0.1 only and are stopped by whoever started them.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``fracas serve`` in a child process; :meth:`kill` is a SIGKILL, :meth:`stop` a SIGTERM."""

    def __init__(self, db: str, port: int | None = None, workers: int = 1,
                 env: dict[str, str] | None = None, args: Sequence[str] = ()):
        self.db = db
        self.args = list(args)  # more of serve's options (``--example``)
        self.out = tempfile.TemporaryFile()  # noqa: SIM115  (what the server printed: :meth:`printed`; closed with the object)
        self.workers = workers
        self.env = {**os.environ, **(env or {})}
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 90.0) -> ServerProcess:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "fracas", "serve", "--db", self.db,
             "--host", "127.0.0.1", "--port", str(self.port),
             *(["--workers", str(self.workers)] if self.workers != 1 else []), *self.args],
            stdout=self.out, stderr=subprocess.PIPE, start_new_session=True,
            env=self.env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"the server exited: {err}")
            try:
                with urllib.request.urlopen(self.url + "/api/examples", timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("the server did not start in time")

    def printed(self) -> str:
        """What the server has printed so far (its start-up lines)."""
        self.out.seek(0)
        return self.out.read().decode()

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL server's bin directory, if there is one."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parent.parent.name))
    return Path(found[-1]).parent if found else None


def _as_postgres(args: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *args]
    return args


@contextlib.contextmanager
def throwaway_postgres(durable: bool = False, folder: Path | None = None,
                       initdb: Sequence[str] = ()) -> Iterator[str]:
    """A fresh PostgreSQL server on a free loopback port; yields its URL, then removes it.
    ``durable``: each commit flushed to disk (``fsync``), as SQLite's ``synchronous=FULL``
    does, for a benchmark comparing the two; else ``fsync=off``, quicker for tests.
    ``folder``: where its files go (an empty folder, e.g. a small disk), else a new
    temporary folder. ``initdb``: more of initdb's options (``--wal-segsize=1``)."""
    bindir = postgres_bin()
    if bindir is None:
        raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
    root = folder if folder is not None else Path(tempfile.mkdtemp(prefix="fracas-pg-"))
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        shutil.chown(sock, "postgres")
    port = free_port()
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "check": True}
    subprocess.run(_as_postgres([str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
                                 "--auth=trust", "-E", "UTF8", *initdb]), **quiet)  # type: ignore[call-overload]
    options = (f"-k {sock} -p {port} -c listen_addresses=127.0.0.1 "
               f"-c fsync={'on' if durable else 'off'} -c max_connections=200")
    subprocess.run(_as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-w", "-l",
                                 str(root / "log"), "-o", options, "start"]), **quiet)  # type: ignore[call-overload]
    try:
        subprocess.run(_as_postgres([str(bindir / "createdb"), "-h", "127.0.0.1", "-p",
                                     str(port), "-U", "postgres", "fracas"]), **quiet)  # type: ignore[call-overload]
        yield f"postgresql://postgres@127.0.0.1:{port}/fracas"
    finally:
        subprocess.run(_as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-m",
                                     "immediate", "stop"]), stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        if folder is None:
            shutil.rmtree(root, ignore_errors=True)
