"""A live session's log on disk: the record-log format of :mod:`fracas.encounter.log`
(sequence numbers and a hash chain, one flushed line a record), appended as play goes.

The header holds what :meth:`Session.to_records` puts first (the scenario, the
controllers, the seed). Then, after every change, the log appends what changed in the
session's inputs: ``input`` records for inputs added (answers, dice typed or drawn, GM
edits) and a ``cut`` record (keep the first ``length`` inputs) where inputs were taken
back (undo; a GM edit that goes before the pending turn). Reading applies them in order
and replays the session from its inputs; damage names the line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fracas.encounter.log import LogWriter, read_log
from fracas.encounter.session import Session
from fracas.errors import InputError

KIND = "session"


class SessionLog:
    """Keeps a session's log file in step with the session (see the module docstring)."""

    def __init__(self, writer: LogWriter, entries: list[dict[str, Any]]):
        self.writer = writer
        self.written = [dict(e) for e in entries]  # the inputs the log holds now

    @classmethod
    def create(cls, path: Path | str, session: Session) -> SessionLog:
        header, *_ = session.to_records()
        log = cls(LogWriter.create(path, KIND, header), [])
        log.sync(session)
        return log

    @classmethod
    def resume(cls, path: Path | str) -> tuple[SessionLog, Session]:
        """Go on with a log (verified and replayed), appending to it."""
        writer, read = LogWriter.resume(path, KIND)
        session, entries = _session(read.records, str(path))
        return cls(writer, entries), session

    def sync(self, session: Session) -> None:
        """Append what changed in the session's inputs since the last sync."""
        now = session.entries
        same = 0
        while (same < len(self.written) and same < len(now)
               and self.written[same] == now[same]):
            same += 1
        if same < len(self.written):
            self.writer.append("cut", {"length": same, "drawn": session.drawn})
        for entry in now[same:]:
            self.writer.append("input", dict(entry))
        self.written = [dict(e) for e in now]

    def detach(self) -> None:
        """Close the file; the log stays open to be resumed."""
        self.writer.detach()


def load_session(path: Path | str) -> Session:
    """The session a log holds (replayed up to its last whole line)."""
    return _session(read_log(path, KIND).records, str(path))[0]


def _session(records: Any, file: str) -> tuple[Session, list[dict[str, Any]]]:
    header, *rest = records
    entries: list[dict[str, Any]] = []
    drawn = 0
    for record in rest:
        data = record.data
        if record.kind == "input":
            entries.append(dict(data))
            if "rolled" in data:
                drawn = max(drawn, int(data["rolled"]) + 1)
        elif record.kind == "cut" and isinstance(data.get("length"), int):
            del entries[data["length"]:]
            drawn = max(drawn, int(data.get("drawn", 0)))
        elif record.kind != "close":
            raise InputError(f"unknown record kind {record.kind!r}", file=file,
                             path=f"line {record.seq}", allowed="input, cut")
    head = {**header.data, "type": "LiveSession", "drawn": drawn}
    session = Session.from_records([head, *({"type": "Input", **e} for e in entries)],
                                   file=file)
    return session, entries
