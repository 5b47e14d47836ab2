"""The c22 sheet, attack options and table defaults, as frozen pydantic models.

Bad input names its field: ``deck[3]: '11X' is not a card``, ``skills.block: a rank
is a whole number >= 0``, ``options.weapon_card: ...``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    field_validator,
    model_validator,
)

from fracas.dice.cards import CARD_NOTATION, parse_card
from fracas.errors import InputError

REACTIONS = ("block", "parry", "dodge", "advance")
SPLIT_WORDS = ("auto", "first", "second", "higher", "lower")


def card_label(text: str) -> str:
    """A card's label in canonical form (``4s`` -> ``4S``); a bad card is a ValueError."""
    try:
        return parse_card(text).label
    except InputError:
        raise ValueError(f"{text!r} is not a card (allowed: {CARD_NOTATION})") from None


CardLabel = Annotated[str, AfterValidator(card_label)]
Position = tuple[StrictInt, StrictInt]


class Weapon(BaseModel):
    """A weapon: base damage, Pierce (Armor it ignores) and range in spaces."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str = Field(min_length=1)
    damage: StrictInt = Field(ge=0)
    pierce: StrictInt = Field(default=0, ge=0)
    range: StrictInt = Field(default=1, ge=1)


class Sheet(BaseModel):
    """A c22 combatant: Avoidance, Armor, Health, skills, weapons, deck, position."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    avoidance: StrictInt = Field(ge=0)
    armor: StrictInt = Field(default=0, ge=0)
    health: StrictInt = Field(ge=1)
    current_health: StrictInt | None = Field(default=None, ge=0)  # a wounded character
    skills: tuple[tuple[str, StrictInt], ...] = ()
    trained: tuple[str, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    deck: tuple[CardLabel, ...] | None = None
    discard: tuple[CardLabel, ...] = ()  # cards of the deck already drawn in this fight
    position: Position | None = None
    player: StrictBool = False  # a player character (wins an exact initiative tie with an NPC)

    @field_validator("skills", mode="before")
    @classmethod
    def _skills(cls, value: Any) -> Any:
        """``{general: 1, block: 2}`` -> sorted (name, rank) pairs (names lower-cased)."""
        if isinstance(value, Mapping):
            pairs = []
            for name, rank in value.items():
                if not isinstance(rank, int) or isinstance(rank, bool) or rank < 0:
                    raise ValueError(f"the rank of {name!r} must be a whole number >= 0, "
                                     f"not {rank!r}")
                pairs.append((str(name).strip().lower().replace(" ", "_"), rank))
            return tuple(sorted(pairs))
        return value

    @model_validator(mode="after")
    def _current_at_most_health(self) -> Sheet:
        if self.current_health is not None and self.current_health > self.health:
            raise ValueError(f"current_health {self.current_health} is above Health "
                             f"{self.health}")
        return self

    def rank(self, skill: str) -> int:
        """The rank in a skill (0 when the sheet does not list it)."""
        return dict(self.skills).get(skill, 0)

    def has_skill(self, skill: str) -> bool:
        return skill in dict(self.skills)

    def weapon(self, name: str | None) -> Weapon | None:
        return next((w for w in self.weapons if w.name == name), None)


def _weapon_card(value: str) -> str:
    word = value.strip().lower()
    if word in SPLIT_WORDS:
        return word
    try:
        return parse_card(value).label
    except InputError:
        raise ValueError(f"{value!r} is neither a choice ({', '.join(SPLIT_WORDS)}) nor a "
                         f"card ({CARD_NOTATION})") from None


ReactionName = Literal["none", "block", "parry", "dodge", "advance", "choose"]


class ReactionPlan(BaseModel):
    """The defender's reaction for each extent of damage (seed: "Once the extent of damage
    the attack deals is determined, the target has a few options"): chosen after the
    attack hits or grazes. ``reaction: block`` is the same reaction on both; ``choose``
    (the default) leaves the choice to the defender once Accuracy and damage are known
    (a person is asked; anybody else takes the reaction of least expected damage)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    on_hit: ReactionName = "choose"
    on_graze: ReactionName = "choose"

    def for_extent(self, graze: bool) -> str:
        return self.on_graze if graze else self.on_hit

    def names(self) -> tuple[str, ...]:
        """The reactions the plan may use (none left out)."""
        return tuple(dict.fromkeys(n for n in (self.on_hit, self.on_graze) if n != "none"))

    def __str__(self) -> str:
        if self.on_hit == self.on_graze:
            return self.on_hit
        return f"on a hit {self.on_hit}, on a graze {self.on_graze}"


def _plan(value: Any) -> Any:
    if isinstance(value, str):
        word = value.strip().lower()
        if word not in ("none", *REACTIONS, "choose"):
            raise ValueError(f"{value!r} is not a reaction (allowed: none, "
                             f"{', '.join(REACTIONS)}, choose, or "
                             "{on_hit: ..., on_graze: ...})")
        return {"on_hit": word, "on_graze": word}
    return value


class Options(BaseModel):
    """An action's options: the split, the maneuver, the defender's reaction plan, a path."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    weapon_card: Annotated[str, AfterValidator(_weapon_card)] = "auto"
    maneuver: str = "none"
    raised: StrictBool = True  # raise the maneuver when the maneuver card allows it
    reaction: Annotated[ReactionPlan, BeforeValidator(
        _plan, json_schema_input_type=ReactionName | ReactionPlan)] = ReactionPlan()
    path: tuple[Position, ...] = ()

    @field_validator("maneuver", mode="before")
    @classmethod
    def _maneuver(cls, value: Any) -> Any:
        if isinstance(value, str):
            return value.strip().lower().replace(" ", "_")
        return value


class Option(BaseModel):
    """One option (base or raised) of a maneuver: its effects, and for a raised option
    the suit (None: any) and minimum value the maneuver card needs."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    # where the option comes from (cited in the events): the seed, a table default, or
    # our own table default (so is any option a scenario adds or changes)
    source: Literal["seed", "rules", "ours"] = "ours"
    suit: Literal["S", "C", "D", "H"] | None = None
    min_value: StrictInt = 0
    accuracy: StrictInt = 0
    damage: StrictInt = 0
    pierce: StrictInt = Field(default=0, ge=0)
    avoidance: StrictInt = Field(default=0, ge=0)
    movement_actions: StrictInt = Field(default=0, ge=0)
    spaces_per_action: StrictInt = Field(default=0, ge=0)

    def effects(self) -> str:
        """The option's effects in words: ``Pierce 3``, ``+2 damage, -3 Accuracy``."""
        parts = []
        if self.damage:
            parts.append(f"{self.damage:+d} damage")
        if self.accuracy:
            parts.append(f"{self.accuracy:+d} Accuracy")
        if self.pierce:
            parts.append(f"Pierce {self.pierce}")
        if self.avoidance:
            parts.append(f"+{self.avoidance} Avoidance until your next turn")
        if self.movement_actions:
            parts.append(f"{self.movement_actions} movement actions of "
                         f"{self.spaces_per_action} spaces")
        return ", ".join(parts) or "no effect"

    def needs(self) -> str:
        suit = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}.get(
            self.suit or "", "any suit")
        return f"{suit} {self.min_value}+"


