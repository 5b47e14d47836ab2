"""Option advice: every number is the exact odds `fracas odds` gives for that option."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from fracas.analysis.advise import advise, attacker_options, options_mapping
from fracas.cli.app import main
from fracas.core.model import Action
from fracas.core.scenario import Scenario, read_yaml
from fracas.errors import InputError
from fracas.odds.attack import attack_odds
from fracas.registry.scenarios import load_scenario, scenario_from_mapping

EXAMPLES = Path(__file__).parents[2] / "examples"
ATTACKS = [p for p in sorted(EXAMPLES.glob("*/*.yaml"))
           if not p.name.endswith("-fight.yaml")
           and (read_yaml(p).get("attack") or {}).get("defender")]


def as_scenario(path: Path, action: Action) -> Scenario:
    """The option written into the scenario file, as a user would for `fracas odds`."""
    data = read_yaml(path)
    data["attack"] = {"attacker": action.actor, "defender": action.target,
                      "weapon": action.weapon, "action": action.kind,
                      "options": options_mapping(action)}
    data.pop("dice", None)  # pinned values fit the attack as written, not each option
    data.pop("cards", None)
    return scenario_from_mapping(data, file=str(path))


def _sample(rows: list[Any]) -> list[Any]:
    keep = rows[:2] + rows[-1:] + [r for r in rows if getattr(r, "as_written", False)]
    return list({id(r): r for r in keep}.values())


@pytest.mark.parametrize("path", ATTACKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_advice_expectations_equal_odds_of_the_same_option(path: Path) -> None:
    scenario = load_scenario(path)
    advice = advise(scenario)
    assert advice.options and advice.defenses
    assert sum(o.as_written for o in advice.options) == 1
    damage = [o.odds.expected_damage for o in advice.options]
    assert damage == sorted(damage, reverse=True)
    for option in _sample(advice.options):
        again = as_scenario(path, option.action)
        assert again.attack == option.action
        odds = attack_odds(again.system, again.attack, again.roster)
        assert odds.expected_damage == option.odds.expected_damage, option.label
        assert odds.p_taken_out == option.odds.p_taken_out, option.label
        assert odds.p_hit == option.odds.p_hit, option.label
        best = option.best_reply
        assert all(best.odds.expected_damage <= r.odds.expected_damage for r in option.replies)
    harm = [r.odds.expected_damage for r in advice.defenses]
    assert harm == sorted(harm)
    for reply in advice.defenses:
        if reply.note:  # prepared before the attack: not a change of the attack itself
            continue
        again = as_scenario(path, reply.action)
        odds = attack_odds(again.system, again.attack, again.roster)
        assert odds.expected_damage == reply.odds.expected_damage, reply.label


def test_the_options_keep_the_situation_and_vary_the_choices() -> None:
    scenario = load_scenario(EXAMPLES / "genesys" / "ranged_long.yaml")
    assert scenario.attack is not None
    options = attacker_options(scenario.system, scenario.attack, scenario.roster)
    assert {getattr(o.options, "range", None) for o in options} == {"long"}
    assert {getattr(o.options, "aim", None) for o in options} == {0, 1, 2} or len(
        {getattr(o.options, "aim", None) for o in options}) >= 2
    policies = {getattr(o.options, "advantage_policy", None) for o in options}
    assert {"hits_first", "critical_first", "none"} <= policies

    scenario = load_scenario(EXAMPLES / "c22" / "full-hit-parry.yaml")
    assert scenario.attack is not None
    options = attacker_options(scenario.system, scenario.attack, scenario.roster)
    assert {str(getattr(o.options, "reaction", None)) for o in options} == {"parry"}
    assert {"none", "fish_in_a_barrel", "heavy_swing"} <= {
        getattr(o.options, "maneuver", None) for o in options}
    assert {"higher", "lower"} <= {getattr(o.options, "weapon_card", None) for o in options}


def test_defender_answers_include_reactions_and_prepared_defenses() -> None:
    advice = advise(load_scenario(EXAMPLES / "tristat" / "vampire.yaml"))
    labels = [r.label for r in advice.defenses]  # in the data pack's words
    assert labels == ["Total defence first", "Defend with willpower",
                      "Defend without willpower (as written)"]
    total = next(r for r in advice.defenses if r.label == "Total defence first")
    written = next(r for r in advice.defenses if r.action == advice.attack)
    assert total.odds.expected_damage < written.odds.expected_damage

    advice = advise(load_scenario(EXAMPLES / "contest" / "block.yaml"))
    assert {r.label.removesuffix(" (as written)") for r in advice.defenses} == {
        "Dodge", "Block", "Counter-attack"}
    guard = advise(load_scenario(EXAMPLES / "zamani" / "gm_table.yaml"))
    assert any(r.label == "Guard first" for r in guard.defenses)


def test_advice_needs_an_attack_with_a_defender() -> None:
    with pytest.raises(InputError, match="defender"):
        advise(load_scenario(EXAMPLES / "c22" / "dash-square-grid.yaml"))


def test_advise_cli_json_matches_odds_cli(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    path = EXAMPLES / "tristat" / "vampire.yaml"
    monkeypatch.setattr(sys, "argv", ["fracas", "advise", str(path), "--json"])
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code in (0, None)
    data = json.loads(capsys.readouterr().out)
    second = data["options"][1]
    scenario_data = read_yaml(path)
    scenario_data["attack"]["options"] = second["options"]
    scenario_data["attack"]["weapon"] = second["weapon"]
    scenario_data.pop("dice", None)
    file = tmp_path / "option.yaml"
    import yaml

    file.write_text(yaml.safe_dump(scenario_data), encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["fracas", "odds", str(file), "--json"])
    with pytest.raises(SystemExit):
        main()
    odds = json.loads(capsys.readouterr().out)
    assert odds["expected_damage"] == second["expected_damage_exact"]
    assert odds["p_taken_out"] == second["p_taken_out_exact"]
