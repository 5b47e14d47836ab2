"""A roll of several people's dice at once (the contest's initiative for everybody, an
attack with its defence) asked of each die's owner at the table: the player types or
rolls their own d20, the GM the GM side's; everybody rolling draws what the whole roll
drew, and logs written with the whole roll still replay."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any

import pytest

from fracas.core.events import Rolled
from fracas.encounter import gm
from fracas.encounter.session import Session
from fracas.errors import InputError
from fracas.registry.scenarios import load_scenario

DUEL = "examples/contest/duel-fight.yaml"  # Rosa (watch) against Grub the Brute (raiders)
GATE = "examples/contest/gate-fight.yaml"
RIVALS = {"rosa": "person", "grub": "person"}


def _play(seed: int, *lines: str, args: tuple[str, ...] = ()) -> str:
    done = subprocess.run([sys.executable, "-m", "fracas", "play", DUEL, "--seed", str(seed),
                           *args], input="\n".join(lines) + "\n", capture_output=True,
                          text=True, timeout=300, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    return " ".join(done.stdout.split())


def _rolled(session: Session) -> list[str]:
    return [e.text() for e in session.events if isinstance(e, Rolled)]


def _all_rolled(path: str, seed: int, limit: int = 400) -> Session:
    """Everybody decides by hand, takes the first option and rolls every die with r."""
    roster = load_scenario(path).roster
    s = Session.start(load_scenario(path), seed=seed, odds=False,
                      controllers={c: "person" for c in roster})
    for _ in range(limit):
        if s.pending is None:
            break
        p = s.pending
        s.decide({"roll": True} if p.kind == "dice" else {"option": p.options[0].id})
    assert s.pending is None, "the fight did not end"
    return s


def _whole(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log as sessions wrote it before the split: each roll of several people's dice
    one entry (all its parts rolled share one number: that number)."""
    out: list[dict[str, Any]] = []
    for record in records:
        if "part" not in record:
            out.append(record)
        elif record["part"] == 1:  # older logs say nobody's roll it was
            out.append({k: v for k, v in record.items() if k not in ("part", "owner")})
    return out


def test_the_player_is_asked_for_their_own_initiative_die_in_fracas_play() -> None:
    """Rosa's player types her die; Grub, whom a policy decides for, rolls his own."""
    out = _play(3, "17", "q", args=("--control", "grub=aggressive", "--player", "rosa"))
    assert "? Rosa's initiative: d20" in out
    assert "? Grub the Brute's initiative" not in out
    assert "Initiative for Rosa, then Grub the Brute" not in out  # no joint question
    assert "Rosa rolls d20 for initiative: 17" in out
    assert re.search(r"Grub the Brute rolls d20 for initiative: \d+", out), out


def test_the_gm_may_type_the_dice_of_a_combatant_a_policy_decides_for() -> None:
    out = _play(3, "17", "2", "q", args=("--control", "grub=aggressive", "--player", "rosa",
                                         "--gm-dice", "grub=typed"))
    assert "? Rosa's initiative: d20" in out
    assert "? Grub the Brute's initiative: d20" in out
    assert "Grub the Brute rolls d20 for initiative: 2" in out


def test_the_attack_and_the_defence_are_asked_of_their_own_rollers_in_fracas_play() -> None:
    # initiative, Rosa attacks (Enter: the usual attack), Grub picks his first defence
    out = _play(3, "17", "2", "", "1", "15", "9", "q", args=("--gm-dice", "typed"))
    ask_attack = out.index("? Rosa's sword attack on Grub the Brute, roll 1 of 3: d20 + 5")
    ask_defence = out.index("? Grub the Brute's dodge against Rosa, roll 1 of 3: d20 + 1")
    assert ask_attack < out.index("> 15") < ask_defence < out.index("> 9")
    assert "attack and Grub the Brute's defence, in that order" not in out
    assert "error" not in out


