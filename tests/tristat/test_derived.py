"""Derived values (public fact): Combat Value, Health, Energy; Defense Value default."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.systems.tristat.state import combat_value, defense_value
from tests.tristat.util import make, person, run, texts

stats = st.integers(min_value=1, max_value=30)


@settings(deadline=None)
@given(stats, stats, stats)
def test_combat_value_health_energy_from_the_stats(body: int, mind: int, soul: int) -> None:
    scenario = make(person("a", "x", body=body, mind=mind, soul=soul))
    a = scenario.roster["a"]
    assert combat_value(a.sheet) == (body + mind + soul) // 3
    assert defense_value(a.sheet, scenario.system.defaults) == (body + mind + soul) // 3
    assert (a.state.health, a.state.max_health) == ((body + soul) * 5, (body + soul) * 5)
    assert (a.state.energy, a.state.max_energy) == ((mind + soul) * 5, (mind + soul) * 5)


def test_combat_value_rounds_the_mean_down() -> None:
    a = make(person("a", "x", body=6, mind=5, soul=5)).roster["a"]
    assert combat_value(a.sheet) == 5  # 16 / 3 = 5.33


def test_sheet_current_health_and_energy_override_the_full_values() -> None:
    a = make(person("a", "x", health=12, energy=3)).roster["a"]
    assert (a.state.health, a.state.max_health, a.state.energy) == (12, 50, 3)


def test_sheet_defense_value_overrides_combat_value() -> None:
    scenario = make(person("a", "x", defense_value=9))
    assert defense_value(scenario.roster["a"].sheet, scenario.system.defaults) == 9


def test_defense_value_offset_is_a_table_default() -> None:
    scenario = make(person("a", "x", skills={"brawl": 3}), rules={"defense_value_offset": -1})
    result = run(scenario, [2, 2, 6, 6])
    assert any(t.startswith("B's defense target: 4 (Defense Value)") and
               "Defense Value = Combat Value −1 (table default)" in t for t in texts(result))


def test_health_per_point_is_a_table_value_overridable_by_rules() -> None:
    a = make(rules={"health_per_point": 10}).roster["a"]
    assert a.state.max_health == 100


def test_a_sheet_at_zero_health_starts_unconscious() -> None:
    scenario = make(b=person("b", "y", health=0))
    assert scenario.roster["b"].state.conditions == ("unconscious",)
    assert not scenario.system.is_active(scenario.roster["b"])
