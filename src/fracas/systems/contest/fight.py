"""Fight hooks: initiative (RULES.md default), the choices an actor has, the defenses a
target may declare, and the effects that end at the start of a turn."""

from __future__ import annotations

from fracas.core.events import Event, Note, Rolled
from fracas.core.model import Action, Combatant, Roster, Slot
from fracas.dice import Roller, d
from fracas.systems.contest.checks import FIGHTING_DEFENSIVELY, PRONE, held_weapons
from fracas.systems.contest.declare import block_item, counter_weapon
from fracas.systems.contest.events import R_DEFENSIVE, R_INITIATIVE, Tracker
from fracas.systems.contest.sheet import Defaults, Options, Sheet


def initiative(roller: Roller, roster: Roster, df: Defaults) -> tuple[
        tuple[Slot, ...], tuple[Event, ...]]:
    """d20 + initiative rank, rolled once at the start of the fight (kept in the state);
    highest first, ties by rank, then a roll-off among those still tied."""
    events: list[Event] = []
    tracker = Tracker()
    keys: dict[str, tuple[int, ...]] = {}
    fresh = [c for c in roster.values() if not c.state.initiative]
    for c in fresh:
        rank = c.sheet.rank(df.initiative.skill) or 0
        natural = roller.roll(d(df.initiative.die))
        keys[c.id] = (natural + rank, rank)
        events.append(Rolled(R_INITIATIVE, c.name, f"d{df.initiative.die} for initiative",
                             natural, f"+ {rank} ({df.initiative.skill}) = {natural + rank}"))
    _roll_offs(roller, roster, keys, df, events)
    for c in fresh:
        events += tracker.change(R_INITIATIVE, c.id, "initiative", c.state.initiative,
                                 keys[c.id])
    for c in roster.values():
        keys.setdefault(c.id, c.state.initiative)
    order = sorted(roster, key=lambda cid: keys[cid], reverse=True)
    slots = tuple(Slot((cid,), f"initiative {keys[cid][0]}") for cid in order)
    return slots, tuple(events)


def _roll_offs(roller: Roller, roster: Roster, keys: dict[str, tuple[int, ...]],
               df: Defaults, events: list[Event]) -> None:
    """Roll-offs among the newly rolled combatants still tied on total and rank."""
    for _ in range(20):  # a tie survives 20 roll-offs with vanishing probability
        groups: dict[tuple[int, ...], list[str]] = {}
        for cid, key in keys.items():
            groups.setdefault(key, []).append(cid)
        tied = [ids for ids in groups.values() if len(ids) > 1]
        if not tied:
            return
        for ids in tied:
            for cid in ids:
                natural = roller.roll(d(df.initiative.die))
                keys[cid] = (*keys[cid], natural)
                events.append(Rolled(R_INITIATIVE, roster[cid].name,
                                     f"d{df.initiative.die} roll-off for a tied initiative",
                                     natural))


def attacks(actor: Combatant, roster: Roster) -> list[Action]:
    """Every attack: each active enemy, each held weapon, each allowed attack type."""
    out: list[Action] = []
    for enemy in roster.enemies_of(actor.id):
        if enemy.state.hp <= 0:
            continue
        for w in held_weapons(actor):
            modes = ["normal", "called_shot" if w.kind == "ranged" else "defensive"]
            for mode in modes:
                out.append(Action(actor.id, enemy.id, w.name, "attack",
                                  Options(mode=mode)))
    return out


def other_actions(actor: Combatant) -> list[Action]:
    """Standing up when prone; recovering a weapon one was disarmed of."""
    out: list[Action] = []
    if PRONE in actor.state.conditions:
        out.append(Action(actor.id, None, None, "stand_up", Options(), offensive=False))
    for name in actor.state.dropped:
        out.append(Action(actor.id, None, name, "recover_weapon", Options(), offensive=False))
    return out


def defenses(action: Action, roster: Roster) -> list[Action]:
    """The attack once per defense its target may declare (dodge always; block with a held
    blocking item; sponge with unbroken armour; counter with a held weapon)."""
    assert isinstance(action.options, Options)
    if action.kind != "attack" or action.target is None:
        return [action]
    t = roster[action.target]
    sheet: Sheet = t.sheet
    kinds = ["dodge"]
    if block_item(t, None) is not None:
        kinds.append("block")
    if sheet.armour is not None and t.state.armour_hp > 0:
        kinds.append("sponge")
    if counter_weapon(t, None) is not None:
        kinds.append("counter")
    return [Action(action.actor, action.target, action.weapon, action.kind,
                   action.options.model_copy(update={"defense": k}), action.offensive)
            for k in kinds]


def start_turn(actor: str, roster: Roster) -> tuple[Event, ...]:
    """Fighting defensively lasts until the start of the fighter's next turn."""
    c = roster[actor]
    if FIGHTING_DEFENSIVELY not in c.state.conditions:
        return ()
    after = tuple(x for x in c.state.conditions if x != FIGHTING_DEFENSIVELY)
    return (Note(R_DEFENSIVE, f"{c.name}'s turn starts: no longer fighting defensively"),
            *Tracker().change(R_DEFENSIVE, actor, "conditions", c.state.conditions, after))
