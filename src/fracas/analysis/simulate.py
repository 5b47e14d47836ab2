"""Monte Carlo simulation of many fights: step by step, or fast from the exact chain.

Both paths give fights with the same distribution; the tests check that they agree.

* **steps**: each fight is played turn by turn with a seeded random roller (the
  ``fight`` command's loop); fight ``i`` uses the seed ``(seed, i)``.
* **fast**: fights advance in batches of :data:`BATCH` through a
  :class:`~fracas.analysis.chain.FightChain`: each turn is one draw from its exact
  distribution, shared by every fight in the same state. Batch ``b`` uses the seed
  ``(seed, b)``.

Either way the result depends only on the seed and the number of fights, never on
``jobs`` (batches and fights are spread over processes, then put back in order).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from fracas.analysis.chain import ChainTooLarge, FightChain
from fracas.core.events import Outcome
from fracas.core.model import Roster
from fracas.dice.rollers import RandomRoller
from fracas.encounter.engine import Encounter, FightSetup
from fracas.encounter.state import FightState

BATCH = 4096
CHUNK = 64  # fights per task on the step-by-step path
Method = Literal["auto", "fast", "steps"]


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
                      np.concatenate([p.survived for p in parts]), first.method)


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


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


def _health(setup: FightSetup, roster: Roster) -> np.ndarray:
    return np.array([setup.system.health(c)[0] for c in roster.values()], dtype=np.int64)


def _finish(setup: FightSetup, initial: Roster, finals: Sequence[FightState],
            dealt: np.ndarray, method: str, rounds_played: np.ndarray | None = None,
            cut: np.ndarray | None = None) -> Fights:
    ids = tuple(initial)
    sides = tuple(initial.sides())
    start = _health(setup, initial)
    n = len(finals)
    winner = np.full(n, -1, dtype=np.int64)
    rounds = np.zeros(n, dtype=np.int64)
    taken = np.zeros((n, len(ids)), dtype=np.int64)
    survived = np.zeros((n, len(ids)), dtype=bool)
    cache: dict[FightState, tuple[int, int, np.ndarray, np.ndarray]] = {}
    for i, s in enumerate(finals):
        row = cache.get(s)
        if row is None:
            w = sides.index(s.winner) if s.winner in sides else -1
            health = _health(setup, s.roster)
            alive = np.array([setup.system.is_active(c) for c in s.roster.values()])
            row = (w, s.round, np.maximum(start - health, 0), alive)
            cache[s] = row
        winner[i], rounds[i], taken[i], survived[i] = row
    if rounds_played is not None:
        rounds = rounds_played
    if cut is not None:
        winner[cut] = -1
    return Fights(ids, sides, winner, rounds, dealt, taken, survived, method)


# -- step by step ----------------------------------------------------------------------------
def _fight_rng(seed: int, index: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, index])))


def _steps_chunk(args: tuple[Any, Roster, int, int, int]) -> Fights:
    from fracas.core.scenario import Scenario

    setup, roster, seed, start, stop = args
    scenario = Scenario(setup.system, roster, None, {})
    finals, dealt_rows = [], []
    ids = tuple(roster)
    who = {c.name: i for i, c in enumerate(roster.values())}
    who.update({cid: i for i, cid in enumerate(ids)})
    for i in range(start, stop):
        fight = Encounter(scenario, setup, RandomRoller(rng=_fight_rng(seed, i)))
        finals.append(fight.run())
        dealt = np.zeros(len(ids), dtype=np.int64)
        for e in fight.events:
            if isinstance(e, Outcome) and e.damage and e.actor in who:
                dealt[who[e.actor]] += e.damage
        dealt_rows.append(dealt)
    return _finish(setup, roster, finals, np.array(dealt_rows).reshape(-1, len(ids)), "steps")


# -- fast ------------------------------------------------------------------------------------
_CHAINS: dict[tuple[FightSetup, Roster], FightChain] = {}


def _chain(setup: FightSetup, roster: Roster, max_states: int) -> FightChain:
    key = (setup, roster)
    chain = _CHAINS.get(key)
    if chain is None:
        chain = FightChain(setup, roster, tuple(roster), max_states=max_states)
        _CHAINS.clear()
        _CHAINS[key] = chain
    return chain


def _fast_batch(args: tuple[FightSetup, Roster, int, int, int, int]) -> Fights:
    setup, roster, seed, batch, size, max_states = args
    chain = _chain(setup, roster, max_states)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, 1_000_003, batch])))
    start = chain.state_id(FightState(roster))
    current = np.full(size, start, dtype=np.int64)
    dealt = np.zeros((size, len(roster)), dtype=np.int64)
    rounds = np.zeros(size, dtype=np.int64)
    cut = np.zeros(size, dtype=bool)
    live = np.arange(size)
    while live.size:
        new, got, began = chain.advance(current[live], rng)
        current[live] = new
        dealt[live] += got
        rounds[live] += began
        over_limit = rounds[live] > setup.max_rounds
        if over_limit.any():  # the round limit: the fight stops before that round's turns
            cut[live[over_limit]] = True
            rounds[live[over_limit]] = setup.max_rounds
        live = live[~(chain.over[new] | over_limit)]
    finals = [chain.states[int(s)] for s in current]
    return _finish(setup, roster, finals, dealt, "fast", rounds, cut)


def _run(tasks: list[Any], worker: Callable[[Any], Fights], jobs: int,
         progress: Callable[[int], None] | None, sizes: list[int]) -> list[Fights]:
    results: list[Fights] = []
    if jobs <= 1 or len(tasks) == 1:
        for task, size in zip(tasks, sizes, strict=True):
            results.append(worker(task))
            if progress:
                progress(size)
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for part, size in zip(pool.map(worker, tasks), sizes, strict=True):
            results.append(part)
            if progress:
                progress(size)
    return results


def simulate(setup: FightSetup, roster: Roster, n: int, seed: int = 0, jobs: int = 1,
             method: Method = "auto", max_states: int = 100_000,
             progress: Callable[[int], None] | None = None) -> Fights:
    """Play ``n`` fights; ``auto`` takes the fast path unless the chain grows past
    ``max_states`` on a first batch (then every fight is played step by step)."""
    if n < 1:
        raise ValueError("simulate needs n >= 1")
    if method in ("auto", "fast"):
        sizes = [min(BATCH, n - b * BATCH) for b in range(math.ceil(n / BATCH))]
        tasks = [(setup, roster, seed, b, size, max_states if b == 0 else 10 * max_states)
                 for b, size in enumerate(sizes)]
        try:
            first = _fast_batch(tasks[0])
        except ChainTooLarge:
            if method == "fast":
                raise
        else:
            if progress:
                progress(sizes[0])
            rest = _run(tasks[1:], _fast_batch, jobs, progress, sizes[1:]) if tasks[1:] else []
            return Fights.concat([first, *rest])
    sizes = [min(CHUNK, n - c * CHUNK) for c in range(math.ceil(n / CHUNK))]
    step_tasks = [(setup, roster, seed, c * CHUNK, c * CHUNK + size)
                  for c, size in enumerate(sizes)]
    return Fights.concat(_run(step_tasks, _steps_chunk, jobs, progress, sizes))
