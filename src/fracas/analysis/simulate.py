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

import hashlib
import math
import pickle
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from fracas.analysis.chain import ChainTooLarge, FightChain
from fracas.analysis.sampled import SamplingRoller, SubstepCache
from fracas.analysis.workers import worker_pool
from fracas.core.events import ActionChosen, Outcome
from fracas.core.model import Roster
from fracas.dice.rollers import EnumerationTooLarge, RandomRoller
from fracas.encounter.engine import Encounter, FightSetup, step
from fracas.encounter.state import FightState
from fracas.errors import InputError

BATCH = 32768
CHUNK = 64  # fights per task on the step-by-step path
Method = Literal["auto", "fast", "sampled", "steps"]
MAX_MEMORY = 2**30  # bytes: the default cap on a chain or a sub-step cache


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


def _health(setup: FightSetup, roster: Roster) -> np.ndarray:
    return np.array([setup.system.health(c)[0] for c in roster.values()], dtype=np.int64)


def _finish(setup: FightSetup, initial: Roster, finals: Sequence[FightState],
            dealt: np.ndarray, method: str, rounds_played: np.ndarray | None = None,
            cut: np.ndarray | None = None, actions: np.ndarray | None = None,
            final_ids: np.ndarray | None = None) -> Fights:
    """Per fight: the winning side, rounds, damage taken, who is still standing. With
    ``final_ids`` (the fast path), ``finals`` are the distinct final states and each fight
    names its own by index, so the work is once per distinct state."""
    ids = tuple(initial)
    sides = tuple(initial.sides())
    start = _health(setup, initial)
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
    t = np.array([np.maximum(start - _health(setup, f.roster), 0) for f in states],
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
def _fight_rng(seed: int, index: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, index])))


def _steps_chunk(args: tuple[Any, Roster, int, int, int]) -> Fights:
    from fracas.core.scenario import Scenario

    setup, roster, seed, start, stop = args
    scenario = Scenario(setup.system, roster, None, {})
    finals, dealt_rows, actions = [], [], []
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
        actions.append(sum(isinstance(e, ActionChosen) for e in fight.events))
    return _finish(setup, roster, finals, np.array(dealt_rows).reshape(-1, len(ids)), "steps",
                   actions=np.array(actions, dtype=np.int64))


# -- sampled -------------------------------------------------------------------------------
LEARN_FIGHTS = 8  # fights played first to fix which rules are too large to enumerate
_CACHES: dict[str, tuple[Any, Roster, SubstepCache]] = {}


Plan = tuple[frozenset[Any], frozenset[Any]]  # rules always played, rules always traced


def learn_played(setup: FightSetup, roster: Roster, seed: int, max_bytes: int
                 ) -> tuple[Plan, SubstepCache]:
    """The rules keyed by the whole fight (always played) and those too large to
    enumerate (always traced into roll trees), found by playing :data:`LEARN_FIGHTS`
    fights on a learning cache (deterministic in the seed); the cache is returned warm."""
    cache = SubstepCache(max_bytes, learn=True)
    for i in range(LEARN_FIGHTS):
        _play_sampled(setup, roster, SamplingRoller(np.random.Generator(np.random.PCG64(
            np.random.SeedSequence([seed, 1_000_033, i]))), cache))
    return (frozenset(cache.played), frozenset(cache.traced)), cache


def _play_sampled(setup: FightSetup, roster: Roster, roller: SamplingRoller
                  ) -> tuple[FightState, np.ndarray, int]:
    """One fight on the sampled path: final state, damage dealt, actions resolved."""
    ids = tuple(roster)
    who = {c.name: i for i, c in enumerate(roster.values())}
    who.update({cid: i for i, cid in enumerate(ids)})
    state = FightState(roster)
    dealt = np.zeros(len(ids), dtype=np.int64)
    actions = 0
    while not state.over:
        state, events = step(roller, setup, state, lean=True)
        for e in events:
            if isinstance(e, Outcome) and e.damage and e.actor in who:
                dealt[who[e.actor]] += e.damage
            elif isinstance(e, ActionChosen):
                actions += 1
    return state, dealt, actions


def run_key(*parts: Any) -> str:
    """A digest of what a run's tasks share (setup, roster, plan), made once by the caller.

    A worker keeps its sub-step cache from task to task under this key, with the first
    task's setup and roster. The objects themselves cannot be the key: a rule in the plan
    may be a bound method (a system's ``initiative``), and the copies unpickled for each
    task compare unequal, so every task would start cold; nor may a later task play with
    its own copies, whose rules the cached plan would no longer recognise."""
    return hashlib.sha256(pickle.dumps(parts)).hexdigest()


