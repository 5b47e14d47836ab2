"""The JSON API: everything the page does, for bots and VTT integrations (OpenAPI at /docs).

Changes carry the ``version`` they were made on; a stale one is 409 and nothing is
written. Errors are ``{"error": message}`` with the same message the CLI prints.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import yaml
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from fracas.encounter.gm import field_labels, field_named
from fracas.encounter.session import Session
from fracas.errors import InputError
from fracas.registry.examples import example_names, load_example
from fracas.web import schema
from fracas.web.auth import gm_id, role_for
from fracas.web.live import stream
from fracas.web.store import Memory
from fracas.web.tracker import MAX_SEED, MAX_TITLE, Role, plain_text
from fracas.web.views import (
    encounter_view,
    event_view,
    gm_tools,
    lines_for,
    names_of,
    new_lines,
    viewer_of,
)
from fracas.web.winning import winning_field

router = APIRouter(prefix="/api")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


MAX_DEPTH = 64  # how deeply a scenario, an entry or an answer may nest (YAML or JSON)


def bounded(value: Any) -> Any:
    """JSON values nested at most :data:`MAX_DEPTH` deep, without NaN or infinities (Python's
    JSON reader lets them in); checked without recursion."""
    todo: list[tuple[Any, int]] = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, float) and (item != item or item in (float("inf"), float("-inf"))):
            raise ValueError("numbers must be finite (no NaN or Infinity)")
        if isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                raise ValueError(f"nested too deeply (allowed: at most {MAX_DEPTH} levels)")
            inner = item.values() if isinstance(item, dict) else item
            todo.extend((v, depth + 1) for v in inner)
    return value


class NewEncounter(Strict):
    example: str | None = Field(None, description="an example, e.g. tristat/duel-fight.yaml")
    scenario: dict[str, Any] | None = Field(None, description="a scenario mapping")
    scenario_yaml: str | None = Field(None, max_length=200_000,
                                      description="a scenario file's text")
    title: str | None = Field(None, max_length=MAX_TITLE)
    seed: int | None = Field(None, ge=0, le=MAX_SEED)
    controllers: dict[str, str] | None = Field(
        None, description="combatant id -> 'person' or a policy name")
    settings: dict[str, Any] | None = Field(
        None, description="{others: exact|bar|status|hidden, hidden: [ids]}")
    roll_all: bool = Field(False, description="the server rolls every die, the players' "
                                              "too (people still choose)")
    gm_dice: Literal["fracas", "typed"] = Field(
        "fracas", description="who rolls the dice of the combatants no player holds: the "
        "server (fracas, the default: it rolls them as they are asked and says what it "
        "rolled) or the GM (typed: the GM's desk asks them)")
    players: list[Annotated[str, Field(max_length=200)]] | None = Field(
        None, max_length=1000, description="the combatants players will hold: their dice "
        "are asked of their players from the start (an invitation adds its combatants)")

    _bounded = field_validator("scenario", "settings")(bounded)


class Reply(Strict):
    """An answer to the pending decision: one of ``option``, ``dice`` or ``roll``; or the
    GM's ``skip`` (the turn passes) or ``policy`` (fracas decides: this turn, or with
    ``turn`` false this question only)."""

    option: int | str | None = Field(None, description="the id of the chosen option")
    dice: list[int | str] | str | None = Field(
        None, description='the values rolled: [3, 5] or "3, 5"')
    roll: bool | None = Field(None, description="true: the server rolls the dice")
    skip: bool | None = Field(None, description="true: the acting combatant's turn passes")
    policy: str | None = Field(None, max_length=40,
                               description="a policy's name: fracas decides this turn")
    turn: bool | None = Field(None, description="with policy: false for this question only")

    @field_validator("option", mode="before")
    @classmethod
    def _option(cls, value: Any) -> Any:
        if value is None or (isinstance(value, int | str) and not isinstance(value, bool)
                             and len(str(value)) <= 100):
            return value
        raise ValueError("an option is the id of one of the decision's options")

    @field_validator("dice", mode="before")
    @classmethod
    def _dice(cls, value: Any) -> Any:
        if value is None or (isinstance(value, str) and len(value) <= 1000):
            return value
        if isinstance(value, list) and len(value) <= 100 and all(
                (isinstance(v, int) and not isinstance(v, bool) and abs(v) < 10**18)
                or (isinstance(v, str) and len(v) <= 20) for v in value):
            return value
        raise ValueError('the dice are a list of whole numbers, like [3, 5], or text, like '
                         '"3, 5"')


class Answer(Strict):
    version: int = Field(description="the version the decision was read at")
    answer: Reply = Field(description='{"option": id}, {"dice": [..]} or {"roll": true}')


class Steps(Strict):
    version: int
    steps: int = Field(1, ge=1, le=1000)


class Adjust(Strict):
    version: int
    combatant: str
    field: str
    value: Any

    _bounded = field_validator("value")(bounded)


class NewCombatant(Strict):
    version: int
    entry: dict[str, Any] | None = Field(
        None, description="a scenario entry: id, name, side, the sheet")
    entry_yaml: str | None = Field(None, max_length=50_000,
                                   description="the same entry as YAML text")

    _bounded = field_validator("entry")(bounded)


class Gone(Strict):
    version: int


class End(Strict):
    version: int
    reason: str = Field("ended by the GM", max_length=200)


class Invite(Strict):
    name: str = Field(max_length=100)
    combatants: list[Annotated[str, Field(max_length=100)]] = Field(max_length=1000)


def parse_scenario(body: NewEncounter) -> tuple[Any, str | None]:
    """The scenario mapping of a request (one of example, scenario, scenario_yaml)."""
    given = [k for k in ("example", "scenario", "scenario_yaml") if getattr(body, k) is not None]
    if len(given) != 1:
        raise InputError("give exactly one of example, scenario, scenario_yaml",
                         allowed="example, scenario, scenario_yaml")
    if body.example is not None:
        return load_example(body.example), body.example
    if body.scenario is not None:
        return body.scenario, None
    return yaml_text(body.scenario_yaml or "", "scenario_yaml"), None


_OPEN = (yaml.FlowSequenceStartToken, yaml.FlowMappingStartToken,
         yaml.BlockSequenceStartToken, yaml.BlockMappingStartToken)
_CLOSE = (yaml.FlowSequenceEndToken, yaml.FlowMappingEndToken, yaml.BlockEndToken)


def yaml_depth_check(text: str, where: str) -> None:
    """Refuse YAML nested over :data:`MAX_DEPTH` levels before it is parsed (the parser
    recurses once a level: thousands of levels would exhaust the stack). The scanner reads
    tokens without recursion; the error names the line where the limit is passed."""
    depth = 0
    for token in yaml.scan(text, Loader=yaml.SafeLoader):
        if isinstance(token, _OPEN):
            depth += 1
            if depth > MAX_DEPTH:
                mark = token.start_mark
                raise InputError(f"nested too deeply (more than {MAX_DEPTH} levels)",
                                 file=where, path=f"line {mark.line + 1}, column "
                                                  f"{mark.column + 1}",
                                 allowed=f"at most {MAX_DEPTH} levels of nesting")
        elif isinstance(token, _CLOSE):
            depth -= 1


def yaml_text(text: str, where: str) -> Any:
    """Parse uploaded YAML; bad YAML names the line and column, like the CLI; nesting is
    bounded before parsing."""
    try:
        yaml_depth_check(text, where)
        return yaml.safe_load(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        place = f"line {mark.line + 1}, column {mark.column + 1}" if mark else None
        problem = getattr(err, "problem", None) or str(err)
        raise InputError(f"not valid YAML: {problem}", file=where, path=place) from None


VIEWS = 2048  # views kept per app, the newest of each (encounter, role): few objects for
# the cycle collector to walk, and an older version is not asked for again


def view(request: Request, eid: str, role: Role, changed: bool = False) -> dict[str, Any]:
    """What ``role`` sees of the encounter now (``changed``: the request has just made a
    change, so the copy in memory is current). A view is a function of the encounter's
    version (settings count as a change), the role and whether the odds are in, so a screen
    that asks again before anything changed is answered from memory; the GM's invite list
    is read each time."""
    tracker = request.app.state.tracker
    version, session, info = (tracker.just_changed(eid) if changed
                              else tracker.session(eid))
    views: Memory = request.app.state.views
    key = (eid, role)
    kept = views.get(key)
    out = None
    if kept is not None and kept[0] == version and kept[2] is session.pending:
        # a view with odds pending is drawn again only once they are in (the page asks
        # every 0.3 s meanwhile)
        waiting = (kept[1]["pending"] or {}).get("odds_pending")
        if not waiting or session.pending is None or not session.pending.odds_ready:
            out = kept[1]
    if out is None:
        out = encounter_view(eid, info.title, tracker.system(info), session, version, role,
                             info.settings, ())
        views.put(key, (version, out, session.pending))
    out = dict(out)
    if role.is_gm:
        base = str(request.base_url).rstrip("/")
        named = names_of(session).names
        out["players"] = [{"name": p.name, "combatants": list(p.combatants),
                           "controls": [named.get(c, c) for c in p.combatants],
                           "invite": f"{base}/join/{p.key}"}
                          for p in tracker.store.players_of(eid)]
        # the GM's tools depend on who the players hold, which no version counts
        out["gm"] = gm_tools(session, out["players"])
    # who's winning (issue 37): its figures narrow with no new version, so outside the memo
    out["winning"] = winning_field(eid, version, session, role, info.settings)
    return out


def as_json(data: dict[str, Any], status_code: int = 200) -> JSONResponse:
    """A view as JSON, written straight from the plain data it is (FastAPI's own encoder
    walks every value in Python on the event loop: for a view with a long log, the
    slowest step of a busy server)."""
    return JSONResponse(data, status_code=status_code)


@router.post("/gms", status_code=201, response_model=None,
             responses=schema.answer(schema.NewGm, 201))
def new_gm(request: Request) -> dict[str, Any]:
    """A new GM: their secret key and admin link (shown once, keep it)."""
    gid, key = request.app.state.tracker.store.create_gm()
    base = str(request.base_url).rstrip("/")
    return {"gm": gid, "key": key, "admin_link": f"{base}/gm/{key}"}


@router.get("/examples", response_model=None, responses=schema.answer(list[str]))
def examples() -> list[str]:
    """The example scenarios an encounter can start from."""
    return example_names()


@router.get("/encounters", response_model=None,
            responses=schema.answer(list[schema.EncounterSummary]))
def encounters(request: Request) -> list[dict[str, Any]]:
    """The GM's encounters, newest first."""
    tracker = request.app.state.tracker
    gid = gm_id(tracker.store, request)
    return [{"id": e.id, "title": e.title, "system": e.system, "version": e.version}
            for e in tracker.store.encounters_of(gid)]


