"""The lean simulation loop: legal actions listed lazily, state changes applied at once,
bystanders ranked in their bystander state. Each gives what the plain way gives."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from fracas.core.events import ActionChosen, Changed
from fracas.core.legal import LegalActions
from fracas.core.model import Action, changed
from fracas.core.recur import Recurrence, recurring_states
from fracas.dice.rollers import RandomRoller
from fracas.encounter import policies
from fracas.encounter.engine import Encounter, FightSetup, setup_from_scenario, step
from fracas.encounter.modes import LEAN, Lean
from fracas.encounter.state import FightState
from fracas.errors import RulesError
from fracas.odds import cache
from fracas.registry.scenarios import load_scenario

ROOT = Path(__file__).parents[2]
FIGHTS = sorted((ROOT / "examples").glob("*/*-fight.yaml"))


@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_lazy_list_is_the_rules_list_in_every_state_of_a_fight(path: Path) -> None:
    scenario = load_scenario(path)
    fight = Encounter(scenario, setup_from_scenario(scenario), seed=3)
    system, seen = scenario.system, 0
    while not fight.state.over and seen < 40:
        state = fight.state
        slot = state.slots[state.next_slot] if state.next_slot < len(state.slots) else None
        for cid in state.roster:
            lazy = system.legal_actions(cid, state.roster, slot)
            assert list(iter(lazy)) == system.actions(cid, state.roster, slot)
            assert len(lazy) == len(system.actions(cid, state.roster, slot))
            seen += 1
        fight.step()


@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_first_reaction_is_the_first_of_the_reactions_in_every_state_of_a_fight(
        path: Path) -> None:
    """The lean loop asks a defender that takes the first reaction for that one only
    (``first_reaction``): it is what the full list gives (the action itself when the list
    has one variant), for every action of every combatant in the states of a fight."""
    scenario = load_scenario(path)
    fight = Encounter(scenario, setup_from_scenario(scenario), seed=5)
    system, seen = scenario.system, 0
    while not fight.state.over and seen < 400:
        roster = fight.state.roster
        for cid in roster:
            for action in system.actions(cid, roster):
                if action.target is None or action.target not in roster:
                    continue
                variants = system.reactions(action, roster)
                expected = variants[0] if len(variants) > 1 else action
                assert system.first_reaction(action, roster) == expected
                seen += 1
        fight.step()
    assert seen


def test_a_changed_state_is_the_copy_dataclasses_replace_makes() -> None:
    scenario = load_scenario(ROOT / "examples" / "tristat" / "duel-fight.yaml")
    rin = scenario.roster["rin"]
    hurt = rin.evolve(health=3, conditions=("prone",))
    assert hurt.state == dataclasses.replace(rin.state, health=3, conditions=("prone",))
    assert hash(hurt.state) == hash(dataclasses.replace(rin.state, health=3,
                                                        conditions=("prone",)))
    assert rin.state.health == 45 and hurt.sheet is rin.sheet
    assert rin.evolve(health=3, conditions=("prone",)) is not hurt
    again = rin.evolve(health=3, conditions=("prone",))  # equal, another object
    assert again == hurt and hash(again) == hash(hurt)
    assert again != rin.evolve(health=3) and again != rin
    assert again != dataclasses.replace(hurt, name="Rin the Second")
    with recurring_states():  # a value met before is the object met before
        again = rin.evolve(health=3, conditions=("prone",))
        assert rin.evolve(health=3, conditions=("prone",)) is again == hurt
        assert rin.evolve(health=4) is not again


def test_first_checks_only_the_candidates_its_test_accepts() -> None:
    checked: list[str] = []

    def legal(action: Action) -> bool:
        checked.append(action.kind)
        return action.kind != "b"

    actions = LegalActions((Action("x", "y", kind=k) for k in "abcd"), legal)
    found = actions.first(lambda a: a.kind in "bc")
    assert found is not None and found.kind == "c"
    assert checked == ["b", "c"]  # "a" and "d" never checked
    assert [a.kind for a in actions] == ["a", "c", "d"]
    assert checked == ["b", "c", "a", "d"]  # each checked once
    assert [a.kind for a in actions.where(lambda a: a.kind != "a")] == ["c", "d"]
    assert not LegalActions(iter(()), legal)


def test_changes_applied_at_once_are_the_fold_of_them() -> None:
    scenario = load_scenario(ROOT / "examples" / "tristat" / "duel-fight.yaml")
    state = FightState(scenario.roster)
    events = [Changed("r", "rin", "health", 45, 40), Changed("r", "gorr", "energy", 40, 35),
              Changed("r", "rin", "health", 40, 31), Changed("r", "rin", "energy", 40, 30)]
    folded = state
    for e in events:
        folded = folded.apply(e)
    assert state.apply_all(events) == folded
    assert folded.roster["rin"].state.health == 31
    # in a simulation, the same changes to the same roster give the same roster again
    assert state.apply_all(events).roster is not state.apply_all(events).roster
    with recurring_states():
        assert state.apply_all(events).roster is state.apply_all(events).roster
        assert state.apply_all(events) == folded
    with recurring_states():
        for _ in range(2):  # an unknown field is refused every time, not remembered
            with pytest.raises(RulesError, match="no state field 'nerve'"):
                state.apply_all([Changed("r", "rin", "nerve", 1, 2)])


def test_a_hurt_bystander_finds_the_same_ranking_again() -> None:
    """Zamani: Dura's reaction to Kofi's attack is ranked with Ama's wounds set aside
    (Ama guards nobody), so hurting Ama meets the cached ranking, with the exact one's
    choice."""
    scenario = load_scenario(ROOT / "examples" / "zamani" / "river-crossing-fight.yaml")
    system, roster = scenario.system, scenario.roster
    attack = next(a for a in system.actions("kofi", roster)
                  if a.kind == "attack" and a.target == "dura")
    variants = system.reactions(attack, roster)
    assert len(variants) > 1
    chosen = policies._best(system, variants, roster, most=False)
    size = len(cache._ODDS_CACHE)
    hurt = roster.replace(roster["ama"].evolve(wounds=roster["ama"].state.wounds - 5))
    assert policies._best(system, variants, hurt, most=False) == chosen
    assert len(cache._ODDS_CACHE) == size  # found again, nothing computed
    with policies.exact_rankings():
        assert policies._best(system, variants, hurt, most=False) == chosen
    guard = roster.replace(roster["jabari"].evolve(guarding="dura"))  # a guard is kept
    assert system.bystander_state(guard["jabari"], {"kofi", "dura"}) is guard["jabari"].state
    assert system.bystander_state(hurt["ama"], {"kofi", "dura"}) != hurt["ama"].state


def test_a_steady_policys_choice_is_remembered_per_policy() -> None:
    """The lean loop remembers a steady policy's choice per state *and policy*: a live
    controller in place of the sheet's policy is asked, not handed the sheet policy's
    remembered choice (Tri-Stat: best-odds goes for a total attack, aggressive does not)."""
    scenario = load_scenario(ROOT / "examples" / "tristat" / "duel-fight.yaml")
    setup, start = setup_from_scenario(scenario), FightState(scenario.roster)
    plain, events = step(RandomRoller(1), setup, start, LEAN)  # fills the memo
    actor = next(e.actor for e in events if isinstance(e, ActionChosen))
    assert not plain.roster[actor].state.total_attack

    class Swapped(Lean):  # the lean loop with best-odds in place of the actor's policy
        def policy(self, setup: FightSetup, cid: str) -> tuple[str, policies.Policy]:
            if cid == actor:
                return "best-odds", policies.POLICIES["best-odds"]
            return super().policy(setup, cid)

    for _ in range(2):
        other, _ = step(RandomRoller(1), setup, start, Swapped())
        assert other.roster[actor].state.total_attack


def test_states_that_seldom_recur_are_given_up() -> None:
    """A simulation whose changes are seldom met again stops remembering them (under
    half of its trial found): the same changes then give equal rosters, not the same."""
    roster = load_scenario(ROOT / "examples" / "tristat" / "duel-fight.yaml").roster
    seldom = Recurrence()
    seldom.TRIAL = 20
    with recurring_states(seldom):
        for n in range(seldom.TRIAL):  # every change a new one
            changed(roster, {"rin": {"health": n}})
        assert not seldom.on
        again = changed(roster, {"rin": {"health": 3}})
        assert again == changed(roster, {"rin": {"health": 3}})
        assert again is not changed(roster, {"rin": {"health": 3}})
    often = Recurrence()
    with recurring_states(often):
        for _ in range(often.TRIAL):
            changed(roster, {"rin": {"health": 3}})
        assert often.on and often.found >= often.TRIAL - 1  # all but perhaps the first


@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_aggressive_chooses_alike_from_a_plain_list_and_a_lazily_checked_one(
        path: Path) -> None:
    # aggressive reads a list that needs no checking in one pass (each target's first
    # attack) and checks a lazy one target by target: the same choice in every state
    scenario = load_scenario(path)
    fight = Encounter(scenario, setup_from_scenario(scenario), seed=5)
    system, aggressive, seen = scenario.system, policies.POLICIES["aggressive"], 0
    while not fight.state.over and seen < 60:
        state = fight.state
        slot = state.slots[state.next_slot] if state.next_slot < len(state.slots) else None
        for cid in state.roster:
            listed = system.actions(cid, state.roster, slot)
            if not listed:
                continue
            plain = LegalActions(listed)
            checked = LegalActions(listed, lambda a: True)
            assert plain.plain() == listed and checked.plain() is None
            picks = {aggressive.choose(RandomRoller(1), system, cid, actions, state.roster)
                     for actions in (plain, checked, listed)}
            assert len(picks) == 1, picks
            seen += 1
        fight.step()
