"""The GM's tools at the table, beyond answering decisions: who decides for a combatant
from now on, a skipped turn, a free-form action (described, with its effects applied by
hand: a roll against a target number, damage, healing, a condition with its duration),
every GM-side initiative roll at once, and a combatant brought in at a chosen place.

Each is an input in the session's log (a GM edit, or an answer), so it is shown in the
log, saved, and taken back by undo; a free-form action and its effects are one undo step.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from fracas.core.events import (
    ActionChosen,
    Changed,
    Event,
    RoundStarted,
    TurnStarted,
    from_jsonable,
)
from fracas.core.model import PASS
from fracas.core.words import plain
from fracas.dice.notation import bounds, parse_dice
from fracas.encounter.carried import Carried, carried
from fracas.encounter.decisions import Decision
from fracas.encounter.gm_events import (
    RULE_GM,
    CombatantAdded,
    ConditionCleared,
    ConditionEnded,
    ConditionSet,
    ControllerSet,
    GmAction,
    GmRoll,
    Joined,
    rules_condition,
)
from fracas.encounter.hand_edits import unchanged
from fracas.encounter.live import PERSON, roll_rng
from fracas.encounter.order import UNDER_WAY
from fracas.encounter.policies import POLICIES
from fracas.errors import DiceSyntaxError, InputError

if TYPE_CHECKING:
    from fracas.encounter.session import Session

def told(events: Sequence[Event]) -> list[Event]:
    """The events as the table is told them: the pass that makes room for a GM's free-form
    action in the same turn is left out (the action says what the combatant does)."""
    out: list[Event] = []
    for i, event in enumerate(events):
        if isinstance(event, ActionChosen) and event.action == PASS:
            later = next((events[j] for j in range(i + 1, len(events))
                          if isinstance(events[j], GmAction | TurnStarted | RoundStarted)),
                         None)
            if isinstance(later, GmAction) and later.actor == event.actor:
                continue
        out.append(event)
    return out


NEEDS = ("at least", "at most")
PLACES = ("next round", "after this turn", "end of round")


def marks(events: Sequence[Event], round_now: int = 0
          ) -> dict[str, list[tuple[str, int | None]]]:
    """The conditions the GM has put on each combatant that still hold after ``events``,
    with the rounds left (turns of the combatant whose turns count them down; None: until
    taken off). ``round_now`` is not needed any more (kept for callers)."""
    held: dict[str, dict[str, list[Any]]] = {}
    for e in events:
        _mark(held, e)
    return _marks_held(held)


def marks_of(session: Session) -> dict[str, list[tuple[str, int | None]]]:
    """:func:`marks` of the session's events, read on from the last call (a long fight's
    screen then costs what a short one's does: :mod:`fracas.encounter.carried`)."""
    fold = carried(session, "marks", lambda: Carried(dict, _mark, _held_copy))
    return _marks_held(fold.over(session.events))


def _held_copy(held: dict[str, dict[str, list[Any]]]) -> dict[str, dict[str, list[Any]]]:
    return {cid: {name: list(timer) for name, timer in conditions.items()}
            for cid, conditions in held.items()}


def _mark(held: dict[str, dict[str, list[Any]]], e: Event) -> None:
    """One event's part in :func:`marks`: a condition put on or taken off, a turn begun."""
    if isinstance(e, ConditionSet):
        held.setdefault(e.combatant, {})[e.condition] = [e.turns() if e.rounds else 0,
                                                         e.whose_turns()]
    elif isinstance(e, ConditionCleared | ConditionEnded):
        held.get(e.combatant, {}).pop(e.condition, None)
    elif isinstance(e, TurnStarted):
        for conditions in held.values():
            for timer in conditions.values():
                if timer[0] and timer[1] == e.actor:
                    timer[0] = max(1, timer[0] - 1)  # it ends at the turn's end


def _marks_held(held: dict[str, dict[str, list[Any]]]
                ) -> dict[str, list[tuple[str, int | None]]]:
    return {cid: [(name, timer[0] or None) for name, timer in conditions.items()]
            for cid, conditions in held.items() if conditions}


def _who(session: Session, cid: str) -> str:
    if cid not in session.state.roster:
        raise InputError(f"no combatant with id {cid!r}", path="combatant",
                         allowed=known(session))
    return session.state.roster[cid].name


