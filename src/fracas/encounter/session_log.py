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
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from fracas.core.events import event_from_dict
from fracas.core.scenario import validation_error
from fracas.core.words import count
from fracas.encounter.log import CutShort, LogWriter, read_log, text_retold
from fracas.encounter.session import SESSION_VERSION, Session
from fracas.encounter.words_mark import refuse_edited
from fracas.errors import InputError

KIND = "session"
MAX_SEED = 2**128 - 1  # numpy's PCG64 seeds
MAX_COUNT = 2**62  # rolls drawn, inputs kept: far beyond any session


class _Record(BaseModel):
    """One record's data, of exactly the types fracas writes (no text read as a number),
    with no key fracas does not write."""

    model_config = ConfigDict(extra="forbid", strict=True)


class _Input(_Record):
    """What every input may carry: ``n``, the order it was made in (undo takes back the
    newest first, even a GM edit placed before the pending turn's inputs), and ``group``,
    shared by inputs made as one undo step (a free-form action and its effects)."""

    n: int | None = Field(None, ge=0, le=MAX_COUNT)
    group: int | None = Field(None, ge=0, le=MAX_COUNT)


class SessionHeader(_Record):
    """The first line: what the session was started with."""

    type: Literal["LiveSession"]
    version: Literal[1]
    seed: int = Field(ge=0, le=MAX_SEED)
    system: str
    scenario: dict[str, Any]
    file: str | None
    controllers: dict[str, str]
    max_rounds: int | None = Field(ge=1, le=100_000)
    roll_all: bool
    drawn: int = Field(ge=0, le=MAX_COUNT)
    # who rolls which die (none in logs written before the setting: see who_rolls)
    gm_dice: Literal["fracas", "typed"] | None = None
    players: list[Annotated[str, Field(max_length=200)]] | None = Field(None, max_length=10_000)
    dice: dict[str, Literal["fracas", "typed"]] | None = Field(None, max_length=10_000)
    # which words it was written in (fracas.encounter.words_mark; none in older logs)
    words: str | None = Field(None, max_length=64)


class DiceInput(_Input):
    """Dice: typed at the table (``dice``), or drawn by the session (``rolled``: which
    draw; ``auto`` when the session rolled it by itself); ``part``: which owner's part
    of a roll of several people's dice (see :mod:`fracas.dice.joint`; none in older
    logs, which give such a roll whole)."""

    kind: Literal["dice"]
    by: str | None = None
    part: int | None = Field(None, ge=1, le=MAX_COUNT)
    dice: list[Annotated[int, Field(ge=-MAX_COUNT, le=MAX_COUNT)]
               | Annotated[str, Field(max_length=100)]] | None = Field(
        None, min_length=1, max_length=10_000)
    rolled: int | None = Field(None, ge=0, le=MAX_COUNT)
    auto: Literal[True] | None = None
    owner: str | None = Field(None, max_length=200)  # whose roll it was given for
    # logs written before this was fixed gave a roll handed to a policy ``for`` too (it
    # never had an effect: a drawn roll asks nothing more)
    for_: str | None = Field(None, alias="for")

    @model_validator(mode="after")
    def _one_of(self) -> DiceInput:
        if (self.dice is None) == (self.rolled is None):
            raise ValueError("a dice input holds either dice (typed) or rolled (drawn)")
        if self.auto and self.rolled is None:
            raise ValueError("auto goes with rolled")
        return self


class AnswerInput(_Input):
    """An answer: an ``option`` chosen; ``skip`` (the turn passes); or ``policy`` (fracas
    decides: this question, or with ``for`` every question to that combatant in the turn)."""

    kind: Literal["answer"]
    decision: str
    option: str | None = None
    skip: Literal[True] | None = None
    policy: str | None = None
    by: str
    for_: str | None = Field(None, alias="for")
    who: str | None = Field(None, max_length=200)  # who was asked (read back only for them)
    asked: str | None = Field(None, max_length=1000)  # the question it answered

    @model_validator(mode="after")
    def _one_of(self) -> AnswerInput:
        given = [x for x in (self.option, self.skip, self.policy) if x is not None]
        if len(given) != 1:
            raise ValueError("an answer holds one of option, skip or policy")
        return self


class GmInput(_Input):
    kind: Literal["gm"]
    event: dict[str, Any]
    by: str
    # the inputs of the turn under way before the edit left some out (undo puts them back)
    turn: list[dict[str, Any]] | None = Field(None, max_length=10_000)