SampledTask = tuple[Any, Roster, int, int, int, Plan, int, str]


def _sampled_chunk(args: SampledTask) -> Fights:
    setup, roster, seed, start, stop, plan, max_bytes, key = args
    if key in _CACHES:  # the first task's own objects: the plan's rules name them
        setup, roster, cache = _CACHES[key]
    else:
        _CACHES.clear()
        cache = SubstepCache(max_bytes, plan[0], traced=plan[1])
        _CACHES[key] = (setup, roster, cache)
    finals, dealt_rows, actions = [], [], []
    emptied = cache.emptied
    for i in range(start, stop):
        final, dealt, acted = _play_sampled(setup, roster,
                                            SamplingRoller(_fight_rng(seed, i), cache))
        finals.append(final)
        dealt_rows.append(dealt)
        actions.append(acted)
    out = _finish(setup, roster, finals, np.array(dealt_rows).reshape(-1, len(roster)),
                  "sampled", actions=np.array(actions, dtype=np.int64))
    if cache.emptied > emptied:
        out.notes = (f"the sub-step cache reached its memory cap of {_size(max_bytes)} "
                     "(--max-memory) and was emptied; the results are the same, only slower",)
    return out


def _size(n: int) -> str:
    return f"{n / 2**30:g} GB" if n >= 2**30 else f"{n / 2**20:g} MB"


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


def _fast_batch(args: tuple[FightSetup, Roster, int, int, int, int, int]) -> Fights:
    setup, roster, seed, batch, size, max_states, max_memory = args
    chain = _chain(setup, roster, max_states)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, 1_000_003, batch])))
    start = chain.state_id(FightState(roster))
    current = np.full(size, start, dtype=np.int64)
    dealt = np.zeros((size, len(roster)), dtype=np.int64)
    rounds = np.zeros(size, dtype=np.int64)
    cut = np.zeros(size, dtype=bool)
    acted = np.zeros(size, dtype=np.int64)
    live = np.arange(size)
    while live.size:
        if chain.nbytes() > max_memory:
            raise ChainTooLarge(f"the chain of fight states passed the memory cap of "
                                f"{_size(max_memory)} (--max-memory) after "
                                f"{len(chain.states):,} states")
        new, got, began, resolved = chain.advance(current[live], rng)
        acted[live] += resolved
        current[live] = new
        dealt[live] += got
        rounds[live] += began
        over_limit = rounds[live] > setup.max_rounds
        if over_limit.any():  # the round limit: the fight stops before that round's turns
            cut[live[over_limit]] = True
            rounds[live[over_limit]] = setup.max_rounds
        live = live[~(chain.over[new] | over_limit)]
    distinct, final_ids = np.unique(current, return_inverse=True)
    finals = [chain.states[int(sid)] for sid in distinct]
    return _finish(setup, roster, finals, dealt, "fast", rounds, cut, acted,
                   final_ids=final_ids.reshape(-1))


PROBE_FIGHTS = 256  # per half of the probe
PROBE_RUNS = 150_000  # the most exact runs a probe spends before it answers no
PROBE_STATE_SHARE = 16  # one state's exact runs past budget / this: a chain that cannot pay


@dataclass(frozen=True)
class Probe:
    """What a probe of the chain found, and its verdict (all deterministic in the seed)."""

    fast: bool
    states_half: int
    states_full: int
    turns: int
    runs: int
    reason: str