def known(session: Session) -> str:
    """The combatants as a GM may name them: ``Rin (rin), Captain Vos (vos)``."""
    return ", ".join(c.name if c.name == cid else f"{c.name} ({cid})"
                     for cid, c in session.state.roster.items())


def find_combatant(session: Session, said: str) -> str | None:
    """The id of the combatant a GM names: its id, or its name on the sheet, in any case
    (None: nobody, or more than one combatant of that name)."""
    roster = session.state.roster
    if said in roster:
        return said
    key = said.strip().casefold()
    for hits in ([cid for cid in roster if cid.casefold() == key],
                 [cid for cid, c in roster.items() if c.name.casefold() == key]):
        if len(hits) == 1:
            return hits[0]
    return None


def combatant_named(session: Session, said: str) -> str:
    """:func:`find_combatant`, or an error listing who may be named."""
    cid = find_combatant(session, said)
    if cid is None:
        raise InputError(f"no combatant {said!r}", path="combatant", allowed=known(session))
    return cid


def field_named(session: Session, cid: str, said: str) -> str | None:
    """The state field a GM names for ``cid``: its data-pack label (``Energy``, ``most
    health``) or its name, in any case (None: no such field)."""
    state = session.state.roster[cid].state
    words = session.system.words
    key = said.strip().casefold()
    for f in fields(state):
        if key in (f.name.casefold(), plain(f.name).casefold(),
                   plain(words.field(f.name)).casefold()):
            return f.name
    return None


def field_labels(session: Session, cid: str) -> str:
    """The fields of ``cid`` a GM may set, by their labels."""
    words = session.system.words
    return ", ".join(plain(words.field(f.name))
                     for f in fields(session.state.roster[cid].state))


def set_controller(session: Session, cid: str, controller: str) -> Event:
    """From now on ``cid`` is decided by ``controller``: ``person`` (by hand) or a
    policy (fracas decides)."""
    name = _who(session, cid)
    if controller != PERSON and controller not in POLICIES:
        raise InputError(f"unknown controller {controller!r}", path="controller",
                         allowed=", ".join([PERSON, *POLICIES]))
    return session.record(ControllerSet(RULE_GM, cid, name, controller))


def skip_turn(session: Session) -> tuple[Event, ...]:
    """The acting combatant's turn passes (at its action decision)."""
    return session.decide({"skip": True})


WHEN = ("success", "failure", "always")


def free_action(session: Session, description: str, *, roll: str | None = None,
                value: int | None = None, target: int | None = None,
                needs: str = "at least", hidden: bool = False,
                effects: Iterable[Mapping[str, Any]] = ()) -> tuple[Event, ...]:
    """The acting combatant's turn is a free-form action: ``description``, an optional
    ``roll`` (dice notation; ``value``: what the table's dice show, else fracas rolls and
    says what) against a ``target`` number (``needs`` at least or at most; ``hidden``:
    behind the GM's screen, no player sees the roll), and ``effects`` applied by hand,
    each ``when`` the roll succeeds, fails, or always (default: on success when the roll
    has a target number, else always): ``{"damage": N, "to": id}``, ``{"heal": N, "to":
    id}``, ``{"condition": name, "to": id, "rounds": N}`` (a condition the rules know is
    the rules' condition, as :func:`put_condition`). One undo step; returns every event it
    made, the next turn's beginning included."""
    pending = session.pending
    if pending is None or pending.kind != "action":
        raise InputError("a free-form action takes the acting combatant's turn",
                         path="free action", allowed="at an action decision")
    actor = pending.who
    text = str(description or "").strip()
    if not text:
        raise InputError("describe the action", path="description", allowed="some text")
    plan = [_when(effect, f"effects[{i}]", roll is not None and target is not None)
            for i, effect in enumerate(effects)]
    round_now = session.state.round  # the round the action is taken in
    before = len(session.events)
    with session.one_step() as group:
        session.decide({"skip": True}, group=group)
        session.record(GmAction(RULE_GM, actor, _who(session, actor), text[:500]), group)
        success = None
        if roll:
            rolled = _gm_roll(session, actor, roll, value, target, needs, hidden)
            session.record(rolled, group)
            success = rolled.success
        for i, (when, effect) in enumerate(plan):
            if when == "always" or (when == "success") == success:
                for event in _effect(session, effect, f"effects[{i}]", round_now):
                    session.record(event, group)
    return tuple(told(session.events[before:]))


