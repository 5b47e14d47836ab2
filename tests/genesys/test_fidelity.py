"""Issue 15 (genesys, seed 004): threshold Critical Injuries (separate by default, and
an incapacitated target's further wounds), Defensive and Deflection from the weapon in
use only (through the fight loop), and every table default on the docs page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fracas.core.events import Event
from fracas.dice import RandomRoller
from fracas.encounter.engine import Encounter
from fracas.errors import InputError
from fracas.registry.scenarios import scenario_from_mapping
from fracas.systems.genesys import SYSTEM
from tests.genesys.helpers import pc, scenario
from tests.genesys.test_attack import SWORD, attack, injuries
from tests.genesys.test_check import pool

DOCS = Path(__file__).resolve().parents[2] / "docs" / "systems" / "genesys.md"
SHIELD = {"name": "shield", "skill": "Melee", "damage": "+0", "crit": 5,
          "qualities": ["Defensive 2", "Deflection 1"]}


# -- Critical Injuries for wounds past the threshold -----------------------------------------
def test_threshold_injury_is_its_own_roll_by_default() -> None:
    # Critical rating 2 bought with aa, and 6 + 4 - 3 = 7 wounds past a threshold of 5:
    # two rolls, the second counting the first (untreated) injury: +10
    res, after = attack(["ss ss aa", 10, 10], {**SWORD, "crit": 2}, pc(wound_threshold=5))
    assert [r.total for r in injuries(res)] == [10, 20]
    assert len(after["b"].state.critical_injuries) == 2


def test_an_incapacitated_target_takes_no_further_threshold_injury_as_an_option() -> None:
    res, after = attack(["ss ss"], defender=pc(wound_threshold=5, wounds=6),
                        rules={"threshold_injury_when_incapacitated": False})
    assert injuries(res) == [] and after["b"].state.wounds == 6 + (3 + 2 + 4 - 3)


def test_an_incapacitated_target_takes_one_per_wounding_hit_by_default() -> None:
    res, after = attack(["ss ss", 10], defender=pc(wound_threshold=5, wounds=6))
    assert len(injuries(res)) == 1 and len(after["b"].state.critical_injuries) == 1
    assert any("already past its wound threshold" in e.text() for e in res.events)


# -- Defensive and Deflection: the weapon in use only -------------------------------------
def test_defensive_counts_only_from_the_weapon_in_use() -> None:
    sword_first = pc(defense={"melee": 1, "ranged": 0}, weapons=[SWORD, SHIELD])
    assert pool(defender=sword_first) == "PPA-DDS"  # the shield is carried, not in use
    in_hand = pc(defense={"melee": 1, "ranged": 0}, weapons=[SWORD, SHIELD],
                 wielding="shield")
    assert pool(defender=in_hand) == "PPA-DDSSS"  # 1 + Defensive 2
    assert pool(defender=in_hand, weapon="rifle") == "PPA-DS"  # Deflection 1


def _pool_texts(events: tuple[Event, ...] | list[Event], target: str) -> list[str]:
    return [e.text() for e in events if f"{target}'s melee defense" in e.text()]


def test_in_a_fight_the_weapon_in_use_is_the_last_one_attacked_with() -> None:
    a = {"id": "a", "side": "heroes", **pc(weapons=[SWORD], soak=10, wound_threshold=40)}
    b = {"id": "b", "side": "villains",
         **pc(weapons=[SWORD, SHIELD], wielding="shield", soak=10, wound_threshold=40,
              defense={"melee": 1, "ranged": 0})}
    s = scenario_from_mapping({"system": "genesys", "combatants": [a, b]})
    fight = Encounter(s, roller=RandomRoller(0))  # seed 0: a wins initiative
    turns: list[tuple[str, list[str]]] = []
    for _ in range(4):
        events = fight.step()
        actor = next((e.actor for e in events if type(e).__name__ == "ActionChosen"), "")
        turns.append((actor, _pool_texts(events, "b")))
    order = [who for who, _ in turns]
    first_b = order.index("b")
    assert "a" in order[:first_b] and "a" in order[first_b:]  # a attacks before and after
    before = [t for who, t in turns[:first_b] if who == "a"]
    after = [t for who, t in turns[first_b:] if who == "a"]
    assert all("Defensive 2 (the shield in use)" in t[0] for t in before)
    assert all("Defensive" not in t[0] for t in after)  # b attacked with its sword
    assert fight.state.roster["b"].state.wielding == "sword"


def test_wielding_a_weapon_not_on_the_sheet_names_the_field() -> None:
    with pytest.raises(InputError) as err:
        scenario(pc(), pc(wielding="axe"))
    assert err.value.path is not None and err.value.path.endswith("wielding")


# -- every table default is on the docs page with its source -------------------------------
def test_every_table_default_is_listed_with_its_source_on_the_docs_page() -> None:
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("## Table defaults"):]
    rows = {m.group(1): m.group(2) for m in
            re.finditer(r"^\| `([a-z_]+)` \|[^|]*\|([^|]*)\|", section, re.M)}
    for key in SYSTEM.load_yaml("defaults.yaml"):
        assert key in rows, key
        assert rows[key].strip(), f"{key} has no source"


# -- talents (data/talents.yaml) -----------------------------------------------------------
def test_talents_add_dice_and_upgrades_to_their_owners_pool() -> None:
    fists = {"name": "fists", "skill": "Brawl", "damage": "+0", "crit": 5}
    brawler = pc(weapons=[fists, SWORD], talents={"Street Fighter": 2})
    assert pool(brawler, weapon="fists") == "PAABB-DD"  # + 2 boost on Brawl only
    assert pool(brawler, weapon="sword") == "PPA-DD"
    aimer = pc(talents=["True Aim", "Precise Aim"])
    target = pc(defense={"melee": 1, "ranged": 0})
    assert pool(aimer, defender=target) == "PPA-DDS"  # no Aim: neither applies
    assert pool(aimer, defender=target, aim=1) == "PPPB-DD"  # upgraded; setback removed


def test_talents_modify_the_critical_injury_roll() -> None:
    killer = pc(weapons=[SWORD], talents={"Lethal Blows": 2})
    res, _ = attack(["ss t", 30], attacker=killer, defender=pc(talents={"Durable": 1}))
    (roll,) = injuries(res)
    assert dict(roll.parts) == {"a's talent Lethal Blows 2": 20, "b's talent Durable 1": -10}
    assert roll.total == 40


def test_a_talent_not_in_the_data_pack_names_the_field() -> None:
    with pytest.raises(InputError) as err:
        scenario(pc(talents={"Leathal Blows": 1}), pc())
    assert err.value.path is not None and "talents" in err.value.path
    with pytest.raises(InputError) as err:
        scenario(pc(talents={"True Aim": 2}), pc())
    assert err.value.path is not None and err.value.path.endswith("talents.True Aim")


def test_talents_apply_inside_a_fight() -> None:
    fists = {"name": "fists", "skill": "Brawl", "damage": "+0", "crit": 1}
    a = {"id": "a", "side": "heroes",
         **pc(weapons=[fists], talents={"Street Fighter": 1, "Lethal Blows": 1})}
    b = {"id": "b", "side": "villains", **pc(weapons=[SWORD], soak=0, wound_threshold=30)}
    s = scenario_from_mapping({"system": "genesys", "combatants": [a, b]})
    fight = Encounter(s, roller=RandomRoller(2))
    fight.run()
    steps = [e for e in fight.events if type(e).__name__ == "GenesysPoolStep" and e.who == "a"]
    assert any(e.source == "talent Street Fighter 1" for e in steps)
    rolls = [e for e in fight.events if type(e).__name__ == "GenesysCriticalInjury"
             and e.target == "b"]
    assert rolls and all(("a's talent Lethal Blows 1", 10) in r.parts for r in rolls)
