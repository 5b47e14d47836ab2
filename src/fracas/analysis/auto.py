"""``simulate --method auto``: which path pays, by counting work on seeded trials.

Nothing here reads a clock, so the same scenario, seed and ``n`` give the same path, and
so the same fights, on any machine and under any load. Three seeded trials, cheapest
first, each stopped as soon as it has answered:

1. Step by step, the first :data:`STEPS_TRIAL` fights (kept if this path wins): turns a
   fight, T, so the step-by-step work is about n T turns.
2. The chain's :func:`~fracas.analysis.simulate.probe`, with a budget of
   :data:`AUTO_SHARE` of that work in exact runs (one run, its rules memoised, is worth
   :data:`RUN_COST` of a turn played): the fast path when its states repeat enough that
   building the chain costs less than playing every turn. It stops as soon as it can
   tell that the budget would not do (see the probe's docstring): what a run costs
   against a turn varies from fight to fight, so the budget is a ceiling, seldom spent.
3. The sampled path, only from :data:`SAMPLED_FROM` fights (below that its learning
   cannot pay): its learning fights, then two halves of :data:`TRIAL_FIGHTS` fights
   (kept if this path wins). The learning is given up, and the steps path taken, once
   its enumeration runs and traces pass :data:`SAMPLED_TRIAL_SHARE` of the turns step
   by step would play (a run plays one sub-step, a part of a turn): a trial thrown away
   then costs auto at most about that share. Each sub-step call counts as one play step
   by step; on the sampled path a cache hit costs :data:`HIT_COST`
   (:data:`FIXED_HIT_COST` on a sub-step of one outcome, which draws nothing when played
   either), a direct play one, a miss :data:`MISS_COST` plus its enumeration's runs or
   its traced play. Misses grow like n^b, b = log2(misses after both halves / after one);
   the sampled path is taken when its extrapolated work is under :data:`SAMPLED_MARGIN`
   of step by step's.

The costs are fixed weights, measured once against CPU time on the example fights
(``benchmarks/simulate.py`` prints auto beside the best path).
"""

from __future__ import annotations

import math
from dataclasses import astuple, dataclass

from fracas.analysis.fights import Fights, Start
from fracas.analysis.paths import (
    CACHES,
    MAX_MEMORY,
    Plan,
    learn_played,
    probe,
    run_key,
    sampled_chunk,
    steps_chunk,
)
from fracas.analysis.sampled import SubstepCache, WorkCapReached
from fracas.core.words import count
from fracas.encounter.engine import FightSetup

STEPS_TRIAL = 4  # fights played step by step first (kept when steps wins)
AUTO_SHARE = 0.10  # of the step-by-step work, the most the chain's probe spends
RUN_COST = 0.3  # one exact run of the chain, in turns played step by step (memoised rules)
SAMPLED_FROM = 400  # fewer fights: the sampled path is not tried
TRIAL_FIGHTS = 8  # per half of the sampled path's trial
HIT_COST = 0.15  # a cache hit, in plays of a sub-step
FIXED_HIT_COST = 1.0  # a hit on a sub-step of one outcome: playing it draws nothing either
MISS_COST = 0.5  # a miss's own overhead (read tracking, storing), besides runs or a play
SAMPLED_MARGIN = 0.8  # the sampled path must count at most this share of step by step's
SAMPLED_TRIAL_SHARE = 0.03  # of the turns step by step would play, the most enumeration
# runs and traces the sampled path's learning may take before auto gives it up


#: The paths ``auto`` may pick for each system: those checked against the step path for
#: it (steps is the reference, the rules played as written). The tests are the proof:
#: tests/analysis/test_paths_every_fight.py::test_every_path_agrees_on_every_example_fight
#: (fast and sampled against steps within 4 standard errors on every example fight of
#: the system, and every path against the exact chain where it is within reach) and
#: tests/analysis/test_paths_agree.py (every path against the exact chain on each
#: system's example duel); for c22's card classes, tests/properties/test_c22_exact.py and
#: tests/c22/test_exact_suits.py. A system not listed (a third party's) gets the step
#: path from auto; fast and sampled stay available by name.
VERIFIED: dict[str, frozenset[str]] = {
    system: frozenset({"steps", "fast", "sampled"})
    for system in ("c22", "contest", "zamani", "tristat", "genesys")
}


def verified(system_id: str) -> frozenset[str]:
    """The paths auto may pick for a system (see :data:`VERIFIED`)."""
    return VERIFIED.get(system_id, frozenset({"steps"}))


@dataclass
class Choice:
    """What auto counted and chose; ``first``: fights already played on that path
    (fights 0 to k - 1, the same as the path would play), ``plan``: the sampled path's."""

    method: str
    note: str
    first: Fights | None = None
    plan: Plan | None = None