def test_a_part_typed_by_its_owner_is_read_as_that_owners_die() -> None:
    s = Session.start(load_scenario(DUEL), seed=3, controllers=RIVALS, odds=False)
    assert s.pending is not None and s.pending.who == "rosa"
    assert s.pending.dice is not None and s.pending.dice.die == "d20"
    s.decide({"roll": True}, by="rosa")  # Rosa rolls hers
    assert s.pending is not None and s.pending.who == "grub"
    assert s.pending.prompt == "Grub the Brute's initiative: d20"
    s.decide({"dice": [5]}, by="grub")  # Grub's player types his
    fresh = Session.start(load_scenario(DUEL), seed=3, controllers=RIVALS, odds=False)
    whole = Session.from_records([fresh.to_records()[0],
                                  {"type": "Input", "kind": "dice", "rolled": 0, "by": "gm",
                                   "n": 1}])
    rosa = _rolled(whole)[0]  # Rosa's die is the whole roll's first die
    assert _rolled(s)[0] == rosa
    assert _rolled(s)[1] == "Grub the Brute rolls d20 for initiative: 5 (+ 0 (initiative) = 5)"


def test_a_player_cannot_answer_the_other_sides_die() -> None:
    s = Session.start(load_scenario(DUEL), seed=3, controllers=RIVALS, odds=False)
    with pytest.raises(InputError, match="is for rosa to answer, not grub"):
        s.decide({"dice": [4]}, by="grub")


def test_everybody_rolling_draws_the_same_dice_as_the_whole_roll_did() -> None:
    for path, seed in ((DUEL, 3), (GATE, 5)):
        parts = _all_rolled(path, seed)
        assert any("part" in e for e in parts.entries)
        old = _whole(parts.to_records())
        assert not any("part" in r for r in old)
        replayed = Session.from_records(json.loads(json.dumps(old)))
        assert replayed.pending is None and replayed.state.over
        assert [e.to_dict() for e in replayed.events] == [e.to_dict() for e in parts.events]
        assert replayed.drawn == parts.drawn  # no roll number spent on a part


def test_an_old_log_with_the_whole_initiative_typed_still_replays() -> None:
    s = Session.start(load_scenario(DUEL), seed=3, controllers=RIVALS, odds=False)
    records = s.to_records()
    records.append({"type": "Input", "kind": "dice", "dice": [17, 2], "by": "gm", "n": 1})
    back = Session.from_records(json.loads(json.dumps(records)))
    assert _rolled(back) == ["Rosa rolls d20 for initiative: 17 (+ 0 (initiative) = 17)",
                             "Grub the Brute rolls d20 for initiative: 2 (+ 0 (initiative) = 2)"]
    assert back.pending is not None and back.pending.kind == "action"
    assert back.pending.who == "rosa"


def test_a_log_written_part_by_part_replays() -> None:
    s = Session.start(load_scenario(DUEL), seed=3, controllers=RIVALS, odds=False)
    s.decide({"dice": [11]})
    s.decide({"roll": True})
    back = Session.from_records(json.loads(json.dumps(s.to_records())))
    assert [e.to_dict() for e in back.events] == [e.to_dict() for e in s.events]
    assert back.pending is not None and back.pending.prompt == s.pending.prompt  # type: ignore[union-attr]


def test_the_gms_roll_all_leaves_the_players_die_to_the_player() -> None:
    s = Session.start(load_scenario(DUEL), seed=3, controllers=RIVALS, odds=False)
    assert s.pending is not None and s.pending.who == "rosa"  # the player's die comes first
    events = gm.roll_initiative(s, players=["rosa"])
    assert events == ()  # nothing is settled until Rosa rolls
    assert s.pending is not None and s.pending.who == "rosa"
    assert [e for e in s.entries if e.get("part") == 2 and "rolled" in e]  # Grub's die
    assert not [e for e in s.entries if e.get("part") == 1]  # Rosa's is hers
    s.decide({"dice": [20]}, by="rosa")
    assert _rolled(s)[0] == "Rosa rolls d20 for initiative: 20 (+ 0 (initiative) = 20)"
    assert len(_rolled(s)) == 2 and s.pending is not None and s.pending.kind == "action"
    # one undo step takes back Rosa's die, a second the GM's roll-all
    s.undo(1)
    s.undo(1)
    assert s.pending is not None and s.pending.who == "rosa" and not s.entries


def test_a_log_giving_a_part_the_roll_does_not_have_is_refused_by_name() -> None:
    s = Session.start(load_scenario(DUEL), seed=3, controllers=RIVALS, odds=False)
    records = s.to_records()
    records.append({"type": "Input", "kind": "dice", "part": 3, "dice": [4], "by": "gm",
                    "n": 1})
    with pytest.raises(InputError) as err:
        Session.from_records(records, file="duel.jsonl")
    said = str(err.value)
    assert "duel.jsonl" in said and "gives part 3 of d20 for initiative" in said
    assert "allowed: 1, 2" in said
