"""The dice layer: exact distributions, dice, decks, notation and the three rollers."""

from fracas.dice.cards import Card, Deck, DrawCard, parse_card, standard_deck
from fracas.dice.distribution import Distribution, EmptyDistributionError
from fracas.dice.notation import parse_dice
from fracas.dice.rollers import ExactRoller, RandomRoller, Roller, ScriptedRoller, exact
from fracas.dice.variables import (
    D100,
    TWO_D6,
    Die,
    Faces,
    Fixed,
    Group,
    Keep,
    Mapped,
    Pool,
    RollOff,
    Sum,
    Variable,
    boons_banes,
    d,
    keep,
    nd,
)

__all__ = [
    "D100",
    "TWO_D6",
    "Card",
    "Deck",
    "Die",
    "Distribution",
    "DrawCard",
    "EmptyDistributionError",
    "ExactRoller",
    "Faces",
    "Fixed",
    "Group",
    "Keep",
    "Mapped",
    "Pool",
    "RandomRoller",
    "RollOff",
    "Roller",
    "ScriptedRoller",
    "Sum",
    "Variable",
    "boons_banes",
    "d",
    "exact",
    "keep",
    "nd",
    "parse_card",
    "parse_dice",
    "standard_deck",
]
