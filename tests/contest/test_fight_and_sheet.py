"""Fight hooks (initiative, actions, reactions, turn effects) and sheet validation."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.core.events import Changed
from fracas.core.model import apply_events
from fracas.dice import RandomRoller, ScriptedRoller
from fracas.errors import InputError
from tests.contest.helpers import ATTACKER, DEFENDER, scenario, sheet


def _roster(**changes: Any) -> Any:
    return scenario(defender=sheet(DEFENDER, **changes), defense="dodge").roster


# -- initiative (table default) ------------------------------------------------------
def test_initiative_is_d20_plus_rank_highest_first_and_kept_for_the_fight() -> None:
    s = scenario(attacker=sheet(ATTACKER, skills={**ATTACKER["skills"], "initiative": 2}),
                 defense="dodge")
    slots, events = s.system.initiative(ScriptedRoller([10, 11]), s.roster, 1)
    assert [slot.candidates[0] for slot in slots] == ["att", "def"]  # 10 + 2 beats 11 + 0
    assert any("= 12" in e.text() for e in events)
    roster = apply_events(s.roster, events)
    assert (roster["att"].state.initiative, roster["def"].state.initiative) == (1, 2)
    again, more = s.system.initiative(ScriptedRoller([]), roster, 2)  # no new rolls
    assert more == () and [x.candidates[0] for x in again] == ["att", "def"]
    assert s.system.round_representative(7) == 1


def test_initiative_ties_go_by_rank_then_a_roll_off() -> None:
    s = scenario(attacker=sheet(ATTACKER, skills={**ATTACKER["skills"], "initiative": 1}),
                 defense="dodge")
    slots, _ = s.system.initiative(ScriptedRoller([10, 11]), s.roster, 1)  # 11 v 11, rank 1
    assert [x.candidates[0] for x in slots] == ["att", "def"]
    plain = scenario(defense="dodge")
    roller = ScriptedRoller([10, 10, 4, 4, 3, 9])  # 10 v 10, equal ranks; roll-off 4 v 4, 3 v 9
    slots, events = plain.system.initiative(roller, plain.roster, 1)
    roller.finish()
    assert [x.candidates[0] for x in slots] == ["def", "att"]
    assert any("roll-off puts Def, Att" in e.text() for e in events)  # by name


def test_initiative_odds_are_exact_and_even_between_equals() -> None:
    from fracas.dice import ExactRoller

    plain = scenario(defense="dodge")

    def first(roller: Any) -> str:
        slots, _ = plain.system.initiative(roller, plain.roster, 1)
        return str(slots[0].candidates[0])

    assert ExactRoller().distribution(first).probability("att") == Fraction(1, 2)


# -- actions and reactions --------------------------------------------------------------
def test_actions_offer_each_weapon_with_its_attack_types() -> None:
    s = scenario(defense="dodge")
    actions = s.system.actions("att", s.roster)
    offered = {(a.weapon, a.options.mode) for a in actions}  # type: ignore[union-attr]
    assert offered == {("sword", "normal"), ("sword", "defensive"), ("bow", "normal"),
                       ("bow", "called_shot")}
    assert all(a.kind == "attack" and a.target == "def" for a in actions)


def test_prone_and_disarmed_combatants_may_stand_up_and_recover_their_weapon() -> None:
    s = scenario(defense="dodge")
    me = s.roster["att"].evolve(conditions=("prone",), dropped=("sword",))
    roster = s.roster.replace(me)
    actions = s.system.actions("att", roster)
    assert {a.weapon for a in actions if a.kind == "attack"} == {"bow"}
    extra = [a for a in actions if a.kind != "attack"]
    assert [(a.kind, a.weapon, a.offensive) for a in extra] == [
        ("stand_up", None, False), ("recover_weapon", "sword", False)]
    for action in extra:
        result = s.system.resolve(RandomRoller(1), action, roster)
        roster = apply_events(roster, result.events)
    assert roster["att"].state.conditions == () and roster["att"].state.dropped == ()


def test_reactions_are_the_defenses_the_target_can_use() -> None:
    s = scenario(defense="dodge")
    assert s.attack is not None

    def kinds(roster: Any) -> list[str]:
        return [a.options.defense for a in s.system.reactions(s.attack, roster)]

    assert kinds(s.roster) == ["dodge", "block", "sponge", "counter"]
    broken = _roster(armour={"name": "mail", "dr": 2, "hp": 6, "current": 0})
    assert kinds(broken) == ["dodge", "block", "counter"]
    plain = _roster(weapons=[{"name": "spear", "skill": "spear", "damage": "d8"}], armour=None)
    assert kinds(plain) == ["dodge", "counter"]


def test_fighting_defensively_ends_at_the_start_of_the_fighters_next_turn() -> None:
    s = scenario(defense="dodge")
    roster = s.roster.replace(s.roster["att"].evolve(conditions=("fighting defensively",)))
    events = s.system.start_turn(RandomRoller(1), "att", roster)
    changed = [e for e in events if isinstance(e, Changed)]
    assert [(e.before, e.after) for e in changed] == [(("fighting defensively",), ())]
    assert s.system.start_turn(RandomRoller(1), "def", roster) == ()


def test_zero_hp_is_dying_and_out_of_the_fight() -> None:
    roster = _roster(hp={"max": 10, "current": 0})
    c = roster["def"]
    assert "dying" in c.state.conditions
    system = scenario(defense="dodge").system
    assert not system.is_active(c) and system.health(c) == (0, 10)
    assert system.actions("def", roster) == []


# -- sheet validation -------------------------------------------------------------------
@pytest.mark.parametrize(("change", "path"), [
    ({"weapons": [{"name": "x", "skill": "sword", "damage": "2d"}]}, "weapons[0].damage"),
    ({"weapons": [{"name": "x", "skill": "axe", "damage": "d6"}]}, "weapons[0].skill"),
    ({"traits": ["pary"]}, "traits[0]"),
    ({"hp": {"max": 5, "current": 6}}, "hp"),
    ({"armour": {"dr": 1, "hp": 3, "current": 4}}, "armour"),
    ({"skills": {"sword": -1}}, "skills"),
    ({"wings": 2}, "wings"),
    ({"weapons": []}, "weapons"),
])
def test_a_bad_sheet_names_the_field(change: dict[str, Any], path: str) -> None:
    with pytest.raises(InputError) as err:
        scenario(attacker=sheet(ATTACKER, **change), defense="dodge")
    assert err.value.path is not None and err.value.path.startswith(f"combatants[0].{path}")


@pytest.mark.parametrize(("rules", "path"), [
    ({"contest": {"rolls": 0}}, "rules.contest.rolls"),
    ({"check": {"critical_threat": 30}}, "rules.check"),
    ({"sponge": {"rounding": "sideways"}}, "rules.sponge.rounding"),
    ({"colour": 1}, "rules.colour"),
])
def test_a_bad_rules_override_names_the_field(rules: dict[str, Any], path: str) -> None:
    with pytest.raises(InputError) as err:
        scenario(defense="dodge", rules=rules)
    assert err.value.path is not None and err.value.path.startswith(path)


def test_bad_options_name_the_field() -> None:
    with pytest.raises(InputError) as err:
        scenario(defense="parry")
    assert err.value.path == "attack.options.defense"
    with pytest.raises(InputError) as err:
        scenario(defense="counter", counter_weapon="axe")
    assert err.value.path == "attack.options.counter_weapon"


names = st.text(alphabet="abcdefghij", min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(skills=st.dictionaries(names, st.integers(0, 10), max_size=4),
       rank=st.integers(0, 10), hp=st.integers(1, 50), dr=st.integers(0, 5),
       armour=st.integers(0, 20), dice=st.sampled_from(["d6", "2d8+1", "d10", "3d4-1"]),
       kind=st.sampled_from(["melee", "ranged"]))
def test_any_valid_sheet_builds_and_resolves(skills: dict[str, int], rank: int, hp: int,
                                             dr: int, armour: int, dice: str, kind: str
                                             ) -> None:
    me = sheet(ATTACKER, skills={**skills, "blade": rank}, hp=hp,
               armour={"dr": dr, "hp": armour},
               weapons=[{"name": "blade", "skill": "blade", "damage": dice, "kind": kind}])
    s = scenario(attacker=me, weapon="blade", defense="counter")
    assert s.roster["att"].state.armour_hp == armour
    assert s.attack is not None
    result = s.system.resolve(RandomRoller(hp), s.attack, s.roster)
    assert result.damage >= 0 and result.events


def test_initiative_order_odds_equal_brute_force_with_roll_offs() -> None:
    """Three combatants on d4 + rank (2, 0, 0): every face, ties by rank, then a fair
    roll-off (each order of the tied equally likely)."""
    from itertools import permutations, product

    from fracas.dice import ExactRoller
    from fracas.registry.scenarios import scenario_from_mapping

    third = sheet(DEFENDER, id="ter", name="Ter")
    s = scenario_from_mapping({
        "system": "contest", "rules": {"initiative": {"die": 4}},
        "combatants": [sheet(ATTACKER, skills={**ATTACKER["skills"], "initiative": 2}),
                       DEFENDER, third]})
    ranks = {"att": 2, "def": 0, "ter": 0}
    expected: dict[tuple[str, ...], Fraction] = {}
    for faces in product(range(1, 5), repeat=3):
        keys = {cid: (face + ranks[cid], ranks[cid])
                for cid, face in zip(ranks, faces, strict=True)}
        groups = sorted(set(keys.values()), reverse=True)
        orders: list[tuple[str, ...]] = [()]
        for k in groups:
            tied = [cid for cid in ranks if keys[cid] == k]
            orders = [o + p for o in orders for p in permutations(tied)]
        for o in orders:
            expected[o] = expected.get(o, Fraction(0)) + Fraction(1, 64 * len(orders))

    def order(roller: Any) -> tuple[str, ...]:
        slots, _ = s.system.initiative(roller, s.roster, 1)
        return tuple(x.candidates[0] for x in slots)

    assert ExactRoller().distribution(order).probabilities() == expected
