"""The three simulation paths' work, one task at a time: step by step, sampled (rule
sub-steps drawn from a cache of their exact distributions) and fast (the exact chain of fight
states). :mod:`fracas.analysis.simulate` spreads the tasks over processes;
:mod:`fracas.analysis.auto` weighs the paths on seeded trials of the same tasks.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import math
import pickle
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from fracas.analysis.chain import ChainTooLarge, FightChain
from fracas.analysis.fights import Fights, Start, fight_rng, finish, start_roster, start_state
from fracas.analysis.sampled import SamplingRoller, SubstepCache
from fracas.analysis.trace import MemoRoller, ReplayMemo
from fracas.core.events import ActionChosen, Outcome
from fracas.core.recur import Recurrence, forget_states, recurring_states
from fracas.core.words import count
from fracas.dice.rollers import EnumerationTooLarge, Roller
from fracas.encounter.engine import FightSetup, step
from fracas.encounter.modes import LEAN, forget_choices, retry_choices
from fracas.encounter.policies import forget_memos
from fracas.encounter.state import FightState

BATCH = 32768
CHUNK = 16  # fights per task, steps and sampled (small: workers share news sooner)
MAX_MEMORY = 2**30  # bytes: the default cap on a chain or a sub-step cache


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Within: Python's cycle collector paused, the young generations collected on the way
    out. A fight makes and drops objects by the hundred thousand, nearly all freed by
    reference counting; the collector would otherwise walk them, and the memos that
    outlive each fight, every few hundred allocations (a quarter of a Genesys fight's
    time). A task is at most :data:`CHUNK` fights, so what a cycle leaves meanwhile is
    small and freed at the task's end."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.collect(1)
        if was:
            gc.enable()


def steps_chunk(args: tuple[Any, Start, int, int, int]) -> Fights:
    """Fights ``start`` to ``stop`` played step by step, each on its own seeded random
    roller: the fights ``fracas fight`` plays with those seeds, by the lean loop (no
    narration or events nobody reads; the same rolls, so the same fights). The rules'
    sub-steps go through the process's :class:`~fracas.analysis.trace.ReplayMemo`, which
    draws the same values as playing them. The memo is kept for the setup, whatever the
    state the fights start from: its trees are keyed by each sub-step's whole arguments,
    so a live view's next position (the fight a turn later) walks the trees the last one
    grew."""
    setup, roster, seed, start, stop = args
    memo = MEMOS.get(setup)
    if memo is None:
        MEMOS.clear()
        memo = MEMOS[setup] = ReplayMemo()
    return play_chunk(setup, roster, range(start, stop),
                      lambda i: MemoRoller(fight_rng(seed, i), memo), "steps")


def play_chunk(setup: FightSetup, roster: Start, indices: range,
               roller_of: Callable[[int], Roller], method: str) -> Fights:
    """The fights of ``indices`` by the lean loop, fight ``i`` on ``roller_of(i)``, with
    the cycle collector paused and the states met remembered where they recur
    (:mod:`fracas.core.recur`)."""
    finals, dealt_rows, actions = [], [], []
    recurrence = RECURRENCES.get((setup, roster))
    if recurrence is None:
        if len(RECURRENCES) >= 8:
            RECURRENCES.clear()
        recurrence = RECURRENCES[(setup, roster)] = Recurrence()
        retry_memos(setup)
    with collector_paused(), recurring_states(recurrence):
        for i in indices:
            final, dealt, acted = play_lean(setup, roster, roller_of(i))
            finals.append(final)
            dealt_rows.append(dealt)
            actions.append(acted)
    return finish(setup, roster, finals,
                  np.array(dealt_rows).reshape(-1, len(start_roster(roster))),
                  method, actions=np.array(actions, dtype=np.int64))


def retry_memos(setup: FightSetup) -> None:
    """Fights of ``setup`` from a new state: the memos kept for the setup (the steps
    path's roll trees, the steady policies' choices) try afresh whether they pay, since
    their trials counted another start's fights (a memo never changes a fight: only the
    time)."""
    memo = MEMOS.get(setup)
    if memo is not None:
        memo.retry()
    retry_choices(setup)


#: The steps path's memo of sub-steps (kept from task to task, and from state to state, for
#: the same fight setup).
MEMOS: dict[FightSetup, ReplayMemo] = {}
#: Whether a fight's states recur enough to be remembered (found out once per fight).
RECURRENCES: dict[tuple[FightSetup, Start], Recurrence] = {}


# -- sampled -------------------------------------------------------------------------------
LEARN_FIGHTS = 8  # fights played first to fix which rules are too large to enumerate
CACHES: dict[str, tuple[Any, Start, SubstepCache]] = {}


Plan = tuple[frozenset[Any], frozenset[Any]]  # rules always played, rules always traced


def learn_played(setup: FightSetup, roster: Start, seed: int, max_bytes: int,
                 max_work: float | None = None) -> tuple[Plan, SubstepCache]:
    """The rules keyed by the whole fight (always played) and those too large to
    enumerate (always traced into roll trees), found by playing :data:`LEARN_FIGHTS`
    fights on a learning cache (deterministic in the seed); the cache is returned warm.
    Past ``max_work`` enumeration runs and traces: :class:`WorkCapReached` (auto's trial)."""
    cache = SubstepCache(max_bytes, learn=True, max_work=max_work)
    for i in range(LEARN_FIGHTS):
        play_lean(setup, roster, SamplingRoller(np.random.Generator(np.random.PCG64(
            np.random.SeedSequence([seed, 1_000_033, i]))), cache))
    return (frozenset(cache.played), frozenset(cache.traced)), cache


def play_lean(setup: FightSetup, origin: Start, roller: Roller
              ) -> tuple[FightState, np.ndarray, int]:
    """One fight by the lean loop (:func:`~fracas.encounter.engine.step` with
    the ``LEAN`` mode: only the events that change the fight, no narration), on the steps
    path's random roller or the sampled path's: final state, damage dealt, actions
    resolved."""
    state = start_state(origin)
    roster = state.roster
    ids = tuple(roster)
    who = {c.name: i for i, c in enumerate(roster.values())}
    who.update({cid: i for i, cid in enumerate(ids)})
    dealt = np.zeros(len(ids), dtype=np.int64)
    actions = 0
    while not state.over:
        state, events = step(roller, setup, state, LEAN)
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


SampledTask = tuple[Any, Start, int, int, int, Plan, int, str]


def sampled_chunk(args: SampledTask) -> Fights:
    setup, roster, seed, start, stop, plan, max_bytes, key = args
    if key in CACHES:  # the first task's own objects: the plan's rules name them
        setup, roster, cache = CACHES[key]
    else:
        CACHES.clear()
        cache = SubstepCache(max_bytes, plan[0], traced=plan[1])
        CACHES[key] = (setup, roster, cache)
    emptied = cache.emptied
    out = play_chunk(setup, roster, range(start, stop),
                     lambda i: SamplingRoller(fight_rng(seed, i), cache), "sampled")
    if cache.emptied > emptied:
        out.notes = (f"the sub-step cache reached its memory cap of {memory_text(max_bytes)} "
                     "(--max-memory) and was emptied; the results are the same, only slower",)
    return out


def memory_text(n: int) -> str:
    return f"{n / 2**30:g} GB" if n >= 2**30 else f"{n / 2**20:g} MB"


# -- fast ------------------------------------------------------------------------------------
CHAINS: dict[tuple[FightSetup, Start], FightChain] = {}


def forget_all() -> None:
    """Every memo the simulation paths and the policies keep, emptied: the figures after it
    are worked out as a fresh process would (the rule systems' own small memos of dice
    and cards stay: benchmarks/win_chance.py times a cold start by it)."""
    for memo in (CHAINS, MEMOS, RECURRENCES, CACHES):
        memo.clear()
    forget_memos()
    forget_choices()
    forget_states()


def chain_for(setup: FightSetup, origin: Start, max_states: int) -> FightChain:
    key = (setup, origin)
    chain = CHAINS.get(key)
    if chain is None:
        roster = start_roster(origin)
        chain = FightChain(setup, roster, tuple(roster), max_states=max_states)
        CHAINS.clear()
        CHAINS[key] = chain
    return chain


class TimeBudget(ChainTooLarge):
    """The fast path passed its time budget before its fights were done."""


FastTask = tuple[FightSetup, Start, int, int, int, int, int, float | None, float | None]


def fast_batch(args: FastTask, report: Callable[[int], None] | None = None) -> Fights:
    """One batch of fights through the exact chain. ``args`` ends with the wall-clock
    deadline (``time.time()``) and the budget in seconds it came from (None: no bound);
    ``report`` is told of fights as they end (in this process)."""
    setup, origin, seed, batch, size, max_states, max_memory, deadline, budget = args
    chain = chain_for(setup, origin, max_states)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, 1_000_003, batch])))
    first = start_state(origin)
    start = chain.state_id(first)
    current = np.full(size, start, dtype=np.int64)
    dealt = np.zeros((size, len(first.roster)), dtype=np.int64)
    rounds = np.full(size, first.round, dtype=np.int64)  # rounds begun: from the start's
    cut = np.zeros(size, dtype=bool)
    acted = np.zeros(size, dtype=np.int64)
    live = np.arange(size)
    told = 0

    def late() -> TimeBudget:
        return TimeBudget(f"the fast path passed its time budget of {budget:g} s "
                          f"(--max-seconds) after {len(chain.states):,} fight states and "
                          f"{size - live.size:,} of {size:,} fights")

    saved = chain.exact.deadline
    if deadline is not None:  # one state's exact step may be long: it stops there too
        chain.exact.deadline = time.monotonic() + (deadline - time.time())
    try:
        while live.size:
            if deadline is not None and time.time() > deadline:
                raise late()
            if chain.nbytes() > max_memory:
                raise ChainTooLarge(f"the chain of fight states passed the memory cap of "
                                    f"{memory_text(max_memory)} (--max-memory) after "
                                    f"{len(chain.states):,} states")
            try:
                new, got, began, resolved = chain.advance(current[live], rng)
            except EnumerationTooLarge:
                if deadline is not None and time.time() > deadline:
                    raise late() from None
                raise
            acted[live] += resolved
            current[live] = new
            dealt[live] += got
            rounds[live] += began
            over_limit = rounds[live] > setup.max_rounds
            if over_limit.any():  # the round limit: the fight stops before that round's turns
                cut[live[over_limit]] = True
                rounds[live[over_limit]] = setup.max_rounds
            live = live[~(chain.over[new] | over_limit)]
            if report is not None and size - live.size > told:
                report(size - live.size - told)
                told = size - live.size
    finally:
        chain.exact.deadline = saved
    distinct, final_ids = np.unique(current, return_inverse=True)
    finals = [chain.states[int(sid)] for sid in distinct]
    return finish(setup, origin, finals, dealt, "fast", rounds, cut, acted,
                  final_ids=final_ids.reshape(-1))