@router.post("/encounters", status_code=201, response_model=None,
             responses=schema.answer(schema.Encounter, 201))
def create(request: Request, body: NewEncounter) -> JSONResponse:
    """A new encounter from an example, a scenario mapping or a scenario file's text."""
    tracker = request.app.state.tracker
    gid = gm_id(tracker.store, request)
    raw, file = parse_scenario(body)
    info = tracker.create(gid, raw, file=file, title=body.title, seed=body.seed,
                          controllers=body.controllers, settings=body.settings,
                          roll_all=body.roll_all, gm_dice=body.gm_dice,
                          players=body.players)
    role = role_for(tracker.store, request, info.id)
    return as_json(view(request, info.id, role), status_code=201)


@router.get("/encounters/{eid}", response_model=None,
            responses=schema.answer(schema.Encounter))
def get_encounter(request: Request, eid: str) -> JSONResponse:
    """The encounter as the caller's role sees it."""
    role = role_for(request.app.state.tracker.store, request, eid)
    return as_json(view(request, eid, role))


@router.get("/encounters/{eid}/log", response_model=None, responses=schema.answer(schema.Log))
def get_log(request: Request, eid: str) -> JSONResponse:
    """The whole log as the caller's role sees it (a view carries its newest lines)."""
    tracker = request.app.state.tracker
    role = role_for(tracker.store, request, eid)
    version, session, info = tracker.session(eid)
    names = names_of(session)
    lines = lines_for(session, names, viewer_of(role, info.settings, session))
    return as_json({"version": version, "log": [event_view(e, line) for e, line in lines]})