def probe(setup: FightSetup, roster: Roster, seed: int, n: int,
          max_memory: int = MAX_MEMORY, budget: float | None = None,
          run_cost: float = 1.0) -> Probe:
    """Decide whether the exact chain pays for ``n`` fights.

    Plays two halves of :data:`PROBE_FIGHTS` fights through the chain, counting the
    distinct states met (S after one half and after both) and the exact roller's runs.
    States grow like S(n) ~ S(2h) (n / 2h)^a with a = log2(S(2h) / S(h)); the chain costs
    about runs / S per state, each worth ``run_cost`` of a turn played step by step. It
    stops early, answering no, once its runs pass ``budget`` (default: what the
    step-by-step path would spend), or, given a ``budget``, 1/:data:`PROBE_STATE_SHARE` of
    it on one state (on average over a turn's new states). It counts what depends on the
    seed alone, no clock.
    """
    chain = _chain(setup, roster, 10**7)
    start_runs = chain.exact.runs
    limit = int(min(PROBE_RUNS, n * 50 if budget is None else budget))
    per_state = limit if budget is None else max(1, limit // PROBE_STATE_SHARE)
    start = chain.state_id(FightState(roster))
    visited: set[int] = set()
    turns = 0
    counts: list[int] = []

    def no(reason: str) -> Probe:
        return Probe(False, counts[0] if counts else len(visited), len(visited), turns,
                     chain.exact.runs - start_runs, reason)

    for half in range(2):
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, 7, half])))
        current = np.full(PROBE_FIGHTS, start, dtype=np.int64)
        live = np.arange(PROBE_FIGHTS)
        while live.size:
            visited.update(np.unique(current[live]).tolist())
            turns += int(live.size)
            runs = chain.exact.runs - start_runs
            if chain.nbytes() > max_memory:
                _CHAINS.clear()
                return no(f"the chain passed the memory cap of {_size(max_memory)} "
                          "(--max-memory)")
            per_fight = turns / (PROBE_FIGHTS * (half + 1))
            if runs > (n * max(per_fight, 1.0) if budget is None else budget):
                return no("the chain's states cost more than playing every fight" if budget
                          is None else f"the chain's states passed the probe's budget of "
                          f"{limit:,} exact runs")
            if turns > 2 * PROBE_FIGHTS and len(visited) > 0.25 * turns:
                return no("nearly every turn meets a new state: they do not repeat")
            fresh = sum(chain.rows[sid] is None for sid in np.unique(current[live]).tolist())
            chain.exact.max_runs = min(start_runs + limit,
                                       chain.exact.runs + max(1, fresh) * per_state)
            try:
                new, _, _, _ = chain.advance(current[live], rng)
            except EnumerationTooLarge:
                _CHAINS.clear()
                return no(f"the chain's states passed the probe's budget of {limit:,} exact "
                          f"runs{'' if budget is None else ', or its share for one state'}")
            finally:
                chain.exact.max_runs = None
            current[live] = new
            live = live[~chain.over[new]]
        counts.append(len(visited))
    runs = chain.exact.runs - start_runs
    s_half, s_full = counts
    alpha = min(1.0, max(0.0, math.log2(s_full / s_half))) if s_half else 1.0
    fights = 2 * PROBE_FIGHTS
    states_n = s_full * max(1.0, n / fights) ** alpha
    fast_cost = runs / max(s_full, 1) * states_n * run_cost
    steps_cost = n * turns / fights
    return Probe(fast_cost < steps_cost, s_half, s_full, turns, runs,
                 f"states grow as n^{alpha:.2f}: about {states_n:,.0f} states "
                 f"(worth ~{fast_cost:,.0f} turns) against {steps_cost:,.0f} turns step "
                 "by step")


PARALLEL_FROM_SECONDS = 3.0  # less serial work than this left: no worker processes


_SHARED: dict[int, Any] = {}  # in a worker: the fields every task shares, by position


def _receive(shared: dict[int, Any]) -> None:
    """A worker's start: the fields its tasks share arrive once, in one pickle, so a
    setup whose rule system has filled its memos (auto's trials) is not copied into every
    task, and a plan's rules stay bound to the very system the setup holds."""
    _SHARED.clear()
    _SHARED.update(shared)


def _with_shared(packed: tuple[Callable[[Any], Fights], tuple[Any, ...]]) -> Fights:
    worker, own = packed
    fields, rest = [], iter(own)
    for i in range(len(_SHARED) + len(own)):
        fields.append(_SHARED[i] if i in _SHARED else next(rest))
    return worker(tuple(fields))


