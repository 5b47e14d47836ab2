"""The decks in play during one action: draws, the empty-deck rule, the joker reshuffle.

:class:`Drawing` keeps each combatant's deck as it changes during an action (a local
value: ``resolve`` stays pure) and records every change as ``Changed`` events on the
combatant's ``draw_pile`` and ``discard``. Drawn cards go to the discard pile. When a
joker was drawn, the discard pile is shuffled back into the deck once the action ends
(:meth:`Drawing.finish`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from fracas.core.events import Changed, Event, Note
from fracas.core.model import Roster
from fracas.dice.cards import Card, Deck
from fracas.dice.rollers import Roller, announce, summaries_only
from fracas.errors import RulesError
from fracas.systems.c22.cards import (
    CardReads,
    CardValues,
    HandDraw,
    HandKey,
    UntilNumber,
    cards_of,
    suit_order,
)
from fracas.systems.c22.events import C22Drew, public, table

DECK_RULE = public("Decks")
JOKER_RULE = public("Decks: joker reshuffle")
EMPTY_RULE = table("empty deck")


def deck_of(roster: Roster, cid: str) -> Deck:
    """A combatant's deck from its state (the draw pile and the discard pile)."""
    state = roster[cid].state
    return Deck(cards_of(state.draw_pile), cards_of(state.discard), cid)


def labels(cards: tuple[Card, ...]) -> tuple[str, ...]:
    return tuple(c.label for c in cards)


@dataclass(frozen=True)
class CardRules:
    """The table's rules that read cards: their values, the empty-deck rule, every raised
    maneuver's (suit, minimum value), and whether initiative is drawn every round."""

    values: CardValues
    empty_deck: str
    raises: tuple[tuple[str | None, int], ...] = ()
    initiative_every_round: bool = True

    def reads(self, roster: Roster, cid: str) -> CardReads:
        """What the rules that can still run read of ``cid``'s cards: initiative compares
        them by suit with the other decks' cards of the same value while it is still drawn
        (every round, or while a combatant has no initiative card yet)."""
        live = self.initiative_every_round or any(
            not c.state.initiative_card for c in roster.values())
        rivals: frozenset[tuple[int, int]] = frozenset()
        if live:
            rivals = frozenset(
                (self.values.value(card), suit_order(card))
                for other in roster.values() if other.id != cid
                for card in (*cards_of(other.state.draw_pile), *cards_of(other.state.discard))
                if not card.is_joker)
        return CardReads(self.values, self.raises, rivals)


@functools.lru_cache(maxsize=64)
def _action_reads(values: CardValues, raises: tuple[tuple[str | None, int], ...]
                  ) -> CardReads:
    """What one action's own rules read of a card (its value, the raises), made once, so
    each card's class is worked out once across the odds' many branches."""
    return CardReads(values, raises)


