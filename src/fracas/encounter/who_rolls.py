"""Who rolls which die at the table: a setting of the table, read by the session.

By default the players type (or tap) their own combatants' dice and fracas rolls every
die of the combatants the GM runs, saying what it rolled. The GM may type the GM side's
dice too: for the whole encounter (``gm_dice``: ``typed``, or a :class:`DiceSet` with
no combatant) or per combatant (a :class:`DiceSet` naming it). A combatant a policy
decides for ("from now on") rolls its own dice, unless the GM said to type that
combatant's dice. A session without the setting
(``gm_dice`` None: every log written before it) asks a person for every die of an
action a person takes part in, as it always did, so such logs play back identically.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any

from fracas.dice.reading import Reading
from fracas.encounter.decisions import DiceRequest
from fracas.encounter.gm_events import FRACAS, ROLLERS, RULE_GM, TYPED, DiceSet
from fracas.encounter.live import PERSON
from fracas.errors import InputError

if TYPE_CHECKING:
    from fracas.encounter.session import Session

__all__ = ["FRACAS", "ROLLERS", "TYPED", "check_dice_set", "check_rollers", "fracas_parts",
           "gm_side_parts", "rollers_of", "rolls_itself", "shown_roll"]


def check_rollers(gm_dice: str | None, players: Collection[str],
                  roster: Mapping[str, Any], paths: tuple[str, str] = ("gm_dice", "players")
                  ) -> None:
    """The setting as given: ``gm_dice`` one of :data:`ROLLERS` (or None), ``players``
    combatants of the fight (an error names the field, ``paths``, and what is allowed)."""
    if gm_dice is not None and gm_dice not in ROLLERS:
        raise InputError(f"unknown setting {gm_dice!r} for who rolls the GM side's dice",
                         path=paths[0], allowed=", ".join(ROLLERS))
    for cid in players:
        if cid not in roster:
            raise InputError(f"no combatant with id {cid!r}", path=paths[1],
                             allowed=", ".join(roster))


def check_dice_set(event: DiceSet, roster: Mapping[str, Any]) -> None:
    """A :class:`DiceSet` read back: a known combatant (or none: the GM side) and roller."""
    if event.combatant and event.combatant not in roster:
        raise InputError(f"no combatant with id {event.combatant!r}", path="event",
                         allowed=", ".join(roster))
    if event.roller not in ROLLERS:
        raise InputError(f"unknown roller {event.roller!r}", path="event.roller",
                         allowed=", ".join(ROLLERS))


def rolls_itself(session: Session, who: str) -> bool:
    """Does fracas roll ``who``'s dice now (``gm``: the GM's own rolls)?"""
    if session.gm_dice is None:
        return False
    chosen = session.dice_set.get(who)  # the GM's word for this combatant comes first
    if chosen is not None:
        return chosen == FRACAS
    if who != "gm" and session.current.get(who, PERSON) != PERSON:
        return True  # a policy decides for it: it rolls its own dice
    if who in session.players:
        return False
    return session.dice_set.get("", session.gm_dice) == FRACAS


def _parts(request: DiceRequest) -> list[tuple[int, str]]:
    """The parts of a roll of several people's dice still to give, with their owners."""
    return [(request.part, request.who), *request.rest]


def fracas_parts(session: Session, request: DiceRequest) -> list[int]:
    """What of the asked roll fracas rolls by itself now: the parts whose owners it rolls
    for (a roll of several people's dice), else ``[0]`` for the whole roll, or none."""
    if request.part:
        return [k for k, who in _parts(request) if rolls_itself(session, who)]
    return [0] if rolls_itself(session, request.who) else []


def gm_side_parts(session: Session, request: DiceRequest) -> list[int]:
    """The parts ``r`` rolls at a roll of several people's dice: the one asked and every
    other part no player holds (a player's own part is left to the player)."""
    return [k for k, who in _parts(request)
            if k == request.part or who not in session.players]


def typed_text(session: Session) -> str:
    """Who types which dice now, in words (for the GM's help and status)."""
    names = {cid: c.name for cid, c in session.state.roster.items()}
    typed = [names[cid] for cid in names if not rolls_itself(session, cid)]
    return ", ".join(typed) or "nobody: fracas rolls every die"


def roller_named(said: str) -> str:
    """``typed`` or ``fracas`` as the GM says it (an error lists what is allowed)."""
    key = said.strip().lower()
    if key not in ROLLERS:
        raise InputError(f"{said!r}: say who rolls", path="roller",
                         allowed="typed (at the table) or fracas (fracas rolls)")
    return key


def dice_set(session: Session, cid: str | None, roller: str) -> DiceSet:
    """The GM's edit: ``roller`` rolls ``cid``'s dice from now on (None: the GM side)."""
    roller = roller_named(roller)
    if session.gm_dice is None:
        raise InputError("this fight was started before fracas could roll the GM side's "
                         "dice: every die is asked at the table", path="dice",
                         allowed="a fight started anew")
    if cid is None:
        return DiceSet(RULE_GM, "", "", roller)
    if cid not in session.state.roster:
        raise InputError(f"no combatant with id {cid!r}", path="combatant",
                         allowed=", ".join(session.state.roster))
    return DiceSet(RULE_GM, cid, session.state.roster[cid].name, roller)


def shown_roll(value: Any, names: Mapping[str, str]) -> str:
    """A die's value as the table reads it (several dice: one after another; an order of
    combatants, as a roll-off's: by their names)."""
    if isinstance(value, Reading):  # what the rules read from it: the dice behind it
        return shown_roll(value.face, names)
    if isinstance(value, tuple | list):
        return ", ".join(shown_roll(v, names) for v in value)
    describe = getattr(value, "describe", None)  # a system's own result (a dice pool's)
    if callable(describe):
        return str(describe())
    return names.get(value, str(value)) if isinstance(value, str) else str(value)


def rollers_of(header: Mapping[str, Any], roster: Mapping[str, Any], file: str | None
               ) -> tuple[str | None, frozenset[str], dict[str, str]]:
    """The setting a log's header holds: ``gm_dice`` (None in older logs), the players'
    combatants, and who rolls each combatant's dice as set at the start."""
    gm_dice = header.get("gm_dice")
    chosen = None if gm_dice is None else str(gm_dice)
    players = frozenset(str(p) for p in header.get("players") or ())
    each = {str(k): str(v) for k, v in dict(header.get("dice") or {}).items()}
    try:
        check_rollers(chosen, [*players, *each], roster)
        for cid, roller in each.items():
            check_rollers(roller, (), roster, (f"dice.{cid}", "dice"))
    except InputError as err:
        raise InputError(err.message, file=file, path=f"record 1.{err.path}",
                         allowed=err.allowed) from None
    return chosen, players, each
