"""An independent brute force over every outcome of a whole fight, for the property tests.

It plays the plain step-by-step fight (:func:`~fracas.encounter.engine.step`, no chain, no
memo, no state merged) once per path of outcomes, depth first, with exact fractions.

* Cards are drawn one at a time, each card left equally likely, whatever aggregate
  variable the rules ask for (a hand, cards until a number card): no merging of cards
  that the rules call the same is assumed.
* A variable rolled from numbered dice (``d100``, ``d20`` each, two ``d100``s, a d100
  then a d10: a system's own variable, or a ``Mapped`` view of dice) is enumerated here
  face by face, through the variable's own pinned-dice reading (``from_script``, what a
  table's dice give) or, for a ``Mapped`` one, its function on every face of its source:
  the weights of what the rules see come from counting faces here, not from the
  variable's ``exact()``. Faces the rules call equal (a :class:`~fracas.dice.reading.Reading`
  compares its meaning only) are one branch, whose face is the *last* face with that
  meaning, where the exact roller keeps the *first*: a rule that read the face a merged
  branch carries would give the two different figures.
* A roll-off (:class:`~fracas.dice.variables.RollOff`: each tied one rolls the die,
  highest first, and those still tied roll again) is worked out here from the faces of
  its die, not read from the variable's ``exact()``. Rolling again while tied has no
  end, so a path-by-path enumeration would never finish; but a roll that leaves the
  roll-off exactly where it was — the same names still tied, about to be asked the same
  roll — starts it afresh: the dice have no memory, so from there every outcome has the
  chance it had at the start. With ``L`` the chance of that loop and ``q(o)`` the chance
  of reaching outcome ``o`` by the rolls that do not loop, ``P(o) = q(o) + L·P(o)``, so
  ``P(o) = q(o) / (1 − L)`` (``L < 1`` whenever the die has two faces). The loop is
  found by comparing the names still tied and the roll pending with those before the
  roll, not by knowing why a system rolls off; a roll that splits the tied ones leaves
  smaller groups, each a new roll-off worked out the same way.
* Plain numeric dice (a die, a sum, a pool, keep-highest, a die of custom faces, a
  Genesys pool, whose dice are symbols, not numbers) give their own exact
  distribution: the dice layer's, tested against its own brute forces
  (tests/foundation, tests/genesys); an int or a symbol count carries nothing a merge
  could lose.

Sub-steps are played, never memoised. Only the scenario and state plumbing of fracas is
used, and ``step``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction
from itertools import product
from typing import Any

from fracas.core.model import Roster
from fracas.dice.variables import Die, Group, Mapped, RollOff, Variable
from fracas.encounter.engine import FightSetup, step
from fracas.encounter.policies import exact_rankings
from fracas.encounter.state import FightState

#: The most face combinations one roll is enumerated over here (four combatants' d20s
#: for initiative pass it: then their order's own distribution is used).
MOST_FACES = 20_000


class Budget(Exception):
    """The brute force passed its budget of paths (the example is skipped)."""


class _NotDice(Exception):
    """A pinned value that is no numbered die's face (symbols, a card)."""


class _Branches:
    """One path through a tree of choices: the choices ``path`` first, then the first of
    each, pushing the others on ``stack``; its probability ``p``."""

    def __init__(self, path: list[int], stack: list[list[int]]) -> None:
        self.path = path
        self.stack = stack
        self.taken: list[int] = []
        self.p = Fraction(1)

    def pick(self, weights: list[Fraction] | list[int]) -> int:
        depth = len(self.taken)
        if depth < len(self.path):
            i = self.path[depth]
        else:
            i = 0
            for j in range(len(weights) - 1, 0, -1):
                self.stack.append([*self.taken, j])
        self.taken.append(i)
        self.p *= Fraction(weights[i]) / sum(weights)
        return i


class _Dice(_Branches):
    """A pinned-dice script that takes every face of each numbered die in turn."""

    def take(self, die: str, stream: str = "dice") -> tuple[object, int]:
        found = re.match(r"d(\d+)\b", die)
        if found is None:
            raise _NotDice(die)
        return self.pick([1] * int(found.group(1))) + 1, len(self.taken)


def _every(play: Callable[[_Dice], Any], most: int) -> list[tuple[Any, Fraction]]:
    """Every leaf of ``play`` over the faces of the dice it takes, with its probability
    (a :class:`Budget` past ``most`` leaves)."""
    out: list[tuple[Any, Fraction]] = []
    stack: list[list[int]] = [[]]
    while stack:
        if len(out) >= most:
            raise Budget(f"more than {most} leaves")
        branch = _Dice(stack.pop(), stack)
        out.append((play(branch), branch.p))
    return out


_SCRIPTED: dict[Variable[Any], list[tuple[Any, int]] | None] = {}


