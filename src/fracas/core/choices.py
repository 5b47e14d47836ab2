"""Choices in the middle of a resolution: the one named hook where a rule asks somebody.

Some rules let a combatant (or the GM) choose while an action resolves, after seeing
dice: Genesys advantage and threat spending, the c22 split of a hand into weapon
card and maneuver card. Rule code asks with :func:`ask`, passing the roller it was
given and a :class:`Choice` whose ``default`` is what the rules' own policy picks.

* Under the random, scripted and exact rollers nobody is asked: the default is
  taken, so fights, simulations and odds are unchanged.
* Under a live session's roller (which has a ``choose`` method) a person-controlled
  combatant answers; a policy-controlled one gets the default.

>>> from fracas.dice.rollers import RandomRoller
>>> ask(RandomRoller(1), Choice("split", "jace", "Jace's weapon card", ("4S", "9H"), 1))
1
"""

from __future__ import annotations

from dataclasses import dataclass

from fracas.dice.rollers import Roller


@dataclass(frozen=True)
class Choice:
    """A choice asked mid-resolution: its kind (``spend``, ``split``, ...), whose it is
    (a combatant id, or ``gm``), a prompt, the options' labels and the default's index.
    ``among``: when several combatants may answer (which PC takes a Genesys PC slot), their
    ids; the first a person controls is asked."""

    kind: str
    who: str
    prompt: str
    options: tuple[str, ...]
    default: int = 0
    among: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.options or not 0 <= self.default < len(self.options):
            raise ValueError(f"a choice needs options and a default among them: {self}")


def ask(roller: Roller, choice: Choice) -> int:
    """The index of the option chosen: the roller's ``choose`` if it has one (a live
    session), else the default."""
    choose = getattr(roller, "choose", None)
    if choose is None:
        return choice.default
    picked = int(choose(choice))
    if not 0 <= picked < len(choice.options):
        raise ValueError(f"choice {picked} is not one of 0..{len(choice.options) - 1}")
    return picked
