"""The results of many fights (who won, in how many rounds, damage dealt and taken) and
their summary with Wilson intervals: what every simulation path returns."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from fracas.core.model import Roster
from fracas.encounter.engine import FightSetup
from fracas.encounter.state import FightState

#: Where fights start: a scenario's roster (the fight not begun) or any state of a fight
#: (a live session's, or a point of a log): every path plays on from it by the same rules.
Start = Roster | FightState


def start_state(origin: Start) -> FightState:
    """The state fights start from."""
    return origin if isinstance(origin, FightState) else FightState(origin)


def start_roster(origin: Start) -> Roster:
    """The combatants of the state fights start from."""
    return origin.roster if isinstance(origin, FightState) else origin


@dataclass
class Fights:
    """Raw results of n fights: who won, in how many rounds, damage dealt and taken."""

    ids: tuple[str, ...]
    sides: tuple[str, ...]  # every side, in order of first appearance
    winner: np.ndarray  # index into sides, -1 for no winner
    rounds: np.ndarray
    dealt: np.ndarray  # (n, combatants)
    taken: np.ndarray
    survived: np.ndarray  # bool (n, combatants)
    method: str = "steps"
    actions: np.ndarray | None = None  # turns in which an action was resolved, per fight
    notes: tuple[str, ...] = ()  # what the run had to do on the way (memory cap, path)

    @property
    def n(self) -> int:
        return int(self.winner.shape[0])

    @staticmethod
    def concat(parts: Sequence[Fights]) -> Fights:
        first = parts[0]
        return Fights(first.ids, first.sides,
                      np.concatenate([p.winner for p in parts]),
                      np.concatenate([p.rounds for p in parts]),
                      np.concatenate([p.dealt for p in parts]),
                      np.concatenate([p.taken for p in parts]),
                      np.concatenate([p.survived for p in parts]), first.method,
                      None if first.actions is None else
                      np.concatenate([p.actions for p in parts if p.actions is not None]),
                      tuple(dict.fromkeys(note for p in parts for note in p.notes)))


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion. It always holds the observed
    proportion: rounding alone gave 0 successes a lower end of 7e-18, above the 0 seen."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def summarize(f: Fights, names: dict[str, str] | None = None) -> dict[str, Any]:
    """Per side the win probability with its 95% interval; rounds; per combatant damage
    dealt and taken and survival."""
    names = names or {}
    sides = {}
    for i, side in enumerate(f.sides):
        wins = int((f.winner == i).sum())
        lo, hi = wilson(wins, f.n)
        sides[side] = {"wins": wins, "p_win": wins / f.n, "ci95": [lo, hi]}
    no_winner = int((f.winner < 0).sum())
    rounds = f.rounds
    values, counts = np.unique(rounds, return_counts=True)
    combatants = {}
    for j, cid in enumerate(f.ids):
        combatants[cid] = {
            "name": names.get(cid, cid),
            "damage_dealt_mean": float(f.dealt[:, j].mean()),
            "damage_taken_mean": float(f.taken[:, j].mean()),
            "survival": float(f.survived[:, j].mean()),
        }
    return {
        "fights": f.n,
        "method": f.method,
        "notes": list(f.notes),
        "sides": sides,
        "no_winner": {"count": no_winner, "p": no_winner / f.n},
        "rounds": {
            "mean": float(rounds.mean()),
            "quantiles": {q: int(np.quantile(rounds, float(Fraction(q[1:]) / 100),
                                             method="inverted_cdf"))
                          for q in ("p5", "p25", "p50", "p75", "p95")},
            "histogram": {str(int(v)): int(c) for v, c in zip(values, counts, strict=True)},
        },
        "combatants": combatants,
    }


def health(setup: FightSetup, roster: Roster) -> np.ndarray:
    return np.array([setup.system.health(c)[0] for c in roster.values()], dtype=np.int64)


def finish(setup: FightSetup, origin: Start, finals: Sequence[FightState],
            dealt: np.ndarray, method: str, rounds_played: np.ndarray | None = None,
            cut: np.ndarray | None = None, actions: np.ndarray | None = None,
            final_ids: np.ndarray | None = None) -> Fights:
    """Per fight: the winning side, rounds, damage taken, who is still standing. With
    ``final_ids`` (the fast path), ``finals`` are the distinct final states and each fight
    names its own by index, so the work is once per distinct state."""
    initial = start_roster(origin)
    ids = tuple(initial)
    sides = tuple(initial.sides())
    start = health(setup, initial)
    if final_ids is None:
        distinct: dict[FightState, int] = {}
        index = np.array([distinct.setdefault(f, len(distinct)) for f in finals],
                         dtype=np.int64)
        states = list(distinct)
    else:
        index, states = final_ids, list(finals)
    k = len(states)
    w = np.array([sides.index(f.winner) if f.winner in sides else -1 for f in states],
                 dtype=np.int64).reshape(k)
    r = np.array([f.round for f in states], dtype=np.int64).reshape(k)
    t = np.array([np.maximum(start - health(setup, f.roster), 0) for f in states],
                 dtype=np.int64).reshape(k, len(ids))
    a = np.array([[setup.system.is_active(c) for c in f.roster.values()] for f in states],
                 dtype=bool).reshape(k, len(ids))
    winner, rounds, taken, survived = w[index], r[index], t[index], a[index]
    if rounds_played is not None:
        rounds = rounds_played
    if cut is not None:
        winner[cut] = -1
    return Fights(ids, sides, winner, rounds, dealt, taken, survived, method, actions)


# -- step by step ----------------------------------------------------------------------------
def fight_rng(seed: int, index: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, index])))
