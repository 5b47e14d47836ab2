"""What each role sees of an encounter: one dict, rendered as JSON by the API and as HTML
by the page, so that no renderer can show more than the role may see.

The GM sees everything. A player sees the turn order, whose turn it is, the public log,
their own combatants in full, and the others as the encounter's ``others`` setting says:
``exact`` numbers, a health ``bar``, a ``status`` word, or ``hidden`` numbers; combatants
listed in ``hidden`` are left out everywhere (order, roster, log, prompts) until revealed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from fracas.core.events import Changed, Event, _jsonable
from fracas.core.model import Combatant
from fracas.core.system import RuleSystem
from fracas.encounter.session import Session
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


def conditions(c: Combatant) -> list[str]:
    """State flags that are on (``grappled``, ``prone``, ...), and non-empty lists of them."""
    out = []
    for name, value in c.state_dict().items():
        if value is True:
            out.append(name.replace("_", " "))
        elif isinstance(value, list | tuple) and value and all(isinstance(v, str) for v in value):
            out.append(f"{name.replace('_', ' ')}: {', '.join(value)}")
    return out


def _mentions(event: Event, hidden: Sequence[Combatant]) -> bool:
    if not hidden:
        return False
    data = event.to_dict()
    values = {v for v in data.values() if isinstance(v, str)}
    text = event.text()
    return any(c.id in values or c.name in text or c.id in text for c in hidden)


UNSEEN = "someone unseen"


def _unseen(value: Any, hidden: Sequence[Combatant]) -> Any:
    """``value`` with every hidden combatant's name and id replaced by "someone unseen"."""
    if isinstance(value, str):
        for c in hidden:
            value = re.sub(rf"\b(the )?{re.escape(c.name)}\b", UNSEEN, value)
            value = re.sub(rf"\b{re.escape(c.id)}\b", UNSEEN, value)
        return value
    if isinstance(value, dict):
        return {k: _unseen(v, hidden) for k, v in value.items()}
    if isinstance(value, list):
        return [_unseen(v, hidden) for v in value]
    return value


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
        out["bar"] = max(0.0, min(1.0, current / maximum)) if maximum else 0.0
        out["conditions"] = conditions(c)
    elif mode == "bar":
        out["bar"] = round(max(0.0, min(1.0, current / maximum)) if maximum else 0.0, 2)
        out["conditions"] = conditions(c)
    elif mode == "status":
        out["conditions"] = conditions(c)
    if mode == "full":
        out["state"] = c.state_dict()
        out["sheet"] = _jsonable(c.sheet.model_dump()) if hasattr(c.sheet, "model_dump") else None
    return out


def event_view(event: Event) -> dict[str, Any]:
    return {"type": event.type, "text": event.text(), "rule": event.rule}


def encounter_view(eid: str, title: str, system: RuleSystem, session: Session, version: int,
                   role: Role, settings: Mapping[str, Any],
                   players: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """Everything ``role`` may see of the encounter, as JSON-able data."""
    state = session.state
    roster = state.roster
    hidden_ids = set() if role.is_gm else {h for h in settings.get("hidden", ())
                                          if h not in role.combatants}
    hidden = [roster[h] for h in hidden_ids if h in roster]
    others = str(settings.get("others", "bar"))

    combatants = []
    for cid, c in roster.items():
        if cid in hidden_ids:
            continue
        mine = cid in role.combatants
        mode = "full" if role.is_gm or mine else others
        view = combatant_view(system, c, mine, mode, state.actor)
        if role.is_gm:
            view["hidden"] = cid in settings.get("hidden", ())
        combatants.append(view)

    order = []
    for i, slot in enumerate(state.slots):
        who = [roster[x].name for x in slot.candidates if x in roster and x not in hidden_ids]
        if who:
            order.append({"label": slot.label, "names": who, "done": i < state.next_slot})

    log = []
    for event in session.events:
        if not role.is_gm:
            if _mentions(event, hidden):
                continue
            if (isinstance(event, Changed) and others != "exact"
                    and event.target not in role.combatants):
                continue
        log.append(event_view(event))

    pending = session.pending
    asked: dict[str, Any] | None = None
    if pending is not None:
        mine = role.is_gm or role.controls(pending.who)
        visible_who = pending.who if pending.who not in hidden_ids else "gm"
        who_name = (roster[visible_who].name if visible_who in roster else "the GM")
        decision = pending.to_dict() if mine else None
        if decision is not None and hidden:
            decision = _unseen(decision, hidden)
        asked = {"who": visible_who, "who_name": who_name, "mine": mine,
                 "kind": pending.kind if mine else None, "decision": decision}
    actor = state.actor if state.actor is not None and state.actor not in hidden_ids else None
    actor_name = roster[actor].name if actor is not None and actor in roster else None
    return {
        "id": eid, "title": title, "system": system.id, "version": version,
        "role": role.kind, "you": role.name, "controls": list(role.combatants),
        "round": state.round, "over": state.over, "winner": state.winner,
        "actor": actor, "actor_name": actor_name,
        "order": order, "combatants": combatants, "pending": asked, "log": log,
        "settings": dict(settings) if role.is_gm else {"others": others},
        "players": list(players) if role.is_gm else [],
    }