PROBE_FIGHTS = 256  # per half of the probe
PROBE_RUNS = 150_000  # the most exact runs a probe spends before it answers no
PROBE_STATE_SHARE = 32  # one state's exact runs past budget / this: a chain that cannot pay
#: New states a turn past which a chain cannot pay (once 2 x PROBE_FIGHTS turns are played):
#: a state's row costs some 5 to 30 exact runs, each ~0.3 of a turn played, so a state
#: must come back about 5 turns or more to pay (issue 39: 0.25 let the Zamani river
#: ambush work out 382 states, 6,559 runs, before it stopped; the example fights whose
#: chain pays stay under 0.17)
NEW_STATE_SHARE = 0.2


@dataclass(frozen=True)
class Probe:
    """What a probe of the chain found, and its verdict (all deterministic in the seed)."""

    fast: bool
    states_half: int
    states_full: int
    turns: int
    runs: int
    reason: str


def probe(setup: FightSetup, roster: Start, seed: int, n: int,
          max_memory: int = MAX_MEMORY, budget: float | None = None,
          run_cost: float = 1.0) -> Probe:
    """Decide whether the exact chain pays for ``n`` fights.

    Plays two halves of :data:`PROBE_FIGHTS` fights through the chain, counting the
    distinct states met (S after one half and after both) and the exact roller's runs.
    States grow like S(n) ~ S(2h) (n / 2h)^a with a = log2(S(2h) / S(h)); the chain costs
    about runs / S per state, each worth ``run_cost`` of a turn played step by step. It
    stops early, answering no, once more than :data:`NEW_STATE_SHARE` of its turns meet
    a new state, once its runs pass ``budget`` (default: what the
    step-by-step path would spend), or, given a ``budget``, 1/:data:`PROBE_STATE_SHARE` of
    it on one state (on average over a turn's new states), or before a turn whose new
    states, at the runs a state has cost so far, would pass it (rather than spend the
    budget to learn so). It counts what depends on the seed alone, no clock.
    """
    chain = chain_for(setup, roster, 10**7)
    start_runs = chain.exact.runs
    limit = int(min(PROBE_RUNS, n * 50 if budget is None else budget))
    per_state = limit if budget is None else max(1, limit // PROBE_STATE_SHARE)
    start = chain.state_id(start_state(roster))
    visited: set[int] = set()
    turns = worked = 0  # turns played; states whose row the probe worked out
    counts: list[int] = []

    def no(reason: str) -> Probe:
        return Probe(False, counts[0] if counts else len(visited), len(visited), turns,
                     chain.exact.runs - start_runs, reason)

    for half in range(2):
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, 7, half])))
        current = np.full(PROBE_FIGHTS, start, dtype=np.int64)
        live = np.arange(PROBE_FIGHTS)
        while live.size:
            here = np.unique(current[live]).tolist()  # the states this turn is played from
            visited.update(here)
            turns += int(live.size)
            runs = chain.exact.runs - start_runs
            if chain.nbytes() > max_memory:
                CHAINS.clear()
                return no(f"the chain passed the memory cap of {memory_text(max_memory)} "
                          "(--max-memory)")
            per_fight = turns / (PROBE_FIGHTS * (half + 1))
            if runs > (n * max(per_fight, 1.0) if budget is None else budget):
                return no("the chain's states cost more than playing every fight" if budget
                          is None else f"the chain's states passed the probe's budget of "
                          f"{limit:,} exact runs")
            if turns > 2 * PROBE_FIGHTS and len(visited) > NEW_STATE_SHARE * turns:
                return no(f"more than {NEW_STATE_SHARE:.0%} of the turns meet a new state: "
                          "they do not repeat enough")
            fresh = sum(chain.rows[sid] is None for sid in here)
            if budget is not None and worked and runs + fresh * runs / worked > limit:
                return no(f"the next turn's {count(fresh, 'new state')}, at the "
                          f"{runs / worked:,.1f} exact runs a state has cost so far, would "
                          f"pass the probe's budget of {limit:,} exact runs")
            worked += fresh
            chain.exact.max_runs = min(start_runs + limit,
                                       chain.exact.runs + max(1, fresh) * per_state)
            try:
                new, _, _, _ = chain.advance(current[live], rng)
            except EnumerationTooLarge:
                CHAINS.clear()
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