def _when(effect: Any, where: str, against: bool) -> tuple[str, Mapping[str, Any]]:
    """When an effect applies: ``success``, ``failure`` or ``always`` (``against``: the
    action's roll has a target number, without which only ``always`` can be)."""
    if not isinstance(effect, Mapping):
        raise InputError("an effect is a mapping", path=where,
                         allowed="{damage: N, to: id, when: success|failure|always}, "
                                 "{heal: N, to: id}, {condition: name, to: id, rounds: N}")
    when = str(effect.get("when") or ("success" if against else "always"))
    if when not in WHEN:
        raise InputError(f"unknown moment {when!r}", path=f"{where}.when",
                         allowed=", ".join(WHEN))
    if when != "always" and not against:
        raise InputError(f"an effect on {when} needs a roll against a target number",
                         path=f"{where}.when", allowed="always, or give the roll a target")
    return when, effect


def _gm_roll(session: Session, actor: str, roll: str, value: int | None, target: int | None,
             needs: str, hidden: bool = False) -> GmRoll:
    try:
        dice = parse_dice(roll)
    except DiceSyntaxError as err:
        raise InputError(str(err), path="roll", allowed="dice notation, e.g. 2d6+1"
                         ) from None
    if needs not in NEEDS:
        raise InputError(f"unknown comparison {needs!r}", path="needs",
                         allowed=", ".join(NEEDS))
    if value is not None:
        low, high = bounds(dice)
        if not low <= value <= high:
            raise InputError(f"{roll} cannot show {value}", path="value",
                             allowed=f"{low} to {high}, or leave it empty to roll")
    else:
        value = int(dice.sample(roll_rng(session.seed, session.draw())))
    success = None if target is None else (
        value >= target if needs == "at least" else value <= target)
    return GmRoll(RULE_GM, _who(session, actor), roll, int(value), target, needs, success,
                  hidden)


def _effect(session: Session, effect: Mapping[str, Any], where: str, round_now: int
            ) -> tuple[Event, ...]:
    cid = str(effect.get("to", ""))
    _who(session, cid)
    if "damage" in effect or "heal" in effect:
        amount = _whole(effect.get("damage", effect.get("heal")), f"{where}.amount")
        return (_harm(session, cid, amount if "damage" in effect else -amount),)
    if "condition" in effect:
        mark = _condition(session, cid, str(effect["condition"]),
                          _whole(effect.get("rounds", 0), f"{where}.rounds"), round_now,
                          str(effect.get("until") or "") or None)
        return (mark, *_ruled(session, mark))
    raise InputError("an effect is damage, heal or condition", path=where,
                     allowed="damage, heal, condition")


def _ruled(session: Session, mark: ConditionSet) -> tuple[Event, ...]:
    """The rules' own condition a GM's condition puts on, when the rules know it and the
    combatant does not have it yet (none otherwise)."""
    cid = mark.combatant
    ruled = rule_condition(session, cid, mark.condition)
    conditions = getattr(session.turn_base.roster[cid].state, "conditions", ())
    if ruled is None or ruled in conditions:
        return ()
    return (Changed(RULE_GM, cid, "conditions", conditions, (*conditions, ruled)),)


def _harm(session: Session, cid: str, amount: int) -> Changed:
    _who(session, cid)  # a real combatant, or an error that changes nothing
    c = session.turn_base.roster[cid]  # where the edit goes: before the pending turn
    name, before, after = session.system.harm_by_hand(c, amount)
    return Changed(RULE_GM, cid, name, before, after)


def _acting_chosen(session: Session, cid: str) -> bool:
    """Whether ``cid``'s turn is under way past the choice of its action (a reaction, a
    roll of its attack is asked): that turn is then not one of a condition's turns."""
    pending = session.pending
    return (session.state.actor == cid and pending is not None
            and not (pending.kind == "action" and pending.who == cid))


