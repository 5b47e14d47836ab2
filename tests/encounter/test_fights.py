"""Whole fights: turn order, the event log (replay, undo, save/load), policies, the round
limit, bad fight files; on the test-only system and every example fight."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from fracas.core.events import FightEnded, Outcome, RoundStarted, TurnStarted
from fracas.encounter.engine import Encounter, setup_from_scenario
from fracas.encounter.policies import POLICIES
from fracas.encounter.state import fold
from fracas.errors import InputError
from fracas.registry.scenarios import load_scenario

EXAMPLES = Path(__file__).parents[2] / "examples"
FIGHTS = sorted(EXAMPLES.glob("*/*-fight.yaml"))


def toy_fight(toy_dir: Path, seed: int = 3, **changes: object) -> Encounter:
    scenario = load_scenario(toy_dir / "duel-fight.yaml")
    return Encounter(scenario, seed=seed)


def test_a_fight_runs_to_a_winner_and_replays_to_the_same_state(toy_dir: Path) -> None:
    fight = toy_fight(toy_dir)
    state = fight.run()
    assert state.over and state.winner in {"heroes", "bandits"}
    assert isinstance(fight.events[-1], FightEnded)
    assert fight.replayed() == state
    losers = [c for c in state.roster.values() if c.side != state.winner]
    assert all(c.state.hp <= 0 for c in losers)


def test_the_same_seed_gives_the_same_fight(toy_dir: Path) -> None:
    a, b = toy_fight(toy_dir, seed=9), toy_fight(toy_dir, seed=9)
    a.run()
    b.run()
    assert a.events == b.events


def test_turn_order_follows_the_systems_slots_every_round(toy_dir: Path) -> None:
    fight = toy_fight(toy_dir)
    fight.run()
    rounds = [e for e in fight.events if isinstance(e, RoundStarted)]
    assert [r.round for r in rounds] == list(range(1, len(rounds) + 1))
    turns = [e.actor for e in fight.events if isinstance(e, TurnStarted)]
    assert turns[:3] == ["ann", "cid", "bob"]


def test_undo_takes_back_the_last_turn(toy_dir: Path) -> None:
    fight = toy_fight(toy_dir)
    fight.step()
    fight.step()
    after_two = fight.state
    events_two = list(fight.events)
    fight.step()
    removed = fight.undo()
    assert removed and fight.state == after_two and fight.events == events_two
    while fight.marks:
        fight.undo()
    assert fight.state.roster == fight.initial and not fight.events
    with pytest.raises(InputError, match="nothing to undo"):
        fight.undo()


def test_a_saved_log_loads_and_replays(toy_dir: Path, tmp_path: Path) -> None:
    fight = toy_fight(toy_dir)
    fight.run()
    path = tmp_path / "fight.jsonl"
    fight.save(path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["kind"] == "FightLog" and lines[-1]["kind"] == "close"
    assert [r["data"]["event"] for r in lines if r["kind"] == "event"] == [
        e.to_dict() for e in fight.events]
    assert sum(r["kind"] == "turn" for r in lines) == len(fight.marks)
    loaded = Encounter.load(path)
    assert loaded.events == fight.events and loaded.state == fight.state
    loaded.undo()
    assert loaded.state == fold(loaded.initial, loaded.events)


def test_bad_logs_are_clear_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "Nope"}\n')
    with pytest.raises(InputError, match="line 1: not a record"):
        Encounter.load(bad)
    with pytest.raises(InputError, match="no such file"):
        Encounter.load(tmp_path / "none.jsonl")


def write_fight(tmp_path: Path, toy_dir: Path, mutate: object) -> Path:
    data = yaml.safe_load((toy_dir / "duel-fight.yaml").read_text())
    mutate(data)  # type: ignore[operator]
    path = tmp_path / "f.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_a_side_alone_is_an_error(tmp_path: Path, toy_dir: Path) -> None:
    def one_side(d: dict) -> None:  # type: ignore[type-arg]
        for c in d["combatants"]:
            c["side"] = "heroes"
    with pytest.raises(InputError, match="at least two sides") as info:
        setup_from_scenario(load_scenario(write_fight(tmp_path, toy_dir, one_side)))
    assert info.value.path == "combatants"


def test_an_unknown_policy_names_the_entry(tmp_path: Path, toy_dir: Path) -> None:
    path = write_fight(tmp_path, toy_dir, lambda d: d["combatants"][2].update(policy="wild"))
    with pytest.raises(InputError) as info:
        setup_from_scenario(load_scenario(path))
    assert info.value.path == "combatants[2].policy" and "best-odds" in str(info.value)


def test_two_combatants_with_one_id(tmp_path: Path, toy_dir: Path) -> None:
    path = write_fight(tmp_path, toy_dir, lambda d: d["combatants"][2].update(id="ann"))
    with pytest.raises(InputError, match="already used") as info:
        load_scenario(path)
    assert info.value.path == "combatants[2].id"


def test_a_fight_nobody_can_win_stops_at_the_round_limit(tmp_path: Path, toy_dir: Path) -> None:
    def harmless(d: dict) -> None:  # type: ignore[type-arg]
        d["max_rounds"] = 7
        for c in d["combatants"]:
            c["defense"] = 99
    fight = Encounter(load_scenario(write_fight(tmp_path, toy_dir, harmless)), seed=1)
    state = fight.run()
    end = fight.events[-1]
    assert isinstance(end, FightEnded) and state.round == 7 and state.winner is None
    assert "round limit of 7" in end.text() and "nobody could finish" in end.text()


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_every_policy_plays_legal_actions_to_the_end(toy_dir: Path, policy: str) -> None:
    scenario = load_scenario(toy_dir / "duel-fight.yaml")
    fight = Encounter(scenario, setup_from_scenario(scenario, policy=policy), seed=2)
    state = fight.run()
    assert state.over
    for e in fight.events:
        if isinstance(e, Outcome):
            assert scenario.roster[e.actor].side != scenario.roster[e.target].side


def test_aggressive_attacks_the_enemy_most_likely_to_drop(toy_dir: Path) -> None:
    scenario = load_scenario(toy_dir / "duel-fight.yaml")
    roster = scenario.roster.replace(scenario.roster["cid"].evolve(hp=1))
    system = scenario.system
    actions = system.actions("bob", roster)
    chosen = POLICIES["aggressive"].choose(None, system, "bob", actions, roster)  # type: ignore[arg-type]
    assert chosen.target == "cid"


def test_best_odds_picks_the_highest_exact_expected_damage(toy_dir: Path) -> None:
    from fracas.odds.attack import attack_odds

    scenario = load_scenario(toy_dir / "duel-fight.yaml")
    system, roster = scenario.system, scenario.roster
    actions = system.actions("bob", roster)
    chosen = POLICIES["best-odds"].choose(None, system, "bob", actions, roster)  # type: ignore[arg-type]
    best = max(attack_odds(system, a, roster).expected_damage for a in actions)
    assert attack_odds(system, chosen, roster).expected_damage == best


def test_policy_odds_are_not_reused_for_another_sheet_with_the_same_state(
        toy_dir: Path, tmp_path: Path) -> None:
    """The policies' odds cache outlives a fight: a scenario whose combatants have the
    same ids and states but other sheets (a sweep's next point) gets its own odds."""
    from fracas.odds.attack import attack_odds
    from fracas.odds.cache import cached_odds

    text = (toy_dir / "duel-fight.yaml").read_text()
    stronger = tmp_path / "duel-fight.yaml"
    stronger.write_text(text.replace("{name: club, damage: d8}", "{name: club, damage: 3d8}"))
    for path in (toy_dir / "duel-fight.yaml", stronger):
        scenario = load_scenario(path)
        system, roster = scenario.system, scenario.roster
        for action in system.actions("bob", roster):
            assert (cached_odds(system, action, roster).expected_damage
                    == attack_odds(system, action, roster).expected_damage)


@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_example_fight_runs_and_replays(path: Path, tmp_path: Path) -> None:
    scenario = load_scenario(path)
    assert len(scenario.roster) >= 2
    fight = Encounter(scenario, seed=5)
    state = fight.run()
    assert state.over and fight.replayed() == state
    log = tmp_path / "log.jsonl"
    fight.save(log)
    assert Encounter.load(log).state == state