def changed_view(request: Request, eid: str, role: Role, version: int, events: Any
             ) -> dict[str, Any]:
    out = view(request, eid, role, changed=True)
    if events is not None:
        # the new events as the role sees them: the same redaction as the log's
        _, session, info = request.app.state.tracker.just_changed(eid)
        lines = new_lines(session, names_of(session), viewer_of(role, info.settings, session),
                          list(events))
        out["new_events"] = [event_view(e, line) for e, line in lines]
    return out


@router.post("/encounters/{eid}/decisions", response_model=None,
             responses=schema.answer(schema.Changed))
def decide(request: Request, eid: str, body: Answer) -> JSONResponse:
    """Answer the pending decision (the GM, or the player who controls it)."""
    tracker = request.app.state.tracker
    role = role_for(tracker.store, request, eid)
    answer = body.answer.model_dump(exclude_none=True)
    version, events = tracker.decide(eid, body.version, role, answer)
    return as_json(changed_view(request, eid, role, version, events))


@router.post("/encounters/{eid}/undo", response_model=None,
             responses=schema.answer(schema.Changed))
def undo(request: Request, eid: str, body: Steps) -> JSONResponse:
    """Take back the last decisions (GM only)."""
    tracker = request.app.state.tracker
    role = role_for(tracker.store, request, eid)
    tracker.gm_only(role, "undo")
    version, _ = tracker.change(eid, body.version, role,
                                lambda s: s.undo(body.steps), note="undo")
    return as_json(changed_view(request, eid, role, version, None))


