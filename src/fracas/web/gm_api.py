"""The GM's tools in the JSON API (GM only; each change carries the ``version`` it was made
on, like every change): who decides for a combatant from now on, a skipped turn, a
free-form action, every GM-side initiative roll at once, quick damage and healing,
conditions with their duration, a combatant brought in at a chosen place, and the turn
order: a combatant moved before or after another, a turn held.

"Let fracas decide this turn" is an answer: ``{"policy": name}`` to ``/decisions``.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import Field, field_validator

from fracas.encounter import gm, order, who_rolls
from fracas.errors import InputError
from fracas.web import schema
from fracas.web.api import Strict, bounded, changed_view, yaml_text
from fracas.web.auth import role_for

router = APIRouter(prefix="/api/encounters/{eid}")


class Controller(Strict):
    version: int
    combatant: str = Field(max_length=200)
    controller: str = Field(max_length=50, description="'person' or a policy name")


class Dice(Strict):
    version: int = Field(ge=0)
    combatant: str | None = Field(None, max_length=200, description="a combatant id; none: "
                                  "every combatant of the GM's side")
    roller: Literal["fracas", "typed"] = Field(description="fracas rolls (and says what) "
                                               "or the dice are typed at the table")


class Versioned(Strict):
    version: int


class FreeAction(Strict):
    version: int
    description: str = Field(max_length=500)
    roll: str | None = Field(None, max_length=100, description="dice notation, e.g. 2d6+1")
    value: int | None = Field(None, description="the roll's value at the table (else rolled)")
    target: int | None = Field(None, description="the target number the roll needs")
    needs: Literal["at least", "at most"] = "at least"
    hidden: bool = Field(False, description="the roll is behind the GM's screen: no player "
                                            "sees it")
    effects: list[dict[str, Any]] = Field(
        default_factory=list, max_length=50,
        description="{damage: N, to: id}, {heal: N, to: id}, {condition: name, to: id, "
                    "rounds: N}")

    _finite = field_validator("effects")(bounded)


class Move(Strict):
    version: int
    combatant: str = Field(max_length=200)
    where: Literal["before", "after"]
    other: str = Field(max_length=200, description="the combatant whose turn it moves by")


class Hold(Strict):
    version: int
    after: str | None = Field(None, max_length=200, description="hold until after this "
                              "combatant (default: the next one able to act)")


class Harm(Strict):
    version: int
    combatant: str = Field(max_length=200)
    damage: int = Field(0, ge=0, le=1_000_000)
    heal: int = Field(0, ge=0, le=1_000_000)


class Condition(Strict):
    version: int
    combatant: str = Field(max_length=200)
    condition: str = Field(max_length=80)
    rounds: int = Field(0, ge=0, le=1000, description="0: until taken off; N: through the "
                                                     "combatant's next N turns")
    until: str | None = Field(None, max_length=200, description="a combatant id: until "
                                                              "the end of its next turn")
    clear: bool = False


class Join(Strict):
    version: int
    entry: dict[str, Any] | None = None
    entry_yaml: str | None = Field(None, max_length=50_000)
    place: str | int = Field("next round", description="next round, after this turn, end "
                                                       "of round, or a place number")

    _finite = field_validator("entry")(bounded)


def _gm_change(request: Request, eid: str, version: int, what: str, act: Any
               ) -> dict[str, Any]:
    tracker = request.app.state.tracker
    role = role_for(tracker.store, request, eid)
    tracker.gm_only(role, what)
    new_version, events = tracker.change(eid, version, role, act, note=what)
    return changed_view(request, eid, role, new_version, events if isinstance(events, tuple)
                    else (events,))


def _players(request: Request, eid: str) -> set[str]:
    return {c for p in request.app.state.tracker.store.players_of(eid) for c in p.combatants}


@router.post("/controllers", response_model=None, responses=schema.answer(schema.Changed))
def set_controller(request: Request, eid: str, body: Controller) -> dict[str, Any]:
    """Who decides for a combatant from now on: ``person`` (by hand) or a policy."""
    return _gm_change(request, eid, body.version, "set who decides",
                      lambda s: gm.set_controller(s, body.combatant, body.controller))


@router.post("/dice", response_model=None, responses=schema.answer(schema.Changed))
def set_dice(request: Request, eid: str, body: Dice) -> dict[str, Any]:
    """Who rolls a combatant's dice from now on (or, with no combatant, the GM side's):
    ``fracas`` or ``typed`` at the table; the GM's word for a combatant beats a policy's."""
    return _gm_change(request, eid, body.version, "set who rolls",
                      lambda s: s.record(who_rolls.dice_set(s, body.combatant, body.roller)))


@router.post("/skip", response_model=None, responses=schema.answer(schema.Changed))
def skip(request: Request, eid: str, body: Versioned) -> dict[str, Any]:
    """The acting combatant's turn passes."""
    return _gm_change(request, eid, body.version, "skip a turn", lambda s: s.decide(
        {"skip": True}))


