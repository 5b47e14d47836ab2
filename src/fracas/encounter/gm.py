"""The GM's tools at the table, beyond answering decisions: who decides for a combatant
from now on, a skipped turn, a free-form action (described, with its effects applied by
hand: a roll against a target number, damage, healing, a condition with its duration),
every GM-side initiative roll at once, and a combatant brought in at a chosen place.

Each is an input in the session's log (a GM edit, or an answer), so it is shown in the
log, saved, and taken back by undo; a free-form action and its effects are one undo step.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar

from fracas.core.events import (
    ActionChosen,
    Changed,
    Event,
    RoundStarted,
    SlotAdded,
    TurnStarted,
    from_jsonable,
)
from fracas.core.model import PASS
from fracas.core.words import plain
from fracas.dice.notation import bounds, parse_dice
from fracas.encounter.decisions import Decision
from fracas.encounter.live import PERSON, roll_rng
from fracas.encounter.policies import POLICIES
from fracas.errors import DiceSyntaxError, InputError

if TYPE_CHECKING:
    from fracas.encounter.session import Session

RULE_GM = "GM · at the table"


@dataclass(frozen=True)
class CombatantAdded(Event):
    """The GM brings a combatant into the fight (its scenario entry); it joins the turn
    order from the next round."""

    facts: ClassVar[str] = "public"

    entry: Any

    def text(self) -> str:
        entry = dict(self.entry)
        return f"{entry.get('name') or entry.get('id')} joins the fight ({entry.get('side')})"


@dataclass(frozen=True)
class CombatantRemoved(Event):
    """The GM takes a combatant out of the fight; its places in the turn order pass."""

    facts: ClassVar[str] = "public"

    combatant: str

    def text(self) -> str:
        return f"{self.combatant} leaves the fight"


@dataclass(frozen=True)
class ControllerSet(Event):
    """Who decides for a combatant from now on: a person (the GM or its player) or a
    named policy."""

    facts: ClassVar[str] = "public"

    combatant: str
    name: str
    controller: str

    def text(self) -> str:
        if self.controller == PERSON:
            return f"{self.name} is decided by hand again"
        return f"fracas decides for {self.name} from now on ({self.controller})"


@dataclass(frozen=True)
class GmAction(Event):
    """A free-form action the GM describes (the combatant's turn passes with it)."""

    facts: ClassVar[str] = "public"

    actor: str
    name: str
    description: str

    def text(self) -> str:
        return f"{self.name}: {self.description}"


@dataclass(frozen=True)
class GmRoll(Event):
    """A roll the GM calls for by hand, against a target number if one is given."""

    facts: ClassVar[str] = "public"

    who: str
    dice: str
    value: int
    target: int | None
    needs: str  # "at least" or "at most"
    success: bool | None
    hidden: bool = False  # rolled behind the GM's screen: no player sees it

    def fact_kind(self) -> str:
        return "gm" if self.hidden else "public"

    def text(self) -> str:
        screen = " (behind the screen)" if self.hidden else ""
        if self.target is None:
            return f"{self.who} rolls {self.dice}{screen}: {self.value}"
        verdict = "success" if self.success else "failure"
        return f"{self.who} rolls {self.dice}{screen}: {self.value}, needs {self.needs} " \
               f"{self.target}: {verdict}"


@dataclass(frozen=True)
class ConditionSet(Event):
    """A condition the GM puts on a combatant, for ``rounds`` rounds from ``round`` (0:
    until taken off)."""

    facts: ClassVar[str] = "condition"

    combatant: str
    name: str
    condition: str
    rounds: int
    round: int

    def text(self) -> str:
        lasting = (f" for {self.rounds} round{'s' if self.rounds != 1 else ''}"
                   if self.rounds else "")
        return f"{self.name} is {self.condition}{lasting}"


@dataclass(frozen=True)
class ConditionCleared(Event):
    """The GM takes a condition off."""

    facts: ClassVar[str] = "condition"

    combatant: str
    name: str
    condition: str

    def text(self) -> str:
        return f"{self.name} is no longer {self.condition}"


@dataclass(frozen=True)
class Joined(SlotAdded):
    """A combatant brought in mid-round takes a place in this round's order (the others'
    places and initiative stay as they are)."""

    def text(self) -> str:
        return f"{self.label} joins this round's order"


def told(events: Sequence[Event]) -> list[Event]:
    """The events as the table is told them: the pass that makes room for a GM's free-form
    action in the same turn is left out (the action says what the combatant does)."""
    out: list[Event] = []
    for i, event in enumerate(events):
        if isinstance(event, ActionChosen) and event.action == PASS:
            later = next((e for e in events[i + 1:]
                          if isinstance(e, GmAction | TurnStarted | RoundStarted)), None)
            if isinstance(later, GmAction) and later.actor == event.actor:
                continue
        out.append(event)
    return out


NEEDS = ("at least", "at most")
PLACES = ("next round", "after this turn", "end of round")


def marks(events: Sequence[Event], round_now: int) -> dict[str, list[tuple[str, int | None]]]:
    """The conditions the GM has put on each combatant that still hold at ``round_now``,
    with the rounds left (None: until taken off)."""
    held: dict[str, dict[str, tuple[int, int]]] = {}
    for e in events:
        if isinstance(e, ConditionSet):
            held.setdefault(e.combatant, {})[e.condition] = (e.rounds, e.round)
        elif isinstance(e, ConditionCleared):
            held.get(e.combatant, {}).pop(e.condition, None)
    out: dict[str, list[tuple[str, int | None]]] = {}
    for cid, conditions in held.items():
        for name, (rounds, start) in conditions.items():
            if not rounds:
                out.setdefault(cid, []).append((name, None))
                continue
            left = rounds - max(0, round_now - start)
            if left > 0:
                out.setdefault(cid, []).append((name, left))
    return out


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
    return session._gm(ControllerSet(RULE_GM, cid, name, controller))


def skip_turn(session: Session) -> tuple[Event, ...]:
    """The acting combatant's turn passes (at its action decision)."""
    return session.decide({"skip": True})


def free_action(session: Session, description: str, *, roll: str | None = None,
                value: int | None = None, target: int | None = None,
                needs: str = "at least", hidden: bool = False,
                effects: Iterable[Mapping[str, Any]] = ()) -> tuple[Event, ...]:
    """The acting combatant's turn is a free-form action: ``description``, an optional
    ``roll`` (dice notation, rolled unless its ``value`` is given) against a
    ``target`` number (``needs`` at least or at most; ``hidden``: behind the GM's screen,
    no player sees the roll), and ``effects`` applied by hand:
    ``{"damage": N, "to": id}``, ``{"heal": N, "to": id}``, ``{"condition": name,
    "to": id, "rounds": N}``. One undo step."""
    pending = session.pending
    if pending is None or pending.kind != "action":
        raise InputError("a free-form action takes a combatant's turn: it is made at "
                         "an action decision", path="free action",
                         allowed="the acting combatant's action decision")
    actor = pending.who
    text = str(description or "").strip()
    if not text:
        raise InputError("describe the action", path="description", allowed="some text")
    plan = list(effects)
    group = len(session.entries)
    saved = (list(session.entries), session.drawn)
    round_now = session.state.round  # the round the action is taken in
    session.decide({"skip": True})
    last = max(i for i, e in enumerate(session.entries) if not e.get("auto"))
    session.entries[last]["group"] = group  # the answer the skip made
    made = []
    try:
        made.append(session._gm(GmAction(RULE_GM, actor, _who(session, actor), text[:500]),
                                group))
        if roll:
            made.append(session._gm(_gm_roll(session, actor, roll, value, target, needs, hidden),
                                    group))
        for i, effect in enumerate(plan):
            made.append(session._gm(_effect(session, effect, f"effects[{i}]", round_now), group))
    except InputError:
        session.entries, session.drawn = saved
        session._replay()
        raise
    return tuple(made)


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
        session.drawn += 1
        value = int(dice.sample(roll_rng(session.seed, session.drawn - 1)))
    success = None if target is None else (
        value >= target if needs == "at least" else value <= target)
    return GmRoll(RULE_GM, _who(session, actor), roll, int(value), target, needs, success,
                  hidden)


def _effect(session: Session, effect: Mapping[str, Any], where: str, round_now: int
            ) -> Event:
    if not isinstance(effect, Mapping):
        raise InputError("an effect is a mapping", path=where,
                         allowed="{damage: N, to: id}, {heal: N, to: id}, "
                                 "{condition: name, to: id, rounds: N}")
    cid = str(effect.get("to", ""))
    _who(session, cid)
    if "damage" in effect or "heal" in effect:
        amount = _whole(effect.get("damage", effect.get("heal")), f"{where}.amount")
        return _harm(session, cid, amount if "damage" in effect else -amount)
    if "condition" in effect:
        return _condition(session, cid, str(effect["condition"]),
                          _whole(effect.get("rounds", 0), f"{where}.rounds"), round_now)
    raise InputError("an effect is damage, heal or condition", path=where,
                     allowed="damage, heal, condition")


def _harm(session: Session, cid: str, amount: int) -> Changed:
    _who(session, cid)  # a real combatant, or an error that changes nothing
    c = session._base.roster[cid]  # where the edit goes: before the pending turn
    name, before, after = session.system.harm_by_hand(c, amount)
    return Changed(RULE_GM, cid, name, before, after)


def _condition(session: Session, cid: str, condition: str, rounds: int,
               round_now: int | None = None) -> ConditionSet:
    condition = condition.strip()
    if not condition or rounds < 0:
        raise InputError("a condition needs a name and a duration of 0 or more rounds",
                         path="condition", allowed="a name; rounds 0 (until taken off) "
                                                   "or more")
    return ConditionSet(RULE_GM, cid, _who(session, cid), condition[:80], rounds,
                        session.state.round if round_now is None else round_now)


def damage(session: Session, cid: str, amount: int) -> Event:
    """Quick damage by hand (no soak or armour: the GM says how much is lost)."""
    return session._gm(_harm(session, cid, _whole(amount, "damage")))


def heal(session: Session, cid: str, amount: int) -> Event:
    """Quick healing by hand, up to the combatant's maximum."""
    return session._gm(_harm(session, cid, -_whole(amount, "heal")))


def set_condition(session: Session, cid: str, condition: str, rounds: int = 0) -> Event:
    """Put a condition on ``cid`` for ``rounds`` rounds (0: until taken off); one the rules
    know is put on in the rules too (:func:`put_condition`)."""
    return put_condition(session, cid, condition, rounds)[0]


def put_condition(session: Session, cid: str, condition: str, rounds: int = 0
                  ) -> tuple[Event, ...]:
    """The condition as a mark with its rounds left, and, when it is one the rules know
    (a word of the system's conditions, ``stunned`` in Zamani), in the combatant's
    conditions, where the rules see it until it is taken off (one undo step)."""
    mark = _condition(session, cid, condition, _whole(rounds, "rounds"))
    ruled = rule_condition(session, cid, mark.condition)
    conditions = getattr(session._base.roster[cid].state, "conditions", ())
    if ruled is None or ruled in conditions:
        return (session._gm(mark),)
    group = len(session.entries)
    return (session._gm(mark, group),
            session._gm(Changed(RULE_GM, cid, "conditions", conditions,
                                (*conditions, ruled)), group))


def rule_condition(session: Session, cid: str, said: str) -> str | None:
    """The rules' name of the condition a GM names (its name or its word, any case), when
    the combatant's rules keep conditions; None if they know no such condition."""
    if not isinstance(getattr(session._base.roster[cid].state, "conditions", None), tuple):
        return None
    wanted = said.strip().lower()
    known = session.system.words.conditions
    return next((name for name, word in known.items()
                 if wanted in (name.lower(), word.label.lower())), None)


def clear_condition(session: Session, cid: str, condition: str) -> Event:
    """Take a condition off: the GM's mark and, if the rules hold it, theirs (one undo
    step)."""
    name = _who(session, cid)
    held = [n for n, _ in marks(session.events, session.state.round).get(cid, [])]
    ruled = rule_condition(session, cid, condition)
    conditions = getattr(session._base.roster[cid].state, "conditions", ())
    in_rules = ruled is not None and ruled in conditions
    if condition not in held and not in_rules:
        words = session.system.words
        held += [words.condition(c) for c in conditions if isinstance(c, str)]
        raise InputError(f"{name} is not {condition!r}", path="condition",
                         allowed=", ".join(held) or "none set")
    if not in_rules:
        return session._gm(ConditionCleared(RULE_GM, cid, name, condition))
    off = Changed(RULE_GM, cid, "conditions", conditions,
                  tuple(c for c in conditions if c != ruled))
    if condition not in held:
        return session._gm(off)
    group = len(session.entries)
    session._gm(ConditionCleared(RULE_GM, cid, name, condition), group)
    return session._gm(off, group)


def at_round_start(session: Session) -> bool:
    """Is the pending question asked before the round's first turn (initiative)?"""
    if session.pending is None:
        return False
    turn = session.events[session._base_len:]
    return not any(isinstance(e, TurnStarted) for e in turn) and (
        not session._base.started or session._base.next_slot >= len(session._base.slots))


def gm_side_asked(pending: Decision | None, keep: Collection[str]) -> bool:
    """Is a die of the GM's side (anybody's not in ``keep``) asked now: the roll asked,
    or another part of a roll of several people's dice that a player's part waits on?"""
    if pending is None or pending.kind != "dice":
        return False
    rest = pending.dice.rest if pending.dice is not None else ()
    return pending.who not in keep or any(who not in keep for _, who in rest)


def roll_initiative(session: Session, players: Iterable[str] = ()) -> tuple[Event, ...]:
    """Roll every initiative die of the GM's side (everybody not in ``players``) now
    asked, one after the other, up to the first roll a player makes, and the GM's parts
    of a roll of several people's dice (everybody's initiative at once) around a
    player's own part, which is left to the player; one undo step."""
    keep = set(players)
    if not (at_round_start(session) and gm_side_asked(session.pending, keep)):
        raise InputError("no GM-side initiative roll is asked now", path="initiative",
                         allowed="at the start of a round, when the GM's side rolls")
    group = len(session.entries)
    before = len(session.events)
    round_now = session.state.round
    while (session.pending is not None and session.pending.kind == "dice"
           and session.pending.who not in keep and at_round_start(session)
           and session.state.round == round_now):
        session.decide({"roll": True})
        last = max(i for i, e in enumerate(session.entries) if not e.get("auto"))
        session.entries[last]["group"] = group
    request = session.pending.dice if session.pending is not None else None
    if (request is not None and request.part and at_round_start(session)
            and session.state.round == round_now):
        ours = [k for k, who in request.rest if who not in keep]
        if ours:
            shared = request.shared
            if shared is None:
                shared, session.drawn = session.drawn, session.drawn + 1
            stamp = session._stamp()
            session._add([{"kind": "dice", "part": k, "rolled": shared, "by": "gm",
                           "n": stamp + i, "group": group} for i, k in enumerate(ours)])
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
    if session.state.round != session._base.round or not session._base.started:
        raise InputError("this round's order is being set: the combatant can join at the "
                         "next round, or at a place once the round's first turn is under way",
                         path="place", allowed="next round")
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
    group = len(session.entries)
    # where the edits go (before the pending turn), the current slot is still to come
    after = session.state.next_slot - session._base.next_slot + place - 1
    saved = (list(session.entries), session.drawn)
    name = str(entry.get("name") or cid)
    try:
        made = (session._gm(CombatantAdded(RULE_GM, from_jsonable(dict(entry))), group),
                session._gm(Joined(RULE_GM, cid, name, after), group))
    except InputError:
        session.entries, session.drawn = saved
        session._replay()
        raise
    return made
