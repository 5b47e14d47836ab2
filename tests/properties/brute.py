"""An independent brute force over every outcome of a whole fight, for the property tests.

It plays the plain step-by-step fight (:func:`~fracas.encounter.engine.step`, no chain, no
memo, no state merged) once per path of outcomes, depth first, with exact fractions. The
cards are drawn one at a time, each card left equally likely, whatever aggregate variable
the rules ask for (a hand, cards until a number card): so no merging of cards that the
rules call the same is assumed. Other variables (dice, pools) give their own exact
distribution (the dice layer, tested against its own brute forces). Sub-steps are played,
never memoised. Only the scenario and state plumbing of fracas is used, and ``step``.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from fracas.core.model import Roster
from fracas.encounter.engine import FightSetup, step
from fracas.encounter.policies import exact_rankings
from fracas.encounter.state import FightState


class Budget(Exception):
    """The brute force passed its budget of paths (the example is skipped)."""


class _Path:
    """One path of outcomes: the choices ``path`` first, then the first of each, pushing the
    others on ``stack``; its probability."""

    kind = "brute"

    def __init__(self, path: list[int], stack: list[list[int]]) -> None:
        self.path = path
        self.stack = stack
        self.taken: list[int] = []
        self.p = Fraction(1)

    def _pick(self, weights: list[int]) -> int:
        depth = len(self.taken)
        if depth < len(self.path):
            i = self.path[depth]
        else:
            i = 0
            for j in range(len(weights) - 1, 0, -1):
                self.stack.append([*self.taken, j])
        self.taken.append(i)
        self.p *= Fraction(weights[i], sum(weights))
        return i

    def _card(self, left: list[Any]) -> Any:
        return left.pop(self._pick([1] * len(left)))

    def roll(self, var: Any) -> Any:
        name = type(var).__name__
        if name == "HandDraw":  # the next cards, one at a time
            left = list(var.pile)
            return tuple(self._card(left) for _ in range(var.count))
        if name == "UntilNumber":  # cards until a number card (jokers are not)
            left, out = list(var.pile), list[Any]()
            while not out or out[-1].is_joker:
                out.append(self._card(left))
            return tuple(out)
        if name == "DrawCard":
            return self._card(list(var.deck.draw_pile))
        items = var.exact().items()
        return items[self._pick([w for _, w in items])][0]

    def resolve(self, fn: Callable[..., Any], *args: Any) -> Any:
        return fn(self, *args)


def fight_outcomes(setup: FightSetup, roster: Roster, max_paths: int = 20_000
                   ) -> dict[str, Fraction]:
    """The chance of each winning side (``""``: no winner) over every path of the fight."""
    out: dict[str, Fraction] = {}
    stack: list[list[int]] = [[]]
    paths = 0
    with exact_rankings():
        while stack:
            paths += 1
            if paths > max_paths:
                raise Budget(f"more than {max_paths} paths")
            roller = _Path(stack.pop(), stack)
            state = FightState(roster)
            while not state.over:
                state, _ = step(roller, setup, state)
            who = state.winner or ""
            out[who] = out.get(who, Fraction(0)) + roller.p
    return out