@dataclass(frozen=True)
class Counts:
    """A sub-step cache's counters at one moment."""

    hits: int
    misses: int
    direct: int
    traces: int
    runs: int
    fixed: int = 0  # of the hits, those on a sub-step of one outcome

    @property
    def hit_cost(self) -> float:
        """A hit's cost, in plays: :data:`HIT_COST` where the cache draws an outcome
        instead of playing the rule, :data:`FIXED_HIT_COST` where the sub-step has one
        outcome (playing it draws nothing either: the cache saves nothing)."""
        if not self.hits:
            return HIT_COST
        share = self.fixed / self.hits
        return HIT_COST * (1 - share) + FIXED_HIT_COST * share

    @staticmethod
    def of(cache: SubstepCache) -> Counts:
        return Counts(cache.hits, cache.misses, cache.direct, cache.traces, cache.runs,
                      cache.fixed)

    def __sub__(self, other: Counts) -> Counts:
        return Counts(self.hits - other.hits, self.misses - other.misses,
                      self.direct - other.direct, self.traces - other.traces,
                      self.runs - other.runs, self.fixed - other.fixed)

    @property
    def calls(self) -> int:
        return self.hits + self.misses + self.direct

    @property
    def miss_work(self) -> float:
        """The work of the misses: their overhead, enumeration runs and traced plays."""
        return MISS_COST * self.misses + self.runs + self.traces

    @property
    def work(self) -> float:
        return self.direct + self.hit_cost * self.hits + self.miss_work


def sampled_work(learnt: Counts, one: Counts, two: Counts, fights: int, n: int
                 ) -> tuple[float, float, float]:
    """(the sampled path's work for ``n`` fights, step by step's, the misses' growth b)
    from the learning's counts and two trial halves of ``fights`` fights each."""
    both = Counts(*(a + b for a, b in zip(astuple(one), astuple(two), strict=True)))
    calls = both.calls / (2 * fights)
    direct = both.direct / (2 * fights)
    growth = (min(1.0, max(0.0, math.log2(both.misses / one.misses))) if one.misses
              else 0.0 if not both.misses else 1.0)
    misses = both.misses * max(1.0, n / (2 * fights)) ** growth
    per_miss = both.miss_work / both.misses if both.misses else 0.0
    hits = max(0.0, n * (calls - direct) - misses)
    return (learnt.work + n * direct + both.hit_cost * hits + per_miss * misses, n * calls,
            growth)


def choose(setup: FightSetup, roster: Start, seed: int, n: int,
           max_memory: int = MAX_MEMORY) -> Choice:
    """Auto's choice by the work each path would need for ``n`` fights, counted on
    seeded trials (see the module's docstring); the same on every machine."""
    first = steps_chunk((setup, roster, seed, 0, min(n, STEPS_TRIAL)))
    if first.n >= n:
        return Choice("steps", f"auto chose the steps path: {count(n, 'fight')}, played step by "
                      "step first", first)
    paths = verified(setup.system.id)
    if paths == {"steps"}:
        return Choice("steps", "auto chose the steps path: the fast and sampled paths are not "
                      f"checked against it for the system {setup.system.id}", first)
    turns = max(1.0, float(first.actions.mean()) if first.actions is not None else 1.0)
    said = f"step by step ~{turns:,.1f} turns a fight, ~{n * turns:,.0f} in all"
    verdict = probe(setup, roster, seed, n, max_memory, budget=AUTO_SHARE * n * turns /
                    RUN_COST, run_cost=RUN_COST)
    if verdict.fast and "fast" in paths:
        return Choice("fast", f"auto chose the fast path: {verdict.reason}; {said}")
    why = f"the fast path not taken ({verdict.reason})"
    if n < SAMPLED_FROM or "sampled" not in paths:
        return Choice("steps", f"auto chose the steps path: {said}; {why}; fewer than "
                      f"{SAMPLED_FROM} fights: the sampled path's learning would not pay",
                      first)
    cap = SAMPLED_TRIAL_SHARE * n * turns
    try:
        plan, learning = learn_played(setup, roster, seed, max_memory, max_work=cap)
    except WorkCapReached:
        return Choice("steps", f"auto chose the steps path: {said}; {why}; the sampled path's "
                      f"learning passed {cap:,.0f} sub-step runs ({SAMPLED_TRIAL_SHARE:.0%} of "
                      "the turns step by step) before it could pay", first)
    key = run_key(setup, roster, plan, max_memory)
    start = Counts(0, 0, 0, 0, 0)
    halves, counts = [], []
    for half in range(2):
        size = min(TRIAL_FIGHTS, n - half * TRIAL_FIGHTS)
        begin = half * TRIAL_FIGHTS
        halves.append(sampled_chunk((setup, roster, seed, begin, begin + size, plan,
                                      max_memory, key)))
        now = Counts.of(CACHES[key][2])
        counts.append(now - start)
        start = now
    sampled, steps, growth = sampled_work(Counts.of(learning), counts[0], counts[1],
                                          TRIAL_FIGHTS, n)
    verdict_s = (f"the sampled path ~{sampled:,.0f} sub-step plays against "
                 f"~{steps:,.0f} step by step (misses grow as n^{growth:.2f})")
    if sampled < SAMPLED_MARGIN * steps:
        return Choice("sampled", f"auto chose the sampled path: {verdict_s}; {said}; {why}",
                      Fights.concat(halves), plan)
    return Choice("steps", f"auto chose the steps path: {verdict_s}; {said}; {why}", first)