def _condition(session: Session, cid: str, condition: str, rounds: int,
               round_now: int | None = None, until: str | None = None) -> ConditionSet:
    """The mark: for ``rounds`` rounds (0: until taken off), or ``until`` the end of that
    combatant's next turn."""
    condition = condition.strip()
    if not condition or rounds < 0:
        raise InputError("a condition needs a name and a duration", path="condition",
                         allowed="a name; rounds 0 (until taken off) or more")
    round_now = session.state.round if round_now is None else round_now
    acted = _acting_chosen(session, until or cid)
    if until:
        return ConditionSet(RULE_GM, cid, _who(session, cid), condition[:80], 1, round_now,
                            until, _who(session, until), acted)
    return ConditionSet(RULE_GM, cid, _who(session, cid), condition[:80], rounds, round_now,
                        after_turn=acted)


def damage(session: Session, cid: str, amount: int) -> Event:
    """Quick damage by hand (no soak or armour: the GM says how much is lost)."""
    lost = _whole(amount, "damage")
    return session.record(unchanged(_harm(session, cid, lost), _who(session, cid),
                                    session.system.words, f"damage {lost} changes nothing",
                                    "damage of 1 or more to someone with some left"))


def heal(session: Session, cid: str, amount: int) -> Event:
    """Quick healing by hand, up to the combatant's maximum."""
    back = _whole(amount, "heal")
    return session.record(unchanged(_harm(session, cid, -back), _who(session, cid),
                                    session.system.words, f"healing {back} changes nothing",
                                    "healing of 1 or more for someone who has lost some"))


def set_condition(session: Session, cid: str, condition: str, rounds: int = 0,
                  until: str | None = None) -> Event:
    """Put a condition on ``cid`` for ``rounds`` rounds (0: until taken off) or ``until``
    the end of that combatant's next turn; one the rules know is put on in the rules too
    (:func:`put_condition`)."""
    return put_condition(session, cid, condition, rounds, until)[0]


def put_condition(session: Session, cid: str, condition: str, rounds: int = 0,
                  until: str | None = None) -> tuple[Event, ...]:
    """The condition as a mark with its rounds left, and, when it is one the rules know
    (a word of the system's conditions, ``stunned`` in Zamani), in the combatant's
    conditions, where the rules see it until it is taken off (one undo step)."""
    mark = _condition(session, cid, condition, _whole(rounds, "rounds"), until=until)
    with session.one_step() as group:
        return tuple(session.record(e, group) for e in (mark, *_ruled(session, mark)))


def rule_condition(session: Session, cid: str, said: str) -> str | None:
    """The rules' name of the condition a GM names (its name or its word, any case), when
    the combatant's rules keep conditions; None if they know no such condition."""
    return rules_condition(session.system, session.turn_base.roster[cid].state, said)


def clear_condition(session: Session, cid: str, condition: str) -> Event:
    """Take a condition off: the GM's mark and, if the rules hold it, theirs (one undo
    step)."""
    name = _who(session, cid)
    held = [n for n, _ in marks_of(session).get(cid, [])]
    ruled = rule_condition(session, cid, condition)
    conditions = getattr(session.turn_base.roster[cid].state, "conditions", ())
    in_rules = ruled is not None and ruled in conditions
    if condition not in held and not in_rules:
        words = session.system.words
        held += [words.condition(c) for c in conditions if isinstance(c, str)]
        raise InputError(f"{name} is not {condition!r}", path="condition",
                         allowed=", ".join(held) or "none set")
    if not in_rules:
        return session.record(ConditionCleared(RULE_GM, cid, name, condition))
    off = Changed(RULE_GM, cid, "conditions", conditions,
                  tuple(c for c in conditions if c != ruled))
    if condition not in held:
        return session.record(off)
    with session.one_step() as group:
        session.record(ConditionCleared(RULE_GM, cid, name, condition), group)
        return session.record(off, group)


def at_round_start(session: Session) -> bool:
    """Is the pending question asked before the round's first turn (initiative)?"""
    if session.pending is None:
        return False
    base = session.turn_base
    return not any(isinstance(e, TurnStarted) for e in session.turn_events) and (
        not base.started or base.next_slot >= len(base.slots))


