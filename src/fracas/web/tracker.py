"""Encounters as live sessions: roles, the one-transaction-per-change rule, a session cache.

Every change (a decision, undo, redo, a hand edit, the end of a fight) runs on the
session of the version it read and commits the session's records only if that version
is still current; otherwise it is a :class:`~fracas.web.store.Conflict` and nothing is
written. Sessions are cached per encounter with the version they belong to.
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from fracas.core.scenario import Scenario
from fracas.encounter.policies import POLICIES
from fracas.encounter.session import Session
from fracas.encounter.who_rolls import check_rollers
from fracas.errors import InputError
from fracas.registry.scenarios import scenario_from_mapping
from fracas.web.store import Conflict, EncounterInfo, Memory, PlayerInfo, Store

VISIBILITY = ("exact", "bar", "status", "hidden")
DEFAULT_SETTINGS: dict[str, Any] = {"others": "bar", "allies": "exact", "hidden": []}
CACHED = 256  # live sessions kept in memory
MAX_SEED = 2**63 - 1
MAX_TITLE = 200  # characters in an encounter's title typed by the GM


@dataclass(frozen=True)
class Role:
    """Who is asking: the GM of the encounter, or a player and the combatants they control."""

    kind: str  # "gm" | "player"
    combatants: tuple[str, ...] = ()
    name: str = "GM"

    @property
    def is_gm(self) -> bool:
        return self.kind == "gm"

    def controls(self, cid: str) -> bool:
        return self.is_gm or cid in self.combatants


GM = Role("gm")


def asked_now(session: Session, role: Role, settings: Mapping[str, Any]) -> str:
    """What the table asks now, in its words, as ``role`` may see it: the decision itself
    (``Grub the Brute's defence``) where it is the role's to answer, else whose it is (a
    combatant hidden from the players is the GM's), or that the fight is over."""
    pending = session.pending
    if pending is None:
        return "the end of the fight"
    if role.controls(pending.who):
        return pending.dice.what if pending.dice is not None else pending.prompt
    hidden = set(settings.get("hidden", ())) - set(role.combatants)
    roster = session.state.roster
    if pending.who in roster and pending.who not in hidden:
        return f"{roster[pending.who].name}'s {_DECISION.get(pending.kind, 'answer')}"
    return "the GM's turn to answer"


_DECISION = {"dice": "roll", "action": "action", "reaction": "reaction"}


class Forbidden(Exception):
    """The role may not do this (HTTP 403)."""


@dataclass
class _Entry:
    version: int
    records: list[dict[str, Any]]
    session: Session | None
    info: EncounterInfo | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


def plain_text(text: str, path: str) -> str:
    """Text people read (a title, a name, a reason): no NUL or other control characters
    (a database could not keep some, and no screen shows them)."""
    bad = next((ch for ch in text if ch in _CONTROL), None)
    if bad is not None:
        raise InputError(f"control character {bad!r} in the text", path=path,
                         allowed="printable text (no NUL or other control characters)")
    return text


_CONTROL = frozenset(chr(c) for c in [*range(0, 9), 11, 12, *range(14, 32), 127])


SETTINGS = "others, allies, hidden, hide_odds, past, revealed, winning"


def _ids(value: Any, path: str, roster: Sequence[str]) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(h, str) for h in value):
        raise InputError(f"{path.rsplit('.', 1)[-1]} must be a list of combatant ids",
                         path=path, allowed=", ".join(roster))
    for i, h in enumerate(value):
        if h not in roster:
            raise InputError(f"no combatant {h!r}", path=f"{path}[{i}]",
                             allowed=", ".join(roster))
    return list(dict.fromkeys(value))


def check_settings(settings: Mapping[str, Any], roster: Sequence[str]) -> dict[str, Any]:
    """Validated visibility settings: how players see the enemies (``others``) and their
    allies (``allies``), the ids ``hidden`` from them, whether odds against a target whose
    health they may not see are left out (``hide_odds``), the revealed combatants whose
    ``past`` (what they did while hidden) players are shown, and when each combatant was
    revealed (``revealed``: id -> the fight's event count then, kept by the tracker)."""
    if not isinstance(settings, Mapping):
        raise InputError("settings must be a mapping", path="settings",
                         allowed="{others: ..., allies: ..., hidden: [...]}")
    unknown = set(settings) - {s.strip() for s in SETTINGS.split(",")}
    if unknown:
        raise InputError(f"unknown setting {sorted(unknown)[0]!r}", path="settings",
                         allowed=SETTINGS)
    out: dict[str, Any] = {}
    for key in ("others", "allies"):
        mode = settings.get(key, DEFAULT_SETTINGS[key])
        if mode not in VISIBILITY:
            raise InputError(f"unknown visibility {mode!r}", path=f"settings.{key}",
                             allowed=", ".join(VISIBILITY))
        out[key] = mode
    out["hidden"] = _ids(settings.get("hidden", []), "settings.hidden", roster)
    out["past"] = _ids(settings.get("past", []), "settings.past", roster)
    hide = settings.get("hide_odds", False)
    if not isinstance(hide, bool):
        raise InputError(f"hide_odds must be true or false, not {hide!r}",
                         path="settings.hide_odds", allowed="true, false")
    out["hide_odds"] = hide
    winning = settings.get("winning", False)  # players may see who's winning (issue 37)
    if not isinstance(winning, bool):
        raise InputError(f"winning must be true or false, not {winning!r}",
                         path="settings.winning", allowed="true (players may see who's "
                         "winning), false")
    out["winning"] = winning
    revealed = settings.get("revealed", {})
    if not isinstance(revealed, Mapping) or not all(
            k in roster and isinstance(v, int) and not isinstance(v, bool) and v >= 0
            for k, v in revealed.items()):
        raise InputError("revealed must map combatant ids to event counts",
                         path="settings.revealed", allowed=", ".join(roster))
    out["revealed"] = dict(revealed)
    return out


def revealed_now(before: Mapping[str, Any], after: dict[str, Any], events: int
                 ) -> dict[str, Any]:
    """``after`` with the combatants revealed by it marked as seen from the fight's event
    ``events`` on (their past stays unseen unless listed in ``past``); one hidden again
    is no longer marked."""
    revealed = {k: v for k, v in dict(before.get("revealed") or {}).items()
                if k not in after["hidden"]}
    for cid in before.get("hidden") or ():
        if cid not in after["hidden"]:
            revealed[cid] = events
    return {**after, "revealed": revealed}


def check_controllers(controllers: Any, scenario: Scenario) -> dict[str, str]:
    """``{combatant id: "person" | policy}``; every error names the entry and what is allowed."""
    if controllers is None:
        return {}
    if not isinstance(controllers, Mapping):
        raise InputError("controllers must be a mapping of combatant id to controller",
                         path="controllers", allowed="{id: person | " + " | ".join(POLICIES) + "}")
    allowed = "person, " + ", ".join(POLICIES)
    out = {}
    for cid, ctl in controllers.items():
        if cid == "gm" and ctl in ("person", "policy"):  # threat and despair: by hand or not
            out["gm"] = str(ctl)
            continue
        if cid not in scenario.roster:
            raise InputError(f"no combatant {cid!r}", path=f"controllers.{cid}",
                             allowed=", ".join(scenario.roster))
        if ctl != "person" and ctl not in POLICIES:
            raise InputError(f"unknown controller {ctl!r}", path=f"controllers.{cid}",
                             allowed=allowed)
        out[str(cid)] = str(ctl)
    return out


def check_players(players: Any, scenario: Scenario) -> list[str]:
    """The combatants players will hold, as a create request gives them."""
    if players is None:
        return []
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InputError("players is a list of combatant ids", path="players",
                         allowed=", ".join(scenario.roster))
    return list(players)


def caught_up(session: Session, had: list[dict[str, Any]], records: list[dict[str, Any]]
              ) -> Session | None:
    """``session`` (saved at the records ``had``) brought to ``records`` when another server
    process only answered decisions since: its answers are given again here, which is
    much cheaper than replaying the whole fight; unchanged when the records are (a change
    of settings). None when that is not the case (an undo, a hand edit) or the result is
    not exactly ``records`` (the caller then replays)."""
    if records == had:
        return session  # only the settings changed (or the invites)
    if len(records) <= len(had) or records[1:len(had)] != had[1:]:
        return None
    return answered(session, len(had), records[0], records[len(had):])


def answered(session: Session, had: int, header: Mapping[str, Any],
             added: Sequence[Mapping[str, Any]]) -> Session | None:
    """``session`` (saved at its first ``had`` records) with the answers of the records
    ``added`` after them given again; None where they are not all answers and dice, or
    the session's records then are not its records as saved with the header ``header``
    and ``added`` after them."""
    answers = []
    for record in added:
        if record.get("auto"):
            continue  # dice the session rolls by itself, drawn again as it plays on
        if record.get("type") != "Input" or record.get("kind") not in ("answer", "dice"):
            return None
        if record["kind"] == "answer":
            answers.append(({"option": record.get("option")}, record.get("by", "gm")))
        elif "rolled" in record:
            answers.append(({"roll": True}, record.get("by", "gm")))
        else:
            answers.append(({"dice": record.get("dice")}, record.get("by", "gm")))
    try:
        for answer, by in answers:
            session.decide(answer, by=str(by))
    except Exception:  # whatever went wrong, the caller replays the records instead
        return None
    settled, kept, tail = session.unsaved()
    if settled != had - 1 or kept != settled:
        return None  # not saved where the caller says: the caller replays instead
    return session if same_records([session.header(), *tail], [header, *added]) else None


def same_records(one: Sequence[Mapping[str, Any]], other: Sequence[Mapping[str, Any]]) -> bool:
    """The same session log: every input, and the header but for the scenario file's name
    (which only the process that read the file knows)."""
    def header(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        return {k: v for k, v in records[0].items() if k != "file"} if records else {}

    return header(one) == header(other) and list(one[1:]) == list(other[1:])


class Tracker:
    """The encounters of one database, played through their sessions."""

    def __init__(self, store: Store, notify: Callable[[str, int], None] | None = None):
        self.store = store
        self._notify = notify or (lambda eid, version: None)
        self._cache: OrderedDict[str, _Entry] = OrderedDict()
        self._guard = threading.Lock()
        self._systems = Memory(CACHED)  # each encounter's rule system, with its overrides
        self._behind = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fracas-catch-up")

    def catch_up(self, eid: str, version: int, kept: int | None = None) -> None:
        """Another process committed ``version``: bring this process's cached session up
        to it in the background, before a request for it comes (sessions not in memory
        are left to be loaded when asked for). ``kept``: how many records the change left
        as they were; when this process holds them all, only the rest is read."""
        with self._guard:
            entry = self._cache.get(eid)
        if entry is None or entry.version >= version:
            return

        def fresh() -> None:
            with entry.lock:
                if entry.version < version:
                    try:
                        if not (kept is not None and entry.version == version - 1
                                and self._append(eid, entry, version, kept)):
                            self._fresh(eid, entry)
                    except Exception:  # a request will load it again and say what is wrong
                        entry.version = -1

        with contextlib.suppress(RuntimeError):  # the executor has been shut down
            self._behind.submit(fresh)

    def _append(self, eid: str, entry: _Entry, version: int, kept: int) -> bool:
        """Catch ``entry`` up on one change that only added records after those it holds
        (its answers given again), reading only those; False where that is not the case
        (the caller then loads the whole log)."""
        had = entry.records
        if entry.session is None or entry.info is None or not had or kept < len(had):
            return False
        stored, header, tail, redo = self.store.tail(eid, len(had))
        if stored != version:
            return False
        session = answered(entry.session, len(had), header, tail) if tail else None
        if session is None:
            entry.session = None  # part played: the whole log is replayed instead
            return False
        session.redo_stack = redo
        had[0] = header
        had.extend(tail)
        self._saved(entry, session, version)
        entry.info = replace(entry.info, version=version)
        return True

    @staticmethod
    def _saved(entry: _Entry, session: Session, version: int) -> None:
        """``entry`` holds ``session`` at ``version``, its records as stored then."""
        session.saved()
        entry.session, entry.version = session, version

    def close(self) -> None:
        self._behind.shutdown(wait=False, cancel_futures=True)

    # -- creating --------------------------------------------------------------------
    def create(self, gm_id: int, raw: Any, *, file: str | None = None, title: str | None = None,
               seed: int | None = None, controllers: Any = None,
               settings: Any = None, roll_all: bool = False, gm_dice: str = "fracas",
               players: Any = None) -> EncounterInfo:
        """A new encounter from a scenario mapping (validated like the CLI's)."""
        scenario = scenario_from_mapping(raw, file=file, folder=None)  # no files on a server
        ctl = check_controllers(controllers, scenario)
        chosen = check_settings(settings if settings is not None else DEFAULT_SETTINGS,
                                list(scenario.roster))
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                                 or not 0 <= seed <= MAX_SEED):
            raise InputError(f"the seed must be a whole number from 0 to {MAX_SEED}",
                             path="seed", allowed=f"a whole number from 0 to {MAX_SEED}")
        # the GM decides for every combatant not given to a policy (a player takes theirs
        # by invitation), and spends threat and despair by hand (seed 004 · Step 5)
        people = {**dict.fromkeys(scenario.roster, "person"), "gm": "person", **ctl}
        held = check_players(players, scenario)
        check_rollers(gm_dice, held, scenario.roster)
        session = Session.start(scenario, seed=seed, controllers=people, roll_all=roll_all,
                                gm_dice=gm_dice, players=held, roll_now=False)
        records = session.to_records()
        session.saved()
        if title is not None and len(title) > MAX_TITLE:
            raise InputError(f"the title is {len(title):,} characters long", path="title",
                             allowed=f"at most {MAX_TITLE} characters")
        name = plain_text(title or scenario.title or f"{scenario.system.id} encounter",
                          "title")
        info = self.store.create_encounter(gm_id, name, scenario.system.id, dict(raw), chosen,
                                           records)
        with self._guard:
            self._cache[info.id] = _Entry(info.version, list(records), session, info)
            self._trim()
        return info

    # -- reading ---------------------------------------------------------------------
    def _entry(self, eid: str) -> _Entry:
        with self._guard:
            entry = self._cache.get(eid)
            if entry is not None:
                self._cache.move_to_end(eid)
            else:
                entry = _Entry(-1, [], None)
                self._cache[eid] = entry
                self._trim()
        return entry

    def _trim(self) -> None:
        """Forget the least recently used sessions beyond :data:`CACHED` (they are rebuilt
        from the database when next needed); the caller holds the guard."""
        while len(self._cache) > CACHED:
            self._cache.popitem(last=False)

    def _fresh(self, eid: str, entry: _Entry) -> Session:
        """Bring the cached session to the stored version (caller holds ``entry.lock``)."""
        version = self.store.version(eid)
        if version != entry.version or entry.session is None or entry.info is None:
            info, records, redo = self.store.load(eid)
            session = None
            if entry.session is not None and entry.version >= 0:
                session = caught_up(entry.session, entry.records, records)
            session = session or Session.from_records(records)
            session.redo_stack = redo
            entry.records = records
            self._saved(entry, session, info.version)
            entry.info = info
        assert entry.session is not None
        return entry.session

    def session(self, eid: str) -> tuple[int, Session, EncounterInfo]:
        """The encounter's current version, session and row (read under the lock)."""
        entry = self._entry(eid)
        with entry.lock:
            session = self._fresh(eid, entry)
            assert entry.info is not None
            return entry.version, session, entry.info

    def just_changed(self, eid: str) -> tuple[int, Session, EncounterInfo]:
        """As :meth:`session`, for the request that has just committed a change: this
        process's copy is that change's (or a newer one's), so the database is not asked
        again (a change made through another process since shows with the next view)."""
        entry = self._entry(eid)
        with entry.lock:
            session = (entry.session if entry.version >= 0 and entry.info is not None
                       and entry.session is not None else self._fresh(eid, entry))
            assert entry.info is not None
            return entry.version, session, entry.info

    # -- changing --------------------------------------------------------------------
    def change(self, eid: str, expected: int | None, role: Role,
               act: Callable[[Session], Any], note: str) -> tuple[int, Any]:
        """Run ``act`` on the session and commit its records if ``expected`` still holds."""
        entry = self._entry(eid)
        with entry.lock:
            session = self._fresh(eid, entry)
            if expected is not None and expected != entry.version:
                settings = entry.info.settings if entry.info is not None else {}
                raise Conflict(f"the fight has moved on: this was sent for version {expected}, "
                               f"it is now at version {entry.version}; reload and try again",
                               version=entry.version,
                               moved_on=asked_now(session, role, settings))
            try:
                self._players_now(eid, session)
                result = act(session)
                version = self._commit(eid, entry, session, note)
            except BaseException:
                entry.version = -1  # rebuild from the database next time
                raise
            if entry.info is not None:
                entry.info = replace(entry.info, version=version)
        self._notify(eid, version)
        return version, result

    def _commit(self, eid: str, entry: _Entry, session: Session, note: str) -> int:
        """Write what ``session`` changed since ``entry``'s records were stored: the header
        and the records from the first input changed on (a decision's only), or, where the
        session does not know, its whole log compared with the stored one."""
        old = entry.records
        settled, kept, tail = session.unsaved()
        if old and settled == len(old) - 1:
            header = session.header()
            version = self.store.commit_from(
                eid, entry.version, len(old), 1 + kept, header if header != old[0] else None,
                tail, note=note, redo=session.redo_stack)
            old[0] = header
            del old[1 + kept:]
            old.extend(tail)
        else:
            new = session.to_records()
            version = self.store.commit(eid, entry.version, old, new, note=note,
                                        redo=session.redo_stack)
            entry.records = new
        self._saved(entry, session, version)
        return version

    def _players_now(self, eid: str, session: Session) -> None:
        """The players' combatants as the session asks their dice: those it was started
        with and every invited player's (the change's own answer then rolls what fracas
        rolls after it)."""
        if session.gm_dice is None:
            return
        held = {c for p in self.store.players_of(eid) for c in p.combatants}
        if not held <= session.players:
            session.players = session.players | held

    def decide(self, eid: str, expected: int | None, role: Role,
               answer: Mapping[str, Any]) -> tuple[int, Any]:
        """Answer the pending decision as ``role`` (the GM, or the player who controls it)."""
        if not isinstance(answer, Mapping):
            raise InputError("the answer must be a mapping", path="answer",
                             allowed='{"option": id} or {"dice": [...]} or {"roll": true}')

        def act(session: Session) -> Any:
            pending = session.pending
            if pending is None:
                raise InputError("the fight is over: there is no decision to make",
                                 path="answer")
            if not role.is_gm and not role.controls(pending.who):
                # no name: the combatant asked may be one hidden from the players
                raise Forbidden("this decision is not yours: it is for a combatant you do "
                                "not control")
            if not role.is_gm and answer.get("skip"):
                raise Forbidden("only the GM may skip a turn")
            if not role.is_gm and answer.get("policy") is not None:
                raise Forbidden("only the GM may let fracas decide")
            by = "gm" if role.is_gm else pending.who
            return session.decide(answer, by=by)

        return self.change(eid, expected, role, act, note=f"decide by {role.name}")

    def gm_only(self, role: Role, what: str) -> None:
        if not role.is_gm:
            raise Forbidden(f"only the GM may {what}")

    def set_settings(self, eid: str, role: Role, settings: Any) -> int:
        self.gm_only(role, "change what players see")
        _, session, info = self.session(eid)
        if isinstance(settings, Mapping) and "winning" not in settings:  # kept as it was
            settings = {**settings, "winning": bool(info.settings.get("winning", False))}
        chosen = check_settings(settings, list(session.state.roster))
        if "revealed" not in settings:  # kept by the tracker, not sent by the page
            chosen = revealed_now(info.settings, chosen, len(session.events))
        version = self.store.update_settings(eid, chosen)
        self._notify(eid, version)
        return version

    def invite(self, eid: str, role: Role, name: Any, combatants: Any) -> PlayerInfo:
        self.gm_only(role, "invite players")
        _, session, _ = self.session(eid)
        roster = list(session.state.roster)
        if not isinstance(name, str) or not name.strip():
            raise InputError("a player needs a name", path="name", allowed="some text")
        plain_text(name, "name")
        if not isinstance(combatants, list) or not combatants:
            raise InputError("a player controls a list of combatants", path="combatants",
                             allowed=", ".join(roster))
        for i, cid in enumerate(combatants):
            if cid not in roster:
                raise InputError(f"no combatant {cid!r}", path=f"combatants[{i}]",
                                 allowed=", ".join(roster))
        return self.store.add_player(eid, name.strip(), combatants)

    def system(self, info: EncounterInfo) -> Any:
        """The encounter's rule system (with its rule overrides), from its scenario."""
        cached = self._systems.get(info.id)
        if cached is None:
            cached = scenario_from_mapping(info.scenario, folder=None).system
            self._systems.put(info.id, cached)
        return cached