@router.post("/encounters/{eid}/redo", response_model=None,
             responses=schema.answer(schema.Changed))
def redo(request: Request, eid: str, body: Steps) -> JSONResponse:
    """Redo what undo took back (GM only)."""
    tracker = request.app.state.tracker
    role = role_for(tracker.store, request, eid)
    tracker.gm_only(role, "redo")
    version, _ = tracker.change(eid, body.version, role,
                                lambda s: s.redo(body.steps), note="redo")
    return as_json(changed_view(request, eid, role, version, None))


def edit(session: Session, cid: str, said: str, value: Any) -> Any:
    """A GM's edit of ``cid``'s field named as the page shows it (its data-pack label,
    ``members left``) or by its name, in any case."""
    if cid not in session.state.roster:
        return session.adjust(cid, said, value)  # the session names who there is
    field = field_named(session, cid, said)
    if field is None and said.strip().lower().startswith("initiative"):
        return session.adjust(cid, "initiative", value)  # refused, with the reason
    if field is None:
        raise InputError(f"{session.state.roster[cid].name} has no value {said!r}",
                         path="field", allowed=field_labels(session, cid))
    return session.adjust(cid, field, value)


@router.post("/encounters/{eid}/adjust", response_model=None,
             responses=schema.answer(schema.Changed))
def adjust(request: Request, eid: str, body: Adjust) -> JSONResponse:
    """Edit a combatant's state by hand (GM only; an event in the log)."""
    tracker = request.app.state.tracker
    role = role_for(tracker.store, request, eid)
    tracker.gm_only(role, "edit by hand")
    version, event = tracker.change(eid, body.version, role,
                                    lambda s: edit(s, body.combatant, body.field, body.value),
                                    note="adjust")
    return as_json(changed_view(request, eid, role, version, (event,)))


@router.post("/encounters/{eid}/combatants", response_model=None,
             responses=schema.answer(schema.Changed))
