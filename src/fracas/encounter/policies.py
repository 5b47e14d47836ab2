"""Policies: how combatants that no person controls choose their actions and reactions.

* ``aggressive`` (the default): attack the enemy most likely to drop - the one with
  the least health left - with the system's default options; react with the
  default reaction.
* ``cautious``: as aggressive while above half health; at half health or less, take
  a defensive action (total defense, guard, ...) when the system offers one; always
  react with the reaction of least expected damage.
* ``random``: any legal action and reaction, uniformly (drawn from the fight's
  roller on its own ``policy`` stream, so a seed repeats the fight).
* ``best-odds``: the action with the highest exact expected damage (ties: the best
  chance to take the target out), and the reaction with the least; exact odds come
  from the same rule code, memoised.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from fractions import Fraction
from typing import ClassVar

from fracas.core.model import Action, Roster
from fracas.core.system import RuleSystem
from fracas.dice.distribution import Distribution
from fracas.dice.rollers import Roller
from fracas.dice.variables import Fixed
from fracas.odds.cache import cached_odds


def _pick_uniform(roller: Roller, n: int, what: str) -> int:
    if n == 1:
        return 0
    return roller.roll(Fixed(Distribution.uniform(range(n)), label=what, stream="policy"))


def _health_left(system: RuleSystem, roster: Roster, cid: str) -> tuple[int, Fraction]:
    current, maximum = system.health(roster[cid])
    return current, Fraction(current, max(maximum, 1))


class Policy(ABC):
    """Chooses an actor's action and a defender's reaction."""

    name: ClassVar[str]

    @abstractmethod
    def choose(self, roller: Roller, system: RuleSystem, actor: str, actions: list[Action],
               roster: Roster) -> Action:
        """One of ``actions`` (never empty)."""

    def react(self, roller: Roller, system: RuleSystem, variants: list[Action],
              roster: Roster) -> Action:
        """One of ``variants``: the attack with the defender's chosen reaction."""
        return variants[0]


class Aggressive(Policy):
    name = "aggressive"

    def choose(self, roller: Roller, system: RuleSystem, actor: str, actions: list[Action],
               roster: Roster) -> Action:
        attacks = [a for a in actions if a.offensive and a.target is not None]
        if not attacks:
            return actions[0]
        order = {cid: i for i, cid in enumerate(roster)}
        return min(attacks, key=lambda a: (*_health_left(system, roster, a.target or ""),
                                           order[a.target or ""]))


def _least_damage(system: RuleSystem, variants: list[Action], roster: Roster) -> Action:
    def harm(v: Action) -> tuple[Fraction, Fraction]:
        odds = cached_odds(system, v, roster)
        return odds.expected_damage, odds.p_taken_out
    return min(variants, key=harm)


class Cautious(Aggressive):
    name = "cautious"

    def choose(self, roller: Roller, system: RuleSystem, actor: str, actions: list[Action],
               roster: Roster) -> Action:
        _, fraction = _health_left(system, roster, actor)
        defensive = [a for a in actions if not a.offensive]
        if fraction <= Fraction(1, 2) and defensive:
            return defensive[0]
        return super().choose(roller, system, actor, actions, roster)

    def react(self, roller: Roller, system: RuleSystem, variants: list[Action],
              roster: Roster) -> Action:
        return _least_damage(system, variants, roster) if len(variants) > 1 else variants[0]


class RandomPolicy(Policy):
    name = "random"

    def choose(self, roller: Roller, system: RuleSystem, actor: str, actions: list[Action],
               roster: Roster) -> Action:
        return actions[_pick_uniform(roller, len(actions), f"{actor}'s random choice")]

    def react(self, roller: Roller, system: RuleSystem, variants: list[Action],
              roster: Roster) -> Action:
        return variants[_pick_uniform(roller, len(variants), "random reaction")]


class BestOdds(Policy):
    name = "best-odds"

    def choose(self, roller: Roller, system: RuleSystem, actor: str, actions: list[Action],
               roster: Roster) -> Action:
        attacks = [a for a in actions if a.offensive and a.target is not None]
        if not attacks:
            return actions[0]

        def value(a: Action) -> tuple[Fraction, Fraction]:
            odds = cached_odds(system, a, roster)
            return odds.expected_damage, odds.p_taken_out
        return max(attacks, key=value)

    def react(self, roller: Roller, system: RuleSystem, variants: list[Action],
              roster: Roster) -> Action:
        return _least_damage(system, variants, roster) if len(variants) > 1 else variants[0]


POLICIES: dict[str, Policy] = {p.name: p for p in (Aggressive(), Cautious(), RandomPolicy(),
                                                    BestOdds())}
DEFAULT_POLICY = "aggressive"
