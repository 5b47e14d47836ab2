"""The figures seed 003 states, and the names of its rule steps (cited by every event)."""

from __future__ import annotations

SEED = "seed 003"
ATTACK = f"{SEED} · How to Attack an Enemy"
DEFEND = f"{SEED} · How to Defend against an Attack"
DAMAGE = f"{SEED} · Damage"
CRITICAL = f"{SEED} · Damage (snake eyes)"
TRICK_SHOT = f"{SEED} · Trick Shots"
VITAL = f"{SEED} · Aiming for a Vital Target"
CHINK = f"{SEED} · Aiming for a Chink"
FLANKING = f"{SEED} · Flanking"
GRAPPLING = f"{SEED} · Grappling"
ESCAPING = f"{SEED} · Escaping"
STRANGLING = f"{SEED} · Strangling/Crushing"
THROWING = f"{SEED} · Throwing"
DISARM_MELEE = f"{SEED} · Disarming by Brawl or Melee"
DISARM_RANGED = f"{SEED} · Disarming by Ranged Attacks"
TWO_WEAPONS = f"{SEED} · Attacking with 2 Weapons"
DRAWING = f"{SEED} · Drawing a Weapon"
TOTAL_ATTACK = f"{SEED} · Total Attack"
TOTAL_DEFENSE = f"{SEED} · Total Defense"
WILLPOWER = f"{SEED} · Willpower"

PUBLIC = "public fact"
HEALTH = f"{PUBLIC} · Health"
EXTRA_ATTACKS = f"{PUBLIC} · Extra Attacks"
STYLE = f"{PUBLIC} · Kensei / Gun Bunny"
DEFAULT = "table default"
INITIATIVE = f"{DEFAULT} · Initiative"
DEFENSE_VALUE = f"{DEFAULT} · Defense Value"
BODY_CHECK = f"{DEFAULT} · Body check"
TABLE = "table default (docs/systems/tristat.md)"

# Seed 003's own figures.
CRITICAL_TABLE = {1: 2, 2: 2, 3: 2, 4: 3, 5: 3, 6: 4}
CRITICAL_WORDS = {2: "double damage", 3: "triple damage", 4: "quadruple damage"}
EXTRA_DEFENSE_PENALTY = -2
VITAL_PENALTY = -4
VITAL_MULTIPLIER = 2
CHINK_PENALTY = -2
FLANKED_PENALTY = -1
TWO_WEAPONS_PENALTY = {"same_target": -4, "two_targets": -6}
DRAW_PENALTY = -3
TOTAL_ATTACK_BONUS = 1
TOTAL_DEFENSE_BONUS = 2
GRAPPLED_PENALTY = -2
GRAPPLED_EXTREME_PENALTY = -4
MUCH_STRONGER_BY = 4
THROW_BONUS = 2
THROW_BASE_DAMAGE = 5
DISARM_MELEE_PENALTY = -2
DISARM_RANGED_PENALTY = -4
TWO_HANDED_GRIP_BONUS = 1
LOOSENED_PENALTY = -2