def _run(tasks: list[Any], worker: Callable[[Any], Fights], jobs: int,
         progress: Callable[[int], None] | None, sizes: list[int],
         scheduler: str | None = None) -> list[Fights]:
    """Run the tasks in order. With ``scheduler`` (``tcp://HOST:PORT``) they all run on
    that Dask cluster, and the results come back in the same order. Else the first runs
    here and is timed: only when the rest would take :data:`PARALLEL_FROM_SECONDS` or more
    on one core are they spread over ``jobs`` processes (starting them costs about a
    second each), so ``--jobs 2`` is never much slower than ``--jobs 1``; the fields all
    those tasks share go to each worker once (:func:`_receive`).
    The results do not depend on where a task ran."""
    if scheduler:
        from fracas.analysis.cluster import dask_map

        return dask_map(scheduler, worker, tasks, sizes, progress)
    start = time.perf_counter()
    results = [worker(tasks[0])]
    if progress:
        progress(sizes[0])
    rest, rest_sizes = tasks[1:], sizes[1:]
    serial = (time.perf_counter() - start) * len(rest)
    if jobs <= 1 or len(rest) <= 1 or serial < PARALLEL_FROM_SECONDS:
        for task, size in zip(rest, rest_sizes, strict=True):
            results.append(worker(task))
            if progress:
                progress(size)
        return results
    same = [i for i in range(len(rest[0])) if all(t[i] is rest[0][i] for t in rest)]
    shared = {i: rest[0][i] for i in same}
    own = [tuple(v for i, v in enumerate(t) if i not in shared) for t in rest]
    pool = worker_pool(jobs, _receive, (shared,))
    try:
        for part, size in zip(pool.map(_with_shared, [(worker, o) for o in own]), rest_sizes,
                              strict=True):
            results.append(part)
            if progress:
                progress(size)
    finally:  # on Ctrl-C: drop the tasks not started, wait only for the running ones
        pool.shutdown(wait=True, cancel_futures=True)
    return results


def simulate(setup: FightSetup, roster: Roster, n: int, seed: int = 0, jobs: int = 1,
             method: Method = "auto", max_states: int = 1_000_000,
             progress: Callable[[int], None] | None = None,
             max_memory: int = MAX_MEMORY, scheduler: str | None = None) -> Fights:
    """Play ``n`` fights. ``fast`` goes through the exact chain; ``sampled`` draws each
    rule sub-step from its cache; ``steps`` plays each fight turn by turn; ``auto``
    counts which pays on seeded trials (:func:`fracas.analysis.auto.choose`) and says so
    in the notes. ``scheduler``
    (``tcp://HOST:PORT``) plays them on that Dask cluster instead of ``jobs`` processes,
    with the same results for the same seed."""
    if n < 1:
        raise ValueError("simulate needs n >= 1")
    chosen: tuple[str, ...] = ()
    first: list[Fights] = []
    plan: Plan | None = None
    if method == "auto":
        from fracas.analysis.auto import choose  # auto plays this module's paths

        choice = choose(setup, roster, seed, n, max_memory)
        method, chosen, plan = choice.method, (choice.note,), choice.plan  # type: ignore[assignment]
        first = [choice.first] if choice.first is not None else []
        if progress and first:
            progress(first[0].n)
    if method == "sampled":
        if plan is None:
            plan, _ = learn_played(setup, roster, seed, max_memory)
        begin = first[0].n if first else 0
        sizes = _sizes(n - begin)
        key = run_key(setup, roster, plan, max_memory)
        sampled_tasks = [(setup, roster, seed, begin + c * CHUNK, begin + c * CHUNK + size,
                          plan, max_memory, key) for c, size in enumerate(sizes)]
        done = Fights.concat(first + (_run(sampled_tasks, _sampled_chunk, jobs, progress,
                                           sizes, scheduler) if sizes else []))
        done.notes = (*chosen, *done.notes)
        return done
    if method == "fast":
        sizes = [min(BATCH, n - b * BATCH) for b in range(math.ceil(n / BATCH))]
        tasks = [(setup, roster, seed, b, size, max_states, max_memory)
                 for b, size in enumerate(sizes)]
        try:
            done = Fights.concat(_run(tasks, _fast_batch, jobs, progress, sizes, scheduler))
        except ChainTooLarge as err:
            _CHAINS.clear()
            if not chosen:
                raise InputError(str(err), path="--method fast",
                                 allowed="a larger --max-memory, or --method sampled or "
                                 "steps") from None
            method, chosen = "steps", (*chosen, f"{err}: switched to the steps path")
        else:
            done.notes = (*chosen, *done.notes)
            return done
    begin = first[0].n if first and first[0].method == "steps" else 0
    first = first if begin else []
    sizes = _sizes(n - begin)
    step_tasks = [(setup, roster, seed, begin + c * CHUNK, begin + c * CHUNK + size)
                  for c, size in enumerate(sizes)]
    done = Fights.concat(first + (_run(step_tasks, _steps_chunk, jobs, progress, sizes,
                                       scheduler) if sizes else []))
    done.notes = (*chosen, *done.notes)
    return done


def _sizes(n: int) -> list[int]:
    return [min(CHUNK, n - c * CHUNK) for c in range(math.ceil(n / CHUNK))]
