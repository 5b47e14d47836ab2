"""The odds beside each option are those ``fracas odds`` gives for the same action and state."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from fracas import registry
from fracas.analysis.advise import options_mapping
from fracas.cli.app import _load_commands, app
from fracas.core.model import Action, Resolution, Roster
from fracas.core.scenario import read_yaml
from fracas.dice.rollers import Roller
from fracas.encounter.session import Session
from fracas.errors import RulesError
from fracas.registry.scenarios import load_scenario, scenario_from_mapping
from fracas.testing import check_live
from tests.toy import Duel, Options

CASES = [("examples/tristat/duel-fight.yaml", [[3, 3], [4, 4]]),
         ("examples/zamani/duel-fight.yaml", [])]


def _odds_cli(raw: dict[str, Any], action: Action, tmp: Path) -> dict[str, Any]:
    scenario = {**raw, "attack": {"attacker": action.actor, "defender": action.target,
                                  "weapon": action.weapon, "action": action.kind,
                                  "options": options_mapping(action)}}
    path = tmp / "attack.yaml"
    path.write_text(yaml.safe_dump(scenario, sort_keys=False))
    _load_commands()
    done = CliRunner().invoke(app, ["odds", str(path), "--json"])
    assert done.exit_code == 0, done.output
    return dict(json.loads(done.output))


@pytest.mark.parametrize(("path", "dice"), CASES)
def test_the_odds_of_each_option_are_fracas_odds(path: str, dice: list[list[int]],
                                                  tmp_path: Path) -> None:
    scenario = load_scenario(path)
    session = Session.start(scenario, seed=2, controllers=dict.fromkeys(scenario.roster,
                                                                        "person"))
    for values in dice:
        session.decide({"dice": values})
    while session.pending is not None:
        if session.pending.kind == "dice":
            session.decide({"roll": True})
        elif session.pending.kind == "action" and not session.state.slots:
            # a choice before initiative (zamani's sacrifice, focus): the first one offered
            session.decide({"option": session.pending.options[0].id})
        else:
            break
    pending = session.pending
    assert pending is not None and pending.kind == "action"
    state = session.state
    slot = state.slots[state.next_slot - 1]
    actions = scenario.system.actions(pending.who, state.roster, slot)
    assert [o.label for o in pending.options][: len(actions)] == [
        o.label for o in pending.options]
    checked = 0
    for option, action in zip(pending.options, actions, strict=False):
        if option.odds is None or checked >= 3:
            continue
        cli = _odds_cli(dict(scenario.raw), action, tmp_path)
        assert (option.odds.p_hit, option.odds.expected_damage, option.odds.p_taken_out) == (
            cli["p_hit"], cli["expected_damage"], cli["p_taken_out"]), option.label
        checked += 1
    assert checked == 3


class _Offers(Duel):
    """The toy duel, offering an action (a reckless stance) its rules then refuse."""

    id = "testoffers"

    def resolve(self, roller: Roller, action: Action, roster: Roster) -> Resolution:
        opts = action.options
        if isinstance(opts, Options) and opts.stance == "reckless":
            raise RulesError("no reckless attacks here")
        return super().resolve(roller, action, roster)


def test_the_conformance_kit_checks_that_a_person_can_take_every_choice(toy_dir: Path
                                                                        ) -> None:
    check_live(load_scenario(toy_dir / "duel-fight.yaml"), decisions=8)
    check_live(load_scenario("examples/tristat/duel-fight.yaml"), decisions=6)
    registry.register(_Offers)
    try:
        raw = read_yaml(toy_dir / "duel-fight.yaml")
        bad = scenario_from_mapping({**raw, "system": "testoffers"})
        with pytest.raises(AssertionError, match=r"option 2 \(Attack Bob with sword · "
                                                 r"stance=reckless\) cannot be taken: .*no "
                                                 r"reckless attacks here"):
            check_live(bad, decisions=8)
    finally:
        registry.unregister(_Offers.id)
