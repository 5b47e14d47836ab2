"""A fight as a Markov chain over its states, grown as it is explored.

Each turn of a fight is :func:`fracas.encounter.engine.step`, a pure function of the
fight's state. Under the exact roller it gives the exact distribution of the next
state (with the damage each combatant dealt on the way). :class:`FightChain` keeps
those distributions, one per state met, as rows of padded numpy arrays, so that a
batch of fights advances by one turn with a handful of vectorised operations: one
random integer per fight, a row lookup and a comparison with the row's cumulative
weights. Fights in the same state share the row: they are grouped by state key.

The same chain answers exact questions about a duel (the chance each side wins, the
distribution of rounds) when its reachable states are few: see :mod:`fracas.analysis.duel`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from fracas.core.events import ActionChosen, Outcome, RoundStarted
from fracas.core.model import Roster
from fracas.dice.rollers import ExactRoller, Roller
from fracas.encounter.engine import FightSetup, step
from fracas.encounter.state import FightState

_INT64_SAFE = 2**62
STATE_BYTES = 2_000  # estimated cost of one fight state (rosters, index entry, row lists)
EDGE_BYTES = 300  # of one distinct damage vector
OUTCOME_BYTES = 400  # of one outcome in a memoised sub-step distribution
_FLOAT_SCALE = 2**53

Dealt = tuple[tuple[str, int], ...]


def transition(roller: Roller, setup: FightSetup, state: FightState
               ) -> tuple[FightState, Dealt, int, int]:
    """One turn, keeping only what the chain needs: the next state (its round replaced by
    the system's representative round), the damage dealt, how many rounds began and how
    many actions were resolved."""
    new, events = step(roller, setup, state, lean=True)
    dealt: dict[str, int] = {}
    rounds = actions = 0
    for e in events:
        if isinstance(e, Outcome) and e.damage:
            dealt[e.actor] = dealt.get(e.actor, 0) + e.damage
        elif isinstance(e, RoundStarted):
            rounds += 1
        elif isinstance(e, ActionChosen):
            actions += 1
    new = replace(new, round=setup.system.round_representative(new.round))
    return new, tuple(sorted(dealt.items())), rounds, actions


class ChainTooLarge(Exception):
    """The chain met more states than its budget allows."""


@dataclass
class FightChain:
    """The states of a fight met so far and their exact one-turn transitions."""

    setup: FightSetup
    setup_roster: Roster
    ids: tuple[str, ...]
    max_states: int = 200_000
    exact: ExactRoller = field(default_factory=ExactRoller)
    states: list[FightState] = field(default_factory=list)
    index: dict[FightState, int] = field(default_factory=dict)
    rows: list[tuple[list[int], list[int], list[int]] | None] = field(default_factory=list)
    edges: list[tuple[int, ...]] = field(default_factory=list)
    edge_index: dict[tuple[int, ...], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        roster = self.setup_roster
        # an Outcome names its actor by id (the contract) or, in some systems' narration, name
        self._who = {c.name: i for i, c in enumerate(roster.values())}
        self._who.update({cid: i for i, cid in enumerate(self.ids)})
        # rounds are counted outside the states, so the round limit is applied outside too
        self.chain_setup = replace(self.setup, max_rounds=10**9)
        self._built = 0
        self._dirty: list[int] = []
        self.expanded = np.zeros(0, dtype=bool)
        self.thr = np.zeros((0, 1), dtype=np.int64)
        self.totals = np.zeros(0, dtype=np.int64)
        self.span = np.zeros(0, dtype=np.int64)
        self.succ = np.zeros((0, 1), dtype=np.int64)
        self.edge_of = np.zeros((0, 1), dtype=np.int64)
        self.alias_succ = np.zeros((0, 1), dtype=np.int64)
        self.alias_edge = np.zeros((0, 1), dtype=np.int64)
        self.over = np.zeros(0, dtype=bool)
        self.edge_dealt = np.zeros((0, len(self.ids)), dtype=np.int64)
        self.edge_rounds = np.zeros(0, dtype=np.int64)
        self.edge_actions = np.zeros(0, dtype=np.int64)

    def nbytes(self) -> int:
        """An estimate of the memory the chain holds: its arrays, a fixed cost per state
        and per branch kept, and the exact roller's memoised distributions."""
        arrays = sum(a.nbytes for a in (self.thr, self.succ, self.edge_of, self.alias_succ,
                                        self.alias_edge))
        return (arrays + STATE_BYTES * len(self.states) + EDGE_BYTES * len(self.edges)
                + OUTCOME_BYTES * self.exact.memo_outcomes)

    def state_id(self, state: FightState) -> int:
        found = self.index.get(state)
        if found is None:
            if len(self.states) >= self.max_states:
                raise ChainTooLarge(f"more than {self.max_states} fight states")
            found = len(self.states)
            self.index[state] = found
            self.states.append(state)
            self.rows.append(None)
        return found

    def _edge_id(self, dealt: Dealt, rounds: int = 0, actions: int = 0) -> int:
        vector = [0] * len(self.ids)
        for who, amount in dealt:
            vector[self._who[who]] += amount
        key = (*vector, rounds, actions)
        found = self.edge_index.get(key)
        if found is None:
            found = len(self.edges)
            self.edge_index[key] = found
            self.edges.append(key)
        return found

    def expand(self, sid: int) -> None:
        """Compute the exact one-turn distribution out of state ``sid``."""
        if self.rows[sid] is not None:
            return
        state = self.states[sid]
        if state.over:
            self.rows[sid] = ([1], [sid], [self._edge_id(())])
            self._dirty.append(sid)
            return
        dist = self.exact.distribution(transition, self.chain_setup, state)
        weights, succ, edges = [], [], []
        items = dist.items()
        total = dist.total
        if total * len(items) > _INT64_SAFE:  # sample by 53-bit rounded weights (documented)
            scaled = [max(1, w * _FLOAT_SCALE // total) for _, w in items]
        else:
            scaled = [w for _, w in items]
        for ((new, dealt, rounds, actions), _), w in zip(items, scaled, strict=True):
            weights.append(w)
            succ.append(self.state_id(new))
            edges.append(self._edge_id(dealt, rounds, actions))
        self.rows[sid] = (weights, succ, edges)
        self._dirty.append(sid)

    def _grow(self, rows: int, width: int) -> None:
        """Make room for ``rows`` states and ``width`` branches, keeping what is there."""
        old_rows, old_width = self.thr.shape
        if rows <= old_rows and width <= old_width:
            return
        new_rows = max(rows, 2 * old_rows, 64)
        new_width = max(width, old_width)

        def widen(a: np.ndarray) -> np.ndarray:
            out = np.zeros((new_rows, new_width), dtype=np.int64)
            out[:old_rows, :old_width] = a
            return out

        def lengthen(a: np.ndarray, fill: int | bool) -> np.ndarray:
            out = np.full(new_rows, fill, dtype=a.dtype)
            out[:old_rows] = a
            return out

        self.thr, self.succ, self.edge_of = (widen(self.thr), widen(self.succ),
                                             widen(self.edge_of))
        self.alias_succ, self.alias_edge = widen(self.alias_succ), widen(self.alias_edge)
        self.totals, self.span = lengthen(self.totals, 1), lengthen(self.span, 1)
        self.expanded, self.over = lengthen(self.expanded, False), lengthen(self.over, False)

    def build(self) -> None:
        """Bring the arrays up to date with the states and rows found since the last build.

        Each row becomes an exact integer alias table: with k branches of total weight T,
        a draw r in [0, k T) picks column r // T, and its offset r % T keeps the column's
        own branch below the column's threshold, else takes its alias. One random integer
        a transition, and O(1) work for it, whatever the number of branches.
        """
        width = max([len(self.rows[i][0]) for i in self._dirty  # type: ignore[index]
                     if self.rows[i] is not None] + [1])
        self._grow(len(self.states), width)
        for i in range(self._built, len(self.states)):
            self.thr[i, 0] = 1
            self.succ[i, 0] = i
            self.over[i] = self.states[i].over
        for i in self._dirty:
            row = self.rows[i]
            assert row is not None
            weights, nxt, edges = row
            total, thresholds, alias = alias_table(weights)
            k = len(weights)
            self.thr[i, :k] = thresholds
            self.succ[i, :k] = nxt
            self.edge_of[i, :k] = edges
            self.alias_succ[i, :k] = [nxt[a] for a in alias]
            self.alias_edge[i, :k] = [edges[a] for a in alias]
            self.totals[i] = total
            self.span[i] = total * k
            self.expanded[i] = True
        self._dirty.clear()
        table = np.array(self.edges, dtype=np.int64).reshape(-1, len(self.ids) + 2)
        self.edge_dealt = table[:, :-2]
        self.edge_rounds = table[:, -2]
        self.edge_actions = table[:, -1]
        self._built = len(self.states)

    def advance(self, current: np.ndarray, rng: np.random.Generator
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One turn for every fight in ``current`` (state ids): new ids, the damage each
        combatant dealt, the rounds that began and the actions resolved."""
        if self._built != len(self.states):
            self.build()
        need = ~self.expanded[current]
        if need.any():
            for sid in np.unique(current[need]).tolist():
                self.expand(int(sid))
            self.build()
        draws = rng.integers(0, self.span.take(current))
        totals = self.totals.take(current)
        column = draws // totals
        cell = current * self.thr.shape[1] + column  # one flat index serves every table
        own = (draws - column * totals) < self.thr.ravel().take(cell)
        new = np.where(own, self.succ.ravel().take(cell), self.alias_succ.ravel().take(cell))
        edge = np.where(own, self.edge_of.ravel().take(cell),
                        self.alias_edge.ravel().take(cell))
        return (new, self.edge_dealt.take(edge, axis=0), self.edge_rounds.take(edge),
                self.edge_actions.take(edge))


def alias_table(weights: list[int]) -> tuple[int, list[int], list[int]]:
    """An exact integer alias table (Vose's method): (total T, thresholds, aliases).

    Column i holds T units: its own branch for ``thresholds[i]`` of them, ``aliases[i]``
    for the rest; branch j then gets exactly k * w_j of the k T units.
    """
    k = len(weights)
    total = sum(weights)
    load = [w * k for w in weights]
    thresholds = [total] * k
    aliases = list(range(k))
    small = [i for i in range(k) if load[i] < total]
    large = [i for i in range(k) if load[i] >= total]
    while small and large:
        s, big = small.pop(), large.pop()
        thresholds[s] = load[s]
        aliases[s] = big
        load[big] -= total - load[s]
        (small if load[big] < total else large).append(big)
    return total, thresholds, aliases
