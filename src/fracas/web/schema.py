"""The shapes of the JSON API's answers, as pydantic models: declared on each route
(``response_model``) so that ``/openapi.json`` describes every field a client reads, and
a generated client gets types. The routes still write their plain data straight out
(:func:`fracas.web.api.as_json`); ``tests/web/test_openapi.py`` checks the real answers
against these shapes (schemathesis, on a real server) and that no answer is left untyped.

Each model allows fields it does not name (``additionalProperties``): a newer server may
add one, and an older client keeps working.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypeAliasType

Json = TypeAliasType(
    "Json", "str | int | float | bool | list[Json] | dict[str, Json] | None")


class Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class Error(Open):
    """Every refusal: the message the command line would print (4xx); for a stale
    version (409) also the version now and what the table asks now."""

    error: str
    version: int | None = None
    moved_on: str | None = None


class NewGm(Open):
    gm: int = Field(description="the GM's number")
    key: str = Field(description="the GM's secret key: the bearer token of every request")
    admin_link: str = Field(description="the GM's page, signed in by the key")


class EncounterSummary(Open):
    id: str
    title: str
    system: str
    version: int


class Odds(Open):
    """An option's exact odds, as fractions (``"3/5"``); ``p_taken_out`` left out where
    the viewer may not see the target's health."""

    p_hit: str
    expected_damage: str
    p_taken_out: str | None = None


class Option(Open):
    id: str
    label: str
    odds: Odds | None = None
    odds_pending: bool | None = Field(None, description="the odds are being worked out: "
                                                        "ask again")


class Dice(Open):
    """A roll the rules make now, asked of the table."""

    die: str
    who: str
    what: str
    count: int | None
    allowed: str = Field(description="what a value may be, in words")
    stream: str
    needs: str
    typed: str = Field(description="how the table writes it: values, cards or symbols")
    part: int
    parts: int
    bonus: str = Field("", description="what the roller adds to the die, in words")
    then: list[Dice] = Field([], description="the roll's other parts asked after this one, "
                             "which the GM may type on the same line (a player: none)")
    words: str | None = Field(None, description="which dice a pool's letters are")


class Facet(Open):
    option: str = Field(description="the option id this action is")
    group: str
    kind: str
    kind_label: str
    weapon: str
    target: str | None
    target_name: str | None
    toggles: list[str]


class Toggle(Open):
    key: str
    label: str
    description: str


class Menu(Open):
    """An action's options by step: what, with what, at whom, which options on."""

    actor: str
    actor_name: str
    previous: str | None
    facets: list[Facet]
    toggles: list[Toggle]


class Decision(Open):
    kind: str = Field(description="action, reaction, dice, or a rule's own choice")
    who: str
    prompt: str
    options: list[Option]
    dice: Dice | None
    menu: Menu | None


class Pending(Open):
    """What the table asks now; ``decision`` only for the role that may answer it."""

    who: str
    who_name: str
    waiting_for: str
    mine: bool
    kind: str | None
    decision: Decision | None
    odds_pending: bool


class Health(Open):
    current: int | float
    max: int | float
    words: str | None = None


class Mark(Open):
    name: str
    left: int | None


class Shown(Open):
    """A combatant's state and sheet as a person reads them: [label, value] pairs."""

    state: list[list[str]]
    sheet: list[list[str]]


class Combatant(Open):
    """One combatant as the role sees it: the more of it, the more the role may see."""

    id: str
    name: str
    side: str
    mine: bool
    acting: bool
    active: bool | None = None
    status: str | None = None
    health: Health | None = None
    bar: float | None = Field(None, description="health from 0 to 1, for a bar")
    conditions: list[str] | None = None
    state: dict[str, Json] | None = Field(None, description="the system's state fields")
    sheet: dict[str, Json] | None = Field(None, description="the system's sheet fields")
    shown: Shown | None = None
    marks: list[Mark] | None = None
    hidden: bool | None = None
    controller: str | None = None


class Slot(Open):
    label: str
    names: list[str]
    ids: list[str]
    done: bool
    current: bool


class Line(Open):
    """A line of the log, in the table's words, with the rule it cites."""

    type: str
    text: str
    rule: str


