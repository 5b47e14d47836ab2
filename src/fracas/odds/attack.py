"""Exact odds of one action, from the same rule code that resolves it.

The exact roller runs the system's ``resolve`` over every distinct outcome of
every random variable it rolls, so the odds follow the complete rules (criticals,
armor, reactions, ...), not only the dice.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from fracas.odds.text import as_float, fraction_text

if TYPE_CHECKING:
    from fracas.core.model import Action, Roster
    from fracas.core.system import RuleSystem
    from fracas.dice.distribution import Distribution
    from fracas.dice.rollers import ExactRoller, Roller

Summary = tuple[str, bool, int, bool, tuple[tuple[str, Any], ...]]


def _summary(roller: Roller, system: RuleSystem, action: Action, roster: Roster) -> Summary:
    return system.resolve(roller, action, roster).summary()


@dataclass(frozen=True)
class AttackOdds:
    """The exact joint distribution of an action's results, with the usual views of it."""

    joint: Distribution[Summary]
    action: Action

    @cached_property
    def p_hit(self) -> Fraction:
        return self.joint.chance(lambda s: s[1])

    @property
    def outcomes(self) -> dict[str, Fraction]:
        return self.joint.map(lambda s: s[0]).probabilities()

    @cached_property
    def damage(self) -> Distribution[int]:
        return self.joint.map(lambda s: s[2])

    @cached_property
    def expected_damage(self) -> Fraction:
        return self.damage.mean()

    @cached_property
    def p_taken_out(self) -> Fraction:
        return self.joint.chance(lambda s: s[3])

    def detail(self, name: str) -> Distribution[Hashable]:
        """The distribution of one named detail (None where a result lacks it)."""
        found = self._details.get(name)
        return found if found is not None else self.joint.map(lambda s: None)

    @cached_property
    def _details(self) -> dict[str, Distribution[Hashable]]:
        """Every detail's distribution, from one pass over the joint (values in the order
        they first come in it, as a pass per detail gives them)."""
        names = self.detail_names()
        every = self.joint.map(lambda s: tuple(dict(s[4]).get(n) for n in names))
        return {n: every.map(itemgetter(i)) for i, n in enumerate(names)}

    def detail_names(self) -> list[str]:
        names: dict[str, None] = {}
        for s in self.joint.outcomes():
            for key, _ in s[4]:
                names.setdefault(key, None)
        return list(names)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "p_hit": fraction_text(self.p_hit),
            "outcomes": {k: fraction_text(p) for k, p in self.outcomes.items()},
            "expected_damage": fraction_text(self.expected_damage),
            "damage": {str(k): fraction_text(p) for k, p in self.damage.probabilities().items()},
            "p_taken_out": fraction_text(self.p_taken_out),
        }
        details = {}
        for name in self.detail_names():
            details[name] = {str(k): fraction_text(p)
                             for k, p in self.detail(name).probabilities().items()}
        if details:
            out["details"] = details
        out["floats"] = as_float(out)
        return out


def attack_odds(system: RuleSystem, action: Action, roster: Roster,
                roller: ExactRoller | None = None) -> AttackOdds:
    """Exact odds of ``action`` against the current state of ``roster`` (a ``roller`` of
    one's own is best made with ``summaries_only``: the odds read the summaries only)."""
    from fracas.dice.rollers import ExactRoller

    exact = roller or ExactRoller(summaries_only=True)
    return AttackOdds(exact.distribution(_summary, system, action, roster), action)
