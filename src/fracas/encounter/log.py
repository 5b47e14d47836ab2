"""Append-only record logs: JSON Lines with sequence numbers and a hash chain.

Every line is one JSON object ``{"seq": n, "kind": k, "data": {...}, "hash": h}``:
``seq`` counts lines from 1, ``kind`` names the record (the first line's kind names
the log), and ``hash`` is the SHA-256 of the previous line's hash and this line's
``[seq, kind, data]`` (canonical JSON), so a line that is edited, removed, repeated or
moved breaks the chain where it happens. A log closed on purpose ends with a ``close``
record; a log without one was stopped (or cut) and is read up to its last whole line.
Each line is written whole and flushed, so a kill at any moment loses at most the
line being written. The format is documented in ``docs/logs.md``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from types import UnionType
from typing import IO, Any, Literal, Union, get_args, get_origin, get_type_hints

from fracas.core.events import (
    Changed,
    Event,
    FightEnded,
    RoundStarted,
    SlotPassed,
    TurnStarted,
    event_from_dict,
    jsonable,
)
from fracas.core.model import Roster
from fracas.core.nesting import MAX_DEPTH, bad_text, json_depth
from fracas.core.words import count
from fracas.encounter.state import FightState
from fracas.errors import FracasError, InputError

CHAIN_START = "fracas-log-1"
CLOSE = "close"
MAX_LINE = 1 << 24  # 16 MiB: longer lines are not fracas records


def _digest(previous: str, seq: int, kind: str, data: Mapping[str, Any]) -> str:
    body = json.dumps([seq, kind, data], sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)
    return hashlib.sha256(f"{previous}\n{body}".encode()).hexdigest()


@dataclass(frozen=True)
class Record:
    """One verified line of a log: its line number (= ``seq``), kind and data."""

    seq: int
    kind: str
    data: dict[str, Any]


@dataclass(frozen=True)
class LogRead:
    """A verified log: its records (the header first), whether it was closed, and, when it
    was not, where it stops and why (``stopped``)."""

    path: str
    records: tuple[Record, ...]
    closed: bool
    stopped: str | None
    last_hash: str

    @property
    def header(self) -> Record:
        return self.records[0]


class LogWriter:
    """Appends records to a log, one flushed line each, continuing its hash chain."""

    def __init__(self, out: IO[str], path: str, seq: int, last_hash: str) -> None:
        self._out = out
        self.path = path
        self.seq = seq
        self.last_hash = last_hash

    @classmethod
    def create(cls, path: Path | str, kind: str, header: Mapping[str, Any]) -> LogWriter:
        """A new log at ``path`` (replacing any file there) starting with its header; a path
        that cannot be written is an :class:`InputError` before anything else happens."""
        out = _open(path, "w")
        writer = cls(out, str(path), 0, CHAIN_START)
        writer.append(kind, header)
        return writer

    @classmethod
    def resume(cls, path: Path | str, kind: str) -> tuple[LogWriter, LogRead]:
        """Continue a log that was not closed (after verifying it), with what it holds."""
        read = read_log(path, kind)
        if read.closed:
            raise InputError("the log is closed: nothing can be added to it", file=str(path))
        if read.stopped is not None and _cut_line(path):
            raise CutShort(f"cannot continue a damaged log: {read.stopped}", file=str(path))
        out = _open(path, "a")
        return cls(out, str(path), read.records[-1].seq, read.last_hash), read

    def append(self, kind: str, data: Mapping[str, Any]) -> Record:
        """Write one record (a JSON object of ``data``) as a whole line and flush it."""
        if not kind or (kind == CLOSE and self.seq == 0):
            raise ValueError(f"bad record kind {kind!r}")
        seq = self.seq + 1
        payload = dict(data)
        digest = _digest(self.last_hash, seq, kind, payload)
        line = json.dumps({"seq": seq, "kind": kind, "data": payload, "hash": digest},
                          ensure_ascii=False)
        try:
            self._out.write(line + "\n")
            self._out.flush()
        except OSError as err:  # a full disk, /dev/full, a file taken away
            raise InputError(f"cannot write the log: {err.strerror or err}",
                             file=self.path) from None
        self.seq, self.last_hash = seq, digest
        return Record(seq, kind, payload)

    def close(self, summary: Mapping[str, Any] | None = None) -> None:
        """End the log on purpose (a ``close`` record), and the file."""
        if not self._out.closed:
            self.append(CLOSE, summary or {})
            self._out.close()

    def detach(self) -> None:
        """Close the file without closing the log (it can be resumed)."""
        with contextlib.suppress(OSError):  # a failed write was reported when it failed
            self._out.close()

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.detach()


def _open(path: Path | str, mode: str) -> IO[str]:
    p = Path(path)
    try:
        return p.open(mode, encoding="utf-8")
    except IsADirectoryError:
        raise InputError("is a folder, not a file", file=str(p)) from None
    except FileNotFoundError:
        raise InputError("its folder does not exist", file=str(p)) from None
    except OSError as err:
        raise InputError(f"cannot write the file: {err.strerror or err}", file=str(p)) from None


class CutShort(InputError):
    """A log whose last line was cut short (its writer was stopped while writing it): it
    reads up to its last whole line, but nothing can be appended after the cut."""


def _cut_line(path: Path | str) -> bool:
    with Path(path).open("rb") as f:
        f.seek(0, 2)
        if f.tell() == 0:
            return False
        f.seek(-1, 2)
        return f.read(1) != b"\n"


def _lines(path: Path) -> Iterator[tuple[int, bytes, bool]]:
    """(line number, bytes, whether the line ended with a newline)."""
    try:
        f = path.open("rb")
    except FileNotFoundError:
        raise InputError("no such file", file=str(path)) from None
    except IsADirectoryError:
        raise InputError("is a folder, not a log file", file=str(path)) from None
    except OSError as err:
        raise InputError(f"cannot read the file: {err.strerror or err}", file=str(path)) from None
    with f:
        number = 0
        while True:
            raw = f.readline(MAX_LINE + 1)
            if not raw:
                return
            number += 1
            if len(raw) > MAX_LINE:
                raise InputError(f"a line longer than {MAX_LINE:,} bytes", file=str(path),
                                 path=f"line {number}", allowed="lines written by fracas")
            yield number, raw, raw.endswith(b"\n")


#: The logs fracas writes, as a person knows them (the kind in the header is a code name).
KNOWN_LOGS = {"FightLog": "a fight log (fracas fight --log)",
              "session": "a live session's log (fracas play --log)"}


def log_words(kind: str) -> str:
    """A log's kind in words: ``a fight log (fracas fight --log)``."""
    return KNOWN_LOGS.get(kind, f"a {kind!r} log")


