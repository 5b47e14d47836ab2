"""The database transactions of the web tracker; each committed change is one transaction.

Keys are random (``secrets``) and kept only as SHA-256 hashes, except a player's key, which
the GM may need to send again and which opens only that player's view.

What never changes once written is remembered in memory (which GM a key belongs to, a
player's invite, whose an encounter is), so most requests ask the database one question:
the encounter's version. On SQLite, this process's writes queue on a lock of their own
rather than in SQLite's busy handler (which sleeps and retries: most of a decision's time
under load); PostgreSQL takes them as they come. On PostgreSQL each commit also notifies
the other server processes (``NOTIFY``, see :mod:`fracas.web.live`).
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import (
    Connection,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import sessionmaker

from fracas.errors import FracasError, InputError
from fracas.web.db import (
    EncounterRow,
    GameMaster,
    PlayerRow,
    RecordRow,
    make_engine,
    make_hot_engine,
    migrate,
    now,
)


class Conflict(FracasError):
    """Someone else committed first: the change read an older version of the encounter.
    ``version``: the encounter's version now, where known; ``moved_on``: what the table
    asks now in its own words (``Grub the Brute's defence``), for a page that shows the
    table as it stands and asks again."""

    def __init__(self, message: str, *, version: int | None = None, moved_on: str = ""):
        super().__init__(message)
        self.version = version
        self.moved_on = moved_on


class NotFound(FracasError):
    """No such encounter (or not one this key may open)."""


def new_key() -> str:
    return secrets.token_urlsafe(24)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class EncounterInfo:
    id: str
    gm_id: int
    title: str
    system: str
    scenario: Mapping[str, Any]
    settings: Mapping[str, Any]
    version: int


@dataclass(frozen=True)
class PlayerInfo:
    id: int
    encounter_id: str
    name: str
    key: str
    combatants: tuple[str, ...]


def _info(row: EncounterRow) -> EncounterInfo:
    return EncounterInfo(row.id, row.gm_id, row.title, row.system, dict(row.scenario),
                         dict(row.settings), row.version)


def _player(row: PlayerRow) -> PlayerInfo:
    return PlayerInfo(row.id, row.encounter_id, row.name, row.key, tuple(row.combatants))


def _known_form(eid: str) -> None:
    """An id that no encounter can have (too long, a NUL that PostgreSQL refuses even to
    look up) is not found, without asking the database."""
    if len(eid) > 32 or "\x00" in eid:
        raise NotFound(f"no encounter {eid[:40]!r}")


T = TypeVar("T")
CHANNEL = "fracas_versions"  # PostgreSQL's NOTIFY channel: "<encounter id> <version>"
REMEMBERED = 10_000  # keys and owners kept in memory
#: what a change or a view answers while the database is full, gone or restarting (503);
#: the page and the live stream show it (:mod:`fracas.web.app`, :mod:`fracas.web.live`)
UNAVAILABLE = "the table's record could not be saved: nothing was lost; try again"
UNREADABLE = "the table's record could not be read just now: nothing was lost; try again"
RETRY_AFTER = 2  # seconds


class Memory:
    """A bounded map, the least recently used forgotten first (thread-safe): facts that
    never change once in the database, or values kept with the version they are of."""

    def __init__(self, size: int = REMEMBERED) -> None:
        self._items: OrderedDict[Any, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, key: Any) -> Any:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            while len(self._items) > self._size:
                self._items.popitem(last=False)


class Store:
    """The database: GMs, encounters, players and each encounter's records."""

    def __init__(self, url: str):
        self.url = url
        try:
            self.engine = make_engine(url)
            migrate(self.engine)
            self.hot = make_hot_engine(url, self.engine)
            self._reads = self.hot.execution_options(isolation_level="AUTOCOMMIT")
        except (SQLAlchemyError, ImportError) as err:
            reason = str(getattr(err, "orig", None) or err).strip().splitlines()[0]
            raise InputError(f"cannot open the database {url!r}: {reason}", path="--db",
                             allowed="a SQLite file path, sqlite:///FILE or "
                                     "postgresql://user:password@host:port/dbname") from None
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.postgres = self.engine.dialect.name == "postgresql"
        self._writing = threading.Lock()
        self._gms, self._players, self._owners = Memory(), Memory(), Memory()

    def db(self) -> DbSession:
        return self._sessions()

    @contextlib.contextmanager
    def write(self) -> Iterator[DbSession]:
        """A write transaction: queued on this process's lock first on SQLite."""
        lock = contextlib.nullcontext() if self.postgres else self._writing
        with lock, self.db() as db, db.begin():
            yield db

    @contextlib.contextmanager
    def write_rows(self) -> Iterator[Connection]:
        """A write transaction on a plain connection (SQLAlchemy Core, no unit of work:
        the hot paths, a decision's commit among them), queued like :meth:`write`."""
        lock = contextlib.nullcontext() if self.postgres else self._writing
        with lock, self.hot.begin() as conn:
            yield conn

    def close(self) -> None:
        self.engine.dispose()
        self.hot.dispose()

    # -- game masters ----------------------------------------------------------------
    def create_gm(self) -> tuple[int, str]:
        """A new GM and their secret key (shown once: only its hash is kept)."""
        key = new_key()
        with self.write() as db:
            gm = GameMaster(key_hash=key_hash(key))
            db.add(gm)
            db.flush()
            return gm.id, key

    def gm_by_key(self, key: str) -> int | None:
        hashed = key_hash(key)
        known = self._gms.get(hashed)
        if known is not None:
            return int(known)
        if self._players.get(hashed) is not None:
            return None  # a player's key
        with self.db() as db:
            gid = db.scalar(select(GameMaster.id).where(GameMaster.key_hash == hashed))
        if gid is not None:
            self._gms.put(hashed, gid)
        return gid

    # -- encounters ------------------------------------------------------------------
    def create_encounter(self, gm_id: int, title: str, system: str,
                         scenario: Mapping[str, Any], settings: Mapping[str, Any],
                         records: Sequence[Mapping[str, Any]]) -> EncounterInfo:
        eid = secrets.token_hex(6)
        with self.write() as db:
            row = EncounterRow(id=eid, gm_id=gm_id, title=title[:200], system=system,
                               scenario=dict(scenario), settings=dict(settings), version=1,
                               redo=[])
            db.add(row)
            db.flush()
            db.add_all(RecordRow(encounter_id=eid, seq=i, data=dict(r))
                       for i, r in enumerate(records))
            return _info(row)

    def encounter(self, eid: str) -> EncounterInfo:
        _known_form(eid)
        with self.db() as db:
            row = db.get(EncounterRow, eid)
            if row is None:
                raise NotFound(f"no encounter {eid!r}")
            return _info(row)

    def gm_of(self, eid: str) -> int:
        """The GM an encounter belongs to (:class:`NotFound` if there is no such encounter)."""
        known = self._owners.get(eid)
        if known is None:
            known = self.encounter(eid).gm_id
            self._owners.put(eid, known)
        return int(known)

    def version(self, eid: str) -> int:
        """The encounter's version: read before every answer, so a plain query."""
        _known_form(eid)

        def read() -> Any:
            with self._reads.connect() as conn:
                return conn.execute(_VERSION, {"eid": eid}).scalar()

        v = again_if_dropped(read)
        if v is None:
            raise NotFound(f"no encounter {eid!r}")
        return int(v)

    def versions(self, eids: Sequence[str]) -> dict[str, int]:
        """The versions of these encounters (those that exist), in one query."""
        ids = [e for e in eids if len(e) <= 32 and "\x00" not in e]
        if not ids:
            return {}
        with self.db() as db:
            rows = db.execute(select(EncounterRow.id, EncounterRow.version)
                              .where(EncounterRow.id.in_(ids)))
            return {str(i): int(v) for i, v in rows}

    def encounters_of(self, gm_id: int) -> list[EncounterInfo]:
        with self.db() as db:
            rows = db.scalars(select(EncounterRow).where(EncounterRow.gm_id == gm_id)
                              .order_by(EncounterRow.created.desc(), EncounterRow.id))
            return [_info(r) for r in rows]

    def records(self, eid: str) -> list[dict[str, Any]]:
        with self.db() as db:
            rows = db.scalars(select(RecordRow.data).where(RecordRow.encounter_id == eid)
                              .order_by(RecordRow.seq))
            return [dict(r) for r in rows]

    def load(self, eid: str) -> tuple[EncounterInfo, list[dict[str, Any]],
                                      list[list[dict[str, Any]]]]:
        """The encounter, its records and its redo stack (what undo took back, the last
        undone last), read together in one transaction."""
        _known_form(eid)
        with self.db() as db, db.begin():
            row = db.get(EncounterRow, eid)
            if row is None:
                raise NotFound(f"no encounter {eid!r}")
            data = db.scalars(select(RecordRow.data).where(RecordRow.encounter_id == eid)
                              .order_by(RecordRow.seq))
            records = [dict(r) for r in data]
            return _info(row), records, [[dict(e) for e in g] for g in row.redo or []]

    def tail(self, eid: str, since: int) -> tuple[int, dict[str, Any],
                                                  list[dict[str, Any]],
                                                  list[list[dict[str, Any]]]]:
        """The encounter's version, its header record, its records from place ``since``
        on and its redo stack, read together (a process catching up on an answer given
        through another reads only what it lacks)."""
        _known_form(eid)

        def read() -> Any:
            with self.hot.connect() as conn, conn.begin():
                row = conn.execute(_TAIL_ROW, {"eid": eid}).first()
                if row is None:
                    raise NotFound(f"no encounter {eid!r}")
                rows = conn.execute(_TAIL, {"eid": eid, "since": since}).all()
            return row, rows

        row, rows = again_if_dropped(read)
        data = [dict(r.data) for r in rows]
        if not data or rows[0].seq != 0:
            raise NotFound(f"encounter {eid!r} has no header record")
        return (int(row.version), data[0], data[1:],
                [[dict(e) for e in g] for g in row.redo or []])

    def record_count(self, eid: str) -> int:
        with self.db() as db:
            return int(db.scalar(select(func.count()).select_from(RecordRow)
                                 .where(RecordRow.encounter_id == eid)) or 0)

    def commit(self, eid: str, expected: int, old: Sequence[Mapping[str, Any]],
               new: Sequence[Mapping[str, Any]], note: str | None = None,
               redo: Sequence[Sequence[Mapping[str, Any]]] = ()) -> int:
        """Replace the records ``old`` (as read at version ``expected``) by ``new`` and the
        redo stack by ``redo``, in one transaction; :class:`Conflict` if the encounter has
        moved on since. The new version."""
        # the header (record 0) changes in place (it counts the dice drawn): the log after
        # it is rewritten only from the first record that differs
        header = bool(old) and bool(new) and old[0] != new[0]
        keep = 1 if header else 0
        while keep < min(len(old), len(new)) and old[keep] == new[keep]:
            keep += 1
        return self.commit_from(eid, expected, len(old), keep, new[0] if header else None,
                                new[keep:], note, redo)

    def commit_from(self, eid: str, expected: int, had: int, keep: int,
                    header: Mapping[str, Any] | None, added: Sequence[Mapping[str, Any]],
                    note: str | None = None,
                    redo: Sequence[Sequence[Mapping[str, Any]]] = ()) -> int:
        """Of the ``had`` records stored at version ``expected``, keep the first ``keep``
        (the header replaced by ``header`` unless None) and write ``added`` after them,
        and the redo stack ``redo``, in one transaction (a decision writes only what it
        adds); :class:`Conflict` if the encounter has moved on since. The new version."""
        def write() -> None:
            with self.write_rows() as conn:
                done = conn.execute(update(EncounterRow)
                                    .where(EncounterRow.id == eid,
                                           EncounterRow.version == expected)
                                    .values(version=expected + 1, updated=now(),
                                            redo=[[dict(e) for e in g] for g in redo]))
                if done.rowcount != 1:
                    raise Conflict(f"the encounter has moved on since version {expected}")
                if keep < had:
                    conn.execute(delete(RecordRow).where(RecordRow.encounter_id == eid,
                                                         RecordRow.seq >= keep))
                if header is not None:
                    conn.execute(update(RecordRow)
                                 .where(RecordRow.encounter_id == eid, RecordRow.seq == 0)
                                 .values(data=dict(header), note=note))
                if added:
                    conn.execute(insert(RecordRow), [
                        {"encounter_id": eid, "seq": keep + i, "data": dict(r), "note": note}
                        for i, r in enumerate(added)])
                self._notify(conn, eid, expected + 1, keep)

        again_if_dropped(write)
        return expected + 1

    def _notify(self, db: DbSession | Connection, eid: str, version: int,
                kept: int | None = None) -> None:
        """On PostgreSQL: tell every server process listening, when this commits (with
        ``kept``: the records before that many were left as they were, the header aside,
        so a process holding them reads only the rest)."""
        if self.postgres:
            payload = f"{eid} {version}" + ("" if kept is None else f" {kept}")
            db.execute(text("SELECT pg_notify(:channel, :payload)"),
                       {"channel": CHANNEL, "payload": payload})

    def update_settings(self, eid: str, settings: Mapping[str, Any]) -> int:
        with self.write() as db:
            row = db.get(EncounterRow, eid, with_for_update=True)
            if row is None:
                raise NotFound(f"no encounter {eid!r}")
            row.settings = dict(settings)
            row.version += 1
            row.updated = now()
            db.flush()
            self._notify(db, eid, row.version)
            return row.version

    # -- players ---------------------------------------------------------------------
    def add_player(self, eid: str, name: str, combatants: Sequence[str]) -> PlayerInfo:
        key = new_key()
        with self.write() as db:
            row = PlayerRow(encounter_id=eid, name=name[:100], key=key, key_hash=key_hash(key),
                            combatants=list(combatants))
            db.add(row)
            db.flush()
            return _player(row)

    def player_by_key(self, key: str) -> PlayerInfo | None:
        hashed = key_hash(key)
        known = self._players.get(hashed)
        if known is not None:
            return known  # type: ignore[no-any-return]
        with self.db() as db:
            row = db.scalar(select(PlayerRow).where(PlayerRow.key_hash == hashed))
            player = None if row is None else _player(row)
        if player is not None:
            self._players.put(hashed, player)
        return player

    def players_of(self, eid: str) -> list[PlayerInfo]:
        """The encounter's invites (read for every view the GM asks for: a plain query)."""
        def read() -> list[PlayerInfo]:
            with self._reads.connect() as conn:
                rows = conn.execute(_PLAYERS, {"eid": eid})
                return [PlayerInfo(r.id, r.encounter_id, r.name, r.key, tuple(r.combatants))
                        for r in rows]

        return again_if_dropped(read)


def again_if_dropped(work: Callable[[], T]) -> T:
    """``work()``, and once more if the database connection it used had been dropped (a
    database restart, an idle connection cut by the network): the pool is refilled by then.
    A change that met a dropped connection at its COMMIT may have been kept: asked again,
    it is then a :class:`Conflict` (the version moved on), never a second copy."""
    try:
        return work()
    except DBAPIError as err:
        if not err.connection_invalidated:
            raise
    return work()


#: the queries asked most often, built once
_VERSION = select(EncounterRow.version).where(EncounterRow.id == bindparam("eid"))
_TAIL_ROW = select(EncounterRow.version, EncounterRow.redo).where(
    EncounterRow.id == bindparam("eid"))
_TAIL = (select(RecordRow.seq, RecordRow.data)
         .where(RecordRow.encounter_id == bindparam("eid"),
                or_(RecordRow.seq == 0, RecordRow.seq >= bindparam("since")))
         .order_by(RecordRow.seq))
_PLAYERS = (select(PlayerRow.id, PlayerRow.encounter_id, PlayerRow.name, PlayerRow.key,
                   PlayerRow.combatants)
            .where(PlayerRow.encounter_id == bindparam("eid")).order_by(PlayerRow.id))
