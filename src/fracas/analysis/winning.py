"""Who's winning: each side's chance from the fight as it stands.

A :class:`Position` is a fight at one moment: a state the fight loop can play on from
(every whole turn and GM edit applied), and the policy that plays each combatant for
the estimate. It comes from a scenario (its start), a live session (its current state:
the state as the pending turn began) or any point of a fight or play log. People's
combatants are played by their own policy where the sheet names one, else by the named
default (:data:`~fracas.encounter.policies.DEFAULT_POLICY`); a combatant a policy
controls, by that policy; every answer says which.

:func:`win_chance` answers with the same engines that work from a scenario's start:
the exact chain (:func:`~fracas.analysis.duel.duel_odds`) where the fight's states stay
under a budget, else simulation (:func:`~fracas.analysis.simulate.simulate`: the fast,
sampled or step-by-step path, ``--jobs`` or Dask), which states its method, its sample
and each figure's 95 % interval. :func:`refine` gives a narrowing sequence of figures
(a first one quickly, exact where the chain is small): what the live views show.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from fracas.analysis.duel import LIMIT, NOBODY, DuelOdds, duel_odds
from fracas.analysis.fights import Fights, wilson
from fracas.core.scenario import Scenario
from fracas.encounter.engine import FightSetup, setup_from_scenario
from fracas.encounter.policies import DEFAULT_POLICY, POLICIES
from fracas.encounter.state import FightState, fold
from fracas.errors import InputError
from fracas.frozen import freeze
from fracas.odds.text import fraction_text

Z95 = 1.959963984540054
EXACT_STATES = 20_000  # auto: the exact chain's budget of states before it simulates
EXACT_SECONDS = 20.0  # auto: and of seconds
FIGHTS = 4_000  # auto: fights simulated past the budget (about +-1.5 points at 95 %)
OWN, CONTROLLER, DEFAULT = "own", "controller", "default"  # why a policy plays a combatant
START = "the start of the fight"  # where a scenario's fight starts, in words
WHY = {OWN: "its own", CONTROLLER: "as it is played", DEFAULT: "the default"}


@dataclass(frozen=True)
class Position:
    """A fight at one moment, ready to be played on: ``setup`` names a policy for every
    combatant in ``state``; ``played_by`` is (id, policy, why) with why one of ``own``
    (the sheet's policy), ``controller`` (the policy that runs it at the table) or
    ``default`` (a person's combatant with no policy of its own); ``where`` says which
    moment in words."""

    setup: FightSetup
    state: FightState
    played_by: tuple[tuple[str, str, str], ...]
    where: str
    title: str = ""
    scenario: Scenario | None = None

    @property
    def names(self) -> dict[str, str]:
        return {cid: c.name for cid, c in self.state.roster.items()}

    def played_by_json(self) -> dict[str, dict[str, str]]:
        return {cid: {"policy": name, "why": why} for cid, name, why in self.played_by}

    def played_by_words(self) -> str:
        """``Rin: aggressive (the default); Gorr: cautious (its own)``."""
        names = self.names
        return "; ".join(f"{names[cid]}: {name} ({WHY[why]})"
                         for cid, name, why in self.played_by)

    def to_json(self) -> dict[str, Any]:
        return {"where": self.where, "round": self.state.round, "over": self.state.over,
                "played_by": self.played_by_json()}

    def with_limit(self, max_rounds: int | None = None, policy: str | None = None
                   ) -> Position:
        """The same moment with another round limit, or every combatant played by
        ``policy`` (``--max-rounds``, ``--policy``)."""
        setup = self.setup if max_rounds is None else replace(self.setup, max_rounds=max_rounds)
        if policy is None:
            return replace(self, setup=setup)
        if policy not in POLICIES:
            raise InputError(f"unknown policy {policy!r}", path="--policy",
                             allowed=", ".join(POLICIES))
        chosen = {cid: (policy, CONTROLLER) for cid in self.state.roster}
        return _position(setup, self.state, chosen, self.where, self.title, self.scenario)


def _position(setup: FightSetup, state: FightState, chosen: Mapping[str, tuple[str, str]],
              where: str, title: str = "", scenario: Scenario | None = None) -> Position:
    """A position whose setup names the chosen policy of every combatant in ``state``."""
    played = tuple((cid, *chosen[cid]) for cid in state.roster)
    return Position(replace(setup, policies=tuple((cid, p) for cid, p, _ in played)), state,
                    played, where, title, scenario)


def own_policy(combatant: Any) -> tuple[str, str]:
    """A person's combatant: its sheet's policy, else the named default."""
    name = getattr(combatant, "policy", None)
    return (str(name), OWN) if name in POLICIES else (DEFAULT_POLICY, DEFAULT)


def of_scenario(scenario: Scenario, max_rounds: int | None = None,
                policy: str | None = None) -> Position:
    """A scenario's fight at its start, each combatant played by its policy."""
    setup = setup_from_scenario(scenario, max_rounds, policy)
    chosen = {cid: (setup.policy_of(cid), OWN if (policy or c.policy) else DEFAULT)
              for cid, c in scenario.roster.items()}
    return _position(setup, FightState(scenario.roster), chosen, START,
                     scenario.title or "", scenario)


def of_session(session: Any) -> Position:
    """A live session's fight as it stands: the state as its pending turn began. A
    combatant a policy controls is played by it; a person's, by its own policy or the
    default (:func:`own_policy`)."""
    state: FightState = session.turn_base
    chosen: dict[str, tuple[str, str]] = {}
    for cid, c in state.roster.items():
        controller = session.current.get(cid)
        chosen[cid] = ((str(controller), CONTROLLER) if controller in POLICIES
                       else own_policy(c))
    return _position(session.setup, state, chosen, where_words(state),
                     session.scenario.title or "", session.scenario)


def where_words(state: FightState, prefix: str = "") -> str:
    """The moment in words: ``round 3`` or ``before the first round``."""
    moment = f"round {state.round}" if state.started else "before the first round"
    if state.started and state.next_slot >= len(state.slots):
        moment = f"the end of round {state.round}"
    if state.over:
        moment = "the fight is over"
    return f"{prefix}{moment}"


def of_log(path: Path | str, at: int | None = None) -> Position:
    """A fight log (``fracas fight --log``) after event ``at`` (counted from 1; default:
    its end), at the end of the last whole turn by then; or a play log (``fracas play
    --log``) after input ``at``, as its pending turn began. Errors name the file and
    ``--at``."""
    from fracas.encounter.log import log_kind

    kind = log_kind(path)
    if kind == "session":
        return _of_play_log(path, at)
    if kind == "FightLog":
        return _of_fight_log(path, at)
    raise InputError("not a fight log or a play log", file=str(path), path="line 1",
                     allowed="a log written by fracas fight --log or fracas play --log")


def _check_at(at: int | None, most: int, what: str, file: str) -> int:
    if at is None:
        return most
    if not 0 <= at <= most:
        raise InputError(f"{what} {at} of a log that holds {most}", file=file, path="--at",
                         allowed=f"a whole number from 0 to {most}")
    return at


def _of_fight_log(path: Path | str, at: int | None) -> Position:
    from fracas.encounter.engine import Encounter

    fight = Encounter.load(path)
    events = fight.events
    n = _check_at(at, len(events), "event", str(path))
    ends = [*fight.marks[1:], len(events)] if fight.marks else []
    whole = max([e for e in ends if e <= n], default=0)
    state = fold(fight.initial, events[:whole])
    chosen = {cid: _logged(fight.setup.policy_of(cid), c) for cid, c in state.roster.items()}
    turns = sum(1 for e in ends if e <= whole)
    said = f"after event {whole:,} of {len(events):,} (turn {turns:,}), "
    if whole != n:
        said = f"after event {n:,}, at the end of its last whole turn: event {whole:,}, "
    return _position(fight.setup, state, chosen, where_words(state, said),
                     fight.scenario.title or "", fight.scenario)


def _logged(name: str, combatant: Any) -> tuple[str, str]:
    """Why a fight log's policy plays a combatant: its sheet's, the default, or the one
    the fight was played with (``fracas fight --policy``)."""
    if name == combatant.policy:
        return name, OWN
    return name, DEFAULT if combatant.policy is None and name == DEFAULT_POLICY else CONTROLLER


def _of_play_log(path: Path | str, at: int | None) -> Position:
    from fracas.encounter.session_log import session_at

    session, most = session_at(path, at)
    n = _check_at(at, most, "input", str(path))
    position = of_session(session)
    said = where_words(position.state, f"after input {n:,} of {most:,}, ")
    return replace(position, where=said)


# -- the answer -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Chance:
    """One outcome's chance: ``p``, its 95 % interval (``lo`` = ``hi`` = ``p`` when
    exact) and, when exact, the fraction."""

    p: float
    lo: float
    hi: float
    exact: Fraction | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"p": self.p, "ci95": [self.lo, self.hi]}
        if self.exact is not None:
            out["exact"] = fraction_text(self.exact)
        return out


@dataclass(frozen=True)
class WinChance:
    """Each side's chance to win from a position, and the rounds left.

    ``method`` is ``exact`` (the exact chain: ``sample`` counts its states) or the
    simulation path (``fast``, ``sampled``, ``steps``: ``sample`` counts fights); every
    chance carries its 95 % interval (a point when exact). ``rounds_left`` counts the
    rounds still to begin (the one under way is not counted); ``no_winner`` is the
    chance of the round limit or of nobody left standing."""

    sides: dict[str, Chance]
    no_winner: Chance
    rounds_left: float
    rounds_left_ci95: tuple[float, float]
    method: str
    sample: int
    seconds: float
    position: Position
    notes: tuple[str, ...] = field(default=())

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    def half_width(self) -> float:
        """The widest half-interval of a side's chance (0 when exact)."""
        return max([(c.hi - c.lo) / 2 for c in self.sides.values()], default=0.0)

    def method_words(self) -> str:
        if self.exact:
            return f"exact ({self.sample:,} fight states)"
        return (f"estimate: {self.sample:,} fights simulated ({self.method} path), "
                "95 % intervals")

    def to_json(self) -> dict[str, Any]:
        return {"exact": self.exact, "method": self.method, "sample": self.sample,
                "sample_of": "fight states" if self.exact else "fights",
                "seconds": round(self.seconds, 3), "where": self.position.where,
                "round": self.position.state.round,
                "sides": {s: c.to_json() for s, c in self.sides.items()},
                "no_winner": self.no_winner.to_json(),
                "rounds_left": {"mean": self.rounds_left,
                                "ci95": list(self.rounds_left_ci95)},
                "played_by": self.position.played_by_json(), "notes": list(self.notes)}


def _already(state: FightState) -> int:
    """Rounds the fight has begun (the one under way included): rounds left are those
    still to begin."""
    return state.round


def from_duel(duel: DuelOdds, position: Position) -> WinChance:
    """The exact chain's answer as a :class:`WinChance`."""
    sides = {s: Chance(float(p), float(p), float(p), p) for s, p in duel.outcomes.items()
             if s not in (LIMIT, NOBODY)}
    none = duel.outcomes.get(LIMIT, Fraction(0)) + duel.outcomes.get(NOBODY, Fraction(0))
    left = float(duel.mean_rounds()) - _already(position.state)
    return WinChance(sides, Chance(float(none), float(none), float(none), none), left,
                     (left, left), "exact", duel.states, duel.seconds, position)


def from_fights(fights: Fights, position: Position, seconds: float) -> WinChance:
    """Simulated fights' answer as a :class:`WinChance` (Wilson 95 % intervals)."""
    n = fights.n
    sides = {}
    for i, side in enumerate(fights.sides):
        wins = int((fights.winner == i).sum())
        sides[side] = Chance(wins / n, *wilson(wins, n))
    none = int((fights.winner < 0).sum())
    left = fights.rounds.astype(np.float64) - _already(position.state)
    mean = float(left.mean())
    half = Z95 * float(left.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return WinChance(sides, Chance(none / n, *wilson(none, n)), mean,
                     (mean - half, mean + half), fights.method, n, seconds, position,
                     tuple(fights.notes))


def win_chance(source: Any, at: int | None = None, method: str = "auto", *,
               fights: int = FIGHTS, seed: int = 0, jobs: int = 1,
               max_states: int = EXACT_STATES, max_seconds: float = EXACT_SECONDS,
               scheduler: str | None = None) -> WinChance:
    """Each side's chance to win from ``source`` (a :class:`Position`, a live
    :class:`~fracas.encounter.session.Session`, a :class:`Scenario`, or the path of a
    fight or play log, read after event or input ``at``).

    ``method``: ``exact`` (the exact chain, an :class:`InputError` past ``max_states``
    states or ``max_seconds``), ``simulate`` (``fights`` fights by the path auto
    chooses; or name it: ``fast``, ``sampled``, ``steps``), or ``auto``: exact while the
    chain stays under the budget, else simulated."""
    position = position_of(source, at)
    if method not in ("auto", "exact", "simulate", "fast", "sampled", "steps"):
        raise InputError(f"unknown method {method!r}", path="method",
                         allowed="auto, exact, simulate, fast, sampled, steps")
    if method in ("auto", "exact"):
        try:
            duel = duel_odds(position.setup, position.state, max_states,
                             max_seconds=max_seconds)
        except InputError:
            if method == "exact":
                raise
        else:
            return from_duel(duel, position)
    return simulated(position, fights, seed, "auto" if method in ("auto", "simulate")
                     else method, jobs, scheduler)


def simulated(position: Position, fights: int, seed: int = 0, path: str = "auto",
              jobs: int = 1, scheduler: str | None = None) -> WinChance:
    """``fights`` fights simulated from the position."""
    from fracas.analysis.simulate import simulate

    began = time.perf_counter()
    played = simulate(position.setup, position.state, fights, seed=seed, jobs=jobs,
                      method=path, scheduler=scheduler)  # type: ignore[arg-type]
    return from_fights(played, position, time.perf_counter() - began)


def position_of(source: Any, at: int | None = None) -> Position:
    """A :class:`Position` from whatever ``source`` is (see :func:`win_chance`)."""
    if isinstance(source, Position):
        return source
    if isinstance(source, Scenario):
        return of_scenario(source)
    if isinstance(source, str | Path):
        return of_log(source, at)
    if hasattr(source, "turn_base"):
        return of_session(source)
    raise InputError(f"no fight to read in {type(source).__name__}", path="source",
                     allowed="a live session, a scenario, or the path of a fight or play log")


# -- live: a figure soon, then narrower ones --------------------------------------------------
FIRST_FIGHTS = 400  # the first estimate: at most this many fights (about +-5 points at 95 %)
FIRST_TARGET = 0.05  # ... fewer once every side's 95 % interval is within 5 points
FIRST_STEP = 64  # ... looked at every this many fights (the steps path's task)
SECOND_TARGET = 0.02  # the second estimate: within 2 points
GROWTH = 4  # each later estimate plays this many times the fights before it


LIVE_EXACT_SECONDS = 30.0  # live: the exact chain's budget (after a +-2 point estimate)
SECOND_FIGHTS = 2_400  # the second estimate: at most this many fights (about +-2 points)


def refine(position: Position, *, seed: int = 0, target: float = 0.01,
           max_fights: int = 256_000, exact_states: int = EXACT_STATES,
           exact_seconds: float = LIVE_EXACT_SECONDS, most_per_step: int = 1_000_000
           ) -> Iterator[WinChance]:
    """Narrowing figures for a live view: a first estimate (:func:`first_figure`: the
    steps path's first fights, until every side is within :data:`FIRST_TARGET`, at most
    :data:`FIRST_FIGHTS`); a second within :data:`SECOND_TARGET` (the fights it should
    take, from the first figure's interval, at most :data:`SECOND_FIGHTS` in all, by the
    path auto chooses); then the exact chain, which ends the sequence when it fits its
    budget of states and seconds; else estimates over :data:`GROWTH` times as many fights
    each (the fights before them kept), until a side's interval is within ``target``
    either way or ``max_fights``. ``most_per_step``: the most fights one figure adds (a
    live view answers for a newer state between two figures)."""
    began = time.perf_counter()
    played = first_figure(position, seed)
    chance = from_fights(played, position, time.perf_counter() - began)
    yield chance
    part, path, tried = 1, "auto", False
    while played.n < max_fights:
        if (played.n >= SECOND_FIGHTS or chance.half_width() <= SECOND_TARGET) and not tried:
            tried = True
            try:
                duel = duel_odds(position.setup, position.state, exact_states,
                                 max_seconds=exact_seconds)
            except InputError:
                pass
            else:
                yield from_duel(duel, position)
                return
        size = _second_size(played.n, chance.half_width()) if not tried else \
            played.n * (GROWTH - 1)
        more = simulate_fights(position, min(size, max_fights - played.n, most_per_step),
                               seed + part, path)
        method = played.method if played.method.endswith(more.method) else \
            f"{played.method}, then {more.method}"
        played, part, path = Fights.concat([played, more]), part + 1, more.method
        played.method = method
        chance = from_fights(played, position, time.perf_counter() - began)
        yield chance
        if chance.half_width() <= target and tried:
            return


def first_figure(position: Position, seed: int = 0) -> Fights:
    """The first estimate's fights: fights 0, 1, ... of ``seed`` on the steps path (the
    very fights ``simulate_fights(position, n, seed, "steps")`` plays), looked at every
    :data:`FIRST_STEP` fights and stopped once every side's 95 % interval is within
    :data:`FIRST_TARGET` either way, or at :data:`FIRST_FIGHTS`. A fight one side nearly
    always wins needs far fewer fights than an even one for the same interval (Wilson's:
    it stays honest near 0 and 1). Stopping on the interval looked at every step is a
    sequential rule, so the interval's cover is a little under its 95 %; the first look
    waits for :data:`FIRST_STEP` fights, and the next figures narrow it."""
    from fracas.analysis.paths import steps_chunk

    parts: list[Fights] = []
    done = 0
    while done < FIRST_FIGHTS:
        stop = min(done + FIRST_STEP, FIRST_FIGHTS)
        parts.append(steps_chunk((position.setup, position.state, seed, done, stop)))
        done = stop
        played = Fights.concat(parts)
        if from_fights(played, position, 0.0).half_width() <= FIRST_TARGET:
            break
    return played


def _second_size(n: int, half_width: float) -> int:
    """More fights for the second estimate: as many as bring ``half_width`` (of ``n``
    fights) within :data:`SECOND_TARGET` (an interval narrows as one over the root of the
    fights), a tenth more for the guess, at most :data:`SECOND_FIGHTS` in all."""
    wanted = math.ceil(n * (half_width / SECOND_TARGET) ** 2 * 1.1)
    return max(min(wanted, SECOND_FIGHTS) - n, FIRST_STEP)


def simulate_fights(position: Position, n: int, seed: int, path: str = "auto") -> Fights:
    from fracas.analysis.simulate import simulate

    method = path if path in ("fast", "sampled", "steps") else "auto"
    return simulate(position.setup, position.state, n, seed=seed,
                    method=method)  # type: ignore[arg-type]


# -- what if: the chance with the fight changed, on a scratch copy -----------------------------
def what_if(position: Position, *, join: Mapping[str, Any] | None = None,
            leave: str | None = None, values: Mapping[str, Mapping[str, Any]] | None = None
            ) -> Position:
    """The position with a change the GM is weighing, made on a copy of its state (the
    fight itself, its session and its log, are never touched): ``join`` a combatant (a
    scenario entry; it joins the order at the next round, as ``gm add`` brings one in),
    ``leave`` (a combatant's id), or ``values`` ({id: {field: value}}: a health, wounds,
    strain ... set by hand). The combatant joining is played by its own policy, else the
    default. Errors name the field and what is allowed."""
    from dataclasses import fields

    from fracas.core.events import Changed
    from fracas.encounter.edits import apply_live
    from fracas.encounter.gm_events import RULE_GM, CombatantAdded, CombatantRemoved
    from fracas.encounter.hand import hand_value

    state, said = position.state, []
    chosen = {cid: (name, why) for cid, name, why in position.played_by}
    names = position.names
    for cid, changes in (values or {}).items():
        _known(state, cid, "values")
        c = state.roster[cid]
        for name, value in changes.items():
            allowed = [f.name for f in fields(c.state)]
            if name not in allowed:
                raise InputError(f"{cid} has no value {name!r}", path=f"values.{cid}",
                                 allowed=", ".join(allowed))
            after = hand_value(type(c.state), name, value)
            state = state.apply(Changed(RULE_GM, cid, name, getattr(c.state, name), after))
            c = state.roster[cid]
            said.append(f"{names[cid]} at {name} {after}")
    if leave is not None:
        _known(state, leave, "leave")
        state = apply_live(_scenario(position), state, CombatantRemoved(RULE_GM, leave))
        chosen.pop(leave, None)
        said.append(f"{names[leave]} leaves")
    if join is not None:
        if not isinstance(join, Mapping) or str(join.get("id", "")) in state.roster:
            raise InputError("a combatant joining is a scenario entry with a new id",
                             path="join", allowed="{id: ..., name: ..., side: ..., and the "
                             "sheet's fields}")
        state = apply_live(_scenario(position), state,
                           CombatantAdded(RULE_GM, freeze(dict(join))))
        cid = str(join["id"])
        chosen[cid] = own_policy(state.roster[cid])
        said.append(f"{state.roster[cid].name} joins (from the next round)")
    if not said:
        raise InputError("a what-if needs a change", path="what-if",
                         allowed="a combatant joining, one leaving, or a value set")
    return _position(position.setup, state, chosen,
                     f"{position.where}; what if: {', '.join(said)}", position.title,
                     position.scenario)


def _known(state: FightState, cid: str, path: str) -> None:
    if cid not in state.roster:
        raise InputError(f"no combatant with id {cid!r}", path=path,
                         allowed=", ".join(state.roster))


def _scenario(position: Position) -> Scenario:
    if position.scenario is None:
        raise InputError("this position has no scenario to build a combatant by",
                         path="what-if", allowed="a position from a scenario, a session "
                         "or a log")
    return position.scenario
