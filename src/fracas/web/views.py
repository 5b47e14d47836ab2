"""What each role sees of an encounter: one dict, rendered as JSON by the API and as HTML
by the page, so that no renderer can show more than the role may see.

The GM sees everything. A player sees the turn order, whose turn it is, the public log,
their own combatants in full, their allies as the ``allies`` setting says and the enemies
as the ``others`` setting says:
``exact`` numbers, a health ``bar``, a ``status`` word, or ``hidden`` numbers; combatants
listed in ``hidden`` are left out everywhere (order, roster, log, prompts) until revealed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any
from weakref import WeakKeyDictionary

from fracas.core.events import Event, RoundStarted, TurnStarted, jsonable
from fracas.core.model import Combatant
from fracas.core.system import RuleSystem
from fracas.core.words import plain
from fracas.encounter import narration
from fracas.encounter.gm import at_round_start, gm_side_asked, marks_of, players_side
from fracas.encounter.live import PERSON
from fracas.encounter.order import order_to_come
from fracas.encounter.policies import POLICIES
from fracas.encounter.redact import (
    Names,
    Told,
    Viewer,
    decision_view,
    event_lines,
    summary_view,
)
from fracas.encounter.session import Session
from fracas.encounter.summary import summarize
from fracas.encounter.who_rolls import FRACAS, TYPED, known_names, rolls_itself
from fracas.web.odds import WORKER
from fracas.web.tracker import Role

HEALTH_FIELDS = ("health", "hp", "wounds_left", "max_health", "max_hp", "max_wounds_left")


def status_word(system: RuleSystem, c: Combatant) -> str:
    """A word for how a combatant is doing: unhurt, hurt, bloodied, down."""
    current, maximum = system.health(c)
    if not system.is_active(c):
        return "down"
    if current >= maximum:
        return "unhurt"
    return "hurt" if current * 2 > maximum else "bloodied"


def conditions(system: RuleSystem, c: Combatant, numbers: bool) -> list[str]:
    """The state flags that are on (``grappled``, ``prone``, ...) and the named conditions,
    by their labels in the data pack; with ``numbers`` (the viewer may see the
    combatant's private facts) every other non-empty list of names too (a deck's draw
    pile, the weapons in hand), which otherwise are private as in the log
    (:meth:`fracas.core.events.Changed.fact_kind`)."""
    words = system.words
    out = []
    for name, value in c.state_dict().items():
        if value is True:
            out.append(narration.field_label(name, words))
        elif isinstance(value, list | tuple) and value and all(isinstance(v, str) for v in value) \
                and (numbers or name == "conditions"):
            out.append(f"{narration.field_label(name, words)}: "
                       f"{narration.value_words(value, words)}")
    return out


def tags(system: RuleSystem, c: Combatant, numbers: bool,
         marks: Sequence[tuple[str, int | None]]) -> list[dict[str, Any]]:
    """The combatant's flags and conditions one by one (``label``), each once: a condition
    the GM put on it carries its rounds left (``left``) beside the rules' own word for it
    rather than showing twice; with ``numbers``, the other lists of names as in
    :func:`conditions` (``draw pile: ...``)."""
    words = system.words
    out: list[dict[str, Any]] = []
    for name, value in c.state_dict().items():
        if value is True:
            out.append({"label": narration.field_label(name, words), "left": None})
        elif name == "conditions" and isinstance(value, list | tuple):
            out += [{"label": plain(words.condition(str(v))), "left": None,
                     "key": str(v).split(":", 1)[0].lower()} for v in value]
        elif numbers and isinstance(value, list | tuple) and value and all(
                isinstance(v, str) for v in value):
            out.append({"label": f"{narration.field_label(name, words)}: "
                                 f"{narration.value_words(value, words)}", "left": None})
    for mark, left in marks:
        same = next((t for t in out if t.get("key") == mark.lower()
                     or t["label"].lower() == mark.lower()
                     or t["label"].lower() == plain(words.condition(mark)).lower()), None)
        if same is not None:
            same["left"] = left
            same["gm"] = True
        else:
            out.append({"label": mark, "left": left, "gm": True})
    for t in out:
        t.pop("key", None)
    return out


def slot_of(order: Sequence[Mapping[str, Any]], cid: str) -> dict[str, Any] | None:
    """The slot of this round a combatant holds next (else the last it took): its label,
    whether it is taken, and whether others may take it too."""
    held = [s for s in order if cid in s["ids"]]
    ahead = [s for s in held if not s["done"]]
    if not held:
        return None
    slot = (ahead or held[-1:])[0]
    return {"label": slot["label"], "done": slot["done"], "shared": len(slot["ids"]) > 1,
            "current": slot["current"]}


_NAMES: WeakKeyDictionary[Session, Names] = WeakKeyDictionary()


def names_of(session: Session) -> Names:
    """Every combatant the fight has known, by id (those added and removed included); the
    same object while they stay the same (it compiles the patterns that find names)."""
    known = known_names(session)
    kept = _NAMES.get(session)
    if kept is None or kept.names != known:
        kept = Names(known)
        _NAMES[session] = kept
    return kept


_TOLD: WeakKeyDictionary[Session, tuple[dict[str, str], Told]] = WeakKeyDictionary()
_TOLD_GUARD = threading.Lock()


def told(session: Session, names: Names) -> Told:
    """What has been worked out of the session's events for screens (their lines, whom
    they name), kept with the session while its names stay the same (see
    :func:`~fracas.encounter.redact.event_lines`)."""
    with _TOLD_GUARD:
        kept = _TOLD.get(session)
        if kept is None or kept[0] != names.names:
            kept = (dict(names.names), {})
            _TOLD[session] = kept
        return kept[1]


def teller(session: Session, names: Names) -> Callable[[Event], str]:
    """Each event's line in the table's words, as the terminal tells it."""
    return narration.teller(names.names, session.system.words)


def slots_taken(events: Sequence[Event]) -> dict[int, str]:
    """Which combatant took each slot of the round so far (slot index -> id)."""
    taken: dict[int, str] = {}
    for event in reversed(events):
        if isinstance(event, RoundStarted):
            break
        if isinstance(event, TurnStarted):
            taken.setdefault(event.slot_index, event.actor)
    return taken


#: the newest events a view carries (the page shows the last 150): a long fight's view
#: then costs what a short one's does; the whole log is GET .../log
LOG_SHOWN = 300


def lines_for(session: Session, names: Names, viewer: Viewer, newest: int | None = None,
              events: Sequence[Event] | None = None) -> list[tuple[Event, str]]:
    """The log's events ``viewer`` sees, each with its line in the table's words (a line
    cut of its private facts too); ``newest``: only (at most) that many of the last ones,
    told from the start of the round they fall in, so that each is redacted as in the
    whole log. ``events``: the session's events as read once by the caller."""
    # read once (a copy of the list, not of the events): a process catching up on another's
    # change may be adding to the session's list meanwhile
    events = list(session.events) if events is None else events
    start = 0
    if newest is not None and len(events) > newest:
        start = len(events) - max(newest, 1)
        while start > 0 and not isinstance(events[start], RoundStarted):
            start -= 1
        events = events[start:]
    lines = event_lines(events, names, viewer, teller(session, names), told(session, names),
                        narration.public_teller(names.names, session.system.words), start)
    return lines if newest is None else lines[-newest:]


