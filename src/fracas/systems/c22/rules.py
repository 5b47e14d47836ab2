"""The c22 rule system (seed 000, C22 Systems): the RuleSystem hooks.

Attacks are in :mod:`.attack`, movement in :mod:`.moves`, the decks in :mod:`.decks`
and :mod:`.cards`, the grid in :mod:`.grid`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from functools import cached_property
from itertools import pairwise
from typing import Any

from fracas.core.events import Changed, Event
from fracas.core.model import Action, Combatant, Resolution, Roster, Slot
from fracas.core.system import RuleSystem
from fracas.dice.cards import CARD_NOTATION, Deck, parse_card
from fracas.dice.rollers import Roller
from fracas.errors import InputError, RulesError
from fracas.systems.c22.attack import resolve_attack
from fracas.systems.c22.cards import suit_order
from fracas.systems.c22.conf import Conf
from fracas.systems.c22.decks import Drawing
from fracas.systems.c22.events import C22Initiative, State, public, table
from fracas.systems.c22.fight import attack_choices, move_choices
from fracas.systems.c22.moves import check_move, resolve_move
from fracas.systems.c22.sheet import (
    REACTIONS,
    SPLIT_WORDS,
    Defaults,
    Options,
    ReactionPlan,
    Sheet,
)

INITIATIVE = public("Initiative")
KINDS = ("attack", "move")


class C22(RuleSystem):
    """C22 Systems: playing cards for Accuracy against Avoidance, grazes, reactions,
    Armor and Pierce, on a hex or square grid."""

    id = "c22"
    title = "C22 Systems"
    seed = "000_bc641769e594fb58.txt"
    summary = ("Each character draws from its own deck: weapon card + skill = Accuracy vs "
               "Avoidance (a graze halves), reactions, Armor less Pierce, hex grid.")
    sheet_model = Sheet
    options_model = Options
    defaults_model = Defaults
    outcomes = ("hit", "graze", "moved", "stopped", "stayed")
    scenario_keys = frozenset({"cards"})
    dice_order = ("cards: {owner: [cards]}, top of each deck first: the attacker's two "
                  "cards for the turn in the order drawn; the defender's reaction cards "
                  "(any jokers, then the number card)")
    demo_examples = ("one-tough-lizard.yaml", "raised-heavy-swing.yaml", "red-joker-dodge.yaml")

    @cached_property
    def conf(self) -> Conf:
        shipped = self.defaults_model.model_validate(self.load_yaml("defaults.yaml"))
        assert isinstance(shipped, Defaults)
        return Conf(self.defaults, shipped)

    # -- combatants ---------------------------------------------------------------------
    def initial_state(self, sheet: Any) -> State:
        cards = list(sheet.deck if sheet.deck is not None else self.defaults.level_1_deck)
        for card in sheet.discard:  # checked by check_sheet
            cards.remove(card)
        pile = Deck.of(cards).draw_pile
        current = sheet.health if sheet.current_health is None else sheet.current_health
        return State(current, sheet.health, tuple(c.label for c in pile),
                     discard=tuple(sheet.discard), position=sheet.position)

    def ranking_state(self, combatant: Combatant, health: bool = False) -> State:
        """The policies rank options with the deck whole (as the sheet starts it), no
        initiative card (which no attack reads) and, unless ``health``, Health as at full;
        position, Avoidance bonus and conditions as they are."""
        state = combatant.state
        assert isinstance(state, State)
        fresh = self._fresh.get(combatant.sheet)
        if fresh is None:
            fresh = self._fresh[combatant.sheet] = self.initial_state(combatant.sheet)
        level = state.health if health else state.max_health
        if (state.health, state.draw_pile, state.discard, state.initiative_card) == (
                level, fresh.draw_pile, fresh.discard, None):
            return state
        return dataclasses.replace(state, health=level, draw_pile=fresh.draw_pile,
                                   discard=fresh.discard, initiative_card=None)

    @cached_property
    def _fresh(self) -> dict[Any, State]:
        return {}

    def check_sheet(self, sheet: Any) -> None:
        names = [w.name for w in sheet.weapons]
        for i, name in enumerate(names):
            if name in names[:i]:
                raise InputError(f"two weapons are named {name!r}", path=f"weapons[{i}].name",
                                 allowed="a unique name per weapon")
        for i, name in enumerate(sheet.trained):
            if name not in names:
                raise InputError(f"trained with {name!r}, which is not among the weapons",
                                 path=f"trained[{i}]", allowed=", ".join(names) or "no weapon")
        cards = sheet.deck if sheet.deck is not None else self.defaults.level_1_deck
        if len(cards) < 2:
            raise InputError("a deck needs at least 2 cards (a turn draws two)", path="deck",
                             allowed="a list of cards: " + CARD_NOTATION)
        if all(parse_card(c).is_joker for c in cards):
            raise InputError("a deck needs a number card (reactions and initiative draw until "
                             "one shows)", path="deck", allowed="at least one non-joker card")
        left = list(cards)
        for i, card in enumerate(sheet.discard):
            if card not in left:
                raise InputError(f"{card} is not in the deck (or is discarded twice)",
                                 path=f"discard[{i}]", allowed=", ".join(left))
            left.remove(card)

    def known_names(self, sheet: Any) -> Mapping[str, set[str]]:
        """The skills the rules read: General (Accuracy) and the reactions' skills."""
        return {"skills": {"general", *REACTIONS}}

    def health(self, combatant: Combatant) -> tuple[int, int]:
        return int(combatant.state.health), int(combatant.state.max_health)

    # -- actions ------------------------------------------------------------------------
    def check_action(self, action: Action, roster: Roster) -> None:
        if action.kind not in KINDS:
            raise InputError(f"c22 has no action {action.kind!r}", path="attack.action",
                             allowed=", ".join(KINDS))
        me = roster[action.actor]
        if not self.is_active(me):
            raise RulesError(f"{me.name} is unconscious (0 Health) and cannot act")
        opts = action.options
        assert isinstance(opts, Options)
        known = sorted(self.defaults.maneuvers)
        if opts.maneuver != "none" and opts.maneuver not in self.defaults.maneuvers:
            raise InputError(f"no maneuver {opts.maneuver!r}", path="attack.options.maneuver",
                             allowed=", ".join(["none", *known]))
        maneuver = self.conf.maneuver(opts.maneuver)
        if action.kind == "move":
            if set(opts.reaction.names()) - {"choose"}:
                raise InputError("a move is not an attack: nobody reacts to it",
                                 path="attack.options.reaction", allowed="none")
            option = None if maneuver is None else (
                maneuver.raised if opts.raised else maneuver.base)
            check_move(self.conf, roster, me, opts.path, option, "attack.options.path")
            return
        self._check_attack(action, roster, opts)

    def _check_attack(self, action: Action, roster: Roster, opts: Options) -> None:
        me = roster[action.actor]
        if action.target is None or action.target == action.actor:
            raise InputError("an attack needs a defender other than the attacker",
                             path="attack.defender",
                             allowed=", ".join(c for c in roster if c != action.actor))
        them = roster[action.target]
        weapon = me.sheet.weapon(action.weapon)
        if weapon is None:
            raise InputError(f"{action.weapon!r} is not a weapon on {me.name}'s sheet",
                             path="attack.weapon",
                             allowed=", ".join(w.name for w in me.sheet.weapons) or "none")
        plan = opts.reaction
        for extent in ("on_hit", "on_graze"):
            name = getattr(plan, extent)
            if name not in ("none", "choose") and not them.sheet.has_skill(name):
                have = [r for r in REACTIONS if them.sheet.has_skill(r)]
                where = ("attack.options.reaction" if plan.on_hit == plan.on_graze
                         else f"attack.options.reaction.{extent}")
                raise InputError(f"{them.name} has no {name} skill on its sheet", path=where,
                                 allowed=", ".join(["none", *have]))
        if opts.weapon_card not in SPLIT_WORDS and opts.weapon_card not in (
                me.state.draw_pile):
            raise InputError(f"{opts.weapon_card} is not in {me.name}'s draw pile",
                             path="attack.options.weapon_card",
                             allowed=", ".join([*SPLIT_WORDS, *me.state.draw_pile]))
        maneuver = self.conf.maneuver(opts.maneuver)
        base = None if maneuver is None else maneuver.base
        check_move(self.conf, roster, me, opts.path, base, "attack.options.path")
        here = opts.path[-1] if opts.path else me.state.position
        there = them.state.position
        if here is not None and there is not None:
            distance = self.conf.grid.distance(here, there)
            if distance > weapon.range:
                raise InputError(f"{them.name} is {distance} spaces away: out of range of the "
                                 f"{weapon.name} (range {weapon.range})", path="attack.weapon",
                                 allowed="a target within range, or a path that gets there")

    def resolve(self, roller: Roller, action: Action, roster: Roster) -> Resolution:
        if action.kind == "move":
            return resolve_move(self.conf, roller, action, roster)
        return resolve_attack(self.conf, roller, action, roster)

    # -- pinned cards -------------------------------------------------------------------
    def has_pins(self, scenario: Mapping[str, Any]) -> bool:
        return bool(scenario.get("cards")) or bool(scenario.get("dice"))

    def script(self, scenario: Mapping[str, Any]) -> Mapping[str, Sequence[object]]:
        """``cards: {jace: [4S, 4H], lizard: [6C]}`` (or ``--dice jace:4S,jace:4H,lizard:6C``,
        a bare card going to the attacker) -> one stream of cards per deck owner."""
        ids = [str(c.get("id")) for c in scenario.get("combatants") or []
               if isinstance(c, Mapping)]
        dice = scenario.get("dice")
        if dice:
            attack = scenario.get("attack") or {}
            return _streams_from_dice(list(dice), str(attack.get("attacker", "")), ids)
        cards = scenario.get("cards") or {}
        if not isinstance(cards, Mapping):
            raise InputError("cards: maps each combatant id to the top cards of its deck",
                             path="cards", allowed="cards: {jace: [4S, 4H], lizard: [6C]}")
        out: dict[str, list[str]] = {}
        for owner, listed in cards.items():
            if str(owner) not in ids:
                raise InputError(f"no combatant with id {owner!r}", path=f"cards.{owner}",
                                 allowed=", ".join(ids))
            items = listed.split(",") if isinstance(listed, str) else listed
            if not isinstance(items, list):
                raise InputError("a list of cards, top of the deck first",
                                 path=f"cards.{owner}", allowed=CARD_NOTATION)
            out[str(owner)] = [_card(c, f"cards.{owner}[{i}]") for i, c in enumerate(items)]
        return out

    # -- fights ---------------------------------------------------------------------------
    def round_representative(self, round_number: int) -> int:
        """The hooks only tell the first round from the later ones."""
        return min(round_number, 2)

    def initiative(self, roller: Roller, roster: Roster, round_number: int
                   ) -> tuple[tuple[Slot, ...], tuple[Event, ...]]:
        """Each active combatant draws one number card from its deck: the higher value goes
        first; ties by suit (spades > clubs > diamonds > hearts); on an exact tie a player
        character goes before an NPC (then the roster's order)."""
        active = [c for c in roster.values() if self.is_active(c)]
        reuse = (not self.defaults.initiative_every_round and round_number > 1
                 and all(c.state.initiative_card for c in active))
        drawing = Drawing(roster, self.conf.cards)
        cards: dict[str, str] = {}
        for c in active:
            if reuse:
                cards[c.id] = c.state.initiative_card
                continue
            drawn = drawing.until_number(roller, c.id, "for initiative", INITIATIVE)
            cards[c.id] = drawn[-1].label
            if c.state.initiative_card != cards[c.id]:
                drawing.events.append(Changed(INITIATIVE, c.id, "initiative_card",
                                              c.state.initiative_card, cards[c.id]))
        drawing.finish()
        index = {cid: i for i, cid in enumerate(roster)}

        def order(c: Combatant) -> tuple[int, int, int, int]:
            card = parse_card(cards[c.id])
            return (-self.conf.values.value(card), suit_order(card),
                    0 if c.sheet.player else 1, index[c.id])

        ranked = sorted(active, key=order)
        ties = []
        for x, y in pairwise(ranked):
            if order(x)[:2] == order(y)[:2]:
                how = ("a player character beats an NPC" if order(x)[2] != order(y)[2]
                       else "the roster's order (table default)")
                ties.append(f"{x.name} and {y.name} tie on {cards[x.id]}: {how}")
        rule = INITIATIVE if not reuse else table("initiative kept from round 1")
        drawing.events.append(C22Initiative(rule, tuple(c.name for c in ranked),
                                            tuple(cards[c.id] for c in ranked),
                                            "; ".join(ties)))
        slots = tuple(Slot((c.id,), f"initiative {cards[c.id]}") for c in ranked)
        return slots, tuple(drawing.events)

    def actions(self, actor: str, roster: Roster, slot: Slot | None = None) -> list[Action]:
        if not self.is_active(roster[actor]):
            return []
        return [*attack_choices(self, actor, roster), *move_choices(self, actor, roster)]

    def reactions(self, action: Action, roster: Roster) -> list[Action]:
        """Under ``reaction_timing: known`` (default) nothing is chosen before the attack:
        an attack leaving the reaction to the defender (``reaction: choose``, as every
        attack a fight offers) has no variant; the defender chooses once Accuracy and
        damage are known. An attack naming a plan (a scenario's) lists it, then ``choose``,
        then the other plans, for advice. Under ``plan``: the attack with every reaction
        plan the defender's sheet allows: a reaction (or none) for a full hit and one for a
        graze, applied once the extent is known; no reaction first."""
        if action.kind != "attack" or action.target is None:
            return [action]
        opts = action.options
        assert isinstance(opts, Options)
        known = self.defaults.reaction_timing == "known"
        if known and opts.reaction == ReactionPlan():
            return [action]
        them = roster[action.target]
        names = ["none", *(r for r in REACTIONS if them.sheet.has_skill(r))]
        plans = [ReactionPlan(on_hit=h, on_graze=g) for h in names for g in names]
        if known:
            plans = [opts.reaction, ReactionPlan(),
                     *(q for q in plans if q != opts.reaction)]
        return [_with(action, opts.model_copy(update={"reaction": q})) for q in plans]

    def start_turn(self, roller: Roller, actor: str, roster: Roster) -> tuple[Event, ...]:
        """Evasive's Avoidance bonus lasts until the character's next turn."""
        me = roster[actor]
        if me.state.avoidance_bonus:
            return (Changed(table("maneuvers: Evasive, until the next turn"), actor,
                            "avoidance_bonus", me.state.avoidance_bonus, 0),)
        return ()


def _with(action: Action, options: Options) -> Action:
    return Action(action.actor, action.target, action.weapon, action.kind, options,
                  action.offensive)


def _card(value: object, where: str) -> str:
    try:
        return parse_card(value).label
    except InputError as err:
        raise InputError(err.message, path=where, allowed=CARD_NOTATION) from None


def _streams_from_dice(values: list[object], attacker: str, ids: list[str]
                       ) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for i, raw in enumerate(values):
        owner, _, card = str(raw).rpartition(":")
        owner = owner.strip() or attacker
        if owner not in ids:
            raise InputError(f"no combatant with id {owner!r} to draw {card!r}",
                             path=f"dice[{i}]", allowed=", ".join(ids))
        out.setdefault(owner, []).append(_card(card, f"dice[{i}]"))
    return out