@router.post("/free-action", response_model=None, responses=schema.answer(schema.Changed))
def free_action(request: Request, eid: str, body: FreeAction) -> dict[str, Any]:
    """The acting combatant's turn is a free-form action, its effects applied by hand."""
    return _gm_change(request, eid, body.version, "take a free-form action",
                      lambda s: gm.free_action(s, body.description, roll=body.roll,
                                               value=body.value, target=body.target,
                                               needs=body.needs, hidden=body.hidden,
                                               effects=body.effects))


@router.post("/initiative", response_model=None, responses=schema.answer(schema.Changed))
def initiative(request: Request, eid: str, body: Versioned) -> dict[str, Any]:
    """Roll every initiative die of the GM's side now asked (up to a player's own)."""
    players = _players(request, eid)
    return _gm_change(request, eid, body.version, "roll initiative",
                      lambda s: gm.roll_initiative(s, players))


@router.post("/order", response_model=None, responses=schema.answer(schema.Changed))
def move(request: Request, eid: str, body: Move) -> dict[str, Any]:
    """Move a combatant's next turn of this round before or after another's (kept from
    round to round where the rules keep places), or the refusal with its reason."""
    return _gm_change(request, eid, body.version, "change the turn order",
                      lambda s: order.move(s, body.combatant, body.where, body.other))


@router.post("/hold", response_model=None, responses=schema.answer(schema.Changed))
def hold(request: Request, eid: str, body: Hold) -> dict[str, Any]:
    """The acting combatant holds its turn: after the next combatant able to act (or
    after the one named)."""
    return _gm_change(request, eid, body.version, "hold a turn",
                      lambda s: order.hold(s, body.after))


@router.post("/harm", response_model=None, responses=schema.answer(schema.Changed))
def harm(request: Request, eid: str, body: Harm) -> dict[str, Any]:
    """Quick damage or healing by hand (no soak or armour)."""
    if bool(body.damage) == bool(body.heal):
        raise InputError("give damage or heal (one, more than 0)", path="damage",
                         allowed="damage: N or heal: N")

    def act(s: Any) -> Any:
        if body.damage:
            return gm.damage(s, body.combatant, body.damage)
        return gm.heal(s, body.combatant, body.heal)
    return _gm_change(request, eid, body.version, "damage or heal", act)


@router.post("/conditions", response_model=None, responses=schema.answer(schema.Changed))
def condition(request: Request, eid: str, body: Condition) -> dict[str, Any]:
    """Put a condition on a combatant for some rounds (0: until taken off), or take it off."""
    def act(s: Any) -> Any:
        if body.clear:
            return gm.clear_condition(s, body.combatant, body.condition)
        return gm.set_condition(s, body.combatant, body.condition, body.rounds, body.until)
    return _gm_change(request, eid, body.version, "set a condition", act)


@router.post("/join", response_model=None, responses=schema.answer(schema.Changed))
def join(request: Request, eid: str, body: Join) -> dict[str, Any]:
    """Bring a combatant in without disturbing the round, at the place chosen."""
    entry = body.entry if body.entry is not None else yaml_text(body.entry_yaml or "", "entry")
    if not isinstance(entry, dict):
        raise InputError("a combatant is a mapping: id, name, side and the sheet", path="entry",
                         allowed="{id: ..., name: ..., side: ..., ...}")
    place: str | int = body.place
    if isinstance(place, str) and place.strip().isdigit():
        place = int(place)
    return _gm_change(request, eid, body.version, "bring a combatant in",
                      lambda s: gm.bring_in(s, entry, place))