def add_combatant(request: Request, eid: str, body: NewCombatant) -> JSONResponse:
    """Bring a combatant into the fight (GM only); the sheet is checked by the system's model
    and its errors are the CLI's (``combatants[0].body: ...``)."""
    tracker = request.app.state.tracker
    role = role_for(tracker.store, request, eid)
    tracker.gm_only(role, "add combatants")
    entry = body.entry if body.entry is not None else yaml_text(body.entry_yaml or "", "entry")
    if not isinstance(entry, dict):
        raise InputError("a combatant is a mapping: id, name, side and the sheet", path="entry",
                         allowed="{id: ..., name: ..., side: ..., ...}")
    version, event = tracker.change(eid, body.version, role,
                                lambda s: s.add_combatant(entry), note="add combatant")
    return as_json(changed_view(request, eid, role, version, (event,)))


@router.post("/encounters/{eid}/combatants/{cid}/remove", response_model=None,
             responses=schema.answer(schema.Changed))
def remove_combatant(request: Request, eid: str, cid: str, body: Gone) -> JSONResponse:
    """Take a combatant out of the fight (GM only)."""
    tracker = request.app.state.tracker
    role = role_for(tracker.store, request, eid)
    tracker.gm_only(role, "remove combatants")
    version, event = tracker.change(eid, body.version, role,
                                lambda s: s.remove_combatant(cid), note="remove combatant")
    return as_json(changed_view(request, eid, role, version, (event,)))


@router.post("/encounters/{eid}/end", response_model=None,
             responses=schema.answer(schema.Changed))
def end(request: Request, eid: str, body: End) -> JSONResponse:
    """End the fight now (GM only)."""
    tracker = request.app.state.tracker
    role = role_for(tracker.store, request, eid)
    tracker.gm_only(role, "end the fight")
    version, event = tracker.change(eid, body.version, role,
                                lambda s: s.end_fight(plain_text(body.reason, "reason")),
                                note="end")
    return as_json(changed_view(request, eid, role, version, (event,)))


@router.put("/encounters/{eid}/settings", response_model=None,
            responses=schema.answer(schema.Encounter))
def settings(request: Request, eid: str, body: dict[str, Any]) -> JSONResponse:
    """What players see of others: ``others`` (exact|bar|status|hidden), ``hidden`` ids."""
    tracker = request.app.state.tracker
    role = role_for(tracker.store, request, eid)
    tracker.set_settings(eid, role, body)
    return as_json(view(request, eid, role))


@router.post("/encounters/{eid}/players", status_code=201, response_model=None,
             responses=schema.answer(schema.Player, 201))
def invite(request: Request, eid: str, body: Invite) -> dict[str, Any]:
    """Invite a player to control some combatants; returns their secret invite link."""
    tracker = request.app.state.tracker
    role = role_for(tracker.store, request, eid)
    player = tracker.invite(eid, role, body.name, body.combatants)
    base = str(request.base_url).rstrip("/")
    return {"name": player.name, "combatants": list(player.combatants), "key": player.key,
            "invite": f"{base}/join/{player.key}"}


@router.get("/encounters/{eid}/stream", response_class=StreamingResponse,
            responses=schema.STREAM)
async def live(request: Request, eid: str) -> StreamingResponse:
    """Server-sent events: ``version`` each time the encounter changes (no contents),
    each with its version as the event id: a browser that connects again by itself sends
    it back (``Last-Event-ID``) and hears at once of any version it missed."""
    app = request.app
    tracker = app.state.tracker
    import asyncio

    await asyncio.to_thread(role_for, tracker.store, request, eid)
    start = await asyncio.to_thread(tracker.store.version, eid)
    app.state.hub.notify(eid, start)  # the stored version, newer than one a stream missed
    app.state.hub.reachable = True  # the database has just answered
    gen = stream(app.state.hub, eid, start, tracker.store.versions,
                 lambda: app.state.stopping)
    return StreamingResponse(gen, media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
