"""Playing cards and decks drawn without replacement.

A :class:`Deck` is an immutable value: its draw pile and its discard pile. Drawing
returns the card and the new deck. The order of the draw pile is not stored:
every card left is equally likely to come next, which is what a shuffled deck
means, and what lets the exact roller enumerate draws from the deck's state.

>>> deck = Deck.of(["4S", "4H", "RJ"])
>>> draw = deck.next_card()
>>> sorted(c.label for c in draw.exact().outcomes())
['4H', '4S', 'RJ']
>>> deck.drawn(parse_card("4S")).discard
(Card(rank='4', suit='S'),)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from fracas.dice.distribution import Distribution
from fracas.dice.variables import Script, Variable
from fracas.errors import InputError, ScriptError

SUITS = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKERS = ("RJ", "BJ")
_CARD = re.compile(r"^(?:(A|[2-9]|10|J|Q|K)([SCDH])|(RJ|BJ))$")
CARD_NOTATION = "a rank A, 2-10, J, Q or K then a suit S, C, D or H (e.g. 4S, 10H), or RJ / BJ"


@dataclass(frozen=True, order=True)
class Card:
    """One playing card: a rank (``A``, ``2``..``10``, ``J``, ``Q``, ``K``, or ``RJ``/``BJ``)
    and a suit (``S``, ``C``, ``D``, ``H``; None for jokers)."""

    rank: str
    suit: str | None = None

    @property
    def label(self) -> str:
        return self.rank + (self.suit or "")

    @property
    def is_joker(self) -> bool:
        return self.rank in JOKERS

    def __str__(self) -> str:
        return self.label


def parse_card(text: object) -> Card:
    """A card from its notation (``4S``, ``10H``, ``QD``, ``RJ``); case does not matter."""
    raw = str(text).strip().upper()
    m = _CARD.match(raw)
    if not m:
        raise InputError(f"{text!r} is not a card", allowed=CARD_NOTATION)
    if m.group(3):
        return Card(m.group(3))
    return Card(m.group(1), m.group(2))


def standard_deck(jokers: bool = True) -> tuple[Card, ...]:
    """The 52 cards, plus the red and black jokers unless ``jokers`` is False."""
    cards = [Card(r, s) for s in SUITS for r in RANKS]
    if jokers:
        cards += [Card("RJ"), Card("BJ")]
    return tuple(cards)


@dataclass(frozen=True)
class Deck:
    """A deck's state: the cards left to draw (a multiset) and the discard pile (in order)."""

    draw_pile: tuple[Card, ...]
    discard: tuple[Card, ...] = ()
    owner: str = "deck"

    def __post_init__(self) -> None:
        object.__setattr__(self, "draw_pile", tuple(sorted(self.draw_pile)))

    @classmethod
    def of(cls, cards: Iterable[Card | str], owner: str = "deck") -> Deck:
        return cls(tuple(c if isinstance(c, Card) else parse_card(c) for c in cards), (), owner)

    def __len__(self) -> int:
        return len(self.draw_pile)

    def next_card(self) -> DrawCard:
        """The variable 'the top card of this deck'."""
        return DrawCard(self)

    def drawn(self, card: Card) -> Deck:
        """The deck after ``card`` was drawn and put on the discard pile."""
        pile = list(self.draw_pile)
        try:
            pile.remove(card)
        except ValueError:
            raise InputError(
                f"{card.label} is not in {self.owner}'s draw pile",
                allowed=", ".join(c.label for c in self.draw_pile) or "nothing: the deck is empty",
            ) from None
        return Deck(tuple(pile), (*self.discard, card), self.owner)

    def reshuffled(self) -> Deck:
        """The discard pile shuffled back into the draw pile."""
        return Deck(self.draw_pile + self.discard, (), self.owner)

    def labels(self) -> tuple[list[str], list[str]]:
        return [c.label for c in self.draw_pile], [c.label for c in self.discard]


@dataclass(frozen=True)
class DrawCard(Variable[Card]):
    """The next card of a deck; pinned by the card's notation on the deck owner's stream."""

    deck: Deck

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"{self.deck.owner}'s next card"

    @property
    def stream(self) -> str:  # type: ignore[override]
        return self.deck.owner

    @cached_property
    def _dist(self) -> Distribution[Card]:
        if not self.deck.draw_pile:
            raise InputError(f"{self.deck.owner}'s deck has run out of cards",
                             allowed="reshuffle the discard pile first")
        return Distribution.uniform(self.deck.draw_pile)

    def exact(self) -> Distribution[Card]:
        return self._dist

    def from_script(self, script: Script) -> Card:
        value, position = script.take(self.label, self.stream)
        try:
            card = parse_card(value)
        except InputError as err:
            raise ScriptError(err.message, die=self.label, position=position,
                              allowed=CARD_NOTATION) from None
        if card not in self.deck.draw_pile:
            left = ", ".join(c.label for c in self.deck.draw_pile)
            raise ScriptError(f"{card.label} is not left in the deck", die=self.label,
                              position=position, allowed=left or "none: the deck is empty")
        return card
