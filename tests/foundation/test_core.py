"""Core: events, scenario loading with errors that name file/entry/field, registry, the
conformance kit on the test-only system."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from fracas import registry
from fracas.core.events import Changed, Compared, Note, Outcome, Rolled, Total, event_from_dict
from fracas.core.model import Roster, apply_events
from fracas.dice import ScriptedRoller
from fracas.errors import FracasError, InputError, UnknownSystemError
from fracas.odds.attack import attack_odds
from fracas.registry.scenarios import load_scenario
from fracas.testing import check_system
from tests.toy import Duel

GOOD = {
    "system": "testduel",
    "combatants": [
        {"id": "ann", "name": "Ann", "side": "a", "skill": 5, "defense": 12, "hp": 10,
         "weapons": [{"name": "sword", "damage": "2d6"}]},
        {"id": "bob", "side": "b", "skill": 3, "defense": 14, "armor": 2, "hp": 8},
    ],
    "attack": {"attacker": "ann", "defender": "bob", "weapon": "sword"},
}


def write(tmp_path: Path, data: object, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data) if not isinstance(data, str) else data)
    return path


def load_error(tmp_path: Path, data: object) -> InputError:
    with pytest.raises(InputError) as info:
        load_scenario(write(tmp_path, data))
    return info.value


def test_events_render_one_line_and_round_trip_json() -> None:
    events = [
        Rolled("r", "joe", "2d6", 2, "snake eyes"),
        Total("r", "Damage", (("knife", 5), ("Combat Value", 5), ("armor", -3)), 7),
        Compared("r", "attack", 2, "<=", "target", 9, "success"),
        Changed("r", "vampire", "health", 30, 9),
        Note("r", "the vampire fails its defense"),
        Outcome("r", "joe", "vampire", "critical", True, 21),
    ]
    texts = [e.text() for e in events]
    assert texts[0] == "joe rolls 2d6: 2 (snake eyes)"
    assert texts[1] == "Damage: 5 (knife) + 5 (Combat Value) − 3 (armor) = 7"
    assert texts[5] == "joe → vampire: critical; vampire loses 21"
    for e in events:
        assert event_from_dict(json.loads(json.dumps(e.to_dict()))) == e


def test_unknown_event_type_is_an_input_error() -> None:
    with pytest.raises(InputError, match="unknown event type"):
        event_from_dict({"type": "Nope", "rule": "x"})


def test_a_good_scenario_loads_and_resolves(tmp_path: Path) -> None:
    s = load_scenario(write(tmp_path, GOOD))
    assert s.system.id == "testduel" and list(s.roster) == ["ann", "bob"]
    assert s.roster["bob"].name == "bob"
    result = ScriptedRoller([15, 6, 6]).run(s.system.resolve, s.attack, s.roster)
    assert result.damage == 8 and result.taken_out
    after = apply_events(s.roster, result.events)
    assert after["bob"].state.hp == 0 and s.roster["bob"].state.hp == 8


def test_rules_override_table_defaults(tmp_path: Path) -> None:
    s = load_scenario(write(tmp_path, {**GOOD, "rules": {"crit_multiplier": 3}}))
    result = ScriptedRoller([20, 1, 2]).run(s.system.resolve, s.attack, s.roster)
    assert result.damage == (1 + 2 - 2) * 3
    err = load_error(tmp_path, {**GOOD, "rules": {"crit_multiplier": "x"}})
    assert err.path == "rules.crit_multiplier" and err.file


def test_missing_file_and_bad_yaml_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_scenario(tmp_path / "nope.yaml")
    err = load_error(tmp_path, "system: [unclosed\n")
    assert "not valid YAML" in str(err) and err.path and "line" in err.path


@pytest.mark.parametrize(("mutate", "path", "fragment"), [
    (lambda d: d["combatants"][1].update(skill=-1), "combatants[1].skill", ">= 0"),
    (lambda d: d["combatants"][0]["weapons"][0].update(damage=3), "combatants[0].weapons[0].damage",
     "string"),
    (lambda d: d["combatants"][0].update(colour="red"), "combatants[0].colour", "fields"),
    (lambda d: d["combatants"][1].update(id="ann"), "combatants[1].id", "unique"),
    (lambda d: d["attack"].update(weapon="axe"), "attack.weapon", "sword"),
    (lambda d: d["attack"].update(defender="zed"), "attack.defender", "ann, bob"),
    (lambda d: d["attack"].update(options={"stance": "wild"}), "attack.options.stance",
     "'normal' or 'reckless'"),
    (lambda d: d.update(system="nope"), "system", "testduel"),
    (lambda d: d.update(colour="red"), "colour", "combatants"),
    (lambda d: d.update(combatants=[]), "combatants", ""),
])
def test_errors_name_file_entry_field_and_what_is_allowed(
        tmp_path: Path, mutate: object, path: str, fragment: str) -> None:
    data = json.loads(json.dumps(GOOD))
    mutate(data)  # type: ignore[operator]
    err = load_error(tmp_path, data)
    assert err.file and err.file.endswith("s.yaml")
    assert err.path == path
    assert fragment in str(err)


def test_registry_finds_systems_and_rejects_unknown_ids() -> None:
    assert registry.get_system("testduel") is Duel
    with pytest.raises(UnknownSystemError) as info:
        registry.get_system("nope")
    assert isinstance(info.value, ValueError) and "testduel" in str(info.value)
    with pytest.raises(TypeError):
        registry.register(object)  # type: ignore[arg-type]


def test_error_family() -> None:
    assert issubclass(InputError, FracasError) and issubclass(InputError, ValueError)


def test_exact_odds_through_the_registry(toy_dir: Path) -> None:
    s = load_scenario(toy_dir / "duel.yaml")
    assert s.attack is not None
    odds = attack_odds(s.system, s.attack, s.roster)
    # brute force: d20 + 5 >= 14 (nat >= 9) hits; damage 2d6 + 1 - 2, doubled on a 20
    p_hit = sum(1 for n in range(1, 21) if n + 5 >= 14) / 20
    assert float(odds.p_hit) == p_hit
    expected = 0.0
    for n in range(1, 21):
        if n + 5 < 14:
            continue
        for a in range(1, 7):
            for b in range(1, 7):
                dmg = max(0, a + b + 1 - 2) * (2 if n == 20 else 1)
                expected += min(dmg, 8) / 20 / 36
    assert abs(float(odds.expected_damage) - expected) < 1e-12


def test_the_test_system_passes_the_conformance_kit(toy_dir: Path) -> None:
    check_system(Duel, [toy_dir / "duel.yaml"])


def test_roster_is_immutable_and_hashable(toy_dir: Path) -> None:
    s = load_scenario(toy_dir / "duel.yaml")
    r2 = s.roster.replace(s.roster["bob"].evolve(hp=1))
    assert s.roster["bob"].state.hp == 8 and r2["bob"].state.hp == 1
    assert hash(r2) != hash(s.roster) and isinstance(r2, Roster)
    assert [c.id for c in r2.enemies_of("ann")] == ["bob"]