def log_kind(path: Path | str) -> str | None:
    """The kind the first line of a log names (its header's ``kind``), or None when the
    first line is not a record (:func:`read_log` then says what is wrong with it)."""
    for _, raw, _ in _lines(Path(path)):
        if json_depth(raw) > MAX_DEPTH:
            return None
        try:
            item = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return None
        kind = item.get("kind") if isinstance(item, dict) else None
        return kind if isinstance(kind, str) else None
    return None


def read_log(path: Path | str, kind: str) -> LogRead:
    """Read and verify a log whose header has ``kind``. Damage (an edited, missing,
    repeated or moved line; a line that is not a record) is an :class:`InputError`
    naming the line; a log that merely stops (not closed, or its last line cut short)
    is read up to its last whole line and says where it stops."""
    p = Path(path)
    records: list[Record] = []
    previous = CHAIN_START
    closed = False
    stopped: str | None = None
    where = str(p)
    for number, raw, whole in _lines(p):
        bad = _Bad(where, number, kind)
        if closed:
            raise bad("a line after the log's close record")
        if json_depth(raw) > MAX_DEPTH:
            raise bad(f"lists and objects nested more than {MAX_DEPTH} levels deep")
        try:
            item = json.loads(raw.decode("utf-8"), object_pairs_hook=_unique_keys)
        except (UnicodeDecodeError, ValueError) as err:
            if not whole:
                stopped = f"line {number} is cut short"
                break
            if isinstance(err, _RepeatedKey):
                raise bad(str(err)) from None
            what = "not UTF-8 text" if isinstance(err, UnicodeDecodeError) else "not JSON"
            raise bad(what) from None
        if not whole:
            stopped = f"line {number} is cut short"
            break
        odd = bad_text(item)
        if odd is not None:
            raise bad(f'text that is not Unicode: "{odd}" holds a lone surrogate')
        record, digest = _check_line(item, number, previous, kind, bad)
        if record.kind == CLOSE:
            closed = True
        records.append(record)
        previous = digest
    if not records:
        if stopped is not None:
            raise InputError(f"the log stops before its header: {stopped}", file=where)
        raise InputError("an empty log", file=where,
                         allowed=f"{log_words(kind)} as fracas wrote it")
    if not closed and stopped is None:
        stopped = f"the log stops after line {records[-1].seq} without being closed"
    return LogRead(where, tuple(records), closed, stopped, previous)


