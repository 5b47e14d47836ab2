"""The table defaults in the shapes the rules use: card values, the grid, maneuvers."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from fracas.systems.c22.cards import CardValues
from fracas.systems.c22.decks import CardRules
from fracas.systems.c22.events import ours, seed, table
from fracas.systems.c22.grid import Allowance, Grid
from fracas.systems.c22.sheet import Defaults, Maneuver, Option


@dataclass(frozen=True, eq=False)
class Conf:
    """The validated defaults (``d``) and what the rules derive from them; ``shipped``
    are the data pack's own defaults, before a scenario's ``rules:``."""

    d: Defaults
    shipped: Defaults | None = None

    @cached_property
    def values(self) -> CardValues:
        return CardValues(self.d.red_joker_value, self.d.black_joker_value,
                          tuple(sorted(self.d.face_card_values.items())))

    @cached_property
    def cards(self) -> CardRules:
        """The rules that read cards, for the decks of an action (:class:`Drawing`)."""
        raises = tuple(sorted({(m.raised.suit, m.raised.min_value)
                               for m in self.d.maneuvers.values()}, key=repr))
        return CardRules(self.values, self.d.empty_deck, raises, self.d.initiative_every_round)

    @cached_property
    def grid(self) -> Grid:
        return Grid(self.d.grid, self.d.metres_per_space, self.d.diagonal_cost_m,
                    self.d.diagonals_per_movement_action, self.d.occupied_spaces_block)

    def maneuver(self, key: str) -> Maneuver | None:
        """The maneuver by its key (``fish_in_a_barrel``); None for ``none``."""
        return None if key == "none" else self.d.maneuvers[key]

    def turn_allowance(self) -> Allowance:
        """A turn's movement without a maneuver that gives more."""
        return Allowance(self.d.movement_actions_per_turn, self.d.spaces_per_movement_action)

    def allowance(self, option: Option | None) -> Allowance:
        """The movement a maneuver option gives (Dash), else the turn's."""
        if option is not None and option.movement_actions:
            return Allowance(option.movement_actions, option.spaces_per_action)
        return self.turn_allowance()

    def cite(self, option: Option | None) -> str:
        """The rule a maneuver option is cited by: its ``source`` in the data pack (the
        seed, a table default, ours); an option a scenario adds or changes is ours."""
        source = "ours"
        shipped = () if self.shipped is None else self.shipped.maneuvers.values()
        if option is not None and any(option in (m.base, m.raised) for m in shipped):
            source = option.source
        if source == "seed":
            return seed("Example: One Tough Lizard")
        return table("maneuvers") if source == "rules" else ours("maneuvers")