class Maneuver(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    base: Option
    raised: Option


class ReactionEffects(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    armor: StrictInt = Field(default=0, ge=0)
    damage: StrictInt = Field(default=0, ge=0)
    halve: StrictBool = False
    move: StrictInt = Field(default=0, ge=0)


class Reactions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    block: ReactionEffects
    parry: ReactionEffects
    dodge: ReactionEffects
    advance: ReactionEffects


class Defaults(BaseModel):
    """``data/defaults.yaml``: every table default (see docs/systems/c22.md)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    level_1_deck: tuple[CardLabel, ...] = Field(min_length=2)
    red_joker_value: StrictInt
    black_joker_value: StrictInt
    face_card_values: dict[Literal["A", "J", "Q", "K"], StrictInt]
    empty_deck: Literal["reshuffle", "error"]
    general_accuracy_per_rank: StrictInt
    trained_damage_bonus: StrictInt
    reactions: Reactions
    maneuvers: dict[str, Maneuver]
    grid: Literal["hex", "square"]
    metres_per_space: StrictInt = Field(ge=1)
    spaces_per_movement_action: StrictInt = Field(ge=0)
    movement_actions_per_turn: StrictInt = Field(ge=0)
    diagonal_cost_m: StrictInt = Field(ge=1)
    diagonals_per_movement_action: StrictInt = Field(ge=0)
    occupied_spaces_block: StrictBool
    initiative_every_round: StrictBool
    reaction_timing: Literal["known", "plan"]

    @field_validator("maneuvers", mode="before")
    @classmethod
    def _keys(cls, value: Any) -> Any:
        if isinstance(value, Mapping):
            return {str(k).strip().lower().replace(" ", "_"): v for k, v in value.items()}
        return value
