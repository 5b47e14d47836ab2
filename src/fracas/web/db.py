"""The tables (SQLAlchemy 2) and the migrations (Alembic) of the web tracker.

An encounter's fight is its list of session records (``records``, one row each, in
order): the event log is the source of truth, and the state is its fold. ``version``
counts committed changes; a change commits only if the version it read is still the
current one (optimistic concurrency, the same on SQLite and PostgreSQL).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

MIGRATIONS = Path(__file__).parent / "migrations"


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class GameMaster(Base):
    """A GM: known only by the hash of their secret admin key."""

    __tablename__ = "gms"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class EncounterRow(Base):
    """An encounter: its scenario, who controls what, what players may see, its version,
    and the inputs undo took back (``redo``, kept so that redo survives a restart)."""

    __tablename__ = "encounters"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    gm_id: Mapped[int] = mapped_column(ForeignKey("gms.id"), index=True)
    title: Mapped[str] = mapped_column(String(200))
    system: Mapped[str] = mapped_column(String(40))
    scenario: Mapped[dict[str, Any]] = mapped_column(JSON)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    redo: Mapped[list[Any]] = mapped_column(JSON, default=list)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class PlayerRow(Base):
    """A player's invite: the encounter, the combatants they control, their key."""

    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    encounter_id: Mapped[str] = mapped_column(ForeignKey("encounters.id"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    key_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    key: Mapped[str] = mapped_column(String(64))
    combatants: Mapped[list[str]] = mapped_column(JSON)


class RecordRow(Base):
    """One record of an encounter's session log, at its place ``seq``."""

    __tablename__ = "records"
    encounter_id: Mapped[str] = mapped_column(ForeignKey("encounters.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    note: Mapped[str | None] = mapped_column(Text, nullable=True)


def normalize_url(url: str) -> str:
    """A database URL for SQLAlchemy: ``postgresql://`` uses psycopg 3; a bare path is SQLite."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:
        return f"sqlite:///{url}"
    return url


def make_engine(url: str) -> Engine:
    """An engine; SQLite gets WAL and a busy timeout so that readers never block a writer."""
    url = normalize_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_size=5, max_overflow=10, pool_pre_ping=True)


def make_hot_engine(url: str, engine: Engine) -> Engine:
    """The engine of the queries asked with every answer (the version read, the commit,
    the invite list). On PostgreSQL it has a pool of its own whose connections are not
    pinged on each checkout (a round trip each: a ninth of a busy server's time) and whose
    reads run outside a transaction (no BEGIN and ROLLBACK around them); the store asks
    again once when a connection turns out to have been dropped. SQLite: ``engine``."""
    if engine.dialect.name != "postgresql":
        return engine
    return create_engine(normalize_url(url), pool_size=10, max_overflow=10)


def migrate(engine: Engine) -> None:
    """Bring the database to the newest schema (Alembic ``upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