class _RepeatedKey(ValueError):
    """A JSON object with the same key twice (JSON parsers keep one of them silently)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _RepeatedKey(f"the key {key!r} twice in one object")
        out[key] = value
    return out


@dataclass(frozen=True)
class _Bad:
    """Makes the error for one line of a log."""

    file: str
    line: int
    kind: str

    def __call__(self, message: str) -> InputError:
        return InputError(message, file=self.file, path=f"line {self.line}",
                          allowed=f"{log_words(self.kind)} as fracas wrote it")


def _check_line(item: Any, number: int, previous: str, kind: str, bad: _Bad
                ) -> tuple[Record, str]:
    if not isinstance(item, dict):
        raise bad(f"a JSON {type(item).__name__}, not a record object")
    keys = set(item)
    if keys != {"seq", "kind", "data", "hash"}:
        extra = sorted(keys - {"seq", "kind", "data", "hash"})
        missing = sorted({"seq", "kind", "data", "hash"} - keys)
        what = (f"missing {', '.join(missing)}" if missing else "") + (
            "; " if missing and extra else "") + (
            f"unknown {'key' if len(extra) == 1 else 'keys'} {', '.join(map(repr, extra))}"
            if extra else "")
        raise bad(f"not a record ({what})")
    seq, record_kind, data, digest = item["seq"], item["kind"], item["data"], item["hash"]
    if type(seq) is not int or not isinstance(record_kind, str) or not isinstance(
            data, dict) or not isinstance(digest, str):
        raise bad("a record needs seq (a whole number), kind (text), data (an object) "
                  "and hash (text)")
    if seq != number:
        if 0 < seq < number:
            raise bad(f"sequence number {seq} again (expected {number}): a repeated or "
                      "moved line")
        raise bad(f"sequence number {seq} where {number} was expected: lines are missing "
                  "or out of order")
    if number == 1 and record_kind != kind:
        what = KNOWN_LOGS.get(record_kind, f"a {record_kind!r} record")
        raise bad(f"this is {what}, not {log_words(kind)}")
    if number > 1 and record_kind == kind:
        raise bad(f"a second {kind!r} header")
    if record_kind == CLOSE and number == 1:
        raise bad("a close record before the header")
    expected = _digest(previous, seq, record_kind, data)
    if digest != expected:
        raise bad("the hash does not match: this line was changed (or the one before it)")
    return Record(seq, record_kind, data), expected


# -- fight logs ---------------------------------------------------------------------------
FIGHT_LOG = "FightLog"
FIGHT_LOG_VERSION = 2


@dataclass(frozen=True)
class FightLogData:
    """What a verified fight log holds: the header's fields, the events of every whole
    turn, where each turn begins (``marks``), and where the log stops if it was not
    closed (``stopped``: None for a complete log)."""

    path: str
    header: dict[str, Any]
    events: tuple[Event, ...]
    lines: tuple[int, ...]  # the line of each event
    marks: tuple[int, ...]
    stopped: str | None
    texts: tuple[Any, ...] = ()  # each event's text as logged (None: none given)


class FightLog:
    """A fight log being written: the header first, then each turn's events as it is
    played (one record a line, flushed), and a ``turn`` record closing each turn."""

    def __init__(self, writer: LogWriter) -> None:
        self.writer = writer
        self.turns = 0
        self.events = 0

    @classmethod
    def create(cls, path: Path | str, header: Mapping[str, Any]) -> FightLog:
        return cls(LogWriter.create(path, FIGHT_LOG,
                                    {"version": FIGHT_LOG_VERSION, **header}))

    def turn(self, events: Sequence[Event]) -> None:
        """Append one turn: each event, then the ``turn`` record that completes it."""
        if not events:
            return
        self.turns += 1
        for event in events:
            self.writer.append("event", {"turn": self.turns, "event": event.to_dict()})
        self.events += len(events)
        self.writer.append("turn", {"turn": self.turns, "events": len(events)})

    def close(self) -> None:
        self.writer.close({"turns": self.turns, "events": self.events})

    def detach(self) -> None:
        self.writer.detach()


def read_fight_log(path: Path | str) -> FightLogData:
    """A fight log, verified line by line: its events up to the last whole turn."""
    read = read_log(path, FIGHT_LOG)
    header = read.header.data
    if header.get("version") != FIGHT_LOG_VERSION:
        raise InputError(f"fight log version {header.get('version')!r}", file=read.path,
                         path="line 1", allowed=f"version {FIGHT_LOG_VERSION}")
    _load_system(header.get("system"), read.path)  # its event types, before any event
    events: list[Event] = []
    lines: list[int] = []
    texts: list[Any] = []
    marks: list[int] = []
    pending: list[Event] = []
    turn = 1
    stopped = read.stopped
    for record in read.records[1:]:
        bad = _Bad(read.path, record.seq, FIGHT_LOG)
        data = record.data
        if record.kind == "event":
            if set(data) != {"turn", "event"} or data["turn"] != turn:
                raise bad(f"an event record needs turn: {turn} and event: {{...}}")
            try:
                pending.append(checked_event(data["event"]))
                lines.append(record.seq)
                texts.append(data["event"].get("text"))
            except InputError as err:
                raise err.located(file=read.path, prefix=f"line {record.seq}") from None
        elif record.kind == "turn":
            if data != {"turn": turn, "events": len(pending)} or not pending:
                raise bad(f"turn {turn} has {count(len(pending), 'event')} before this line, but "
                          f"the line says {data!r}")
            marks.append(len(events))
            events.extend(pending)
            pending = []
            turn += 1
        elif record.kind == CLOSE:
            if pending or data != {"turns": turn - 1, "events": len(events)}:
                raise bad(f"the close record does not match the log ({count(turn - 1, 'turn')}, "
                          f"{count(len(events), 'event')})")
        else:
            raise bad(f"unknown record kind {record.kind!r}", )
    if pending:
        stopped = (f"{stopped}: turn {turn} is incomplete ({count(len(pending), 'event')} "
                   f"dropped)")
    return FightLogData(read.path, header, tuple(events), tuple(lines[:len(events)]),
                        tuple(marks), stopped, tuple(texts[:len(events)]))


def _load_system(system_id: Any, file: str) -> None:
    """Load the rule system a log names, so that its own event types can be read."""
    from fracas.registry import get_system

    if not isinstance(system_id, str):
        raise InputError("the log names no rule system", file=file, path="line 1: system",
                         allowed="a system id (fracas systems)")
    try:
        get_system(system_id)
    except InputError as err:
        raise err.located(file=file, prefix="line 1: system") from None
    except FracasError as err:
        raise InputError(str(err), file=file, path="line 1: system",
                         allowed="a system id (fracas systems)") from None


def replay_checked(log: FightLogData, initial: Roster) -> FightState:
    """Fold the log's events over the initial roster, checking that each one fits the
    state it meets (a real combatant and field, the value it says was there, the next
    slot of the round); a misfit is an :class:`InputError` naming its line."""
    state = FightState(initial)
    for event, line in zip(log.events, log.lines, strict=True):
        problem = _misfit(state, event)
        if problem is None:
            try:
                state = state.apply(event)
            except (FracasError, LookupError, TypeError, ValueError, AttributeError):
                problem = "it cannot be applied to the fight at this point"
        if problem is not None:
            raise InputError(f"a {event.type} event that does not fit the fight: {problem}",
                             file=log.path, path=f"line {line}",
                             allowed=f"{log_words(FIGHT_LOG)} as fracas wrote it")
    return state


def _misfit(state: FightState, event: Event) -> str | None:
    roster = state.roster
    if state.over:
        return "the fight is already over"
    if isinstance(event, Changed):
        if event.target not in roster:
            return f"no combatant {event.target!r}"
        now = roster[event.target].state
        if event.field not in {f.name for f in fields(now)}:
            return f"{event.target} has no field {event.field!r}"
        current = jsonable(getattr(now, event.field))
        if jsonable(event.before) != current:
            return f"{event.target}'s {event.field} is {current!r} here, not {event.before!r}"
        after = jsonable(event.after)
        hint = _hints(type(now)).get(event.field, Any)
        if not _fits(event.after, hint) or (
                current is not None and after is not None and type(after) is not type(current)):
            return f"{event.after!r} does not fit {event.field} ({_hint_text(hint)})"
    elif isinstance(event, RoundStarted):
        if event.round != state.round + 1:
            return f"round {event.round} after round {state.round}"
        for slot in event.slots:
            if (len(slot) < 3 or not isinstance(slot[0], tuple) or not slot[0]
                    or any(c not in roster for c in slot[0])
                    or not isinstance(slot[1], str) or type(slot[2]) is not bool):
                return f"a slot {jsonable(slot)!r} that is not (candidates, label, offensive)"
    elif isinstance(event, TurnStarted | SlotPassed):
        if event.slot_index != state.next_slot or event.slot_index >= len(state.slots):
            return f"slot {event.slot_index} where slot {state.next_slot} comes next"
        if isinstance(event, TurnStarted) and event.actor not in state.slots[
                event.slot_index].candidates:
            return f"{event.actor!r} does not hold slot {event.slot_index}"
    elif isinstance(event, FightEnded) and event.winner and event.winner not in (
            c.side for c in roster.values()):
        return f"no side {event.winner!r}"
    return None


def checked_event(data: Any) -> Event:
    """An event from its JSON, each field of the type the event declares."""
    if not isinstance(data, dict):
        raise InputError("an event must be an object", path="event")
    event = event_from_dict(data)
    cls = type(event)
    allowed = {"type", "text"} | {f.name for f in fields(cls)}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise InputError(f"unknown field {unknown[0]!r} in a {cls.__name__} event",
                         path="event", allowed=", ".join(sorted(allowed)))
    hints = _hints(cls)
    for f in fields(cls):
        if not _fits(getattr(event, f.name), hints.get(f.name, Any)):
            raise InputError(f"{cls.__name__}.{f.name} has the wrong type",
                             path=f"event.{f.name}", allowed=_hint_text(hints[f.name]))
    try:
        event.text()
    except Exception:  # any value the event cannot show is bad input
        raise InputError(f"a {cls.__name__} event whose values do not fit together",
                         path="event") from None
    return event


def text_retold(logged: Any, *events: Event) -> str | None:
    """Where an event's text as logged (``logged``: None when the log gives none) is not
    the words of its values (those of the event as read, ``events[0]``, or of the same
    event as the rules make it now): what the log has and what fracas says, for a
    warning. The values are what the rules check; the text may be older words of fracas
    (a log written before a rewording) or an edit by hand, which the hash chain alone does
    not catch when it was recomputed, so the reader is told and the log is not refused."""
    if logged is None or any(logged == e.text() for e in events):
        return None
    return f"the log has {logged!r}; fracas says {events[-1].text()!r}"


def retold_warning(path: Any, retold: list[tuple[int, str]]) -> str | None:
    """The one warning for the lines whose text is not fracas's words for their values."""
    if not retold:
        return None
    line, what = retold[0]
    more = f" (and {len(retold) - 1} more)" if len(retold) > 1 else ""
    return (f"{path}: line {line}: an event's text is not what fracas says for its values "
            f"({what}){more}: older words of fracas, or edited by hand; the values were "
            "played again through the rules and are shown in fracas's words")


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        try:
            _HINTS[cls] = get_type_hints(cls)
        except (NameError, TypeError):  # a hint that cannot be resolved checks nothing
            _HINTS[cls] = {}
    return _HINTS[cls]


def _fits(value: Any, hint: Any) -> bool:
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return True
    if hint is bool or hint is int or hint is str:
        return type(value) is hint
    if hint is float:
        return type(value) in (int, float)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(v, args[0]) for v in value)
        return len(args) == len(value) and all(map(_fits, value, args))
    if origin in (Union, UnionType):
        return any(_fits(value, a) for a in args)
    if origin is Literal:
        return value in args
    if hint is type(None):
        return value is None
    return True


def _hint_text(hint: Any) -> str:
    return getattr(hint, "__name__", None) or str(hint).replace("typing.", "")