def new_lines(session: Session, names: Names, viewer: Viewer, new: Sequence[Event]
              ) -> list[tuple[Event, str]]:
    """The lines of the events ``new`` (a change's) as ``viewer`` sees them, redacted as in
    the whole log: the newest line of each. Only the log's end from the oldest of them on
    is told (a long fight's change then costs what a short one's does)."""
    if not new:
        return []
    events = list(session.events)
    start, left = len(events), list(new)
    while left and start > 0:
        start -= 1
        if events[start] in left:
            left.remove(events[start])
    wanted = list(new)
    picked = []
    for e, line in reversed(lines_for(session, names, viewer, len(events) - start, events)):
        if e in wanted:
            wanted.remove(e)
            picked.append((e, line))
    return picked[::-1]


def rolls_under_way(session: Session, names: Names, viewer: Viewer) -> list[dict[str, Any]]:
    """What fracas has rolled by itself in the turn still waiting, each roll with its
    result as it falls (``fracas rolls Gorr's attack: 2d6 → 7``; the turn's events tell
    them once it is done). A player sees only the rolls of combatants they may see, an
    unseen one's name put as "someone unseen"; never the GM's own."""
    unseen = viewer.hidden_at(len(session.events))
    out = []
    for who, line in session.rolling():
        if not viewer.gm:
            if who not in session.state.roster or who in unseen:
                continue
            line = names.unseen(line, unseen)
        out.append({"type": "FracasRolled", "text": line, "rule": ""})
    return out