class Settings(Open):
    others: Literal["exact", "bar", "status", "hidden"]
    allies: Literal["exact", "bar", "status", "hidden"] | None = None
    hidden: list[str] | None = None
    winning: bool | None = Field(None, description="players may see who's winning")


class Player(Open):
    name: str
    combatants: list[str]
    controls: list[str] | None = None
    invite: str = Field(description="the player's secret invite link")
    key: str | None = None


class GmTools(Open):
    policies: list[str]
    initiative: bool
    turn: bool
    places: int
    order: list[str] = Field(default_factory=list, description="who takes each turn of "
                             "this round still to come, the pending one first (empty while "
                             "the order cannot be changed)")


class Encounter(Open):
    """An encounter as the caller's role sees it (GM or player)."""

    id: str
    title: str
    system: str
    version: int = Field(description="send it back with a change: a stale one is 409")
    role: Literal["gm", "player"]
    you: str
    controls: list[str]
    round: int
    over: bool
    winner: str | None
    actor: str | None
    actor_name: str | None
    order: list[Slot]
    combatants: list[Combatant]
    pending: Pending | None
    log: list[Line]
    settings: Settings
    players: list[Player]
    gm: GmTools | None
    winning: Winning | None = None


class Changed(Encounter):
    """The encounter after a change, with the change's new events as the role sees them
    (absent after undo and redo)."""

    new_events: list[Line] | None = None


class Log(Open):
    """The whole log as the caller's role sees it (a view carries its newest lines)."""

    version: int
    log: list[Line]


class SideChance(Open):
    """One side's chance to win: ``p``, its 95 % interval, and the exact fraction where
    the exact chain gave it."""

    p: float
    ci95: list[float]
    exact: str | None = None


class Rounds(Open):
    mean: float
    ci95: list[float]


class PlayedBy(Open):
    policy: str
    why: str


class Figure(Open):
    """Each side's chance to win from the fight as it stands, and the rounds left."""

    exact: bool
    method: str = Field(description="exact, or the simulation paths taken (fast, sampled, "
                                    "steps; 'steps, then fast' where a figure used both)")
    sample: int
    sample_of: str
    seconds: float
    where: str
    round: int
    sides: dict[str, SideChance]
    no_winner: SideChance
    rounds_left: Rounds
    played_by: dict[str, PlayedBy]
    notes: list[str]
    played_by_words: str
    method_words: str
    names: dict[str, str]


class Winning(Open):
    """Who's winning, as the caller may see it: ``shown`` false says ``why`` not; else
    the newest figure (``current``: of this version) and whether more is to come."""

    shown: bool
    why: str | None = None
    current: bool | None = None
    final: bool | None = None
    figure: Figure | None = None
    version: int | None = None


ERRORS: dict[int | str, dict[str, object]] = {
    status: {"model": Error, "description": what} for status, what in (
        (400, "bad input: the message names the field and what is allowed"),
        (401, "no key, or not a valid one"), (403, "not this role's to do"),
        (404, "no such encounter"), (409, "the fight has moved on: reload and try again"),
        (413, "the body is too large"), (422, "a malformed body, its field named"))}


def answer(model: object, status: int = 200) -> dict[int | str, dict[str, object]]:
    """A route's answers for the OpenAPI document: ``model`` on success, :class:`Error`
    on every refusal."""
    return {status: {"model": model, "description": "the answer"}, **ERRORS}


class Version(BaseModel):
    """The event of the live stream: ``event: version`` with ``data:`` this, each time
    the encounter changes (the contents are then read with GET)."""

    version: int


STREAM: dict[int | str, dict[str, object]] = {
    200: {"description": "server-sent events: `event: version`, `data: {\"version\": N}` at "
                         "the start and at each change (its id: N); `: keepalive` comments "
                         "between; `event: unavailable`, `data: {\"error\": message}` when "
                         "the database stops answering, `event: available`, `data: {}` when "
                         "it answers again",
          "content": {"text/event-stream": {
              "schema": {"type": "string", "description": "a stream of server-sent "
                         "events, each `data:` line a Version", "contentMediaType":
                         "text/event-stream"},
              "itemSchema": Version.model_json_schema()}}},
    **ERRORS}
