"""Encounters as live sessions: roles, the one-transaction-per-change rule, a session cache.

Every change (a decision, undo, redo, a hand edit, the end of a fight) runs on the
session of the version it read and commits the session's records only if that version
is still current; otherwise it is a :class:`~fracas.web.store.Conflict` and nothing is
written. Sessions are cached per encounter with the version they belong to.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fracas.core.registry import get_system
from fracas.core.scenario import Scenario, read_yaml, scenario_from_mapping
from fracas.encounter.policies import POLICIES
from fracas.encounter.session import Session
from fracas.errors import InputError
from fracas.web.store import Conflict, EncounterInfo, PlayerInfo, Store

VISIBILITY = ("exact", "bar", "status", "hidden")
DEFAULT_SETTINGS: dict[str, Any] = {"others": "bar", "hidden": []}
CACHED = 256  # live sessions kept in memory


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


class Forbidden(Exception):
    """The role may not do this (HTTP 403)."""


@dataclass
class _Entry:
    version: int
    records: list[dict[str, Any]]
    session: Session | None
    lock: threading.Lock = field(default_factory=threading.Lock)


def examples_dir() -> Path:
    """The example scenarios shipped beside the package (a source checkout's ``examples``)."""
    return Path(__file__).resolve().parents[3] / "examples"


def list_examples() -> list[str]:
    """Example fights (``<system>/<name>-fight.yaml``) and the other example scenarios."""
    root = examples_dir()
    if not root.is_dir():
        return []
    return sorted(str(p.relative_to(root)) for p in root.glob("*/*.yaml"))


def load_example(name: str) -> Any:
    """The mapping of an example scenario, standing alone (a table file it names in its
    folder is put inline); an unknown name is an InputError naming the list."""
    if name not in list_examples():
        raise InputError(f"no example {name!r}", path="example",
                         allowed=", ".join(n for n in list_examples() if "fight" in n))
    path = examples_dir() / name
    raw = read_yaml(path)
    rules = raw.get("rules") if isinstance(raw, dict) else None
    if isinstance(rules, dict):
        try:
            system = get_system(str(raw.get("system")))
            raw["rules"] = system.inline_files(rules, path.parent)
        except InputError as err:
            raise err.located(file=name) from None
    return raw


def check_settings(settings: Mapping[str, Any], roster: Sequence[str]) -> dict[str, Any]:
    """Validated visibility settings: ``others`` (how players see others), ``hidden`` ids."""
    if not isinstance(settings, Mapping):
        raise InputError("settings must be a mapping", path="settings",
                         allowed="{others: ..., hidden: [...]}")
    unknown = set(settings) - {"others", "hidden"}
    if unknown:
        raise InputError(f"unknown setting {sorted(unknown)[0]!r}", path="settings",
                         allowed="others, hidden")
    others = settings.get("others", DEFAULT_SETTINGS["others"])
    if others not in VISIBILITY:
        raise InputError(f"unknown visibility {others!r}", path="settings.others",
                         allowed=", ".join(VISIBILITY))
    hidden = settings.get("hidden", [])
    if not isinstance(hidden, list) or not all(isinstance(h, str) for h in hidden):
        raise InputError("hidden must be a list of combatant ids", path="settings.hidden",
                         allowed=", ".join(roster))
    for i, h in enumerate(hidden):
        if h not in roster:
            raise InputError(f"no combatant {h!r}", path=f"settings.hidden[{i}]",
                             allowed=", ".join(roster))
    return {"others": others, "hidden": list(dict.fromkeys(hidden))}


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


class Tracker:
    """The encounters of one database, played through their sessions."""

    def __init__(self, store: Store, notify: Callable[[str, int], None] | None = None):
        self.store = store
        self._notify = notify or (lambda eid, version: None)
        self._cache: OrderedDict[str, _Entry] = OrderedDict()
        self._guard = threading.Lock()
        self._systems: dict[str, Any] = {}

    # -- creating --------------------------------------------------------------------
    def create(self, gm_id: int, raw: Any, *, file: str | None = None, title: str | None = None,
               seed: int | None = None, controllers: Any = None,
               settings: Any = None, roll_all: bool = False) -> EncounterInfo:
        """A new encounter from a scenario mapping (validated like the CLI's)."""
        scenario = scenario_from_mapping(raw, file=file, folder=None)  # no files on a server
        ctl = check_controllers(controllers, scenario)
        chosen = check_settings(settings if settings is not None else DEFAULT_SETTINGS,
                                list(scenario.roster))
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise InputError("the seed must be a whole number", path="seed",
                             allowed="a whole number")
        # the GM decides for every combatant not given to a policy (a player takes theirs
        # by invitation), and spends threat and despair by hand (seed 004 · Step 5)
        people = {**dict.fromkeys(scenario.roster, "person"), "gm": "person", **ctl}
        session = Session.start(scenario, seed=seed, controllers=people, roll_all=roll_all)
        records = session.to_records()
        name = title or scenario.title or f"{scenario.system.id} encounter"
        info = self.store.create_encounter(gm_id, name, scenario.system.id, dict(raw), chosen,
                                           records)
        with self._guard:
            self._cache[info.id] = _Entry(info.version, list(records), session)
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
        if version != entry.version or entry.session is None:
            records = self.store.records(eid)
            entry.session = Session.from_records(records)
            entry.records = records
            entry.version = version
        assert entry.session is not None
        return entry.session

    def session(self, eid: str) -> tuple[int, Session, EncounterInfo]:
        """The encounter's current version, session and row (read under the lock)."""
        entry = self._entry(eid)
        with entry.lock:
            info = self.store.encounter(eid)
            session = self._fresh(eid, entry)
            return entry.version, session, info

    # -- changing --------------------------------------------------------------------
    def change(self, eid: str, expected: int | None, role: Role,
               act: Callable[[Session], Any], note: str) -> tuple[int, Any]:
        """Run ``act`` on the session and commit its records if ``expected`` still holds."""
        entry = self._entry(eid)
        with entry.lock:
            session = self._fresh(eid, entry)
            if expected is not None and expected != entry.version:
                raise Conflict(f"the fight has moved on: this was sent for version {expected}, "
                               f"it is now at version {entry.version}; reload and try again")
            old = entry.records
            try:
                result = act(session)
                new = session.to_records()
                version = self.store.commit(eid, entry.version, old, new, note=note)
            except BaseException:
                entry.version = -1  # rebuild from the database next time
                raise
            entry.records = new
            entry.version = version
        self._notify(eid, version)
        return version, result

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
                raise Forbidden(f"this decision belongs to {pending.who!r}, "
                                "not to a combatant you control")
            if not role.is_gm and answer.get("skip"):
                raise Forbidden("only the GM may skip a turn")
            by = "gm" if role.is_gm else pending.who
            return session.decide(answer, by=by)

        return self.change(eid, expected, role, act, note=f"decide by {role.name}")

    def gm_only(self, role: Role, what: str) -> None:
        if not role.is_gm:
            raise Forbidden(f"only the GM may {what}")

    def set_settings(self, eid: str, role: Role, settings: Any) -> int:
        self.gm_only(role, "change what players see")
        _, session, _ = self.session(eid)
        chosen = check_settings(settings, list(session.state.roster))
        version = self.store.update_settings(eid, chosen)
        self._notify(eid, version)
        return version

    def invite(self, eid: str, role: Role, name: Any, combatants: Any) -> PlayerInfo:
        self.gm_only(role, "invite players")
        _, session, _ = self.session(eid)
        roster = list(session.state.roster)
        if not isinstance(name, str) or not name.strip():
            raise InputError("a player needs a name", path="name", allowed="some text")
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
        with self._guard:
            cached = self._systems.get(info.id)
        if cached is None:
            cached = scenario_from_mapping(info.scenario, folder=None).system
            with self._guard:
                self._systems[info.id] = cached
        return cached
