"""Who's winning in the JSON API: the newest figure (as the view's ``winning`` field),
and the GM's what-if, worked out on a copy of the fight (see :mod:`fracas.web.winning`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import Field, field_validator

from fracas.analysis.winning import position_of, what_if
from fracas.web import schema
from fracas.web.api import Strict, as_json, bounded
from fracas.web.auth import role_for
from fracas.web.winning import WINNING, winning_field

router = APIRouter(prefix="/api/encounters/{eid}")


class WhatIf(Strict):
    """A change the GM weighs: one combatant joining, one leaving, or values set."""

    join: dict[str, Any] | None = None
    leave: str | None = Field(None, max_length=200)
    values: dict[str, dict[str, Any]] | None = Field(
        None, description="{combatant id: {field: value}}, e.g. {gorr: {health: 5}}")

    _finite = field_validator("join", "values")(bounded)


@router.get("/winning", response_model=None, responses=schema.answer(schema.Winning))
def winning(request: Request, eid: str) -> JSONResponse:
    """Who's winning: the newest figure from the fight as it stands (the view's field)."""
    tracker = request.app.state.tracker
    role = role_for(tracker.store, request, eid)
    version, session, info = tracker.session(eid)
    return as_json(winning_field(eid, version, session, role, info.settings))


class Players(Strict):
    players: bool = Field(description="players may see who's winning (each only when it "
                                      "uses nothing hidden from them)")


@router.put("/winning", response_model=None, responses=schema.answer(schema.Winning))
def allow_players(request: Request, eid: str, body: Players) -> JSONResponse:
    """Whether players may see who's winning (GM only; the other settings stay)."""
    tracker = request.app.state.tracker
    role = role_for(tracker.store, request, eid)
    _, _, info = tracker.session(eid)
    tracker.set_settings(eid, role, {**info.settings, "winning": body.players})
    version, session, info = tracker.session(eid)
    return as_json(winning_field(eid, version, session, role, info.settings))


@router.post("/what-if", response_model=None, responses=schema.answer(schema.Figure))
def what_if_route(request: Request, eid: str, body: WhatIf) -> JSONResponse:
    """The win chance if a combatant joined, left, or had other values: worked out on a
    copy (GM only; nothing in the encounter or its log changes)."""
    tracker = request.app.state.tracker
    role = role_for(tracker.store, request, eid)
    tracker.gm_only(role, "ask what if")
    _, session, _ = tracker.session(eid)
    if body.join is not None:
        session.check_entry(body.join)  # errors name the entry's field
    changed = what_if(position_of(session), join=body.join, leave=body.leave,
                      values=body.values)
    return as_json(WINNING.what_if(changed))
