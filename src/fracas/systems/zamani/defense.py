"""Defense (seed 002 · Defense, Guarding, Surprise): the ranks that pick the action
table's column.

At minimum a character defends with its Dexterity ranks; it may instead use a
blocking weapon's skill or its shield skill (each once per round; not against
bullets or energy; blocking weapons not against missiles) or Acrobatics (once per
round; lost after a wound that round; not with a two-handed weapon, nor with a
weapon and a shield; not while spellcasting). Physical armor takes 1 rank from
Dexterity and Acrobatics per 2 points of absorption. Area weapons face raw
Dexterity and defensive traits only. Cover of 80% or more adds 4 ranks against
firearm and missile attacks and cannot be combined with blocking or Acrobatics.
Standing guard adds 5 ranks; a guard within reach substitutes its own defense.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from fracas.core.model import Combatant

from .sheet import Defaults, Sheet
from .state import State

GUARD_BONUS = 5
COVER_BONUS = 4
LIMITED = ("stunned", "unconscious")


@dataclass(frozen=True)
class Choice:
    """One way to defend: its ranks (after armor and cover), what it uses up, and why it
    cannot be used ("" when it can)."""

    name: str  # dexterity | block | shield | acrobatics
    label: str
    parts: tuple[tuple[str, int], ...]
    use: str = ""  # "" | "block:<weapon>" | "shield:<name>" | "acrobatics"
    reason: str = ""

    @property
    def ranks(self) -> int:
        return max(0, sum(v for _, v in self.parts))


@dataclass(frozen=True)
class Defense:
    """The defense an attack meets: ranks, their parts, whose defense, what it uses."""

    ranks: int
    parts: tuple[tuple[str, int], ...]
    basis: str
    defender: str  # whose defense (the guard's when a guard substitutes)
    use: str = ""
    notes: tuple[str, ...] = ()


def armor_penalty(sheet: Sheet) -> int:
    """Physical armor: -1 rank to Dexterity and Acrobatics per 2 points of absorption."""
    return sheet.armor.absorption // 2 if sheet.armor.physical else 0


def can_guard(sheet: Sheet, state: State) -> bool:
    """Standing guard needs a shield or a blocking weapon in hand."""
    return any((w := sheet.weapon(n)) is not None and w.blocking for n in state.in_hand) or (
        sheet.shield is not None and sheet.shield.name in state.in_hand)


def guard_item_usable(sheet: Sheet, state: State, kind: str, cover: bool) -> bool:
    """Could the shield or blocking weapon that standing guard needs be used against an
    attack of ``kind`` (seed 002 · Defense: not with cover, not against bullets or energy,
    a blocking weapon not against missiles, not while spellcasting)? Its use this round
    does not matter."""
    fresh = replace(state, blocks_used=())
    return any(c.name in ("block", "shield") and not c.reason
               for c in choices(sheet, fresh, kind, cover))


def _reason_common(kind: str, cover: bool, state: State) -> str:
    if kind == "area":
        return "area weapons get no defensive skills, only raw Dexterity and traits"
    if cover:
        return "cannot be combined with hiding behind cover"
    if "casting" in state.conditions:
        return "not while spellcasting"
    return ""


def choices(sheet: Sheet, state: State, kind: str, cover: bool) -> list[Choice]:
    """Every defense the character has, each available or with the reason it is not."""
    pen = armor_penalty(sheet)
    dex = sheet.attributes["dexterity"]
    dex_parts: list[tuple[str, int]] = [("Dexterity", dex)]
    if pen:
        dex_parts.append(("physical armor", -min(pen, dex)))
    covered = cover and kind in ("firearm", "missile")
    if covered:
        dex_parts.append(("cover 80%+", COVER_BONUS))
    out = [Choice("dexterity", "Dexterity", tuple(dex_parts))]
    common = _reason_common(kind, covered, state)
    for name in state.in_hand:
        weapon = sheet.weapon(name)
        if weapon is None or not weapon.blocking:
            continue
        reason = common or (
            "bullets and energy cannot be blocked with a weapon" if kind in ("firearm", "energy")
            else "blocking weapons do not stop arrows or thrown weapons" if kind == "missile"
            else f"{name} has already blocked this round" if name in state.blocks_used else "")
        rank = sheet.rank(weapon.skill_name) or 0
        out.append(Choice("block", f"a block with the {name}", ((weapon.skill_name, rank),),
                          f"block:{name}", reason))
    if sheet.shield is not None and sheet.shield.name in state.in_hand:
        s = sheet.shield
        reason = common or (
            "bullets and energy cannot be blocked with a shield" if kind in ("firearm", "energy")
            else f"the {s.name} has already blocked this round" if s.name in state.blocks_used
            else "")
        out.append(Choice("shield", f"the {s.name}", ((s.skill, sheet.rank(s.skill) or 0),),
                          f"shield:{s.name}", reason))
    acro = sheet.rank("acrobatics")
    if acro is not None:
        held = [w for n in state.in_hand if (w := sheet.weapon(n)) is not None]
        shield_held = sheet.shield is not None and sheet.shield.name in state.in_hand
        reason = common or (
            "not with a two-handed weapon" if any(w.hands == 2 for w in held)
            else "not with both a weapon and a shield" if shield_held and any(
                w.hands == 1 for w in held)
            else "already used this round" if state.acrobatics_used
            else "lost after a wound this round" if state.wounded_this_round else "")
        parts: list[tuple[str, int]] = [("acrobatics", acro)]
        if pen:
            parts.append(("physical armor", -min(pen, acro)))
        out.append(Choice("acrobatics", "Acrobatics", tuple(parts), "acrobatics", reason))
    return out


def choose(options: Sequence[Choice], wanted: str) -> tuple[Choice, list[str]]:
    """The defense used: the best available, or the one wanted (at least Dexterity)."""
    notes: list[str] = []
    dex = options[0]
    available = [c for c in options if not c.reason]
    if wanted != "best":
        named = [c for c in options if c.name == wanted]
        usable = [c for c in named if not c.reason]
        if not usable:
            why = named[0].reason if named else "the character has none"
            notes.append(f"{wanted} cannot be used ({why}): defends with the best available")
        else:
            pick = max(usable, key=lambda c: c.ranks)
            if pick is not dex and pick.ranks <= dex.ranks:
                notes.append(f"{pick.label} ({pick.ranks}) is no better than Dexterity "
                             f"({dex.ranks}), the minimum defense: defends with Dexterity")
                return dex, notes
            return pick, notes
    return max(available, key=lambda c: c.ranks), notes


def trait_parts(sheet: Sheet) -> list[tuple[str, int]]:
    return [(f"trait {t.name}", t.defense) for t in sheet.traits if t.defense]


def limb_parts(state: State, defaults: Defaults) -> list[tuple[str, int]]:
    penalty = state.limb_strikes * defaults.limb_strike_penalty
    return [(f"limb strike x{state.limb_strikes}", -penalty)] if penalty else []


def own_defense(c: Combatant, kind: str, cover: bool, wanted: str, guard_self: bool,
                defaults: Defaults) -> Defense:
    """A character's own defense against an attack of ``kind``."""
    sheet, state = c.sheet, c.state
    if kind == "area":
        pen = armor_penalty(sheet)
        dex = sheet.attributes["dexterity"]
        parts = [("Dexterity", dex)] + ([("physical armor", -min(pen, dex))] if pen else [])
        parts += trait_parts(sheet) + limb_parts(state, defaults)
        return Defense(max(0, sum(v for _, v in parts)), tuple(parts), "raw Dexterity", c.id,
                       notes=("area weapon: no defensive skills, guard or cover",))
    pick, notes = choose(choices(sheet, state, kind, cover), wanted)
    if cover and kind not in ("firearm", "missile"):
        notes.append(f"cover counts only against firearm and missile attacks, not {kind}")
    parts = list(pick.parts)
    parts += trait_parts(sheet) + limb_parts(state, defaults)
    if guard_self:
        if not can_guard(sheet, state):
            notes.append("cannot stand guard without a shield or blocking weapon in hand")
        elif defaults.guard_bonus == "block_usable" and not guard_item_usable(
                sheet, state, kind, cover):
            notes.append("standing guard gives no bonus here: its shield or blocking weapon "
                         "cannot be used against this attack")
        else:
            parts.append(("standing guard", GUARD_BONUS))
    return Defense(max(0, sum(v for _, v in parts)), tuple(parts), pick.label, c.id, pick.use,
                   tuple(notes))