def _scripted(var: Variable[Any]) -> list[tuple[Any, int]] | None:
    """Every face combination of ``var`` read by its ``from_script`` with its weight, or
    None when it takes no numbered dice or too many (cached by the variable: a system's
    variable is a frozen record of all it reads)."""
    if var not in _SCRIPTED:
        try:
            leaves = _every(var.from_script, MOST_FACES)
        except (_NotDice, Budget):
            _SCRIPTED[var] = None
        else:
            common = math.lcm(*(p.denominator for _, p in leaves))
            _SCRIPTED[var] = [(v, int(p * common)) for v, p in leaves]
    return _SCRIPTED[var]


def faces(var: Variable[Any]) -> list[tuple[Any, int]]:
    """What the rules see on each face combination of ``var``, with its weight, unmerged
    where the faces are numbered dice (see the module's docstring)."""
    if isinstance(var, Die):
        return [(v, 1) for v in range(1, var.sides + 1)]
    if isinstance(var, Mapped):
        return [(var.f(v), w) for v, w in faces(var.source)]
    if isinstance(var, Group):
        return [(tuple(v for v, _ in combo), math.prod(w for _, w in combo))
                for combo in product(*(faces(part) for part in var.parts))]
    if type(var).__module__.startswith("fracas.systems"):
        found = _scripted(var)
        if found is not None:
            return found
    return list(var.exact().items())


def _key(var: Variable[Any]) -> Any:
    """What makes two rolls the same: a ``Mapped`` one is its source with its function's
    code and captured values (its own equality ignores the function)."""
    if isinstance(var, Mapped):
        cells = tuple(c.cell_contents for c in var.f.__closure__ or ())
        return ("mapped", _key(var.source), var.f.__code__, cells, var.f.__defaults__)
    if isinstance(var, Group):
        return ("group", tuple(_key(part) for part in var.parts))
    return var


_BRANCHES: dict[Any, tuple[list[Any], list[int]]] = {}


def branches(var: Variable[Any]) -> tuple[list[Any], list[int]]:
    """The branches of one roll and their weights: faces the rules call equal merged,
    each branch carrying the last such face (the exact roller carries the first)."""
    try:
        key = _key(var)
        return _BRANCHES[key]
    except TypeError:  # something unhashable captured: not kept
        key = None
    except KeyError:
        pass
    merged: dict[Any, list[Any]] = {}
    for value, w in faces(var):
        if value in merged:
            merged[value] = [value, merged[value][1] + w]
        else:
            merged[value] = [value, w]
    found = [v for v, _ in merged.values()], [w for _, w in merged.values()]
    if key is not None:
        _BRANCHES[key] = found
    return found


_ROLL_OFFS: dict[tuple[tuple[str, ...], Any], dict[tuple[str, ...], Fraction]] = {}


def roll_off(names: tuple[str, ...], die: Variable[int]) -> dict[tuple[str, ...], Fraction]:
    """Every order a roll-off among ``names`` ends in, with its chance, from the faces of
    ``die`` counted here (see the module's docstring: a roll that leaves the same names
    tied is the loop, divided out). Kept by names and die: a pure function of the dice."""
    key = (names, _key(die))
    if key in _ROLL_OFFS:
        return _ROLL_OFFS[key]
    rolled = faces(die)
    total = sum(w for _, w in rolled)
    reached: dict[tuple[str, ...], Fraction] = {}
    loop = Fraction(0)
    for combo in product(rolled, repeat=len(names)):
        p = Fraction(math.prod(w for _, w in combo), total ** len(names))
        tied: dict[Any, list[str]] = {}
        for name, (value, _) in zip(names, combo, strict=True):
            tied.setdefault(value, []).append(name)
        after = [tuple(tied[v]) for v in sorted(tied, reverse=True)]
        if after == [names]:  # the same names tied, the same roll asked again
            loop += p
            continue
        orders: dict[tuple[str, ...], Fraction] = {(): p}
        for group in after:
            rest = roll_off(group, die) if len(group) > 1 else {group: Fraction(1)}
            orders = {o + r: q * s for o, q in orders.items() for r, s in rest.items()}
        for order, q in orders.items():
            reached[order] = reached.get(order, Fraction(0)) + q
    if loop == 1:
        raise ValueError(f"a roll-off on {die} never ends: every roll ties")
    found = {order: q / (1 - loop) for order, q in reached.items()}
    _ROLL_OFFS[key] = found
    return found


class _Path(_Branches):
    """A roller that plays one path of outcomes. Its kind is the exact roller's for the one
    rule that asks (Zamani's initiative tie broken by a die rolled again while tied: every
    order is equally likely, and an enumeration of the rolls would never end)."""

    kind = "exact"

    def _card(self, left: list[Any]) -> Any:
        return left.pop(self.pick([1] * len(left)))

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
        if isinstance(var, RollOff):
            orders = roll_off(var.names, var.die)
            return list(orders)[self.pick(list(orders.values()))]
        values, weights = branches(var)
        return values[self.pick(weights)]

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
