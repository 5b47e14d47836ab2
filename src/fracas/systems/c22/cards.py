"""Card values, and draws from a combatant's own deck as aggregate random variables.

Cards are drawn without replacement from the draw pile in the combatant's state (the
cards already drawn are gone). Two aggregate variables serve the rules:

* :class:`HandDraw` - the turn's two cards, in the order drawn;
* :class:`UntilNumber` - cards from the top until a number card shows (a reaction check,
  an initiative card): the jokers passed over, then the number card.

For exact odds, each variable's distribution merges the draws that no rule which can
still run can tell apart, each class shown by one of its draws with the class's whole
weight. The merge is exact only if it holds for the rest of the fight, not only for this
action: the representative's cards leave the pile, and a later draw reads the pile that
is left. So two cards are merged only when they are of one :meth:`CardReads.kind`: the
same value, the same answer to every raised maneuver's suit and minimum value, and the
same place against every card an initiative draw may still compare them with (ties by
suit). Swapping such cards anywhere in a fight changes no rule's result, so states that
differ only by such a swap have the same future, and the merged odds are the exact ones.
Sampling and pinned cards give the actual cards.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from functools import cache
from itertools import permutations
from typing import TYPE_CHECKING

from fracas.dice.cards import CARD_NOTATION, Card, parse_card
from fracas.dice.distribution import Distribution
from fracas.dice.variables import Script, Variable
from fracas.errors import InputError, ScriptError

if TYPE_CHECKING:
    import numpy as np


@cache
def card(label: str) -> Card:
    """The card of a label from the state (parsed once)."""
    return parse_card(label)


@cache
def cards_of(labels: tuple[str, ...]) -> tuple[Card, ...]:
    """The cards of a pile of labels (parsed once per pile)."""
    return tuple(card(x) for x in labels)


@dataclass(frozen=True)
class CardValues:
    """What each card is worth: its rank; a face card by the table; RJ 14, BJ 0."""

    red_joker: int = 14
    black_joker: int = 0
    faces: tuple[tuple[str, int], ...] = (("A", 1), ("J", 11), ("Q", 12), ("K", 13))

    def value(self, card: Card) -> int:
        if card.rank == "RJ":
            return self.red_joker
        if card.rank == "BJ":
            return self.black_joker
        if card.rank.isdigit():
            return int(card.rank)
        return dict(self.faces)[card.rank]

    @staticmethod
    def is_number(card: Card) -> bool:
        """A number card is any card but a joker (face cards count with their value)."""
        return not card.is_joker

    def meets(self, card: Card, suit: str | None, min_value: int) -> bool:
        """Does the card match the suit (the red joker matches any, the black joker none)
        and reach the minimum value?"""
        if card.rank == "BJ":
            return False
        suit_ok = suit is None or card.rank == "RJ" or card.suit == suit
        return suit_ok and self.value(card) >= min_value


#: Initiative ties by suit (public: spades > clubs > diamonds > hearts); no suit last.
SUIT_ORDER = {"S": 0, "C": 1, "D": 2, "H": 3}


def suit_order(card: Card) -> int:
    return SUIT_ORDER.get(card.suit or "", 4)


@dataclass(frozen=True)
class CardReads:
    """What the rules that can still run in a fight read of one owner's cards.

    ``raises``: every raised maneuver's (suit, minimum value), whoever may play it;
    ``rivals``: (value, suit order) of every number card of another combatant's deck that
    an initiative draw may still compare with this owner's card (empty once initiative is
    no longer drawn). Jokers are told apart by rank (they are not number cards).
    """

    values: CardValues
    raises: tuple[tuple[str | None, int], ...] = ()
    rivals: frozenset[tuple[int, int]] = frozenset()
    _kinds: dict[Card, Hashable] = field(default_factory=dict, compare=False, hash=False,
                                         repr=False)

    def kind(self, card: Card) -> Hashable:
        """The class of a card that no such rule can tell from another of its class
        (worked out once per card: a hand's draw asks it for every card of every hand)."""
        known = self._kinds.get(card)
        if known is None:
            known = self._kinds[card] = self._kind(card)
        return known

    def _kind(self, card: Card) -> Hashable:
        if card.is_joker:
            return card.rank
        value, order = self.values.value(card), suit_order(card)
        return (value, tuple(self.values.meets(card, s, m) for s, m in self.raises),
                tuple((order > r) - (order < r) for v, r in sorted(self.rivals) if v == value))


@dataclass(frozen=True)
class HandKey:
    """What the rules read from a drawn hand: each card's kind (:class:`CardReads`), whether
    it is the named weapon card; in draw order when ``ordered`` (a first/second choice),
    else as a set."""

    reads: CardReads
    label: str | None = None
    ordered: bool = True

    def card_key(self, card: Card) -> Hashable:
        return (self.reads.kind(card), card.label == self.label)

    def __call__(self, cards: tuple[Card, ...]) -> Hashable:
        keys = [self.card_key(c) for c in cards]
        return tuple(keys) if self.ordered else tuple(sorted(keys, key=repr))


def _take(script: Script, label: str, owner: str, left: list[Card]) -> Card:
    """One pinned card from the owner's stream, checked to be left in the draw pile."""
    value, position = script.take(label, owner)
    try:
        drawn = parse_card(value)
    except InputError as err:
        raise ScriptError(err.message, die=label, position=position,
                          allowed=CARD_NOTATION) from None
    if drawn not in left:
        shown = ", ".join(c.label for c in sorted(left))
        raise ScriptError(f"{drawn.label} is not left in {owner}'s draw pile", die=label,
                          position=position, allowed=shown or "none: the draw pile is empty")
    left.remove(drawn)
    return drawn


@cache
def _hand_classes(pile: tuple[Card, ...], count: int, key: HandKey
                  ) -> Distribution[tuple[Card, ...]]:
    weights: dict[Hashable, int] = {}
    shown: dict[Hashable, tuple[Card, ...]] = {}
    for order in permutations(range(len(pile)), count):
        cards = tuple(pile[i] for i in order)
        k = key(cards)
        shown.setdefault(k, cards)
        weights[k] = weights.get(k, 0) + 1
    return Distribution({shown[k]: w for k, w in weights.items()})


@dataclass(frozen=True)
class HandDraw(Variable[tuple[Card, ...]]):
    """The next ``count`` cards of a draw pile, in the order drawn (pile: sorted cards,
    at least ``count``); pinned by the owner's stream of cards."""

    pile: tuple[Card, ...]
    owner: str
    count: int
    key: HandKey

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"{self.owner}'s next {self.count} cards"

    @property
    def stream(self) -> str:  # type: ignore[override]
        return self.owner

    def exact(self) -> Distribution[tuple[Card, ...]]:
        return _hand_classes(self.pile, self.count, self.key)

    def sample(self, rng: np.random.Generator) -> tuple[Card, ...]:
        order = rng.permutation(len(self.pile))[: self.count]
        return tuple(self.pile[int(i)] for i in order)

    def from_script(self, script: Script) -> tuple[Card, ...]:
        left = list(self.pile)
        return tuple(_take(script, self.label, self.owner, left) for _ in range(self.count))


@cache
def _until_number_classes(pile: tuple[Card, ...], reads: CardReads
                          ) -> Distribution[tuple[Card, ...]]:
    """The classes (:meth:`CardReads.kind`) of the cards drawn until a number card,
    memoised by the reads' value (not by a bound method of them: a method compares its
    object by identity, so such a key would never be met again)."""
    # The first number card in a shuffled pile is equally likely to be any number card,
    # whether or not jokers come before it (the first card of all is a number card with
    # chance N / (N + J)). The jokers passed over change no rule's result in this action,
    # but a joker drawn reshuffles the owner's discard pile once the action ends: the
    # state after differs, so "no joker passed" and "jokers passed" are kept apart (one
    # joker shows the second class: after the reshuffle, which ones were passed over
    # leaves the same deck).
    jokers = [c for c in pile if not CardValues.is_number(c)]
    numbers = len(pile) - len(jokers)
    weights: dict[Hashable, int] = {}
    shown: dict[Hashable, tuple[Card, ...]] = {}
    for c in pile:
        if CardValues.is_number(c):
            for passed, w in ((False, numbers), (True, len(jokers))):
                if not w:
                    continue
                k = (reads.kind(c), passed)
                shown.setdefault(k, (jokers[0], c) if passed else (c,))
                weights[k] = weights.get(k, 0) + w
    return Distribution({shown[k]: w for k, w in weights.items()})


@dataclass(frozen=True)
class UntilNumber(Variable[tuple[Card, ...]]):
    """Cards from the top of a pile until a number card shows (the pile holds one):
    the jokers passed over, then the number card."""

    pile: tuple[Card, ...]
    owner: str
    key: CardReads

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"{self.owner}'s cards until a number card"

    @property
    def stream(self) -> str:  # type: ignore[override]
        return self.owner

    def exact(self) -> Distribution[tuple[Card, ...]]:
        return _until_number_classes(self.pile, self.key)

    def sample(self, rng: np.random.Generator) -> tuple[Card, ...]:
        out: list[Card] = []
        for i in rng.permutation(len(self.pile)):
            out.append(self.pile[int(i)])
            if CardValues.is_number(out[-1]):
                break
        return tuple(out)

    def from_script(self, script: Script) -> tuple[Card, ...]:
        left = list(self.pile)
        out: list[Card] = []
        while not out or not CardValues.is_number(out[-1]):
            out.append(_take(script, self.label, self.owner, left))
        return tuple(out)