def gm_tools(session: Session, players: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What the GM's tools offer now: the policies, whether GM-side initiative is asked,
    whether a turn may be skipped or taken by a free-form action, the places to join."""
    mine = {c for p in players for c in p.get("combatants", ())}
    pending = session.pending
    state = session.state
    round_start = at_round_start(session)
    return {
        "policies": list(POLICIES),
        "initiative": bool(round_start and gm_side_asked(pending, players_side(session,
                                                                                mine))),
        "order": order_to_come(session),
        "turn": pending is not None and pending.kind == "action",
        # who rolls the dice of the combatants the GM runs, and each combatant's (none
        # in a fight from before the setting, where every die is asked)
        "dice": None if session.gm_dice is None else session.dice_set.get("",
                                                                          session.gm_dice),
        "rollers": {} if session.gm_dice is None else {
            cid: FRACAS if rolls_itself(session, cid, mine) else TYPED
            for cid in state.roster},
        "places": 0 if round_start or state.round != session.turn_base.round
        or not session.turn_base.started else len(state.slots) - state.next_slot + 1,
    }


def viewer_of(role: Role, settings: Mapping[str, Any], session: Session) -> Viewer:
    """Who looks: the GM, or a player (their allies: the combatants on a side of theirs)."""
    if role.is_gm:
        return Viewer()
    sides = {cid: c.side for cid, c in session.state.roster.items()}
    return Viewer.player(role.combatants, settings, sides)


def combatant_view(system: RuleSystem, c: Combatant, mine: bool, mode: str,
                   current_actor: str | None) -> dict[str, Any]:
    """One combatant as a role sees it (``mode`` is ``full`` for the GM and one's own)."""
    current, maximum = system.health(c)
    out: dict[str, Any] = {"id": c.id, "name": c.name, "side": c.side, "mine": mine,
                           "acting": c.id == current_actor}
    if mode != "hidden":
        out["active"] = system.is_active(c)
        out["status"] = status_word(system, c)
    if mode in ("full", "exact"):
        out["health"] = {"current": current, "max": maximum}
        told = getattr(system, "health_words", None)  # as the system's table counts it
        if told is not None:
            out["health"]["words"] = told(c)
        out["bar"] = max(0.0, min(1.0, current / maximum)) if maximum else 0.0
        out["conditions"] = conditions(system, c, True)
    elif mode == "bar":
        out["bar"] = round(max(0.0, min(1.0, current / maximum)) if maximum else 0.0, 2)
        out["conditions"] = conditions(system, c, False)
    elif mode == "status":
        out["conditions"] = conditions(system, c, False)
    if mode == "full":
        out["state"] = c.state_dict()
        out["sheet"] = jsonable(c.sheet.model_dump()) if hasattr(c.sheet, "model_dump") else None
        # the same, as a person reads them: labels from the data pack, values in words
        words = system.words
        out["shown"] = {part: [[narration.field_label(k, words),
                                narration.value_words(v, words)] for k, v in fields.items()]
                        for part, fields in (("state", out["state"]),
                                             ("sheet", out["sheet"] or {}))}
    return out


def event_view(event: Event, line: str) -> dict[str, Any]:
    return {"type": event.type, "text": line, "rule": event.rule}


def _combatants_view(system: RuleSystem, session: Session, role: Role,
                     settings: Mapping[str, Any], viewer: Viewer) -> list[dict[str, Any]]:
    """Each combatant ``role`` may see, in roster order, as :func:`combatant_view` gives
    it, with the conditions' rounds left where the viewer sees them, and the GM's marks."""
    state = session.state
    held = marks_of(session)
    combatants = []
    for cid, c in state.roster.items():
        if cid in viewer.hidden:
            continue
        mine = cid in role.combatants
        view = combatant_view(system, c, mine, viewer.mode(cid), state.actor)
        if viewer.sees(cid, "condition"):  # the GM's own conditions, with rounds left
            view["marks"] = [{"name": n, "left": left} for n, left in held.get(cid, [])]
            if "conditions" in view:
                view["tags"] = tags(system, c, viewer.sees(cid, "private"),
                                    held.get(cid, []))
        if role.is_gm:
            view["hidden"] = cid in settings.get("hidden", ())
            view["controller"] = session.current.get(cid, PERSON)
        combatants.append(view)
    return combatants


def _order_view(session: Session, hidden_ids: Collection[str]) -> list[dict[str, Any]]:
    """The round's slots as the page lists them: who takes (or took) each, done, current."""
    state = session.state
    roster = state.roster
    order: list[dict[str, Any]] = []
    taken = slots_taken(session.events)
    for i, slot in enumerate(state.slots):
        ids = [x for x in slot.candidates if x in roster and x not in hidden_ids]
        if i in taken:  # a slot taken this round names who took it, not who could have
            ids = [x for x in ids if x == taken[i]]
        elif len(ids) > 1:  # one who has acted this round takes no other slot of several
            ids = [x for x in ids if x not in state.acted] or ids
        if ids:
            order.append({"label": slot.label, "names": [roster[x].name for x in ids],
                          "ids": ids, "done": i < state.next_slot - (state.actor is not None),
                          "current": i == state.next_slot - 1 and state.actor is not None
                          and not state.over})
    return order


def _asked_view(eid: str, system: RuleSystem, session: Session, role: Role, viewer: Viewer,
                names: Names) -> dict[str, Any] | None:
    """What is asked now, as ``role`` sees it (the decision itself only to whoever answers
    it; odds not yet known are worked out in the background); None when nothing is."""
    pending = session.pending
    if pending is None:
        return None
    roster = session.state.roster
    mine = role.is_gm or role.controls(pending.who)
    visible_who = pending.who if pending.who not in viewer.hidden else "gm"
    who_name = (roster[visible_who].name if visible_who in roster else "the GM")
    # the choice is shown at once; odds not yet known are worked out in the background
    # and fill in when the screen asks again (never holding the answer)
    decision = decision_view(pending.to_dict(wait=False), names, viewer) if mine \
        else None
    dice = (decision or {}).get("dice")
    words = getattr(system, "dice_words", None)
    if decision and dice and dice.get("typed") == "symbols" and words is not None:
        # which dice the pool's letters are
        decision = {**decision, "dice": {**dice, "words": words(str(dice.get("die", "")))}}
    waiting = mine and not pending.odds_ready
    if waiting:
        WORKER.warm(eid, pending)
    # a slot several may take is not yet anybody's: the question is waited for
    waiting_for = (f"the choice of {pending.prompt[:1].lower()}"
                   f"{pending.prompt[1:].rstrip('?')}" if pending.kind == "slot"
                   else who_name)
    return {"who": visible_who, "who_name": who_name, "waiting_for": waiting_for,
            "mine": mine, "kind": pending.kind if mine else None, "decision": decision,
            "odds_pending": waiting}


def encounter_view(eid: str, title: str, system: RuleSystem, session: Session, version: int,
                   role: Role, settings: Mapping[str, Any],
                   players: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """Everything ``role`` may see of the encounter, as JSON-able data."""
    state = session.state
    roster = state.roster
    viewer = viewer_of(role, settings, session)
    names = names_of(session)
    hidden_ids = viewer.hidden
    others = viewer.others

    combatants = _combatants_view(system, session, role, settings, viewer)
    order = _order_view(session, hidden_ids)
    for view in combatants:
        view["slot"] = slot_of(order, view["id"])
    # the GM's desk lists the combatants in turn order (those in no slot last)
    place: dict[str, int] = {}
    for i, entry in enumerate(order):
        for cid in entry["ids"]:
            place.setdefault(cid, i)
    if role.is_gm:
        combatants.sort(key=lambda v: place.get(v["id"], len(order)))

    log = [event_view(e, line) for e, line in lines_for(session, names, viewer, LOG_SHOWN)]
    log += rolls_under_way(session, names, viewer)
    asked = _asked_view(eid, system, session, role, viewer, names)
    actor = state.actor if state.actor is not None and state.actor not in hidden_ids else None
    actor_name = roster[actor].name if actor is not None and actor in roster else None
    return {
        "id": eid, "title": title, "system": system.id, "version": version,
        "role": role.kind, "you": role.name, "controls": list(role.combatants),
        "round": state.round, "over": state.over, "winner": state.winner,
        "actor": actor, "actor_name": actor_name,
        "order": order, "combatants": combatants, "pending": asked, "log": log,
        "log_cut": len(session.events) > LOG_SHOWN,  # older lines: GET .../log
        "settings": dict(settings) if role.is_gm else {"others": others,
                                                        "allies": viewer.allied},
        "players": list(players) if role.is_gm else [],
        "gm": gm_tools(session, players) if role.is_gm else None,
        "summary": fight_summary(session, names, viewer) if state.over else None,
    }


def fight_summary(session: Session, names: Names, viewer: Viewer) -> dict[str, Any]:
    """The end-of-fight summary as the viewer sees it, whose turn each went down in by
    name (see :mod:`fracas.encounter.summary`)."""
    whole = summarize(session.scenario, session.system, session.events)
    seen = summary_view(whole.to_dict(), viewer)
    for row in seen["combatants"]:
        turn = row.get("down_in_turn_of")
        row["down_in_turn_of"] = names.names.get(turn, turn) if turn else None
    seen["headline"] = whole.headline()
    return seen
