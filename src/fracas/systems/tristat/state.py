"""The changing values of a tristat combatant, and the values derived from its sheet.

Derived values (public fact): Combat Value = floor(mean(Body, Mind, Soul));
Health = (Body + Soul) x 5; Energy = (Mind + Soul) x 5.

>>> from fracas.systems.tristat.sheet import Sheet
>>> combat_value(Sheet(body=7, mind=4, soul=5))
5
"""

from __future__ import annotations

from dataclasses import dataclass

from fracas.systems.tristat.sheet import Defaults, Sheet


@dataclass(frozen=True)
class State:
    """What changes in a fight (every field changes only through ``Changed`` events).

    ``grappled_by``: who holds this combatant (seed 003 · Grappling); the grabber's side of
    the hold is read from its victim. ``attacks_used`` / ``defenses_used``: this round.
    ``total_attack`` / ``total_defense`` / ``no_defense``: until this combatant's next turn.
    ``loosened``: a weapon kept after a disarm, at -2 until the end of its own turn
    (``loosened_turn`` once that turn has begun). ``paired_weapon`` / ``paired_target`` /
    ``paired_mode``: the second attack of a two-weapon pair still due this turn, the first
    attack's target and the pair it declared (``same_target`` or ``two_targets``).
    ``initiative`` / ``roll_off``: rolled once at the start of a fight. ``sheathed``:
    weapons not drawn yet (the first attack with one draws it, at -3).
    """

    health: int
    max_health: int
    energy: int
    max_energy: int
    conditions: tuple[str, ...] = ()
    grappled_by: str | None = None
    attacks_used: int = 0
    defenses_used: int = 0
    total_attack: bool = False
    total_defense: bool = False
    no_defense: bool = False
    disarmed: tuple[str, ...] = ()
    loosened: str | None = None
    loosened_turn: bool = False
    paired_weapon: str | None = None
    paired_target: str | None = None
    paired_mode: str | None = None
    initiative: int | None = None
    roll_off: int = 0
    sheathed: tuple[str, ...] = ()


def combat_value(sheet: Sheet) -> int:
    """Combat Value: the mean of Body, Mind and Soul, rounded down."""
    return (sheet.body + sheet.mind + sheet.soul) // 3


def max_health(sheet: Sheet, defaults: Defaults) -> int:
    return (sheet.body + sheet.soul) * defaults.health_per_point


def max_energy(sheet: Sheet, defaults: Defaults) -> int:
    return (sheet.mind + sheet.soul) * defaults.energy_per_point


def defense_value(sheet: Sheet, defaults: Defaults) -> int:
    """Defense Value: the sheet's, or the Combat Value (+ the offset; table default)."""
    if sheet.defense_value is not None:
        return sheet.defense_value
    return max(0, combat_value(sheet) + defaults.defense_value_offset)


def attacks_per_round(sheet: Sheet, defaults: Defaults) -> int:
    """One attack a round, plus Extra Attacks."""
    return 1 + sheet.attributes.extra_attacks * defaults.extra_attacks_per_level


def optimal_defenses(sheet: Sheet, defaults: Defaults) -> int:
    """Defenses a round at no penalty: one, plus Extra Attacks."""
    return 1 + sheet.attributes.extra_attacks * defaults.extra_attacks_per_level


def strength(sheet: Sheet, defaults: Defaults) -> int:
    """Body for "who is stronger", counting Super Strength, Diminutive, Not So Strong."""
    a, s = sheet.attributes, defaults.strength
    return (sheet.body + a.super_strength * s.super_strength + a.diminutive * s.diminutive
            + a.not_so_strong * s.not_so_strong)


def skill_level(sheet: Sheet, name: str) -> int:
    """A skill's level (names match case-insensitively; an untrained skill is 0)."""
    wanted = name.casefold()
    for key, level in sheet.skills.items():
        if key.casefold() == wanted:
            return level
    return 0


def initial_state(sheet: Sheet, defaults: Defaults) -> State:
    hp_max, en_max = max_health(sheet, defaults), max_energy(sheet, defaults)
    health = hp_max if sheet.health is None else sheet.health
    conditions: tuple[str, ...] = ()
    if health <= defaults.dead_at:
        conditions = ("dead",)
    elif health <= 0:
        conditions = ("unconscious",)
    return State(health=health, max_health=hp_max,
                 energy=en_max if sheet.energy is None else sheet.energy, max_energy=en_max,
                 conditions=conditions, grappled_by=sheet.grappled_by,
                 sheathed=tuple(sheet.sheathed))