class CutRecord(_Record):
    """Inputs taken back: keep the first ``length``; ``drawn`` rolls were drawn so far."""

    length: int = Field(ge=0, le=MAX_COUNT)
    drawn: int = Field(ge=0, le=MAX_COUNT)


class CloseRecord(_Record):
    pass


INPUTS: dict[str, type[_Record]] = {"dice": DiceInput, "answer": AnswerInput, "gm": GmInput}


def _valid(model: type[_Record], data: Any, file: str, seq: int) -> _Record:
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise validation_error(err, file, f"line {seq}", model) from None


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
        try:
            writer, read = LogWriter.resume(path, KIND)
        except CutShort as err:
            raise InputError(err.message, file=err.file, allowed="its whole lines go on in "
                             f"a new log: fracas play --resume {path} --log NEW.jsonl"
                             ) from None
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


def session_at(path: Path | str, upto: int | None) -> tuple[Session, int]:
    """The session a log holds as it stood after its first ``upto`` inputs (None: all;
    the whole log is checked first), and how many inputs the log holds."""
    session, entries = _session(read_log(path, KIND).records, str(path), upto)
    return session, len(entries)


def _session(records: Any, file: str, upto: int | None = None
             ) -> tuple[Session, list[dict[str, Any]]]:
    header, *rest = records
    head = _valid(SessionHeader, header.data, file, header.seq)
    assert isinstance(head, SessionHeader) and head.version == SESSION_VERSION
    entries: list[dict[str, Any]] = []
    lines: list[int] = []  # the line each input is on
    drawn = head.drawn
    for record in rest:
        data = record.data
        if record.kind == "input":
            kind = data.get("kind")
            if not isinstance(kind, str) or kind not in INPUTS:
                raise InputError(f"an input of kind {kind!r}", file=file,
                                 path=f"line {record.seq}.kind", allowed=", ".join(INPUTS))
            entry = _valid(INPUTS[kind], data, file, record.seq)
            if isinstance(entry, DiceInput) and entry.rolled is not None:
                drawn = max(drawn, entry.rolled + 1)
            entries.append(dict(data))
            lines.append(record.seq)
        elif record.kind == "cut":
            cut = _valid(CutRecord, data, file, record.seq)
            assert isinstance(cut, CutRecord)
            if cut.length > len(entries):
                raise InputError(f"a cut to {count(cut.length, 'input')} where the log holds "
                                 f"{len(entries)}", file=file, path=f"line {record.seq}",
                                 allowed=f"a length from 0 to {len(entries)}")
            del entries[cut.length:]
            del lines[cut.length:]
            drawn = max(drawn, cut.drawn)
        elif record.kind == "close":
            _valid(CloseRecord, data, file, record.seq)
        else:
            raise InputError(f"unknown record kind {record.kind!r}", file=file,
                             path=f"line {record.seq}", allowed="input, cut")
    head_data = {**header.data, "drawn": drawn}

    def replayed(upto: int) -> Session:
        return Session.from_records(
            [head_data, *({"type": "Input", **e} for e in entries[:upto])], file=file)

    try:
        session = replayed(len(entries))
    except InputError as err:
        if err.path is not None and err.path.split(".")[0] == "record 1":  # the header
            field = err.path.partition(".")[2]
            raise InputError(err.message, file=file, path="line 1" + (
                f": {field}" if field else ""), allowed=err.allowed) from None
        bad = _first_refused(replayed, len(entries))
        if bad is None:
            raise
        # the path says the field (``health``, ``event``), the message what is allowed
        raise InputError(err.message, file=file, path=f"line {lines[bad]}" + (
            f": {err.path}" if err.path else ""), allowed=err.allowed) from None
    retold = []
    for given, line in zip(entries, lines, strict=True):  # a GM edit's words as written
        if given["kind"] == "gm":
            told = text_retold(given["event"].get("text"), event_from_dict(given["event"]))
            if told is not None:
                refuse_edited(head.words, session.system, told, file, line)
                retold.append((line, told))
    if upto is not None and upto < len(entries):  # a moment before the end (``--at``)
        session = replayed(max(0, upto))
    session.retold = retold
    return session, entries


def _first_refused(replayed: Any, count: int) -> int | None:
    """The index of the first input the rules refuse, found by replaying prefixes (only
    when a log is refused; each input is played after those before it)."""
    low, high = 0, count  # inputs[:low] replay; inputs[:high] are refused
    while high - low > 1:
        middle = (low + high) // 2
        try:
            replayed(middle)
        except InputError:
            high = middle
        else:
            low = middle
    try:
        replayed(low)
    except InputError:
        return None
    return high - 1
