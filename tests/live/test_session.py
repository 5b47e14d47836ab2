"""The live session API: answers, dice, errors that change nothing, undo/redo, GM tools,
saving and resuming mid-decision."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fracas.core.events import ActionChosen, Changed, FightEnded, RoundStarted
from fracas.dice.rollers import RandomRoller, ScriptedRoller
from fracas.encounter.engine import Encounter
from fracas.encounter.session import Session
from fracas.encounter.session_log import SessionLog, load_session
from fracas.errors import InputError
from fracas.registry.scenarios import load_scenario

DUEL = "examples/tristat/duel-fight.yaml"
PEOPLE = {"rin": "person", "gorr": "person"}


def _session(**kw: object) -> Session:
    return Session.start(load_scenario(DUEL), seed=7, controllers=PEOPLE, **kw)  # type: ignore[arg-type]


def _to_first_action(s: Session) -> None:
    while s.pending is not None and s.pending.kind == "dice":
        s.decide({"dice": [3, 4]})


def test_initiative_then_actions_are_asked_in_the_rules_order() -> None:
    s = _session()
    assert s.pending is not None and s.pending.kind == "dice"
    assert s.pending.dice is not None and s.pending.dice.count == 2
    assert s.pending.dice.allowed == "1 to 6"
    s.decide({"dice": [6, 6]})      # Rin: 12 + Combat Value
    s.decide({"dice": [1, 1]})      # Gorr: 2 + Combat Value
    assert s.pending is not None and s.pending.kind == "action" and s.pending.who == "rin"
    changed = {(e.target, e.field): e.after for e in s.events if isinstance(e, Changed)}
    assert changed[("rin", "initiative")] == 1 and changed[("gorr", "initiative")] == 2


def test_a_hand_played_turn_matches_the_same_dice_under_the_engine() -> None:
    s = _session()
    dice = iter([[3, 4], [2, 4], [5, 5], [1, 2], [4, 4], [2, 2], [6, 1], [3, 3]])
    while len([e for e in s.events if e.type == "Outcome"]) < 2:
        p = s.pending
        assert p is not None
        if p.kind == "dice":
            s.decide({"dice": next(dice)})
        else:  # the aggressive policy's choices: the first attack, no reaction
            s.decide({"option": "1"}, by=p.who)
    entered = [v for e in s.entries if e["kind"] == "dice" for v in e["dice"]]
    fight = Encounter(load_scenario(DUEL), roller=ScriptedRoller(entered, RandomRoller(1)))
    fight.step()
    fight.step()
    done = s.events[: len(fight.events)]
    assert [e for e in fight.events if e.type != "ActionChosen"] == [
        e for e in done if e.type != "ActionChosen"]
    assert [e.policy for e in done if isinstance(e, ActionChosen)] == ["person", "person"]


def test_bad_dice_an_illegal_option_and_the_wrong_controller_change_nothing() -> None:
    s = _session()
    before = (s.to_records(), s.state, s.pending)
    with pytest.raises(InputError, match="7 is not a value d6 can show") as err:
        s.decide({"dice": [3, 7]})
    assert err.value.allowed == "1 to 6"
    with pytest.raises(InputError, match="type 2 values, not 3"):
        s.decide({"dice": [3, 4, 5]})
    with pytest.raises(InputError, match="type 2 values, not 1"):
        s.decide({"dice": [3]})
    assert (s.to_records(), s.state, s.pending) == before
    _to_first_action(s)
    before = (s.to_records(), s.state, s.pending)
    assert s.pending is not None
    actor = s.pending.who
    other = "gorr" if actor == "rin" else "rin"
    with pytest.raises(InputError, match="is not an option") as err:
        s.decide({"option": "999"}, by=actor)
    assert err.value.allowed and err.value.allowed.startswith("1, 2, 3")
    with pytest.raises(InputError, match=f"is for {actor} to answer, not {other}"):
        s.decide({"option": "1"}, by=other)
    assert (s.to_records(), s.state, s.pending) == before


def test_undo_and_redo_any_number_of_steps() -> None:
    s = _session()
    _to_first_action(s)
    assert s.pending is not None
    s.decide({"option": "2"}, by=s.pending.who)
    s.decide({"option": "1"})
    s.decide({"roll": True})
    after = (s.state, s.pending, len(s.entries))
    s.undo(3)
    assert s.pending is not None and s.pending.kind == "action"
    s.redo(3)
    assert (s.state, s.pending, len(s.entries)) == after
    s.undo(1)
    s.decide({"roll": True})  # a new "roll it" draws afresh: numbers are never reused
    assert [e.get("rolled") for e in s.entries if "rolled" in e] == [1]
    with pytest.raises(InputError, match="redo"):
        s.redo(1)


def test_save_and_resume_in_the_middle_of_a_decision() -> None:
    s = _session()
    _to_first_action(s)
    assert s.pending is not None
    s.decide({"option": "1"}, by=s.pending.who)
    records = json.loads(json.dumps(s.to_records()))
    back = Session.from_records(records)
    assert back.pending == s.pending and back.state == s.state and back.events == s.events
    back.decide({"option": "1"})
    s.decide({"option": "1"})
    assert back.pending == s.pending


def test_a_whole_fight_by_hand_ends_and_replays_from_its_log() -> None:
    s = _session()
    values = iter([3, 4, 5, 6, 2, 1, 6, 5, 4, 3, 1, 2] * 200)
    turns = 0
    while s.pending is not None:
        p = s.pending
        if p.kind == "dice":
            assert p.dice is not None and p.dice.count is not None
            s.decide({"dice": [next(values) for _ in range(p.dice.count)]})
        else:
            s.decide({"option": str(len(p.options) if p.kind == "reaction" else 1)}, by=p.who)
        turns += 1
    assert s.state.over and s.state.winner in ("blades", "fists")
    assert s.replayed() == s.state
    back = Session.from_records(json.loads(json.dumps(s.to_records())))
    assert back.state == s.state and back.events == s.events


def test_policy_controlled_combatants_decide_by_themselves_and_roll_all_rolls() -> None:
    s = Session.start(load_scenario(DUEL), seed=3, controllers={"rin": "person"},
                      roll_all=True)
    asked = set()
    while s.pending is not None:
        asked.add((s.pending.kind, s.pending.who))
        s.decide({"option": "1"}, by="rin")
    assert asked <= {("action", "rin"), ("reaction", "rin")} and s.state.over
    assert all(e.get("auto") for e in s.entries if e["kind"] == "dice")


def test_gm_tools_are_events_in_the_log() -> None:
    s = _session()
    _to_first_action(s)
    s.adjust("gorr", "health", 3)
    assert s.state.roster["gorr"].state.health == 3
    assert s.pending is not None and s.pending.kind == "action"  # the turn goes on
    with pytest.raises(InputError, match="no value 'hp'") as err:
        s.adjust("gorr", "hp", 3)
    assert err.value.allowed and "health" in err.value.allowed
    s.add_combatant({"id": "kid", "name": "the kid", "side": "blades", "body": 3, "mind": 3,
                     "soul": 3, "weapons": [{"name": "stick", "damage": 2, "kind": "melee"}]})
    assert "kid" in s.state.roster
    s.remove_combatant("kid")
    assert "kid" not in s.state.roster
    s.end_fight("the watch arrives")
    assert s.state.over and s.pending is None
    assert isinstance(s.events[-1], FightEnded)
    back = Session.from_records(json.loads(json.dumps(s.to_records())))
    assert back.state == s.state and back.replayed() == s.state
    s.undo()
    assert not s.state.over and s.pending is not None


def test_a_turn_no_person_takes_part_in_runs_by_itself() -> None:
    """Only Joe is played by a person: the dice of the others' actions on each other are
    rolled by the session; any roll of an action by or on Joe is asked."""
    scenario = load_scenario("examples/tristat/alley-fight.yaml")
    s = Session.start(scenario, seed=4, controllers={"joe": "person"})
    asked = []
    while s.pending is not None:
        if s.pending.kind == "dice":
            marks = [e for e in s.events if isinstance(e, RoundStarted | ActionChosen)]
            during = marks[-1] if marks and isinstance(marks[-1], ActionChosen) else None
            asked.append((s.pending.prompt, during))
            s.decide({"roll": True})
        else:
            assert s.pending.who == "joe"
            s.decide({"option": "1"}, by="joe")
    # initiative is everybody's; any other roll is of an action by or on Joe
    assert asked and all("initiative" in p or (a is not None and "joe" in (a.actor, a.target))
                         for p, a in asked), asked
    auto = [e for e in s.entries if e.get("auto")]
    assert auto, "the others' turns rolled by themselves"
    back = Session.from_records(json.loads(json.dumps(s.to_records())))
    assert back.state == s.state and back.events == s.events


def test_the_log_on_disk_follows_play_undo_included_and_damage_names_the_line(
        tmp_path: Path) -> None:
    s = _session()
    path = tmp_path / "fight.jsonl"
    log = SessionLog.create(path, s)
    _to_first_action(s)
    log.sync(s)
    assert s.pending is not None
    s.decide({"option": "2"}, by=s.pending.who)
    s.decide({"option": "1"})
    s.decide({"roll": True})
    log.sync(s)
    s.undo(2)
    log.sync(s)
    s.decide({"option": "1"})
    log.sync(s)
    log.detach()
    kinds = [json.loads(line)["kind"] for line in path.read_text().splitlines()]
    assert kinds[0] == "session" and "cut" in kinds  # appended, never rewritten
    back = load_session(path)
    assert (back.state, back.pending, back.entries) == (s.state, s.pending, s.entries)
    log, again = SessionLog.resume(path)  # go on appending
    again.decide({"roll": True})
    log.sync(again)
    log.detach()
    assert load_session(path).pending == again.pending
    lines = path.read_text().splitlines()
    path.write_text("\n".join([*lines[:2], lines[3], lines[2], *lines[4:]]) + "\n")
    with pytest.raises(InputError, match=r"fight.jsonl: line 3"):
        load_session(path)
    records = s.to_records()
    records[1]["dice"] = [9, 9]
    with pytest.raises(InputError, match=r"fight.jsonl.*9 is not a value d6 can show"):
        Session.from_records(records, file=str(path))
    with pytest.raises(InputError, match="not a live session log"):
        Session.from_records(records[1:], file=str(path))


def test_each_dice_request_names_who_rolls() -> None:
    """Tri-Stat's attack roll is the attacker's, the defense roll the defender's."""
    s = _session()
    assert s.pending is not None and s.pending.who == "rin"  # initiative in roster order
    s.decide({"dice": [6, 6]})
    assert s.pending is not None and s.pending.who == "gorr"
    s.decide({"dice": [1, 1]}, by="gorr")
    s.decide({"option": "1"}, by="rin")        # Rin attacks
    s.decide({"option": "1"}, by="gorr")       # Gorr does not spend willpower
    assert s.pending is not None and s.pending.dice is not None
    assert (s.pending.who, s.pending.dice.who) == ("rin", "rin")
    with pytest.raises(InputError, match="is for rin to answer, not gorr"):
        s.decide({"dice": [2, 3]}, by="gorr")
    s.decide({"dice": [2, 3]}, by="rin")       # 5: a hit
    assert s.pending is not None and s.pending.who == "gorr"
    assert s.pending.prompt.startswith("Gorr's defence: 2d6, needs ")


def test_a_hand_edit_after_the_end_stays_in_the_log() -> None:
    s = Session.start(load_scenario(DUEL), seed=3, roll_all=True)
    assert s.state.over and s.pending is None
    loser = next(cid for cid, c in s.state.roster.items() if c.side != s.state.winner)
    s.adjust(loser, "health", 1)
    assert s.state.roster[loser].state.health == 1
    back = Session.from_records(json.loads(json.dumps(s.to_records())))
    assert back.state == s.state and back.replayed() == s.state