def gm_side_asked(pending: Decision | None, keep: Collection[str]) -> bool:
    """Is a die of the GM's side (anybody's not in ``keep``) asked now: the roll asked,
    or another part of a roll of several people's dice that a player's part waits on?"""
    if pending is None or pending.kind != "dice":
        return False
    rest = pending.dice.rest if pending.dice is not None else ()
    return pending.who not in keep or any(who not in keep for _, who in rest)


def players_side(session: Session, players: Iterable[str] = ()) -> set[str]:
    """The combatants whose dice their players roll: those named, the session's players'
    (``--player``, a player invited on the web) and those whose sheet is a player's
    (:meth:`~fracas.core.system.RuleSystem.is_player`)."""
    return set(players) | set(session.players) | {cid for cid, c in session.state.roster.items()
                           if session.system.is_player(c)}


def roll_initiative(session: Session, players: Iterable[str] = ()) -> tuple[Event, ...]:
    """Roll every initiative die of the GM's side (everybody not in ``players`` whose
    sheet is not a player's, :meth:`~fracas.core.system.RuleSystem.is_player`) now asked,
    one after the other, up to the first roll a player makes, and the GM's parts of a
    roll of several people's dice (everybody's initiative at once) around a player's own
    part, which is left to the player; one undo step."""
    keep = players_side(session, players)
    pending = session.pending
    if (at_round_start(session) and pending is not None and pending.kind == "dice"
            and not gm_side_asked(pending, keep) and pending.who in session.state.roster):
        name = session.state.roster[pending.who].name
        raise InputError(f"{name}'s roll is asked now, and it is the player's to make",
                         path="initiative",
                         allowed=f"{name}'s player rolls first; gm init then rolls the GM side")
    if not (at_round_start(session) and gm_side_asked(pending, keep)):
        raise InputError("no GM-side initiative roll is asked now", path="initiative",
                         allowed="at the start of a round, when the GM's side rolls")
    before = len(session.events)
    round_now = session.state.round
    with session.one_step() as group:
        while (session.pending is not None and session.pending.kind == "dice"
               and session.pending.who not in keep and at_round_start(session)
               and session.state.round == round_now):
            session.decide({"roll": True}, group=group)
        request = session.pending.dice if session.pending is not None else None
        if (request is not None and request.part and at_round_start(session)
                and session.state.round == round_now):
            ours = [k for k, who in request.rest if who not in keep]
            if ours:
                session.roll_parts(ours, group)
    return tuple(session.events[before:])


def _whole(value: Any, where: str) -> int:
    if isinstance(value, bool):
        value = None
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise InputError(f"{value!r} is not a whole number", path=where,
                         allowed="a whole number") from None
    if number < 0:
        raise InputError(f"{number} is negative", path=where, allowed="0 or more")
    return number


def bring_in(session: Session, entry: Mapping[str, Any], place: str | int = "next round"
             ) -> tuple[Event, ...]:
    """Bring a combatant into the fight without disturbing the round: nobody's initiative is
    rolled again. ``place``: ``next round`` (it joins the order by the system's rule when the
    next round begins), ``after this turn``, ``end of round``, or a number: the place among
    this round's slots still to come (1: right after the current turn). One undo step."""
    if place == "next round":
        return (session.add_combatant(entry),)
    if session.state.round != session.turn_base.round or not session.turn_base.started:
        raise InputError("this round's order is still being rolled", path="place",
                         allowed=f"next round, or a place {UNDER_WAY}")
    left = len(session.state.slots) - session.state.next_slot  # slots after the current one
    if place == "after this turn":
        place = 1
    elif place == "end of round":
        place = left + 1
    if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= left + 1:
        raise InputError(f"no place {place!r} in this round", path="place",
                         allowed=", ".join(PLACES) + f", or a number from 1 to {left + 1}")
    cid = str(entry.get("id", ""))
    if cid in session.state.roster:
        raise InputError(f"the id {cid!r} is already in the fight", path="id",
                         allowed="a new id")
    session.check_entry(entry)
    # where the edits go (before the pending turn), the current slot is still to come
    after = session.state.next_slot - session.turn_base.next_slot + place - 1
    name = str(entry.get("name") or cid)
    with session.one_step() as group:
        return (session.record(CombatantAdded(RULE_GM, from_jsonable(dict(entry))), group),
                session.record(Joined(RULE_GM, cid, name, after), group))
