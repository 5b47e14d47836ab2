"""Exact odds of a whole fight: who wins, and after how many rounds.

The fight is the Markov chain of :class:`~fracas.analysis.chain.FightChain`. Rounds are
counted outside its states, so the probability mass is pushed forward turn by turn as
pairs (state, rounds begun), with integer numerators over one common denominator per
turn; each state is expanded (its exact one-turn distribution) when the mass first
reaches it, so only states met within the round limit are built, up to a budget. A
fight that would begin a round past the limit stops there with no winner, as in
:func:`~fracas.analysis.simulate.simulate`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fracas.analysis.chain import ChainTooLarge, FightChain, transition
from fracas.core.model import Roster
from fracas.dice.rollers import EnumerationTooLarge
from fracas.encounter.engine import FightSetup
from fracas.encounter.state import FightState
from fracas.errors import InputError
from fracas.odds.text import fraction_text

MAX_STATES = 1_000_000
LIMIT = "round limit"  # the outcome of a fight stopped by the round limit
NOBODY = "nobody left"  # the outcome of a fight that ends with no side able to act


@dataclass(frozen=True)
class DuelOdds:
    """The exact result of a fight: each outcome's chance and the rounds it ends in.

    ``outcomes`` maps each side (and :data:`LIMIT` / :data:`NOBODY` when possible) to its
    probability; ``rounds`` maps (outcome, rounds) to a probability.
    """

    sides: tuple[str, ...]
    outcomes: dict[str, Fraction]
    rounds: dict[tuple[str, int], Fraction]
    states: int
    transitions: int
    turns: int
    max_rounds: int
    seconds: float = 0.0
    expected_dealt: dict[str, Fraction] = field(default_factory=dict)

    def p_win(self, side: str) -> Fraction:
        return self.outcomes.get(side, Fraction(0))

    def rounds_distribution(self, outcome: str | None = None) -> dict[int, Fraction]:
        """Rounds to the end, over every fight or only those with ``outcome``."""
        out: dict[int, Fraction] = {}
        for (who, r), p in sorted(self.rounds.items(), key=lambda kv: kv[0][1]):
            if outcome is None or who == outcome:
                out[r] = out.get(r, Fraction(0)) + p
        return out

    def mean_rounds(self) -> Fraction:
        return sum((r * p for r, p in self.rounds_distribution().items()), Fraction(0))

    def to_json(self) -> dict[str, Any]:
        return {
            "exact": True,
            "states": self.states,
            "transitions": self.transitions,
            "turns": self.turns,
            "max_rounds": self.max_rounds,
            "seconds": round(self.seconds, 3),
            "outcomes": {k: {"p": float(p), "exact": fraction_text(p)}
                         for k, p in self.outcomes.items()},
            "mean_rounds": float(self.mean_rounds()),
            "rounds": {str(r): float(p) for r, p in self.rounds_distribution().items()},
            "rounds_by_outcome": {
                who: {str(r): float(p) for r, p in self.rounds_distribution(who).items()}
                for who in self.outcomes},
            "expected_damage_dealt": {k: float(v) for k, v in self.expected_dealt.items()},
            "fractions": {
                "mean_rounds": fraction_text(self.mean_rounds()),
                "rounds": {str(r): fraction_text(p)
                           for r, p in self.rounds_distribution().items()},
                "rounds_by_outcome": {
                    who: {str(r): fraction_text(p)
                          for r, p in self.rounds_distribution(who).items()}
                    for who in self.outcomes},
                "expected_damage_dealt": {k: fraction_text(v)
                                          for k, v in self.expected_dealt.items()},
            },
        }


Progress = Callable[[int], None]


def _too_large(max_states: int) -> InputError:
    return InputError(
        f"the fight has more than {max_states:,} states: exact odds are out of reach",
        path="--max-states", allowed="a larger --max-states, a smaller fight, or "
        "fracas simulate")


def _row(chain: FightChain, sid: int) -> list[tuple[int, int, int]]:
    """(weight, successor, edge) out of a state, with the exact integer weights (the chain's
    own rows may hold weights rounded for sampling)."""
    chain.expand(sid)
    row = chain.rows[sid]
    assert row is not None
    dist = chain.exact.distribution(transition, chain.chain_setup, chain.states[sid])
    return list(zip([w for _, w in dist.items()], row[1], row[2], strict=True))


def duel_odds(setup: FightSetup, roster: Roster, max_states: int = MAX_STATES,
              progress: Progress | None = None, max_seconds: float | None = None
              ) -> DuelOdds:
    """The exact chance of each side winning the fight, and of each number of rounds
    (:class:`InputError` past ``max_states`` states, or ``max_seconds`` if given). The
    policies rank every option on the real state here (never through ranking states)."""
    from fracas.encounter.policies import exact_rankings

    with exact_rankings():
        return _duel_odds(setup, roster, max_states, progress, max_seconds)


def _duel_odds(setup: FightSetup, roster: Roster, max_states: int,
               progress: Progress | None, max_seconds: float | None) -> DuelOdds:
    began = time.perf_counter()
    chain = FightChain(setup, roster, tuple(roster), max_states=max_states)
    rows: dict[int, list[tuple[int, int, int]]] = {}
    totals: dict[int, int] = {}
    sides = tuple(roster.sides())
    limit = setup.max_rounds
    ids = tuple(roster)

    # mass[(state, rounds begun)] = numerator over `denominator`; states are expanded as
    # the mass reaches them, so only states met within the round limit are ever built
    try:
        mass: dict[tuple[int, int], int] = {(chain.state_id(FightState(roster)), 0): 1}
    except ChainTooLarge:  # pragma: no cover - a budget below one state
        raise _too_large(max_states) from None
    denominator = 1
    absorbed: dict[tuple[str, int], Fraction] = {}
    dealt = [Fraction(0)] * len(ids)
    turns = 0
    if max_seconds is not None:
        chain.exact.deadline = time.monotonic() + max_seconds
    while mass:
        turns += 1
        for sid, _ in mass:
            if sid not in rows:
                try:
                    rows[sid] = _row(chain, sid)
                except ChainTooLarge:
                    raise _too_large(max_states) from None
                except EnumerationTooLarge:
                    raise InputError(
                        f"the fight's states ({len(chain.states):,} so far) take more than "
                        f"{max_seconds:g} s to explore: exact odds are out of reach",
                        path="--max-seconds", allowed="a larger --max-seconds, a smaller "
                        "fight, or fracas simulate") from None
                totals[sid] = sum(w for w, _, _ in rows[sid])
                if progress is not None and len(rows) % 64 == 0:
                    progress(len(chain.states))
        step_lcm = 1
        for sid, _ in mass:
            step_lcm = math.lcm(step_lcm, totals[sid])
        nxt: dict[tuple[int, int], int] = {}
        ended: dict[tuple[str, int], int] = {}
        dealt_num = [0] * len(ids)
        for (sid, r), m in mass.items():
            scale = m * (step_lcm // totals[sid])
            for w, succ, edge in rows[sid]:
                part = scale * w
                key = chain.edges[edge]
                for j in range(len(ids)):
                    if key[j]:
                        dealt_num[j] += part * key[j]
                rr = r + key[-2]
                state = chain.states[succ]
                if rr > limit:
                    end = (LIMIT, limit)
                elif state.over:
                    end = (state.winner or NOBODY, rr)
                else:
                    nxt[(succ, rr)] = nxt.get((succ, rr), 0) + part
                    continue
                ended[end] = ended.get(end, 0) + part
        denominator *= step_lcm
        for end, num in ended.items():
            absorbed[end] = absorbed.get(end, Fraction(0)) + Fraction(num, denominator)
        for j, num in enumerate(dealt_num):
            if num:
                dealt[j] += Fraction(num, denominator)
        g = denominator
        for num in nxt.values():
            g = math.gcd(g, num)
            if g == 1:
                break
        if g > 1:
            nxt = {k: v // g for k, v in nxt.items()}
            denominator //= g
        mass = nxt
        if progress is not None:
            progress(len(chain.states))
    outcomes: dict[str, Fraction] = {side: Fraction(0) for side in sides}
    for (who, _), p in absorbed.items():
        outcomes[who] = outcomes.get(who, Fraction(0)) + p
    transitions = sum(len(r) for r in rows.values())
    return DuelOdds(sides, outcomes, absorbed, len(chain.states), transitions, turns,
                    limit, time.perf_counter() - began,
                    {cid: d for cid, d in zip(ids, dealt, strict=True)})