class Drawing:
    """The decks of one action, with the events that changed them."""

    def __init__(self, roster: Roster, rules: CardRules):
        self.roster = roster
        self.rules = rules
        self.values = rules.values
        self.empty_deck = rules.empty_deck
        self._reads: dict[str, CardReads] = {}
        self.decks: dict[str, Deck] = {}
        self.in_play: dict[str, list[Card]] = {}
        self.jokers: list[str] = []
        self.events: list[Event] = []

    def deck(self, cid: str) -> Deck:
        if cid not in self.decks:
            self.decks[cid] = deck_of(self.roster, cid)
        return self.decks[cid]

    def reads(self, cid: str, roller: Roller,
              own: tuple[tuple[str | None, int], ...] = ()) -> CardReads:
        """What the rules that can still run read of ``cid``'s cards (the decks' contents
        do not change within an action: cards only move between a deck's piles). For the
        odds of this one action (``summaries_only``), nothing runs after it (no later
        initiative draw, no later maneuver): only what this draw's own rule reads counts,
        the card's value and ``own``, the raise of the maneuver this action plays (none
        for a reaction's card), and cards equal in them merge."""
        if summaries_only(roller):
            return _action_reads(self.values, own)
        if cid not in self._reads:
            self._reads[cid] = self.rules.reads(self.roster, cid)
        return self._reads[cid]

    # -- drawing ------------------------------------------------------------------------
    def hand(self, roller: Roller, cid: str, count: int, purpose: str, rule: str,
             label: str | None = None, ordered: bool = True,
             own: tuple[tuple[str | None, int], ...] = ()) -> tuple[Card, ...]:
        """Draw ``count`` cards in order (one aggregate roll when the pile holds enough);
        ``label``: a weapon card named in advance, ``ordered``: whether the rules read
        which card came first; ``own``: the raise (suit, minimum) of the maneuver the hand
        may play."""
        deck = self.deck(cid)
        if len(deck.draw_pile) >= count:
            announce(roller, cid, _what(purpose))
            key = HandKey(self.reads(cid, roller, own), label, ordered)
            cards = roller.roll(HandDraw(deck.draw_pile, cid, count, key))
            return self._drew(cid, cards, purpose, rule)
        return tuple(self._one(roller, cid, purpose, rule) for _ in range(count))

    def until_number(self, roller: Roller, cid: str, purpose: str, rule: str
                     ) -> tuple[Card, ...]:
        """Draw from the top until a number card shows (jokers are passed over)."""
        passed: list[Card] = []
        while not any(CardValues.is_number(c) for c in self.deck(cid).draw_pile):
            if self.deck(cid).draw_pile:  # only jokers are left: draw them one by one
                passed.append(self._one(roller, cid, purpose, rule))
            else:
                self._refill(cid)
        pile = self.deck(cid).draw_pile
        announce(roller, cid, _what(purpose))
        cards = roller.roll(UntilNumber(pile, cid, self.reads(cid, roller)))
        jokers = [c.label for c in cards if c.is_joker]
        if jokers:
            purpose += f" ({' and '.join(jokers)} passed over: not a number card)"
        return (*passed, *self._drew(cid, cards, purpose, rule))

    def _one(self, roller: Roller, cid: str, purpose: str, rule: str) -> Card:
        """One card, shuffling the discard pile back first if the draw pile is empty."""
        if not self.deck(cid).draw_pile:
            self._refill(cid)
        announce(roller, cid, _what(purpose))
        card = roller.roll(self.deck(cid).next_card())
        self._drew(cid, (card,), purpose, rule)
        return card

    def _refill(self, cid: str) -> None:
        deck = self.deck(cid)
        name = self.roster[cid].name
        keep = list(self.in_play.get(cid, []))
        back = list(deck.discard)
        for card in keep:
            back.remove(card)
        if self.empty_deck == "error" or not back:
            why = ("the table default empty_deck is 'error'" if back else
                   "no card is left to shuffle back either")
            raise RulesError(f"{name}'s deck has run out of cards: the draw pile is empty and "
                             f"{why}")
        self.events.append(Note(EMPTY_RULE, f"{name}'s draw pile is empty: the discard pile "
                                            "is shuffled back in"))
        self._set(cid, deck, Deck(tuple(back), tuple(keep), cid), EMPTY_RULE)

    def _drew(self, cid: str, cards: tuple[Card, ...], purpose: str, rule: str
              ) -> tuple[Card, ...]:
        before = self.deck(cid)
        after = before
        for card in cards:
            after = after.drawn(card)
            self.in_play.setdefault(cid, []).append(card)
            if card.is_joker and cid not in self.jokers:
                self.jokers.append(cid)
        self.events.append(C22Drew(rule, self.roster[cid].name, labels(cards), purpose))
        self._set(cid, before, after, DECK_RULE)
        return cards

    # -- state changes --------------------------------------------------------------------
    def _set(self, cid: str, before: Deck, after: Deck, rule: str) -> None:
        pile0, pile1 = labels(before.draw_pile), labels(after.draw_pile)
        disc0, disc1 = labels(before.discard), labels(after.discard)
        if pile0 != pile1:
            self.events.append(Changed(rule, cid, "draw_pile", pile0, pile1))
        if disc0 != disc1:
            self.events.append(Changed(rule, cid, "discard", disc0, disc1))
        self.decks[cid] = after

    def finish(self) -> list[Event]:
        """The joker reshuffle, once the action ends: each deck a joker was drawn from
        takes its discard pile back."""
        for cid in self.jokers:
            deck = self.deck(cid)
            drawn = [c.label for c in self.in_play[cid] if c.is_joker]
            self.events.append(Note(JOKER_RULE, f"{self.roster[cid].name} drew "
                                                f"{' and '.join(drawn)}: the discard pile is "
                                                "shuffled back into the deck"))
            self._set(cid, deck, deck.reshuffled(), JOKER_RULE)
        self.jokers = []
        return self.events


def _what(purpose: str) -> str:
    """``for the turn`` → ``turn``: what a draw is for, after a name (``Mara's turn``)."""
    return purpose.removeprefix("for ").removeprefix("the ")
